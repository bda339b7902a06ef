package data

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// FromUTF16 returns b as UTF-8 when it is UTF-16 text with a byte order
// mark (little- or big-endian), as Excel's "Unicode Text" and some other
// exports save a table; ok is false, and b is returned as it is, for
// anything else. An odd trailing byte is dropped and an unpaired surrogate
// becomes U+FFFD, so that CheckText or the reader reports the damage.
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

// Text encodings DecodeText reads, as it names them.
const (
	UTF8        = ""             // as it is
	UTF16       = "UTF-16"       // with its byte order mark
	Windows1252 = "Windows-1252" // Excel's "CSV" on Western European Windows
)

// DecodeText returns b as UTF-8 text and the encoding it was read from:
// UTF-16 with a byte order mark (FromUTF16); UTF-8 as it is; and, when b
// is not UTF-8, has no zero byte (binary) and no valid multi-byte UTF-8
// sequence (which would make it UTF-8 with damage), Windows-1252, the
// encoding of a spreadsheet's CSV export on Western European Windows, in
// which "é" is the one byte 0xE9. Anything else is returned as it is, for
// the readers to refuse with its position.
func DecodeText(b []byte) ([]byte, string) {
	if out, ok := FromUTF16(b); ok {
		return out, UTF16
	}
	if utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		return b, UTF8
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if size > 1 && r != utf8.RuneError {
			return b, UTF8
		}
		i += size
	}
	out := make([]byte, 0, len(b)+len(b)/8)
	for _, c := range b {
		switch {
		case c < 0x80:
			out = append(out, c)
		case c < 0xA0:
			out = utf8.AppendRune(out, rune(windows1252[c-0x80]))
		default:
			out = utf8.AppendRune(out, rune(c)) // 0xA0-0xFF are U+00A0-U+00FF
		}
	}
	return out, Windows1252
}

// windows1252 maps the bytes 0x80-0x9F to their characters, as the WHATWG
// Encoding Standard does (the five it leaves undefined to the C1 controls
// of the same number, as browsers decode them).
var windows1252 = [32]uint16{
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
}
