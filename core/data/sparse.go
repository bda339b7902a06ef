package data

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// SparseOptions configures ReadSparse. The zero value detects the kind of
// the labels and takes the number of features from the largest index.
type SparseOptions struct {
	// Kind says whether to detect the kind of the labels (KindAuto, the
	// zero value) or to force one.
	Kind KindChoice
	// Positive, when set, names the label of the positive class, as in
	// CSVOptions.
	Positive string
	// Features, when > 0, is the number of features d; an index above it
	// is an error (in new rows for a model, not read: sparseNewRows). When
	// 0, d is the largest index in the file.
	Features int
	// OmitMissing leaves out a row whose label or a feature's value is
	// missing (empty, a marker such as NA or ?, or NaN), as
	// TableOptions.OmitMissing leaves out a CSV's, and says which
	// (Table.Omitted, from the format's reader); without it the first such
	// value is refused, with leaving those rows out as its remedy.
	OmitMissing bool
	// newRows, when set, reads new rows for a model's prediction: a row of
	// a task it does not know is refused at its line, or left out
	// (readNewSparse).
	newRows *sparseNewRows
}

// sparseNewRows is ReadSparse's read of new rows for a prediction. Their
// labels are not training labels: each is kept as written (labels, one
// per row), to score the predictions where it reads as one (Table.Truth),
// and one missing or of no class leaves its row unscored, not refused.
// When known is set, a row of a task the model does not know is refused,
// as the CSV's reader refuses it (unknownTask), or with skip left out and
// counted in skipped.
type sparseNewRows struct {
	labels []string
	// lines are each row's line in the file (comments and blank lines
	// counted), which the rows written back show.
	lines   []int
	known   map[string]bool
	list    []string
	models  []string
	skip    bool
	skipped *Skipped
	// taskOf names the task of each row left out, by its place.
	taskOf map[int]string
	// beyondRows counts the rows with a feature index above the model's
	// (the last at beyondLine), the largest such index beyondMax: their
	// values are not read.
	beyondRows, beyondLine, beyondMax int
}

// MaxFeatures bounds the number of features of the sparse format (its
// feature indices). The learners keep, for every task, a weight for each
// feature up to the largest index, and the span reduction a vector of that
// length: an index of 999,999,999 in a 60-byte file took 7.8 GB, and the
// largest int32 ran the process out of memory. 2^21 = 2,097,152 is above
// the sparse data sets in use (sentiment has 37,662 features; news20,
// among the widest bag-of-words sets, 1,355,191) and keeps a task's weights
// to 16 MB.
const MaxFeatures = 1 << 21

// maxLineBytes bounds the length of one line of sparse text (a variable so
// that tests can lower it).
var maxLineBytes = 256 << 20

// ReadSparse reads a dataset in sparse text format, one example per line:
//
//	task label index:value index:value ...
//
// with fields separated by spaces or tabs. Indices are 1-based and strictly
// increasing within a line; features not listed are zero, and a line may
// list none. Blank lines and lines whose first field starts with # are
// ignored, and a field starting with # ends its line (a comment). CRLF line
// endings, lines ending with a lone CR and a UTF-8 byte order mark are
// accepted. name is used in messages
// and as Dataset.Name.
//
// Tasks are numbered in order of first appearance; a task's lines need not
// be contiguous. Task.S holds the features in CSR form with 0-based column
// indices, and Task.Source gives each example's 0-based data line (blank
// and comment lines are not counted). Labels follow the same rules as in
// ReadCSV.
//
// Errors concerning a position in the input are *ParseError values whose
// Column is the 1-based byte column where the offending field starts.
func ReadSparse(r io.Reader, name string, opt SparseOptions) (*Dataset, error) {
	ds, _, err := readSparse(r, name, opt)
	return ds, err
}

