package data

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"
)

// ErrNotText: the input is not a text file.
var ErrNotText = errors.New("not a text file")

// notTables are file types a visitor may give by mistake, by their first
// bytes, with what to do instead.
var notTables = []struct{ magic, what string }{
	{"PK\x03\x04", "a zip archive, such as an Excel workbook (.xlsx) or an OpenDocument sheet (.ods): save the sheet as CSV (in Excel: File, Save As, CSV UTF-8) and give that file"},
	{"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", "an Excel 97-2003 workbook (.xls): save the sheet as CSV (in Excel: File, Save As, CSV UTF-8) and give that file"},
	{"\x1F\x8B", "compressed with gzip: decompress it and give the file inside"},
	{"%PDF", "a PDF document: export its table as CSV and give that file"},
	{"PAR1", "a Parquet file: write it as CSV (pandas: read_parquet, then to_csv) and give that file"},
	// Load and LoadHeader recognise packed tables before they check for
	// text; a reader of rows' text (LoadNewRows, ReadTable) cannot read one.
	{packedPrefix, "a packed table (spmtl pack), which keeps the encoded numbers but not the rows' text: give the CSV it was packed from"},
}

// CheckText refuses input that is not text: a file type that is known not
// to be one (an Excel workbook, a zip or gzip archive, a PDF, Parquet, a
// packed table), named with what to do instead, a zero byte in the first
// 8 KB, or bytes that are not UTF-8 anywhere (at their line and column:
// notUTF8). It also refuses JSON, which is text but no table
// (ErrNotTable). The intake's entries (Load, LoadNewRows, LoadHeader) and
// ReadTable call it, once per input, before a text's format is detected.
func CheckText(b []byte, name string) error {
	for _, t := range notTables {
		if bytes.HasPrefix(b, []byte(t.magic)) {
			return fmt.Errorf("%s: %w: it is %s", name, ErrNotText, t.what)
		}
	}
	if looksJSON(b) {
		return fmt.Errorf("%s: %w: it is JSON: write it as CSV, one row per example with a header (pandas: read_json, then to_csv), and give that file", name, ErrNotTable)
	}
	if what := markupOrPointer(b); what != "" {
		return fmt.Errorf("%s: %w: it is %s", name, ErrNotTable, what)
	}
	head := b[:min(len(b), 8<<10)]
	if i := bytes.IndexByte(head, 0); i >= 0 {
		line, col := position(b, i)
		return parseErr(name, line, col, ErrNotText, "not a text file: a zero byte, which text never holds: the file is binary, or damaged here; give a CSV file or a sparse text file")
	}
	if !utf8.Valid(b) {
		return notUTF8(b, name)
	}
	return nil
}

// lineBefore returns the characters of b's line before byte off (a UTF-8
// byte order mark at the start of the text is none).
func lineBefore(b []byte, off int) []byte {
	start := bytes.LastIndexByte(b[:off], lineBreak(b)) + 1
	before := b[start:off]
	if start == 0 {
		before = bytes.TrimPrefix(before, utf8BOM)
	}
	return before
}

// position returns the line and character column of byte off in b, as
// the text's readers count them (a byte that is not UTF-8 is one
// character).
func position(b []byte, off int) (line, col int) {
	return bytes.Count(b[:off], []byte{lineBreak(b)}) + 1, utf8.RuneCount(lineBefore(b, off)) + 1
}

// lineBreak is the byte that ends b's lines: '\n', or '\r' in a text of
// lines that end with a lone CR (crLines).
func lineBreak(b []byte) byte {
	if bytes.IndexByte(b, '\n') < 0 {
		return '\r'
	}
	return '\n'
}

