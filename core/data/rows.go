package data

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spmtl/spmtl/core/internal/words"
	"gonum.org/v1/gonum/mat"
)

// rowReader is the pass over a CSV's data rows that both of the intake's
// entries end with: it reads each row's task, its label (when labels is
// set) and its feature columns as cols encode them, into one matrix per
// task. What differs between training and new rows is what the entry sets
// before read: labels, known, keep and bad.
type rowReader struct {
	t      *csvTable
	cols   []EncodedColumn  // the feature columns, in the features' order
	colOf  []int            // a header column's place in cols, or -1
	offset []int            // cols[k]'s first feature
	index  []map[string]int // a text column's values, by their indicator
	d      int              // the number of features

	// labels reads the label of each row; nil when labels are not read.
	labels *labelReader
	// known are the tasks a row may name (nil: any), as the model lists them
	// (knownList).
	known     map[string]bool
	knownList []string
	// newTaskModels name the models with a predictor for a new task, for
	// the refusal of a row of an unknown task (NewRowsOptions).
	newTaskModels []string
	// keep keeps each row's fields (Table.Rows).
	keep bool
	// skipUnknown leaves out the rows of a task not in known, keeping
	// their fields, and skipped counts them (NewRowsOptions.SkipUnknown).
	skipUnknown bool
	skipped     *Skipped
	// bad returns the error for the value s of column j at line that did
	// not read as a number (st; x is the value of one too large).
	bad func(j, line int, st numStatus, s string, x float64) error
	// missing, when set (training), counts the rows with a missing value
	// in a column they are read with; omit leaves such rows out
	// (TableOptions.OmitMissing), and without it the first one is refused
	// once every row has been counted (missingCount.refusal).
	missing *missingCount
	omit    bool
	// textGaps marks the text columns (by feature column) whose encoding
	// has no level for an empty or NA cell: there such a cell is a
	// missing value, which omit leaves out (missingCount.add). A column
	// read without omit keeps those cells as a level of their own.
	textGaps []bool

	// What the pass finds.
	tasks     []*taskRows
	byName    map[string]*taskRows
	rows      int // data rows, those left out included (the file's rows)
	kept      int // data rows read
	raw       [][]string
	unseen    []int    // per feature column: rows with a value it does not encode
	example   []string // the first such value
	thousands []int    // per header column: numbers written with thousands separators
	decimals  []int    // per header column: numbers written with a decimal comma (a comma-separated file)
	percents  []int    // per header column: numbers written as percentages
	moneys    []int    // per header column: numbers written as amounts of money
	parens    []int    // per header column: negative numbers in parentheses
}

// taskRows are one task's rows as they are read.
type taskRows struct {
	name string
	x, y []float64
	cls  []int8
	src  []int
}

// newRowReader returns the pass over the rows for the feature columns cols
// (colOf: a header column's place among them).
func newRowReader(t *csvTable, cols []EncodedColumn, colOf []int) *rowReader {
	r := &rowReader{t: t, cols: cols, colOf: colOf, offset: make([]int, len(cols)), index: make([]map[string]int, len(cols)),
		byName: map[string]*taskRows{}, unseen: make([]int, len(cols)), example: make([]string, len(cols)), thousands: make([]int, len(t.header)),
		decimals: make([]int, len(t.header)), percents: make([]int, len(t.header)), moneys: make([]int, len(t.header)), parens: make([]int, len(t.header))}
	for k, c := range cols {
		r.offset[k] = r.d
		if c.Values == nil {
			r.d++
			continue
		}
		r.d += len(c.Values)
		if r.textGaps == nil {
			r.textGaps = make([]bool, len(cols))
		}
		r.textGaps[k] = !slices.ContainsFunc(c.Values, MissingMarker)
		r.index[k] = make(map[string]int, len(c.Values))
		for i, v := range c.Values {
			r.index[k][v] = i
		}
	}
	return r
}

// skipHeader reads cr, a new reader of the table's text, past the header
// (and any blank rows before it: readHeader).
func (t *csvTable) skipHeader(cr *csv.Reader) error {
	for {
		if _, err := cr.Read(); err != nil {
			return quoteErr(t.text, t.name, err)
		}
		if l, _ := cr.FieldPos(0); l >= t.hline {
			return nil
		}
	}
}