// readSparse is ReadSparse, with the rows OmitMissing left out.
func readSparse(r io.Reader, name string, opt SparseOptions) (*Dataset, *Omitted, error) {
	if opt.Features < 0 || opt.Features > MaxFeatures {
		return nil, nil, fmt.Errorf("%s: %d features: want 0 (the largest index) to %d", name, opt.Features, MaxFeatures)
	}
	var (
		tasks    []*sparseTask
		byName   = map[string]*sparseTask{}
		lab      = labeler{file: name, mode: opt.Kind}
		lineNo   int
		row      int
		maxIdx   int
		nonBlank bool
		om       = &sparseOmitted{cols: map[string]int{}}
		// first is the refusal of the first missing value when the rows
		// missing one are not left out: the rest of the file is then read
		// as if they were, to count them all, as a CSV's refusal does.
		first   *ParseError
		unknown newTaskRows // the rows of tasks the model cannot predict, refused at the end
	)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	sc.Split(scanLines)
	for sc.Scan() {
		lineNo++
		b := sc.Bytes()
		if lineNo == 1 {
			b = bytes.TrimPrefix(b, utf8BOM)
		}
		ts, te := nextField(b, 0)
		if ts == te {
			continue
		}
		nonBlank = true
		if b[ts] == '#' {
			continue
		}
		if unknown.seen() { // past the refusal of a new task, only counted
			unknown.counted(func(tn string) bool { return !opt.newRows.known[tn] }, string(b[ts:te]), lineNo)
			row++
			continue
		}
		ls, le := nextField(b, te)
		if ls == le || b[ls] == '#' {
			return nil, nil, parseErr(name, lineNo, ls+1, ErrMissingValue, "missing label after task %q: want task label index:value ...", short(string(b[ts:te])))
		}
		if bytes.IndexByte(b[ls:le], ':') >= 0 && bytes.IndexByte(b[ts:te], ':') < 0 {
			// libsvm's format: "label index:value ..." with no task.
			return nil, nil, parseErr(name, lineNo, ls+1, ErrToken, "the second field %q is a feature (index:value) where the label should be: a line is task label index:value ...; a libsvm file has no task, so put each line's task name first", short(string(b[ls:le])))
		}
		if te-ts > MaxNameBytes {
			return nil, nil, parseErr(name, lineNo, ts+1, ErrLongName, "the task name is %d bytes long, more than the %d a name may have: shorten it", te-ts, MaxNameBytes)
		}
		nr := opt.newRows
		if nr != nil {
			nr.labels, nr.lines = append(nr.labels, string(b[ls:le])), append(nr.lines, lineNo)
		}
		if nr != nil && nr.known != nil && !nr.known[string(b[ts:te])] {
			tn := string(b[ts:te])
			if !nr.skip {
				unknown.first(tn, lineNo, ts+1)
				row++
				continue
			}
			nr.skipped.add(tn, lineNo)
			nr.taskOf[row] = tn
			row++ // the row keeps its place, with no prediction
			continue
		}
		t := byName[string(b[ts:te])]
		if t == nil {
			t = &sparseTask{name: string(b[ts:te]), indptr: []int{0}}
			byName[t.name] = t
			tasks = append(tasks, t)
		}
		var c int8
		var v float64
		missing := "" // what this row misses, when OmitMissing leaves it out
		if nr == nil {
			var err error
			if c, v, err = lab.add(string(b[ls:le]), lineNo, ls+1); err != nil {
				if !errors.Is(err, ErrMissingValue) {
					return nil, nil, err
				}
				if !opt.OmitMissing {
					// The labeler's own remedy (give the row its label)
					// gives way to the count's.
					err = parseErr(name, lineNo, ls+1, ErrMissingValue, "missing label%s", marker(string(b[ls:le])))
					first, opt.OmitMissing = firstMissing(err), true
				}
				missing = "label"
			}
		}
		start, prev := len(t.ind), 0
		if missing == "" {
			var err error
			prev, missing, err = t.readFeatures(b, le, name, lineNo, opt)
			if err != nil && first == nil && isMissing(err) {
				// Read the row again as one to leave out, to count it.
				t.ind, t.val = t.ind[:start], t.val[:start]
				first, opt.OmitMissing = firstMissing(err), true
				prev, missing, err = t.readFeatures(b, le, name, lineNo, opt)
			}
			if err != nil {
				if first != nil {
					return nil, nil, first // the first problem in the file
				}
				return nil, nil, err
			}
		}
		if missing != "" {
			t.ind, t.val = t.ind[:start], t.val[:start]
			om.add(missing, lineNo)
			if nr != nil {
				nr.taskOf[row] = t.name
			}
			row++ // the row keeps its place in the file's rows
			continue
		}
		if prev > maxIdx {
			maxIdx = prev
		}
		t.indptr = append(t.indptr, len(t.ind))
		t.y = append(t.y, v)
		t.cls = append(t.cls, c)
		t.src = append(t.src, row)
		row++
	}
	if unknown.seen() && sc.Err() == nil {
		return nil, nil, unknown.refusal(name, row, opt.newRows.list, opt.newRows.models)
	}
	if first != nil && sc.Err() == nil {
		return nil, nil, countMissing(first, om.result(row))
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, nil, &ParseError{File: name, Line: lineNo + 1, Column: 1, Err: fmt.Errorf("line longer than %d bytes: %w", maxLineBytes, err)}
		}
		return nil, nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if row == 0 {
		if !nonBlank {
			return nil, nil, parseErr(name, 1, 1, ErrEmptyFile, "empty file: want lines of task label index:value ...")
		}
		return nil, nil, parseErr(name, 1, 1, ErrNoRows, "no data rows: the file has only comments")
	}
	return sparseDataset(name, tasks, row, maxIdx, opt, &lab, om)
}

