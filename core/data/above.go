package data

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"slices"
	"strings"
)

// maxAboveLines bounds the lines looked at for a block above a header
// (aboveHeader): a title or a tool's comments take a few lines, and the
// look stays the same few lines' work however long the file is.
const maxAboveLines = 100

// maxTitleLines bounds the lines without "#" a block above a header may
// hold: a spreadsheet report's title, date and note. More short lines are
// more likely rows of a table that grows wider further down (a ragged
// file, refused as such) than a title.
const maxTitleLines = 5

// checkAbove refuses a block of lines above the header (aboveHeader)
// when the line read as the header is a single column or lacks the task
// or label column asked for: a header that has both is the file's, and a
// later line wider than it a ragged row, refused as such. delim is the
// delimiter the header was read with, named when it was given or named by
// a "sep=" line rather than sniffed from the first line (which may be the
// block's).
func checkAbove(text []byte, name string, delim rune, named bool, header []string, taskCol, labelCol string) error {
	if len(header) > 1 && slices.Contains(header, taskCol) && slices.Contains(header, labelCol) {
		return nil
	}
	if !named {
		delim = 0
	}
	return aboveHeader(text, name, delim)
}

// rawLine is a line of a prepared text: its number, 1-based, and its
// bytes without the line break.
type rawLine struct {
	num  int
	text []byte
}

// aboveHeader looks for a block of lines above a file's real header: lines
// that start with "#" (the comments R's comment.char and pandas' comment=
// skip) or a title with fewer fields than the header (a spreadsheet's
// "Exam results, spring 2026" above "task,y,x1,x2"). Read as the header,
// the block's first line gave a file of a single column ("no comma between
// column names", false of a file whose header has commas) or offered a
// title's words as the task and label columns. text is a prepared text
// (prepareCSV); delim the delimiter given or named by a "sep=" line, or 0,
// when each candidate header's own is sniffed (a comment's comma is no
// sign of a semicolon file's delimiter).
//
// A line is taken for the header only when it reads as one (two names or
// more, not a row of numbers: headerLike), the line after it is a row of
// that header (fitRecord) with more numbers in it than the header has, and
// every line above it is of the block: a line starting with "#" of another
// field count than the header (a real header's first name may start with
// "#", "#id,y,x", over rows of as many fields), or one of at most
// maxTitleLines lines of fewer fields, and fewer that are not empty, than
// the header, with one whole number at most ("Exam results, 2026"); no
// line of the block is longer than a name (MaxNameBytes). It returns nil
// when there is no such block, and otherwise the refusal, at the block's
// first line, that says how many lines to delete.
func aboveHeader(text []byte, name string, delim rune) error {
	lines := leadingLines(text, maxAboveLines+2)
	shapes := make([]lineShapes, len(lines))
	titles := 0
	for k := 1; k+1 < len(lines); k++ {
		// Line k-1 joins the lines above the header looked for, as it
		// does for every later one: a line no block holds ends the look.
		// That keeps a wide file's header (megabytes long) from being
		// split once per line below it.
		above := lines[k-1]
		if len(above.text) > MaxNameBytes {
			break // no title or comment is longer than a name may be
		}
		if !comment(above.text) {
			titles++
			if titles > maxTitleLines {
				break
			}
		}
		d := byte(delim)
		if delim == 0 {
			d = byte(SniffDelimiter(lines[k].text))
		}
		header := splitFields(lines[k].text, d)
		if !headerLike(header) {
			continue
		}
		// The row below fits the header and holds more numbers than it:
		// a header over data, not a row of words over another.
		row := splitFields(lines[k+1].text, d)
		if _, ok := fitRecord(row, header); !ok || numbers(row) <= numbers(header) {
			continue
		}
		if !blockAbove(lines[:k], shapes[:k], header, d) {
			continue
		}
		return aboveErr(name, lines[:k], lines[k].num, header)
	}
	return nil
}

// leadingLines returns the first max lines of text that are not blank
// (spaces and delimiters alone). It stops before a line with an odd number
// of quotes: a quoted field that runs over a line break, whose fields a
// line alone does not tell. It stops too one line after the first longer
// than MaxNameBytes, which can only be the header looked for
// (aboveHeader): a wide file's rows are not read here.
func leadingLines(text []byte, max int) []rawLine {
	text = bytes.TrimPrefix(text, utf8BOM)
	var out []rawLine
	long := -1 // the first long line's place in out
	for num := 1; len(text) > 0 && len(out) < max && (long < 0 || len(out) <= long+1); num++ {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if bytes.Count(line, []byte(`"`))%2 != 0 {
			break
		}
		// A line of delimiters alone is a spreadsheet's empty row, blank
		// as readHeader has it.
		if len(bytes.Trim(line, " \t\v\f,;")) > 0 {
			if long < 0 && len(line) > MaxNameBytes {
				long = len(out)
			}
			out = append(out, rawLine{num, line})
		}
	}
	return out
}

// splitFields splits a line at the delimiter d as the table's reader does
// (encoding/csv: fields in double quotes, "" inside them one quote), each
// field trimmed; nil for a line that reader refuses (a bare quote), which
// is then no header or title to judge.
func splitFields(line []byte, d byte) []string {
	cr := csv.NewReader(bytes.NewReader(line))
	cr.Comma, cr.FieldsPerRecord = rune(d), -1
	rec, err := cr.Read()
	if err != nil {
		return nil
	}
	for i := range rec {
		rec[i] = strings.TrimSpace(rec[i])
	}
	return rec
}