// notUTF8 is the error for text with bytes that are not UTF-8 (DecodeText
// reads text with none as Windows-1252, so these are text that mixes the
// two, or text not decoded): the position of the first such byte, as a
// line and a character column, and what to do.
func notUTF8(b []byte, name string) error {
	off, mixed := 0, false
	if bytes.HasPrefix(b, utf8BOM) {
		off = len(utf8BOM) // says UTF-8, but is no character of the text
	}
	for off < len(b) {
		if b[off] < utf8.RuneSelf {
			off++
			continue
		}
		r, size := utf8.DecodeRune(b[off:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		mixed = true
		off += size
	}
	line, col := position(b, off)
	before := lineBefore(b, off)
	where := "at the start of the line"
	if len(before) > 0 {
		// The last 20 characters before it.
		i := len(before)
		for n := 0; n < 20 && i > 0; n++ {
			_, size := utf8.DecodeLastRune(before[:i])
			i -= size
		}
		where = fmt.Sprintf("after %q", before[i:])
	}
	for i := off + 1; i < len(b) && !mixed; {
		r, size := utf8.DecodeRune(b[i:])
		mixed = size > 1 && r != utf8.RuneError
		i += size
	}
	why := ""
	if mixed {
		why = ", though other characters of the file are (it mixes two text encodings)"
	}
	return parseErr(name, line, col, ErrNotText, "the byte 0x%02X %s is not UTF-8 text%s: save the file as UTF-8 text (in Excel: File, Save As, CSV UTF-8) and give it again", b[off], where, why)
}

// ErrNotTable: the input is text, but no table (JSON).
var ErrNotTable = errors.New("not a table")

// looksJSON reports whether b starts like JSON: an object ({ then a quote
// or }), or an array of objects or arrays. A CSV header does not start
// that way.
func looksJSON(b []byte) bool {
	b = skipSpace(bytes.TrimPrefix(b, utf8BOM))
	if len(b) == 0 || (b[0] != '{' && b[0] != '[') {
		return false
	}
	rest := skipSpace(b[1:])
	if len(rest) == 0 {
		return false
	}
	if b[0] == '{' {
		return rest[0] == '"' || rest[0] == '}'
	}
	return rest[0] == '{' || rest[0] == '[' || rest[0] == ']'
}

// markupOrPointer says what b is when it starts as a web page (HTML), an
// XML document, or a Git LFS pointer does: what a download link gives
// when it serves a page (a repository's "blob" view, a sign-in or
// warning page, a storage service's error) or a pointer instead of the
// file. A CSV header does not start with "<" nor with LFS's version line.
func markupOrPointer(b []byte) string {
	b = skipSpace(bytes.TrimPrefix(b, utf8BOM))
	head := bytes.ToLower(b[:min(len(b), 64)])
	switch {
	case bytes.HasPrefix(head, []byte("<!doctype html")), bytes.HasPrefix(head, []byte("<html")), bytes.HasPrefix(head, []byte("<head")), bytes.HasPrefix(head, []byte("<body")), bytes.HasPrefix(head, []byte("<table")):
		return "a web page (HTML), not the data: a download link that served a page; download the raw file (on GitHub, the Raw button), and give that"
	case bytes.HasPrefix(head, []byte("<?xml")):
		return "an XML document (a storage service's error message, or data in another format): download the data as CSV, and give that"
	case bytes.HasPrefix(head, []byte("version https://git-lfs.github.com/spec/")):
		return "a Git LFS pointer, not the data: the repository stores the file elsewhere; fetch it (git lfs pull, or the Download button), and give that"
	}
	return ""
}

// skipSpace returns b after its leading spaces, tabs and line breaks.
func skipSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	return b
}

// crLines returns text with its line breaks as "\n" when it ends its lines
// with a lone carriage return (Excel for Mac's "CSV (Macintosh)"), which
// encoding/csv does not take for a line break; any other text is returned
// as it is. Every line keeps its number.
func crLines(text []byte) []byte {
	if bytes.IndexByte(text, '\r') < 0 || bytes.IndexByte(text, '\n') >= 0 {
		return text
	}
	out := make([]byte, len(text))
	for i, c := range text {
		if c == '\r' {
			c = '\n'
		}
		out[i] = c
	}
	return out
}
