package data

import (
	"testing"
	"unicode/utf16"
)

func TestFromUTF16(t *testing.T) {
	const text = "task\ty\tx\nÉcole 1\t1\t2,5\n"
	le, be := []byte{0xFF, 0xFE}, []byte{0xFE, 0xFF}
	for _, u := range utf16.Encode([]rune(text + "𝑥")) {
		le = append(le, byte(u), byte(u>>8))
		be = append(be, byte(u>>8), byte(u))
	}
	for _, tc := range []struct {
		name string
		in   []byte
		want string
		ok   bool
	}{
		{"little-endian", le, text + "𝑥", true},
		{"big-endian", be, text + "𝑥", true},
		{"odd trailing byte", append(append([]byte(nil), le...), 'x'), text + "𝑥", true},
		{"unpaired surrogate", []byte{0xFF, 0xFE, 'a', 0, 0x00, 0xD8, 'b', 0}, "a\uFFFDb", true},
		{"UTF-8 with its BOM", []byte("\xEF\xBB\xBFtask,y\n"), "\xEF\xBB\xBFtask,y\n", false},
		{"no BOM", []byte("t\x00a\x00"), "t\x00a\x00", false},
		{"empty", nil, "", false},
	} {
		got, ok := FromUTF16(tc.in)
		if string(got) != tc.want || ok != tc.ok {
			t.Errorf("%s: %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestDecodeText(t *testing.T) {
	for _, tc := range []struct {
		name, in, want, enc string
	}{
		{"UTF-8", "task,y\nÉcole,1\n", "task,y\nÉcole,1\n", UTF8},
		{"Windows-1252", "task;y\n\xC9cole;1\ncaf\xE9 \x80 \x93x\x94;2\n", "task;y\nÉcole;1\ncafé € “x”;2\n", Windows1252},
		// Bytes Windows-1252 leaves undefined are Mac Roman's letters: the
		// older Excel for Mac's "CSV" (Genève, Zürich).
		{"undefined in Windows-1252", "a\x81\x8D\x8F\x90\x9D", "aÅçèêù", MacRoman},
		{"Mac Roman", "city,y\nGen\x8Fve,1\nZ\x9Frich,2\n", "city,y\nGenève,1\nZürich,2\n", MacRoman},
		{"Mac Roman, letters between letters", "city,y\nZ\x9Frich,2\nK\x9Aln,3\n\xA4 \xDB,4\n", "city,y\nZürich,2\nKöln,3\n§ €,4\n", MacRoman},
		{"Windows-1252 letters between letters", "city,y\nZ\xFCrich,2\nKo\x9Aice,3\n", "city,y\nZürich,2\nKošice,3\n", Windows1252},
		{"Windows-1252's š and ž alone", "city,y\nKo\x9Aice,3\n\x8Eilina,4\n", "city,y\nKošice,3\nŽilina,4\n", Windows1252},
		{"UTF-8 with one bad byte stays", "École\xE9", "École\xE9", UTF8},
		{"binary stays", "a\x00\xE9", "a\x00\xE9", UTF8},
		{"UTF-16", "\xFF\xFEa\x00", "a", UTF16},
	} {
		got, enc := DecodeText([]byte(tc.in))
		if string(got) != tc.want || enc != tc.enc {
			t.Errorf("%s: %q, %q; want %q, %q", tc.name, got, enc, tc.want, tc.enc)
		}
	}
	// Every byte of the upper half but the five Windows-1252 leaves
	// undefined, as its table and the identity map give them.
	var all []byte
	for c := 0x80; c < 0x100; c++ {
		switch c {
		case 0x81, 0x8D, 0x8F, 0x90, 0x9D:
		default:
			all = append(all, byte(c))
		}
	}
	got, enc := DecodeText(all)
	runes := []rune(string(got))
	if enc != Windows1252 || len(runes) != 123 || runes[0] != '€' || runes[0x1F-5] != 'Ÿ' || runes[0x20-5] != 0xA0 || runes[0x69-5] != 'é' || runes[0x7F-5] != 'ÿ' {
		t.Errorf("the upper half decodes from %s to %q", enc, got)
	}
	// Every byte of the upper half, with the five: Mac Roman's table.
	all = all[:0]
	for c := 0x80; c < 0x100; c++ {
		all = append(all, byte(c))
	}
	got, enc = DecodeText(all)
	want := "ÄÅÇÉÑÖÜáàâäãåçéèêëíìîïñóòôöõúùûü†°¢£§•¶ß®©™´¨≠ÆØ∞±≤≥¥µ∂∑∏π∫ªºΩæø¿¡¬√ƒ≈∆«»…\u00a0ÀÃÕŒœ–—“”‘’÷◊ÿŸ⁄€‹›ﬁﬂ‡·‚„‰ÂÊÁËÈÍÎÏÌÓÔ\uf8ffÒÚÛÙıˆ˜¯˘˙˚¸˝˛ˇ"
	if enc != MacRoman || string(got) != want {
		t.Errorf("the upper half decodes from %s to\n%q, want\n%q", enc, got, want)
	}
}
