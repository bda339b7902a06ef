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
		{"undefined bytes are C1 controls", "a\x81\x8D\x8F\x90\x9D", "a\u0081\u008D\u008F\u0090\u009D", Windows1252},
		{"UTF-8 with one bad byte stays", "École\xE9", "École\xE9", UTF8},
		{"binary stays", "a\x00\xE9", "a\x00\xE9", UTF8},
		{"UTF-16", "\xFF\xFEa\x00", "a", UTF16},
	} {
		got, enc := DecodeText([]byte(tc.in))
		if string(got) != tc.want || enc != tc.enc {
			t.Errorf("%s: %q, %q; want %q, %q", tc.name, got, enc, tc.want, tc.enc)
		}
	}
	// Every byte of the upper half, as the table and the identity map give it.
	var all []byte
	for c := 0x80; c < 0x100; c++ {
		all = append(all, byte(c))
	}
	got, _ := DecodeText(all)
	runes := []rune(string(got))
	if len(runes) != 128 || runes[0] != '€' || runes[0x1F] != 'Ÿ' || runes[0x20] != 0xA0 || runes[0x69] != 'é' || runes[0x7F] != 'ÿ' {
		t.Errorf("the upper half decodes to %q", got)
	}
}