// read reads the data rows from cr, which is past the header. A row that
// does not fit the header is refused (fitRow) and a blank one skipped. A
// row with a missing value is left out when r.omit is set; otherwise the
// first is refused, after the pass has counted them all (missingCount).
// (The first pass, scan, has refused a ragged or damaged row already, so
// the count reaches the end.)
func (r *rowReader) read(cr *csv.Reader) error {
	t := r.t
	xrow := make([]float64, r.d)
	var refused *ParseError // the first missing value, refused at the end
	var gaps *predictGaps   // new rows: those missing a value the model reads, refused at the end
	var unknown newTaskRows // the rows of tasks the model cannot predict, refused at the end
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return quoteErr(t.text, t.name, err)
		}
		line, _ := cr.FieldPos(0)
		rec, blank, err := fitRow(rec, t.header, t.name, line)
		if err != nil {
			return err
		}
		if blank {
			continue
		}
		src := r.rows
		r.rows++
		if unknown.seen() {
			unknown.counted(r.newTask, strings.TrimSpace(rec[t.task]), line)
			continue // only counted past the refusal
		}
		if gaps != nil {
			gaps.add(r, rec)
			continue // only counted past the refusal
		}
		miss := r.missing != nil && r.missing.add(r, rec, line)
		if miss && r.omit || refused != nil || r.unknown(rec, line) {
			if refused == nil && r.keep {
				r.raw = append(r.raw, slices.Clone(rec)) // new rows keep every row's fields (Table.Rows)
			}
			continue // left out, or only counted past the refusal
		}
		if err := r.row(rec, cr, xrow, src); err != nil {
			if pe := (*ParseError)(nil); miss && errors.As(err, &pe) && pe.Column >= 1 && pe.Column <= len(rec) &&
				(errors.Is(err, ErrMissingValue) || errors.Is(err, ErrNotFinite) && nanCell(rec[pe.Column-1])) {
				refused = pe
				r.missing.first = strings.Clone(strings.TrimSpace(rec[pe.Column-1]))
				continue
			}
			if pe := (*ParseError)(nil); r.keep && r.missing == nil && errors.Is(err, ErrMissingValue) && errors.As(err, &pe) {
				gaps = &predictGaps{first: pe}
				if pe.Column >= 1 && pe.Column <= len(rec) {
					gaps.cell = strings.Clone(strings.TrimSpace(rec[pe.Column-1]))
				}
				gaps.add(r, rec)
				continue
			}
			if errors.Is(err, errNewTask) {
				l, _ := cr.FieldPos(t.task)
				unknown.first(strings.TrimSpace(rec[t.task]), l, t.task+1)
				continue
			}
			return err
		}
	}
	if gaps != nil {
		return gaps.refusal(r)
	}
	if refused != nil {
		return r.missing.refusal(r, refused)
	}
	if unknown.seen() {
		return unknown.refusal(t.name, r.rows, r.knownList, r.newTaskModels)
	}
	if r.kept == 0 && r.rows > 0 && r.keep {
		// New rows, every one left out (a missing value, a task the model
		// does not know, as asked): each keeps its place with no
		// prediction, and the warnings say why, as for some of them.
		return nil
	}
	if r.kept == 0 && r.rows > 0 && r.omit {
		pe := parseErr(t.name, t.hline, 1, ErrNoRows, "no data rows left: every one of the %d rows has a missing value (%s); fill some in, or leave out the columns that miss the most", r.rows, columnCounts(r.missing.columns(r)))
		pe.Remedy.Drop, _ = r.missing.featureMissing(r)
		return pe
	}
	if r.kept == 0 {
		return parseErr(t.name, t.hline, 1, ErrNoRows, "no data rows: the file has a header and nothing else")
	}
	return nil
}

// row reads one data row (the file's data row src): its task, its label
// when labels are read, and its features.
func (r *rowReader) row(rec []string, cr *csv.Reader, xrow []float64, src int) error {
	tk, err := r.task(rec, cr)
	if err != nil {
		return err
	}
	var c int8
	var v float64
	if r.labels != nil {
		if c, v, err = r.labels.read(rec, cr, r.t); err != nil {
			return err
		}
	}
	clear(xrow)
	if err := r.features(rec, cr, xrow); err != nil {
		return err
	}
	tk.x = append(tk.x, xrow...)
	tk.y = append(tk.y, v)
	tk.cls = append(tk.cls, c)
	tk.src = append(tk.src, src)
	if r.keep {
		r.raw = append(r.raw, slices.Clone(rec))
	}
	r.kept++
	return nil
}

