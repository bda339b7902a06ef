package data

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CSVOptions configures ReadCSV. The zero value reads the long format
// "task,y,x1,...,xd" and detects the kind of the labels.
type CSVOptions struct {
	// TaskColumn names the column holding the task names ("task" when
	// empty).
	TaskColumn string
	// LabelColumn names the column holding the labels ("y" when empty).
	LabelColumn string
	// Kind says whether to detect the kind of the labels (KindAuto, the
	// zero value) or to force one.
	Kind KindChoice
	// Positive, when set, names the label of the positive class (as text,
	// or as a number when the labels are numbers). When empty, the
	// positive class is chosen as the package documentation describes.
	Positive string
}

// ReadCSV reads a dataset in long CSV format: a header row, then one row per
// example holding its task name, its label and its features. The task and
// label columns may be anywhere and are named by opt; every other column is
// a feature, named by the header (Dataset.FeatureNames). name is used in
// messages and as Dataset.Name.
//
// Quoted fields, CRLF line endings (or a lone CR, as Excel for Mac writes
// them), a UTF-8 byte order mark, a missing final newline and blank lines
// are accepted; a row whose fields are all empty (",,,") is a blank line
// too. Spaces around fields are ignored.
// Tasks are numbered in order of first appearance, and a task's rows need
// not be contiguous. Task.X is dense, and Task.Source gives each example's
// 0-based data row in the file (the first row after the header is row 0).
//
// Feature values and numeric labels must be finite numbers ("NaN" and "Inf"
// are rejected). See KindChoice for how the kind is decided and the package
// documentation for how classification labels map to -1 and +1.
//
// Errors concerning a position in the input are *ParseError values whose
// Column is the 1-based field number. ReadCSV is ReadTable with a comma and
// numeric columns only; the app reads files through Load.
func ReadCSV(r io.Reader, name string, opt CSVOptions) (*Dataset, error) {
	text, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	tab, err := ReadTable(text, name, TableOptions{Delimiter: ',', TaskColumn: opt.TaskColumn, LabelColumn: opt.LabelColumn,
		NumericOnly: true, Kind: opt.Kind, Positive: opt.Positive})
	if err != nil {
		return nil, err
	}
	return tab.Data, nil
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// newCSVReader returns a csv.Reader over r with a leading UTF-8 byte order
// mark skipped and ragged records allowed (the callers report them).
func newCSVReader(r io.Reader) *csv.Reader {
	br := bufio.NewReaderSize(r, 64<<10)
	if b, err := br.Peek(len(utf8BOM)); err == nil && bytes.Equal(b, utf8BOM) {
		br.Discard(len(utf8BOM)) // cannot fail after a successful Peek
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	cr.TrimLeadingSpace = true
	return cr
}

// readHeader reads the header record, trims its names and checks that they
// are distinct and, unless unnamed is set, non-empty (a table's unnamed
// columns are returned as "" and judged by ReadTable). It returns the names
// and the header's line.
//
// Blank rows before the header (lines of spaces, or of empty fields only)
// are skipped; a file of nothing else is empty.
func readHeader(cr *csv.Reader, file string, unnamed bool) ([]string, int, error) {
	var rec []string
	for blanks := 0; ; blanks++ {
		var err error
		rec, err = cr.Read()
		if err == io.EOF {
			if blanks > 0 {
				return nil, 0, parseErr(file, 1, 1, ErrEmptyFile, "empty file: it has only blank lines; want a header row")
			}
			return nil, 0, parseErr(file, 1, 1, ErrEmptyFile, "empty file: want a header row")
		}
		if err != nil {
			return nil, 0, err // encoding/csv's: the caller's quoteErr places it
		}
		if !allBlank(rec) {
			break
		}
	}
	line, _ := cr.FieldPos(0)
	names := make([]string, len(rec))
	seen := make(map[string]int, len(rec))
	for j, f := range rec {
		h := strings.TrimSpace(f)
		if h == "" && unnamed {
			continue
		}
		if h == "" {
			return nil, 0, parseErr(file, line, j+1, ErrHeader, "empty name for column %d in header (%s); every column needs a name", j+1, listNames(rec))
		}
		if k, dup := seen[h]; dup {
			return nil, 0, parseErr(file, line, j+1, ErrHeader, "duplicate column name %q (also column %d): rename one of the two in the header", short(h), k+1)
		}
		seen[h] = j
		names[j] = h
	}
	return names, line, nil
}

// valueErr is the error for a feature value that did not parse (v is the
// value of one too large). For
// training (predict false) leaving the column out is a remedy; a model
// reading new rows (predict) needs every column it was trained with.
func valueErr(file string, line, col int, st numStatus, s string, v float64, column string, predict bool) *ParseError {
	var pe *ParseError
	switch {
	case st == numTooLarge && predict:
		return parseErr(file, line, col, ErrTooLarge, "value %g in column %s is beyond ±1e100, too large to compute with: correct the value, or delete the row", v, column)
	case st == numTooLarge:
		pe = parseErr(file, line, col, ErrTooLarge, "value %g in column %s is beyond ±1e100, too large to train on: rescale the column, or leave it out", v, column)
	case st == numStrayDot:
		pe = parseErr(file, line, col, ErrNotNumber, "number %q in column %s has a point, but the file writes its numbers with a decimal comma, where a point only separates thousands (\"1.750\" is 1750, \"1.750,5\" is 1750.5): correct the value, or %s", short(s), column, leave(predict))
		if predict {
			return pe
		}
	case st == numEmpty && predict:
		pe = parseErr(file, line, col, ErrMissingValue, "missing value%s in column %s, which the model was trained with: fill it in, delete the row, or predict only the rows that have every value", marker(s), column)
		pe.Remedy = Remedy{Omit: true}
		return pe
	case st == numEmpty:
		// The training's row reader makes this the refusal that counts
		// the rows missing a value (missingCount.refusal).
		return parseErr(file, line, col, ErrMissingValue, "missing value%s in column %s", marker(s), column)
	case st == numNotFinite && predict:
		return parseErr(file, line, col, ErrNotFinite, "NaN or Inf value %q in column %s: correct the value, or delete the row", short(s), column)
	case st == numNotFinite:
		pe = parseErr(file, line, col, ErrNotFinite, "NaN or Inf value %q in column %s: correct the value, or leave the column out", short(s), column)
	case predict:
		return parseErr(file, line, col, ErrNotNumber, "non-numeric value %q in column %s, which the model was trained with as numbers: correct the value, or delete the row", short(s), column)
	default:
		return parseErr(file, line, col, ErrNotNumber, "non-numeric value %q in column %s", short(s), column)
	}
	pe.Remedy = Remedy{Drop: column}
	return pe
}

// leave is the remedy a refused value's message ends with: leaving the
// column out for training, deleting the row for new rows (predict).
func leave(predict bool) string {
	if predict {
		return "delete the row"
	}
	return "leave the column out"
}

// marker quotes a missing-value marker (missingMarkers) for a message, and
// is "" for an empty cell.
func marker(s string) string {
	if s = strings.TrimSpace(s); s == "" {
		return ""
	}
	return fmt.Sprintf(" (%q)", short(s))
}

// listNames joins up to a dozen column names for a message, with commas
// between them, as prose lists them: a name that holds a comma (or none, or
// a quote, a bracket or a tab) is quoted, so that "a, b" reads as one
// column and an empty name shows.
func listNames(names []string) string { return listOf(names, "columns") }

// listOf is listNames for names of what ("columns", "tasks").
func listOf(names []string, what string) string {
	const max = 12
	var b strings.Builder
	for j, n := range names {
		if j == max {
			fmt.Fprintf(&b, ", ... (%d %s)", len(names), what)
			break
		}
		if j > 0 {
			b.WriteString(", ")
		}
		n = short(strings.TrimSpace(n))
		if n == "" || strings.ContainsAny(n, ",\t\"()[]") || !printable(n) {
			n = strconv.Quote(n)
		}
		b.WriteString(n)
	}
	return b.String()
}

// printable reports whether s holds no control character, no invisible
// format character (a zero-width space, a byte order mark, as text copied
// from a web page carries) nor invalid UTF-8: a name or value that does is
// quoted in a message (%q, strconv.Quote), so that "\x1275" does not read
// as 75, nor "\u200bgroup" as group.
func printable(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
}

// invisibleTwin says, when a header name is want with invisible characters
// in it (format characters, as a zero-width space copied from a web page;
// spaces around it are trimmed when read), which name and what to do; ""
// when none is. It follows a "no column" refusal, whose list of the
// header's names shows the two alike.
func invisibleTwin(header []string, want string) string {
	for _, h := range header {
		var seen []string
		visible := strings.Map(func(r rune) rune {
			if unicode.Is(unicode.Cf, r) {
				seen = append(seen, fmt.Sprintf("U+%04X", r))
				return -1
			}
			return r
		}, h)
		if len(seen) > 0 && strings.TrimSpace(visible) == want {
			return fmt.Sprintf(": the column %s is %s with an invisible character (%s) in its name; delete it from the file's header", strconv.Quote(short(h)), short(want), strings.Join(slices.Compact(seen), ", "))
		}
	}
	return ""
}

// short cuts s for use in a message.
func short(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	// Cut on a rune boundary.
	i := max
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i] + "..."
}