// sparseDataset makes readSparse's data set of its tasks, once the rows
// (row of them, the largest index maxIdx) are read: a task whose every
// row was left out is dropped and named in the rows left out, and the
// labels are decided (not for new rows, whose labels are kept as written).
func sparseDataset(name string, tasks []*sparseTask, row, maxIdx int, opt SparseOptions, lab *labeler, om *sparseOmitted) (*Dataset, *Omitted, error) {
	kept := tasks[:0]
	for _, t := range tasks {
		if len(t.y) > 0 {
			kept = append(kept, t)
		} else {
			om.o.Tasks = append(om.o.Tasks, t.name) // every row of it left out
		}
	}
	tasks = kept
	omitted := om.result(row)
	if len(tasks) == 0 && opt.newRows == nil {
		return nil, nil, parseErr(name, 1, 1, ErrNoRows, "no data rows left: every one of the %d rows has a missing value (%s); fill some in", row, columnCounts(omitted.Columns))
	}
	d := opt.Features
	if d == 0 {
		d = maxIdx
	}
	if d == 0 {
		return nil, nil, fmt.Errorf("%s: no features: no line has an index:value field; give each line its features as index:value after the task and the label", name)
	}
	ds := &Dataset{Name: name, Features: d, SourceRows: row}
	ys := make([][]float64, len(tasks))
	cls := make([][]int8, len(tasks))
	for k, t := range tasks {
		ys[k], cls[k] = t.y, t.cls
	}
	if opt.newRows == nil {
		if err := lab.finish(ds, opt.Positive, ys, cls); err != nil {
			return nil, nil, err
		}
	}
	ds.Tasks = make([]Task, len(tasks))
	for k, t := range tasks {
		s := &CSR{Rows: len(t.y), Cols: d, Indptr: t.indptr, Indices: t.ind, Values: t.val}
		ds.Tasks[k] = Task{Name: t.name, S: s, Y: t.y, Source: t.src}
	}
	return ds, omitted, nil
}

// sparseTask is a task's rows as readSparse reads them: a CSR's parts, the
// labels (y, and cls the classes of a classifier's) and each row's place
// among the file's data rows (src).
type sparseTask struct {
	name   string
	indptr []int
	ind    []int
	val    []float64
	y      []float64
	cls    []int8
	src    []int
}

