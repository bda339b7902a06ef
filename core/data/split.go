package data

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ReadSplitFile reads one split from a split file such as
//
//	row,split1,split2
//	0,train,test
//	1,test,train
//
// (its delimiter comma, semicolon or tab) and returns, for every data row of
// the data file, whether it is a training row. column names the split column; when empty, the first column other
// than "row" is used. The "row" column, when present, must number the rows
// 0, 1, 2, ... in order: it is the 0-based data row of the data file,
// counting over all tasks in file order (Task.Source). Values are "train"
// or "test", case-insensitive. The same CSV conventions as in ReadCSV apply
// (quotes, CRLF, byte order mark, blank lines), and errors concerning a
// position are *ParseError values whose Column is the field number.
func ReadSplitFile(r io.Reader, name string, column string) ([]bool, error) {
	text, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	// Comma, semicolon or tab, as a data file's (a split file written by
	// the same spreadsheet has the same delimiter).
	cr := tableReader(crLines(text), SniffDelimiter(text))
	// An unnamed column (a spreadsheet's trailing delimiter) is never a
	// split column, and its values are not read.
	header, hline, err := readHeader(cr, name, true)
	if err != nil {
		return nil, quoteErr(crLines(text), name, err)
	}
	column = strings.TrimSpace(column)
	ri, ci := -1, -1
	for j, h := range header {
		switch {
		case h == "row":
			ri = j
		case h != "" && (h == column || (column == "" && ci < 0)):
			ci = j
		}
	}
	if ci < 0 {
		return nil, parseErr(name, hline, 1, ErrHeader, "no split column %q in header (%s)", cmp.Or(column, "other than row"), listNames(header))
	}
	col := header[ci]
	var mask []bool
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(name, err)
		}
		line, _ := cr.FieldPos(0)
		rec, blank, err := fitRow(rec, header, name, line)
		if err != nil {
			return nil, err
		}
		if blank {
			continue
		}
		if ri >= 0 {
			s := strings.TrimSpace(rec[ri])
			n, err := strconv.Atoi(s)
			if err != nil {
				l, _ := cr.FieldPos(ri)
				return nil, parseErr(name, l, ri+1, ErrNotNumber, "non-numeric row number %q in column row", short(s))
			}
			if n == 1 && len(mask) == 0 {
				l, _ := cr.FieldPos(ri)
				return nil, parseErr(name, l, ri+1, ErrSplit, "the rows are numbered from 1: number them from 0 (the data file's first row is row 0), that is, subtract one from every row number")
			}
			if n != len(mask) {
				l, _ := cr.FieldPos(ri)
				return nil, parseErr(name, l, ri+1, ErrSplit, "row %d out of order: want %d (rows must be numbered 0, 1, 2, ... in order)", n, len(mask))
			}
		}
		switch s := strings.TrimSpace(rec[ci]); strings.ToLower(s) {
		case "train":
			mask = append(mask, true)
		case "test":
			mask = append(mask, false)
		case "":
			l, _ := cr.FieldPos(ci)
			return nil, parseErr(name, l, ci+1, ErrMissingValue, "missing value in column %s: want train or test", col)
		default:
			l, _ := cr.FieldPos(ci)
			return nil, parseErr(name, l, ci+1, ErrSplit, "unknown value %q in column %s: want train or test", short(s), col)
		}
	}
	if len(mask) == 0 {
		return nil, parseErr(name, hline, 1, ErrNoRows, "no data rows: the file has a header and nothing else")
	}
	return mask, nil
}

// SplitColumns returns the split columns of a split file: every named
// column of its header but "row", in order.
func SplitColumns(r io.Reader, name string) ([]string, error) {
	text, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	header, _, err := readHeader(tableReader(crLines(text), SniffDelimiter(text)), name, true)
	if err != nil {
		return nil, quoteErr(crLines(text), name, err)
	}
	var cols []string
	for _, h := range header {
		if h != "row" && h != "" {
			cols = append(cols, h)
		}
	}
	return cols, nil
}

// SplitByMask splits ds into a training and a test set: example i of task t
// goes to train when isTrain[ds.Tasks[t].Source[i]] is true. Tasks without
// Source are taken to hold consecutive rows of the file, in task order (the
// layout of a file whose tasks are contiguous). When ds.SourceRows is set,
// the mask must have exactly that many entries.
//
// Both results keep every task, in the same order and with the same names,
// so task t is the same task in ds, train and test. A task whose examples
// all fall on one side is empty on the other (Validate reports that). The
// examples are copied (see Task.Subset) and keep their Source.
func SplitByMask(ds *Dataset, isTrain []bool) (train, test *Dataset, err error) {
	if ds == nil {
		return nil, nil, fmt.Errorf("split: nil dataset")
	}
	if ds.SourceRows > 0 && len(isTrain) != ds.SourceRows {
		return nil, nil, fmt.Errorf("split %s: the mask has %d rows, the data file has %d", ds.Name, len(isTrain), ds.SourceRows)
	}
	train, test = ds.emptyCopy(), ds.emptyCopy()
	next := 0 // file row of the next example when Source is nil
	for ti := range ds.Tasks {
		t := &ds.Tasks[ti]
		n := t.Rows()
		if err := t.checkShape(); err != nil {
			return nil, nil, fmt.Errorf("split %s: %w", ds.Name, err)
		}
		var tr, te []int
		for i := 0; i < n; i++ {
			src := next + i
			if t.Source != nil {
				src = t.Source[i]
			}
			if src < 0 || src >= len(isTrain) {
				return nil, nil, fmt.Errorf("split %s: task %q example %d is data row %d, outside the mask's %d rows", ds.Name, t.Name, i, src, len(isTrain))
			}
			if isTrain[src] {
				tr = append(tr, i)
			} else {
				te = append(te, i)
			}
		}
		next += n
		train.Tasks = append(train.Tasks, t.Subset(tr))
		test.Tasks = append(test.Tasks, t.Subset(te))
	}
	return train, test, nil
}

// emptyCopy returns a dataset like ds without tasks.
func (ds *Dataset) emptyCopy() *Dataset {
	c := *ds
	c.Tasks = make([]Task, 0, len(ds.Tasks))
	return &c
}

// checkShape reports a task whose parts disagree in size, which would make
// Subset index out of range.
func (t *Task) checkShape() error {
	n := t.Rows()
	switch {
	case t.Source != nil && len(t.Source) != n:
		return fmt.Errorf("task %q: %d source rows for %d examples", t.Name, len(t.Source), n)
	case t.S != nil:
		if len(t.S.Indptr) != n+1 || t.S.Indptr[n] > len(t.S.Indices) || len(t.S.Indices) != len(t.S.Values) {
			return fmt.Errorf("task %q: malformed sparse matrix for %d examples", t.Name, n)
		}
	case t.X != nil:
		if r, _ := t.X.Dims(); r != n {
			return fmt.Errorf("task %q: X has %d rows for %d examples", t.Name, r, n)
		}
	case n > 0:
		return fmt.Errorf("task %q has no feature matrix", t.Name)
	}
	return nil
}
