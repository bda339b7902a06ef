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