// readFeatures reads the index:value fields of line lineNo of file name
// (b, from byte from) into t, and returns the last index read, or, when
// opt.OmitMissing leaves the row out for a missing value, what it misses
// ("feature 2"; the caller takes back what was appended).
func (t *sparseTask) readFeatures(b []byte, from int, name string, lineNo int, opt SparseOptions) (prev int, missing string, err error) {
	for p := from; missing == ""; {
		s, e := nextField(b, p)
		if s == e || b[s] == '#' {
			break
		}
		p = e
		tok := b[s:e]
		colon := bytes.IndexByte(tok, ':')
		if colon < 0 {
			return 0, "", parseErr(name, lineNo, s+1, ErrToken, "bad token %q: want index:value", short(string(tok)))
		}
		idx, err := parseIndex(tok[:colon])
		if err != nil {
			return 0, "", &ParseError{File: name, Line: lineNo, Column: s + 1, Err: err}
		}
		switch {
		case idx <= prev:
			return 0, "", parseErr(name, lineNo, s+1, ErrIndex, "feature index %d not greater than previous %d: indices must increase within a line", idx, prev)
		case opt.Features > 0 && idx > opt.Features && opt.newRows != nil:
			// A feature the model was not trained on has no weight in
			// it: read nothing of it, as a CSV's extra column is not
			// read, and say so (readNewSparse).
			nr := opt.newRows
			if nr.beyondLine != lineNo {
				nr.beyondRows, nr.beyondLine = nr.beyondRows+1, lineNo
			}
			nr.beyondMax = max(nr.beyondMax, idx)
			prev = idx
			continue
		case opt.Features > 0 && idx > opt.Features:
			return 0, "", parseErr(name, lineNo, s+1, ErrIndex, "feature index %d greater than the number of features %d", idx, opt.Features)
		}
		x, st := parseNum(string(tok[colon+1:]))
		if st != numOK {
			// The value's text is copied out only here, for a value that
			// is no number (a copy per field cost the sentiment file
			// 600,000 allocations).
			val := string(tok[colon+1:])
			if st == numEmpty || st == numSyntax && missingCell(val) || st == numNotFinite && nanCell(val) {
				switch {
				case opt.OmitMissing:
					missing = fmt.Sprintf("feature %d", idx)
				case st == numNotFinite: // NaN: a missing value, as in a CSV
					return 0, "", omittable(parseErr(name, lineNo, s+1, ErrNotFinite, "NaN or Inf value %q for feature %d", short(val), idx))
				default:
					return 0, "", omittable(parseErr(name, lineNo, s+1, ErrMissingValue, "missing value%s for feature %d in token %q", marker(val), idx, short(string(tok))))
				}
				break
			}
			switch st {
			case numNotFinite:
				return 0, "", parseErr(name, lineNo, s+1, ErrNotFinite, "infinite value %q for feature %d: give a finite number, or delete the row", short(val), idx)
			case numTooLarge:
				return 0, "", parseErr(name, lineNo, s+1, ErrTooLarge, "value %g for feature %d is beyond ±1e100, too large to train on: rescale the feature", x, idx)
			case numSyntax:
				fix := "correct the value, or delete the row"
				if v, st := parseNum(strings.Replace(val, ",", ".", 1)); st == numOK && strings.Count(val, ",") == 1 {
					fix = fmt.Sprintf("the sparse format writes a decimal point: %g", v)
				}
				return 0, "", parseErr(name, lineNo, s+1, ErrNotNumber, "non-numeric value %q for feature %d: %s", short(val), idx, fix)
			}
		}
		prev = idx
		t.ind = append(t.ind, idx-1)
		t.val = append(t.val, x)
	}
	return prev, missing, nil
}

// sparseOmitted counts the rows readSparse leaves out for a missing value
// (SparseOptions.OmitMissing), by what they miss: "label", "feature 2".
type sparseOmitted struct {
	o     Omitted
	cols  map[string]int
	order []string
}

// add counts a row, at line, missing what.
func (m *sparseOmitted) add(what string, line int) {
	m.o.Rows++
	if len(m.o.Lines) < omittedLines {
		m.o.Lines = append(m.o.Lines, line)
	}
	if m.cols[what] == 0 {
		m.order = append(m.order, what)
	}
	m.cols[what]++
}

// result is what was left out of the file's rows, or nil when nothing was.
func (m *sparseOmitted) result(rows int) *Omitted {
	if m.o.Rows == 0 {
		return nil
	}
	m.o.Of = rows
	for _, c := range m.order {
		m.o.Columns = append(m.o.Columns, MissingColumn{Name: c, Cells: m.cols[c]})
	}
	sort.SliceStable(m.o.Columns, func(i, j int) bool { return m.o.Columns[i].Cells > m.o.Columns[j].Cells })
	return &m.o
}