// unknown reports whether a row is of a task not in known and is left out
// for it (skipUnknown), and counts it.
func (r *rowReader) unknown(rec []string, line int) bool {
	if !r.skipUnknown || r.known == nil {
		return false
	}
	tn := strings.TrimSpace(rec[r.t.task])
	if missingCell(tn) || r.known[tn] {
		return false
	}
	if r.skipped == nil {
		r.skipped = &Skipped{}
	}
	r.skipped.add(tn, line)
	return true
}

// errNewTask marks, within a read, a row of a task the model neither knows
// nor can predict (rowReader.newTask); read refuses the first at the end
// (unknownTask), having counted them all.
var errNewTask = errors.New("a task the model does not know")

// newTask reports whether tn is a task the model was not trained on and,
// having no predictor for a new task, cannot predict.
func (r *rowReader) newTask(tn string) bool {
	return r.known != nil && !r.skipUnknown && !missingCell(tn) && tn != "" && !r.known[tn]
}

// newTaskRows counts, in a read that refuses them, the rows of tasks the
// model neither knows nor can predict: the first, where the refusal points,
// and every one after it, so that the refusal says how many rows and tasks
// are new (the CSV and the sparse reader).
type newTaskRows struct {
	line, col int
	task      string
	count     Skipped
}

// first notes the first such row, of task tn at line and column col.
func (u *newTaskRows) first(tn string, line, col int) {
	u.line, u.col, u.task = line, col, strings.Clone(tn)
	u.count.add(tn, line)
}

// seen reports whether a row of a new task was met.
func (u *newTaskRows) seen() bool { return u.count.Rows > 0 }

// counted counts a later row, at line, when its task tn is new.
func (u *newTaskRows) counted(isNew func(string) bool, tn string, line int) {
	if isNew(tn) {
		u.count.add(tn, line)
	}
}

// refusal is the read's error, rows rows having been read (unknownTask).
func (u *newTaskRows) refusal(file string, rows int, known, models []string) *ParseError {
	u.count.Of = rows
	return unknownTask(file, u.line, u.col, u.task, known, models, &u.count)
}

// unknownTask refuses, at file:line:column, a new row of task tn, which
// is not among the tasks known to a model that has no predictor for a new
// task; models name the models that have one (NewRowsOptions). count, when
// the read counted them, says how many rows and tasks are new. Its remedy
// is to leave such rows out (Remedy.Skip).
func unknownTask(file string, line, col int, tn string, known, models []string, count *Skipped) *ParseError {
	which := "one that predicts a new task from what the tasks share"
	if len(models) > 0 {
		which = words.List(models) + ", which predict a new task from what the tasks share"
	}
	leave := "predict only the rows of the tasks it knows"
	many := ""
	if count != nil && count.Rows > 0 {
		switch {
		case count.Of == 1:
			many = "; the file's one row is of it"
		case count.Rows == 1:
			many = fmt.Sprintf("; 1 of the %d rows is of a task it was not trained on", count.Of)
		default:
			many = fmt.Sprintf("; %d of the %d rows are of %s it was not trained on (%s)", count.Rows, count.Of, count.taskWord(), count.tasks())
		}
		if count.Rows == count.Of {
			leave = "predict only the rows of the tasks it knows, of which this file has none"
		}
	}
	pe := parseErr(file, line, col, ErrHeader, "task %q is not one the model was trained on (it knows %s)%s, and the model has no predictor for a new task: use a model that has one (%s; a search for new tasks chooses among them: tune -new-tasks, or on the page Tune for tasks not in this file), or %s", short(tn), listOf(known, "tasks"), many, which, leave)
	pe.Remedy = Remedy{Skip: count == nil || count.Rows < count.Of}
	return pe
}

// task returns the rows of a row's task, refusing an empty task name or a
// missing-value marker (NA, ?: missingMarkers) and, when the tasks are
// known, another one.
func (r *rowReader) task(rec []string, cr *csv.Reader) (*taskRows, error) {
	ti := r.t.task
	tn := strings.TrimSpace(rec[ti])
	if tn == "" {
		l, _ := cr.FieldPos(ti)
		return nil, parseErr(r.t.name, l, ti+1, ErrMissingValue, "empty task name in column %s: give the row its task, or delete the row", r.t.taskCol)
	}
	if missingCell(tn) {
		l, _ := cr.FieldPos(ti)
		return nil, parseErr(r.t.name, l, ti+1, ErrMissingValue, "missing task name%s in column %s: give the row its task, or delete the row", marker(tn), r.t.taskCol)
	}
	if len(tn) > MaxNameBytes {
		l, _ := cr.FieldPos(ti)
		return nil, parseErr(r.t.name, l, ti+1, ErrLongName, "the task name in column %s is %d bytes long, more than the %d a name may have: shorten it", r.t.taskCol, len(tn), MaxNameBytes)
	}
	if r.newTask(tn) {
		return nil, errNewTask
	}
	tk := r.byName[tn]
	if tk == nil {
		tk = &taskRows{name: strings.Clone(tn)}
		r.byName[tk.name] = tk
		r.tasks = append(r.tasks, tk)
	}
	return tk, nil
}

