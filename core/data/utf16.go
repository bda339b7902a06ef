package data

import (
	"unicode/utf16"
	"unicode/utf8"
)

// FromUTF16 returns b as UTF-8 when it is UTF-16 text with a byte order
// mark (little- or big-endian), as Excel's "Unicode Text" and some other
// exports save a table; ok is false, and b is returned as it is, for
// anything else. An odd trailing byte is dropped and an unpaired surrogate
// becomes U+FFFD, so that checkText or the reader reports the damage.
func FromUTF16(b []byte) (out []byte, ok bool) {
	if len(b) < 2 {
		return b, false
	}
	var big bool
	switch {
	case b[0] == 0xFF && b[1] == 0xFE:
	case b[0] == 0xFE && b[1] == 0xFF:
		big = true
	default:
		return b, false
	}
	u := make([]uint16, 0, (len(b)-2)/2)
	for i := 2; i+1 < len(b); i += 2 {
		if big {
			u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
		} else {
			u = append(u, uint16(b[i+1])<<8|uint16(b[i]))
		}
	}
	out = make([]byte, 0, len(u)+len(u)/2)
	for _, r := range utf16.Decode(u) {
		out = utf8.AppendRune(out, r)
	}
	return out, true
}