// isMissing reports whether err refuses a missing value (or NaN) that
// leaving its row out would take away (omittable).
func isMissing(err error) bool {
	var pe *ParseError
	return errors.As(err, &pe) && pe.Remedy.Omit
}

// firstMissing is the refusal err of a missing label or value, as a
// *ParseError with the remedy of leaving such rows out.
func firstMissing(err error) *ParseError {
	var pe *ParseError
	if !errors.As(omittable(err), &pe) {
		pe = &ParseError{Err: err}
	}
	return pe
}

// countMissing adds to the refusal of a sparse file's first missing value
// how many rows miss one and what (om: the file read as if they were left
// out), as a CSV's refusal says (missingCount.refusal); when every row
// misses one, leaving them out is not offered.
func countMissing(pe *ParseError, om *Omitted) *ParseError {
	if om == nil {
		return pe
	}
	out := *pe
	// The sparse format's "columns" are the label and feature numbers,
	// named without the quotes a CSV's names with spaces get.
	what := make([]string, len(om.Columns))
	for i, c := range om.Columns {
		what[i] = fmt.Sprintf("%s: %d", c.Name, c.Cells)
	}
	count := countOf(om.Rows, om.Of, "have") + " a missing value (" + strings.Join(what, ", ") + ")"
	if om.Rows == om.Of {
		out.Remedy.Omit = false
		out.Err = fmt.Errorf("%w: %s; fill some in", pe.Err, count)
		return &out
	}
	out.Err = fmt.Errorf("%w: %s; leave those rows out, or fill the values in", pe.Err, count)
	return &out
}

// omittable gives a refusal of a missing value the remedy of leaving such
// rows out (SparseOptions.OmitMissing).
func omittable(err error) error {
	var pe *ParseError
	if errors.As(err, &pe) {
		pe.Remedy.Omit = true
	}
	return err
}

// scanLines is bufio.ScanLines, except that a lone carriage return also
// ends a line (Excel for Mac's "CSV (Macintosh)" ends its lines so), so
// that such a file reads line by line with its lines numbered. A "\r\n"
// is one line break.
func scanLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	end := bytes.IndexByte(data, '\n')
	line := data
	if end >= 0 {
		line = data[:end]
	}
	if cr := bytes.IndexByte(line, '\r'); cr >= 0 && cr+1 < len(line) {
		return cr + 1, data[:cr], nil // a lone CR inside
	} else if cr >= 0 && end < 0 && !atEOF {
		return 0, nil, nil // a CR at the end of what is read: is a LF next?
	}
	if end >= 0 {
		return end + 1, bytes.TrimSuffix(line, []byte("\r")), nil
	}
	if atEOF {
		return len(data), bytes.TrimSuffix(data, []byte("\r")), nil
	}
	return 0, nil, nil
}

// nextField returns the bounds [s, e) of the first field of b at or after
// p; s == e when there is none.
func nextField(b []byte, p int) (s, e int) {
	for p < len(b) && isSpace(b[p]) {
		p++
	}
	s = p
	for p < len(b) && !isSpace(b[p]) {
		p++
	}
	return s, p
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// parseIndex parses a decimal feature index: an optional sign and digits,
// at least 1 and at most MaxFeatures.
func parseIndex(b []byte) (int, error) {
	neg := false
	digits := b
	if len(digits) > 0 && (digits[0] == '+' || digits[0] == '-') {
		neg = digits[0] == '-'
		digits = digits[1:]
	}
	if len(digits) == 0 {
		return 0, errf(ErrNotNumber, "non-numeric feature index %q: want a positive integer before the colon", short(string(b)))
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, errf(ErrNotNumber, "non-numeric feature index %q: want a positive integer before the colon", short(string(b)))
		}
		if n <= MaxFeatures {
			n = n*10 + int64(c-'0')
		}
	}
	switch {
	case neg || n == 0:
		return 0, errf(ErrIndex, "feature index %s: indices are 1-based", short(string(b)))
	case n > MaxFeatures:
		return 0, errf(ErrIndex, "feature index %s is beyond %d, the most features spmtl reads (every task keeps a weight for each feature up to the largest index): number the features 1, 2, 3, ... without large gaps", short(string(b)), MaxFeatures)
	}
	return int(n), nil
}