// features encodes a row's feature columns into xrow (zeroed): a numeric
// column's number, a text column's indicator of its value. A value the
// encoding does not know leaves its indicators zero and is counted.
func (r *rowReader) features(rec []string, cr *csv.Reader, xrow []float64) error {
	for j, f := range rec {
		k := r.colOf[j]
		if k < 0 {
			continue
		}
		s := strings.TrimSpace(f)
		if r.cols[k].Values == nil {
			s, comma, u := numberText(s, r.t.delim, r.t.decimalMarks, r.t.groupDots)
			x, st := parseNum(s)
			if comma == strayDot {
				st = numStrayDot
			}
			if st != numOK {
				l, _ := cr.FieldPos(j)
				return r.bad(j, l, st, s, x)
			}
			switch comma {
			case thousandsComma:
				r.thousands[j]++
			case decimalComma:
				r.decimals[j]++
			case thousandsDot:
				r.thousands[j]++
				if strings.IndexByte(s, '.') >= 0 {
					r.decimals[j]++ // "3.227,64"
				}
			}
			switch u &^ parens {
			case percent:
				r.percents[j]++
			case money:
				r.moneys[j]++
			}
			if u&parens != 0 {
				r.parens[j]++
			}
			xrow[r.offset[k]] = x
			continue
		}
		cell := s
		if missingCell(s) {
			// An empty cell and a missing marker (NA, N/A, ?) are the
			// one value "(empty)", as the column's values were counted
			// (columnStats.add): "N/A" once matched no level, in training
			// and in predict alike, and was called a value never seen.
			s = emptyValue
		}
		if i, ok := r.index[k][s]; ok {
			xrow[r.offset[k]+i] = 1
		} else if r.textGaps[k] && missingCell(cell) {
			// Empty or NA in a column of words whose encoding has no
			// such value (a model trained leaving those rows out, or
			// never shown one): a missing value, refused or left out as
			// in a numeric column, not a word with every indicator 0.
			l, _ := cr.FieldPos(j)
			return r.bad(j, l, numEmpty, cell, 0)
		} else {
			r.unseen[k]++
			if r.example[k] == "" {
				r.example[k] = strings.Clone(s)
			}
		}
	}
	return nil
}

// finish completes tab from the rows read: the data set (its labels
// decided when they were read: positive names the positive class), the
// warnings about values the encoding does not know, the raw rows when
// kept, and the columns with thousands separators.
func (r *rowReader) finish(tab *Table, positive string) error {
	t := r.t
	for k, n := range r.unseen {
		if n > 0 {
			tab.Warnings = append(tab.Warnings, fmt.Sprintf("column %s: %d rows have values the model never saw (such as %q); their %s indicators are all zero",
				r.cols[k].Name, n, short(r.example[k]), r.cols[k].Name))
		}
	}
	ds := &Dataset{Name: t.name, Features: r.d, FeatureNames: tab.Encoding.FeatureNames(), SourceRows: r.rows}
	if l := r.labels; l != nil {
		ys := make([][]float64, len(r.tasks))
		cls := make([][]int8, len(r.tasks))
		for k, tk := range r.tasks {
			ys[k], cls[k] = tk.y, tk.cls
		}
		if err := l.lab.finish(ds, positive, ys, cls); err != nil {
			return err
		}
		tab.Labels = l.seen.info(t.labelCol, ds.Kind)
		tab.Columns[l.col].Thousands = l.thousands
		tab.Columns[l.col].DecimalComma = l.decimals
		tab.Columns[l.col].Percent = l.percents
		tab.Columns[l.col].Money = l.moneys
		tab.Columns[l.col].Parens = l.parens
	}
	for j := range tab.Columns {
		if t.roles[j] == RoleNumeric {
			tab.Columns[j].Thousands = r.thousands[j] > 0
			tab.Columns[j].DecimalComma = r.decimals[j] > 0
			tab.Columns[j].Percent = r.percents[j] > 0
			tab.Columns[j].Money = r.moneys[j] > 0
			tab.Columns[j].Parens = r.parens[j] > 0
		}
	}
	ds.Tasks = make([]Task, len(r.tasks))
	for k, tk := range r.tasks {
		ds.Tasks[k] = Task{Name: tk.name, X: mat.NewDense(len(tk.y), r.d, tk.x), Y: tk.y, Source: tk.src}
	}
	tab.Data, tab.Rows = ds, r.raw
	if r.omit {
		tab.Omitted = r.missing.omitted(r)
	}
	if r.skipped != nil {
		r.skipped.Of = r.rows
		tab.Skipped = r.skipped
	}
	return nil
}