// filled counts a line's fields up to its last one that is not empty: a
// spreadsheet pads a title with delimiters ("Sales report,,,").
func filled(fields []string) int {
	n := len(fields)
	for n > 0 && fields[n-1] == "" {
		n--
	}
	return n
}

// headerLike reports whether fields read as a header's names: two or more
// of them, none a number with a fraction or a sign, and not as many whole
// numbers as a data row has (headerIsData's rule; a wide table's years,
// "country,2019,2020", are not told from a row, and not taken).
func headerLike(fields []string) bool {
	if filled(fields) < 2 || dataLikeNames(fields) > 0 {
		return false
	}
	nums := numbers(fields)
	return !(nums >= 2 && 3*nums >= len(fields))
}

// numbers counts the fields that are numbers.
func numbers(fields []string) int {
	n := 0
	for _, f := range fields {
		if numClass(f) == numOK {
			n++
		}
	}
	return n
}

// shape is what a line above a header is judged by, split at one
// delimiter: how many fields, how many up to its last that is not empty,
// how many are numbers, and whether one has a fraction or a sign.
type shape struct {
	fields, filled, numbers int
	dataLike                bool
}

// lineShapes holds a line's shapes at the three delimiters, each worked
// out when first asked for: the lines above a header are judged against
// each line below them that may be the header.
type lineShapes struct {
	at   [3]shape
	done [3]bool
}

// of returns the line's shape at delimiter d.
func (s *lineShapes) of(line []byte, d byte) shape {
	i := bytes.IndexByte([]byte(",;\t"), d)
	if i < 0 {
		f := splitFields(line, d)
		return shape{len(f), filled(f), numbers(f), dataLikeNames(f) > 0}
	}
	if !s.done[i] {
		f := splitFields(line, d)
		s.at[i], s.done[i] = shape{len(f), filled(f), numbers(f), dataLikeNames(f) > 0}, true
	}
	return s.at[i]
}

// blockAbove reports whether every line above a candidate header is of a
// block above it (aboveHeader); shapes are the lines' shapes so far.
func blockAbove(lines []rawLine, shapes []lineShapes, header []string, d byte) bool {
	for i, l := range lines {
		sh := shapes[i].of(l.text, d)
		if comment(l.text) {
			if sh.fields == len(header) && sh.filled == filled(header) {
				return false // "#id,y,x": a header's first name, not a comment
			}
			continue
		}
		if sh.fields >= len(header) || sh.filled >= filled(header) {
			return false
		}
		if sh.numbers > 1 || sh.dataLike {
			return false // a row of numbers, not a title ("Exam results, 2026" has one)
		}
	}
	return true
}

// comment reports whether a line starts with "#", spaces before it aside.
func comment(line []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("#"))
}

// aboveErr is the refusal of a block of lines above the header on line
// hline. A single title of one field keeps the words it had before the
// block was told (line 1 holds one field, line 2 several).
func aboveErr(name string, block []rawLine, hline int, header []string) error {
	first := block[0]
	quoted := short(strings.TrimSpace(string(first.text)))
	what := titleOrComment(string(first.text))
	if len(block) == 1 {
		if bytes.IndexAny(first.text, ",;\t") < 0 && first.num+1 == hline {
			return parseErr(name, first.num, 1, ErrHeader, "line %d holds one field (%q) and line %d several: if line %d is %s above the header, delete it, so that the file starts with the column names", first.num, quoted, hline, first.num, what)
		}
		return parseErr(name, first.num, 1, ErrHeader, "line %d (%q) is %s above the header on line %d (%s), not a row of the table: delete %s, so that the file starts with the column names (no option skips it)", first.num, quoted, what, hline, listNames(header), lineSpan(first.num, hline-1))
	}
	comments := 0
	for _, l := range block {
		if comment(l.text) {
			comments++
		}
	}
	kind := "lines of a title or comments"
	switch comments {
	case len(block):
		kind = "comment lines"
	case 0:
		kind = "lines of a title"
	}
	return parseErr(name, first.num, 1, ErrHeader, "%d %s sit above the header on line %d (%s), the first %q: delete %s, so that the file starts with the column names (no option skips them)", len(block), kind, hline, listNames(header), quoted, lineSpan(first.num, hline-1))
}

// titleOrComment names what a line above a header is: "a comment" when
// it starts with "#", else "a title".
func titleOrComment(line string) string {
	if comment([]byte(line)) {
		return "a comment"
	}
	return "a title"
}

// widerLine returns the number of the first line after line n, among the
// text's first maxAboveLines lines, with a comma, semicolon or tab; 0 when
// there is none.
func widerLine(text []byte, n int) int {
	for num := 1; num <= maxAboveLines && len(text) > 0; num++ {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		if num > n && bytes.IndexAny(line, ",;\t") >= 0 {
			return num
		}
	}
	return 0
}

// lineSpan names the lines from a to b: "line 1", "lines 1 to 3".
func lineSpan(a, b int) string {
	if a == b {
		return fmt.Sprintf("line %d", a)
	}
	return fmt.Sprintf("lines %d to %d", a, b)
}
