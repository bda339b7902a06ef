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

// quoteErr turns csv's errors about quotes into ours, at the field (not
// the byte) where they are and with what to do: a quote that is never
// closed is named at the line where it opened; a quote inside a field that
// does not start with one (an inch mark: 175") and text after a closing
// quote, which is how a file whose columns are separated by spaces (R's
// write.table) reads, say so. Other errors are csvErr's.
func quoteErr(text []byte, name string, err error) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return csvErr(name, err)
	}
	switch {
	case errors.Is(pe.Err, csv.ErrQuote) && pe.StartLine > 0 && pe.StartLine != pe.Line:
		return parseErr(name, pe.StartLine, quoteField(text, pe.StartLine), csv.ErrQuote,
			"a quote opened on line %d is never closed (the field runs to line %d); close it or remove it", pe.StartLine, pe.Line)
	case errors.Is(pe.Err, csv.ErrBareQuote):
		return parseErr(name, pe.Line, byteField(text, pe.Line, pe.Column), csv.ErrBareQuote,
			"a quote (\") inside a field that does not start with one (an inch mark?): remove it, or quote the whole field and double the quote (\"\")")
	case errors.Is(pe.Err, csv.ErrQuote):
		line := lineOf(text, pe.Line)
		if bytes.Contains(line, []byte(`" "`)) && bytes.IndexAny(line, ",;\t") < 0 {
			return parseErr(name, pe.Line, 1, csv.ErrQuote,
				"the columns are separated by spaces (as R's write.table writes them): save the file with commas (write.csv), semicolons or tabs between its columns")
		}
		return parseErr(name, pe.Line, byteField(text, pe.Line, pe.Column), csv.ErrQuote,
			"text after a field's closing quote: end the field at its quote, or double a quote (\"\") that belongs to the text")
	}
	return csvErr(name, err)
}

// lineOf returns line n (1-based) of text, without its line break; nil
// past the end.
func lineOf(text []byte, n int) []byte {
	for i := 1; i < n; i++ {
		k := bytes.IndexByte(text, '\n')
		if k < 0 {
			return nil
		}
		text = text[k+1:]
	}
	if k := bytes.IndexByte(text, '\n'); k >= 0 {
		text = text[:k]
	}
	return bytes.TrimSuffix(text, []byte("\r"))
}

// byteField returns the 1-based field of line n that holds its byte column
// col (encoding/csv's 1-based column), counting delimiters outside quotes.
func byteField(text []byte, n, col int) int {
	l := lineOf(text, n)
	d := byte(SniffDelimiter(text))
	field, quoted := 1, false
	for i := 0; i < len(l) && i < col-1; i++ {
		switch {
		case l[i] == '"':
			quoted = !quoted
		case l[i] == d && !quoted:
			field++
		}
	}
	return field
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
