package data

import (
	"bytes"
	"encoding/csv"
	"errors"
	"unicode/utf8"
)

// DelimiterName names a delimiter for messages: "comma", "semicolon",
// "tab".
func DelimiterName(r rune) string {
	switch r {
	case ';':
		return "semicolon"
	case '\t':
		return "tab"
	}
	return "comma"
}

// SniffDelimiter returns the delimiter of a CSV text: of comma, semicolon
// and tab, the one that appears most often outside quotes in the first
// non-blank line (comma when none does).
func SniffDelimiter(b []byte) rune {
	b = bytes.TrimPrefix(b, utf8BOM)
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		// Counted byte by byte: the three delimiters and the quote are
		// ASCII, which no byte of a longer UTF-8 character is, and a
		// header line can be the whole of a large file.
		var counts [3]int // comma, semicolon, tab
		quoted := false
		for _, c := range line {
			switch {
			case c == '"':
				quoted = !quoted
			case quoted: // part of a quoted name
			case c == ',':
				counts[0]++
			case c == ';':
				counts[1]++
			case c == '\t':
				counts[2]++
			}
		}
		best, n := ',', counts[0]
		if counts[1] > n {
			best, n = ';', counts[1]
		}
		if counts[2] > n {
			best = '\t'
		}
		return best
	}
	return ','
}

// excelSep reads the "sep=;" line that Excel writes first (and reads) to
// name a file's delimiter. It returns that delimiter and the text with the
// line's content removed but its line break kept, so that every later line
// keeps its number (csv skips the empty line); 0 and the text as it was when
// there is no such line. A delimiter other than comma, semicolon or tab is
// refused: the column names would come out wrong.
func excelSep(text []byte, name string) (rune, []byte, error) {
	b := bytes.TrimPrefix(text, utf8BOM)
	end := bytes.IndexByte(b, '\n')
	if end < 0 {
		end = len(b)
	}
	line := bytes.TrimSuffix(b[:end], []byte("\r"))
	v, ok := bytes.CutPrefix(line, []byte("sep="))
	if !ok || len(v) == 0 {
		return 0, text, nil
	}
	r, size := utf8.DecodeRune(v)
	if size != len(v) {
		return 0, text, nil // a header whose first name starts "sep=", say
	}
	if r != ',' && r != ';' && r != '\t' {
		return 0, nil, parseErr(name, 1, 1, ErrHeader, "the first line %q names the delimiter %q: spmtl reads comma, semicolon or tab; save the file with one of them", short(string(line)), string(v))
	}
	return r, b[end:], nil
}

// tableReader returns a csv.Reader over text with the delimiter, a leading
// byte order mark skipped and ragged records allowed.
func tableReader(text []byte, delim rune) *csv.Reader {
	cr := newCSVReader(bytes.NewReader(text))
	cr.Comma = delim
	return cr
}

// quoteErr turns csv's error for a quote that is never closed into one that
// names the line where the quote opened; other errors are csvErr's.
func quoteErr(text []byte, name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrQuote) && pe.StartLine > 0 && pe.StartLine != pe.Line {
		return parseErr(name, pe.StartLine, quoteField(text, pe.StartLine), csv.ErrQuote,
			"a quote opened on line %d is never closed (the field runs to line %d); close it or remove it", pe.StartLine, pe.Line)
	}
	return csvErr(name, err)
}

// quoteField returns the 1-based field number of the first quote on a line.
func quoteField(text []byte, line int) int {
	lines := bytes.SplitN(text, []byte("\n"), line+1)
	if len(lines) < line {
		return 1
	}
	l := lines[line-1]
	q := bytes.IndexByte(l, '"')
	if q < 0 {
		return 1
	}
	d := SniffDelimiter(text)
	return bytes.Count(l[:q], []byte(string(d))) + 1
}