// labelReader reads a table's label column: the labels (labeler), the
// distinct ones (labelTracker), and whether any is written with thousands
// separators.
type labelReader struct {
	col       int
	lab       labeler
	seen      labelTracker
	thousands bool
	decimals  bool
	percents  bool
	moneys    bool
	parens    bool
}

// read reads the label of a row: its class and its value (labeler.add).
func (l *labelReader) read(rec []string, cr *csv.Reader, t *csvTable) (int8, float64, error) {
	line, _ := cr.FieldPos(l.col)
	s, comma, u := numberText(strings.TrimSpace(rec[l.col]), t.delim, t.decimalMarks, t.groupDots)
	if comma == strayDot {
		return 0, 0, parseErr(t.name, line, l.col+1, ErrNotNumber, "label %q in column %s has a point, but the file writes its numbers with a decimal comma, where a point only separates thousands (\"1.750\" is 1750, \"1.750,5\" is 1750.5): correct the label", short(s), t.labelCol)
	}
	l.thousands = l.thousands || comma == thousandsComma || comma == thousandsDot
	l.decimals = l.decimals || comma == decimalComma || comma == thousandsDot && strings.IndexByte(s, '.') >= 0
	l.percents = l.percents || u&^parens == percent
	l.moneys = l.moneys || u&^parens == money
	l.parens = l.parens || u&parens != 0
	c, v, err := l.lab.add(s, line, l.col+1)
	if err != nil {
		return 0, 0, err
	}
	l.seen.add(s, line, l.col+1, t.name)
	l.seen.step(v)
	return c, v, nil
}

// fitRecord matches a record to the header when a trailing delimiter is
// on one side only: a record may end before unnamed last columns (it is
// given empty fields for them), or carry empty fields past the header's
// end, which are cut. ok is false for a record that is ragged otherwise.
func fitRecord(rec, header []string) (_ []string, ok bool) {
	if len(rec) > len(header) {
		for _, f := range rec[len(header):] {
			if strings.TrimSpace(f) != "" {
				return rec, false
			}
		}
		return rec[:len(header)], true
	}
	for _, h := range header[len(rec):] {
		if h != "" {
			return rec, false
		}
	}
	for len(rec) < len(header) {
		rec = append(rec, "")
	}
	return rec, true
}

// blankRow reports whether a record is blank: a line of only spaces, or a
// row whose fields are all empty (the ",,,," a spreadsheet writes for an
// empty row after the data). The readers skip it like an empty line. In a
// file of one column, a single empty field is a missing value instead.
func blankRow(rec, header []string) bool {
	if len(rec) == 1 && len(header) <= 1 {
		return false
	}
	return allBlank(rec)
}

// allBlank reports whether every field of a record is empty or spaces.
func allBlank(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

// fitRow is fitRecord for a data row of a reader at line: blank is set for
// a blank row (blankRow), which the readers skip, and a record that cannot
// be matched is a ragged-row error at its first missing or extra field.
func fitRow(rec, header []string, name string, line int) (_ []string, blank bool, err error) {
	if blankRow(rec, header) {
		return nil, true, nil
	}
	if fitted, ok := fitRecord(rec, header); ok {
		return fitted, false, nil
	}
	col := len(header) + 1
	if len(rec) < len(header) {
		col = len(rec) + 1
	}
	fix := "a value holds the delimiter without quotes around it, or the row has a delimiter too many: quote the value, or delete the extra delimiter"
	if len(rec) < len(header) {
		fix = "a value or a delimiter is missing: give the row one field per column (an empty field between two delimiters for a missing one)"
	}
	return nil, false, parseErr(name, line, col, ErrRaggedRow, "ragged row: %d fields, want %d (header has %d); %s", len(rec), len(header), len(header), fix)
}
