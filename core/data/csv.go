package data

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"gonum.org/v1/gonum/mat"
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
// Quoted fields, CRLF line endings, a UTF-8 byte order mark, a missing final
// newline and blank lines are accepted; spaces around fields are ignored.
// Tasks are numbered in order of first appearance, and a task's rows need
// not be contiguous. Task.X is dense, and Task.Source gives each example's
// 0-based data row in the file (the first row after the header is row 0).
//
// Feature values and numeric labels must be finite numbers ("NaN" and "Inf"
// are rejected). See KindChoice for how the kind is decided and the package
// documentation for how classification labels map to -1 and +1.
//
// Errors concerning a position in the input are *ParseError values whose
// Column is the 1-based field number.
func ReadCSV(r io.Reader, name string, opt CSVOptions) (*Dataset, error) {
	taskCol := cmp.Or(strings.TrimSpace(opt.TaskColumn), "task")
	labelCol := cmp.Or(strings.TrimSpace(opt.LabelColumn), "y")
	if taskCol == labelCol {
		return nil, fmt.Errorf("%s: the task and label columns are both %q", name, taskCol)
	}
	cr := newCSVReader(r)
	header, hline, err := readHeader(cr, name)
	if err != nil {
		return nil, err
	}
	ti, li := -1, -1
	var feat []int
	for j, h := range header {
		switch h {
		case taskCol:
			ti = j
		case labelCol:
			li = j
		default:
			feat = append(feat, j)
		}
	}
	if ti < 0 {
		return nil, parseErr(name, hline, 1, ErrHeader, "no task column %q in header [%s]; name the task column in the options", taskCol, listNames(header))
	}
	if li < 0 {
		return nil, parseErr(name, hline, 1, ErrHeader, "no label column %q in header [%s]; name the label column in the options", labelCol, listNames(header))
	}
	if len(feat) == 0 {
		return nil, parseErr(name, hline, 1, ErrHeader, "no feature columns: the header has only the task column %q and the label column %q", taskCol, labelCol)
	}

	type denseTask struct {
		name  string
		x, y  []float64
		cls   []int8
		src   []int
		index int
	}
	var (
		tasks  []*denseTask
		byName = map[string]*denseTask{}
		lab    = labeler{file: name, column: labelCol, mode: opt.Kind}
		ncol   = len(header)
		row    int
	)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != ncol {
			if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
				continue // a line of spaces counts as blank
			}
			col := ncol + 1
			if len(rec) < ncol {
				col = len(rec) + 1
			}
			return nil, parseErr(name, line, col, ErrRaggedRow, "ragged row: %d fields, want %d (header has %d)", len(rec), ncol, ncol)
		}
		tn := strings.TrimSpace(rec[ti])
		if tn == "" {
			l, _ := cr.FieldPos(ti)
			return nil, parseErr(name, l, ti+1, ErrMissingValue, "empty task name in column %s", taskCol)
		}
		t := byName[tn]
		if t == nil {
			t = &denseTask{name: strings.Clone(tn), index: len(tasks)}
			byName[t.name] = t
			tasks = append(tasks, t)
		}
		l, _ := cr.FieldPos(li)
		c, v, err := lab.add(rec[li], l, li+1)
		if err != nil {
			return nil, err
		}
		for _, j := range feat {
			s := strings.TrimSpace(rec[j])
			x, st := parseNum(s)
			if st != numOK {
				l, _ := cr.FieldPos(j)
				return nil, valueErr(name, l, j+1, st, s, header[j])
			}
			t.x = append(t.x, x)
		}
		t.y = append(t.y, v)
		t.cls = append(t.cls, c)
		t.src = append(t.src, row)
		row++
	}
	if row == 0 {
		return nil, parseErr(name, hline, 1, ErrNoRows, "no data rows: the file has a header and nothing else")
	}

	d := len(feat)
	ds := &Dataset{Name: name, Features: d, FeatureNames: make([]string, d), SourceRows: row}
	for k, j := range feat {
		ds.FeatureNames[k] = header[j]
	}
	ys := make([][]float64, len(tasks))
	cls := make([][]int8, len(tasks))
	for k, t := range tasks {
		ys[k], cls[k] = t.y, t.cls
	}
	if err := lab.finish(ds, opt.Positive, ys, cls); err != nil {
		return nil, err
	}
	ds.Tasks = make([]Task, len(tasks))
	for k, t := range tasks {
		ds.Tasks[k] = Task{Name: t.name, X: mat.NewDense(len(t.y), d, t.x), Y: t.y, Source: t.src}
	}
	return ds, nil
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
// are non-empty and distinct. It returns the names and the header's line.
func readHeader(cr *csv.Reader, file string) ([]string, int, error) {
	rec, err := cr.Read()
	if err == io.EOF {
		return nil, 0, parseErr(file, 1, 1, ErrEmptyFile, "empty file: want a header row")
	}
	if err != nil {
		return nil, 0, csvErr(file, err)
	}
	line, _ := cr.FieldPos(0)
	names := make([]string, len(rec))
	seen := make(map[string]int, len(rec))
	for j, f := range rec {
		h := strings.TrimSpace(f)
		if h == "" {
			return nil, 0, parseErr(file, line, j+1, ErrHeader, "empty name for column %d in header [%s]; every column needs a name", j+1, listNames(rec))
		}
		if k, dup := seen[h]; dup {
			return nil, 0, parseErr(file, line, j+1, ErrHeader, "duplicate column name %q (also column %d)", short(h), k+1)
		}
		seen[h] = j
		names[j] = h
	}
	return names, line, nil
}

// valueErr is the error for a feature value that did not parse.
func valueErr(file string, line, col int, st numStatus, s, column string) *ParseError {
	switch st {
	case numEmpty:
		return parseErr(file, line, col, ErrMissingValue, "missing value in column %s: missing values are not supported", column)
	case numNotFinite:
		return parseErr(file, line, col, ErrNotFinite, "NaN or Inf value %q in column %s", short(s), column)
	}
	return parseErr(file, line, col, ErrNotNumber, "non-numeric value %q in column %s", short(s), column)
}

// listNames joins up to a dozen column names for a message.
func listNames(names []string) string {
	const max = 12
	var b strings.Builder
	for j, n := range names {
		if j == max {
			fmt.Fprintf(&b, " ... (%d columns)", len(names))
			break
		}
		if j > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(short(strings.TrimSpace(n)))
	}
	return b.String()
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
