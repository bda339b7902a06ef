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
	MacRoman    = "Mac OS Roman" // the older Excel for Mac's "CSV"
)

// DecodeText returns b as UTF-8 text and the encoding it was read from:
// UTF-16 with a byte order mark (FromUTF16); UTF-8 as it is; and, when b
// is not UTF-8, has no zero byte (binary) and no valid multi-byte UTF-8
// sequence (which would make it UTF-8 with damage), Windows-1252, the
// encoding of a spreadsheet's CSV export on Western European Windows, in
// which "é" is the one byte 0xE9, or Mac OS Roman (macRoman), the older
// Excel for Mac's, in which it is 0x8E. Anything else is returned as it is, for
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
	if macRoman(b) {
		for _, c := range b {
			if c < 0x80 {
				out = append(out, c)
			} else {
				out = utf8.AppendRune(out, rune(macRomanHigh[c-0x80]))
			}
		}
		return out, MacRoman
	}
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

// macRoman reports whether text that is not UTF-8 reads as Mac OS Roman
// rather than Windows-1252. Both put accented letters above 0x7F, in
// different places: Windows-1252's lower-case ones are at 0xE0-0xFF, Mac
// Roman's at 0x87-0x9F, where Windows-1252 has punctuation, a few letters
// and five bytes it leaves undefined. So it is Mac Roman when it has one
// of those five (ç è ê ù Å in Mac Roman, in "Genève"), or when more of
// its bytes between two ASCII letters ("Z\x9Frich") are Mac Roman's
// letters than Windows-1252's (0xC0-0xFF; 0x9A, 0x9C and 0x9E are letters
// in both, š œ ž or ö ú û, and count for neither).
func macRoman(b []byte) bool {
	mac, win := 0, 0
	letter := func(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
	for i, c := range b {
		switch c {
		case 0x81, 0x8D, 0x8F, 0x90, 0x9D:
			return true
		}
		if c < 0x80 || i == 0 || i+1 == len(b) || !letter(b[i-1]) || !letter(b[i+1]) {
			continue
		}
		switch {
		case c >= 0xC0:
			win++
		case c == 0x9A, c == 0x9C, c == 0x9E:
			// š œ ž, or ö ú û: either reads.
		case c >= 0x87 && c <= 0x9F:
			mac++
		}
	}
	return mac > win
}

// macRomanHigh maps the bytes 0x80-0xFF of Mac OS Roman to their
// characters (Apple's table, with the euro sign at 0xDB as since Mac OS
// 8.5, and the Apple logo at 0xF0 as the private-use U+F8FF).
var macRomanHigh = [128]uint16{
	0x00C4, 0x00C5, 0x00C7, 0x00C9, 0x00D1, 0x00D6, 0x00DC, 0x00E1, 0x00E0, 0x00E2, 0x00E4, 0x00E3, 0x00E5, 0x00E7, 0x00E9, 0x00E8,
	0x00EA, 0x00EB, 0x00ED, 0x00EC, 0x00EE, 0x00EF, 0x00F1, 0x00F3, 0x00F2, 0x00F4, 0x00F6, 0x00F5, 0x00FA, 0x00F9, 0x00FB, 0x00FC,
	0x2020, 0x00B0, 0x00A2, 0x00A3, 0x00A7, 0x2022, 0x00B6, 0x00DF, 0x00AE, 0x00A9, 0x2122, 0x00B4, 0x00A8, 0x2260, 0x00C6, 0x00D8,
	0x221E, 0x00B1, 0x2264, 0x2265, 0x00A5, 0x00B5, 0x2202, 0x2211, 0x220F, 0x03C0, 0x222B, 0x00AA, 0x00BA, 0x03A9, 0x00E6, 0x00F8,
	0x00BF, 0x00A1, 0x00AC, 0x221A, 0x0192, 0x2248, 0x2206, 0x00AB, 0x00BB, 0x2026, 0x00A0, 0x00C0, 0x00C3, 0x00D5, 0x0152, 0x0153,
	0x2013, 0x2014, 0x201C, 0x201D, 0x2018, 0x2019, 0x00F7, 0x25CA, 0x00FF, 0x0178, 0x2044, 0x20AC, 0x2039, 0x203A, 0xFB01, 0xFB02,
	0x2021, 0x00B7, 0x201A, 0x201E, 0x2030, 0x00C2, 0x00CA, 0x00C1, 0x00CB, 0x00C8, 0x00CD, 0x00CE, 0x00CF, 0x00CC, 0x00D3, 0x00D4,
	0xF8FF, 0x00D2, 0x00DA, 0x00DB, 0x00D9, 0x0131, 0x02C6, 0x02DC, 0x00AF, 0x02D8, 0x02D9, 0x02DA, 0x00B8, 0x02DD, 0x02DB, 0x02C7,
}

// windows1252 maps the bytes 0x80-0x9F to their characters, as the WHATWG
// Encoding Standard does (the five it leaves undefined to the C1 controls
// of the same number, as browsers decode them).
var windows1252 = [32]uint16{
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
}