// readSparseFormat is the sparse format's row of the formats: ReadSparse
// on a text Load has checked, as a table without header or columns. The
// format has no named columns to leave out or read as words.
func readSparseFormat(text []byte, name string, opt Options) (*Table, error) {
	if len(opt.Drop) > 0 {
		return nil, fmt.Errorf("%s: the sparse format has no named columns to leave out", name)
	}
	if len(opt.Text) > 0 {
		return nil, fmt.Errorf("%s: the sparse format has no named columns to read as words", name)
	}
	// The default names are what a form sends when nothing was chosen.
	if c := strings.TrimSpace(opt.TaskColumn); c != "" && c != "task" {
		return nil, fmt.Errorf("%s: the sparse format has no named columns: each line's first field is its task, so there is no task column %q to read; leave the task column unset", name, short(c))
	}
	if c := strings.TrimSpace(opt.LabelColumn); c != "" && c != "y" {
		return nil, fmt.Errorf("%s: the sparse format has no named columns: each line's second field is its label, so there is no label column %q to read; leave the label column unset", name, short(c))
	}
	ds, omitted, err := readSparse(bytes.NewReader(text), name, SparseOptions{Kind: opt.Kind, Positive: opt.Positive, Features: opt.Features, OmitMissing: opt.OmitMissing})
	if err != nil {
		return nil, err
	}
	return &Table{Data: ds, Encoding: &Encoding{Format: "sparse", Features: ds.Features}, Omitted: omitted}, nil
}

// readNewSparse reads new rows in the sparse format for a model with enc's
// features; tasks, when set, are the tasks it knows. Each row is kept as
// its line in the file (the warnings' lines) and its task, the columns of
// Header.
func readNewSparse(text []byte, name string, enc *Encoding, opt NewRowsOptions) (*Table, error) {
	nr := &sparseNewRows{skipped: &Skipped{}, taskOf: map[int]string{}}
	if opt.Tasks != nil {
		nr.known, nr.list, nr.models, nr.skip = map[string]bool{}, opt.Tasks, opt.NewTaskModels, opt.SkipUnknown
		for _, tn := range opt.Tasks {
			nr.known[tn] = true
		}
	}
	so := SparseOptions{Features: enc.Features, OmitMissing: opt.OmitMissing, newRows: nr}
	ds, omitted, err := readSparse(bytes.NewReader(text), name, so)
	if err != nil {
		return nil, err
	}
	if ds.Features != enc.Features {
		return nil, fmt.Errorf("predict %s: %d features, the model has %d", name, ds.Features, enc.Features)
	}
	tab := &Table{Data: ds, Encoding: &Encoding{Format: "sparse", Features: ds.Features}, Header: []string{"line", "task"}, Omitted: omitted}
	tab.Rows = make([][]string, ds.SourceRows)
	for i := range ds.Tasks {
		for _, src := range ds.Tasks[i].Source {
			tab.Rows[src] = []string{strconv.Itoa(nr.lines[src]), ds.Tasks[i].Name}
		}
	}
	tab.Truth = make([]float64, len(nr.labels))
	nums := classNumbers(opt.Classes)
	for i, l := range nr.labels {
		s := strings.TrimSpace(l)
		if missingCell(s) {
			tab.Truth[i] = math.NaN()
			continue
		}
		v, st := parseNum(s)
		if st != numOK {
			v = math.NaN()
		}
		tab.Truth[i] = truthOf(s, v, opt.Classes, nums)
	}
	if nr.beyondRows > 0 {
		tab.Warnings = append(tab.Warnings, fmt.Sprintf("%s a feature index above the model's %d (up to %d): the model was trained on %d features and has no weight for the others, so their values are not read",
			countOf(nr.beyondRows, ds.SourceRows, "have"), enc.Features, nr.beyondMax, enc.Features))
	}
	if nr.skipped.Rows > 0 {
		nr.skipped.Of = ds.SourceRows
		tab.Skipped = nr.skipped
	}
	if len(nr.taskOf) > 0 {
		for src, r := range tab.Rows {
			if r == nil {
				tab.Rows[src] = []string{strconv.Itoa(nr.lines[src]), nr.taskOf[src]}
			}
		}
	}
	return tab, nil
}
