package data

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
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
	// is an error. When 0, d is the largest index in the file.
	Features int
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
	labels  []string
	known   map[string]bool
	list    []string
	models  []string
	skip    bool
	skipped *Skipped
	// taskOf names the task of each row left out, by its place.
	taskOf map[int]string
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
	if opt.Features < 0 || opt.Features > MaxFeatures {
		return nil, fmt.Errorf("%s: %d features: want 0 (the largest index) to %d", name, opt.Features, MaxFeatures)
	}
	type sparseTask struct {
		name   string
		indptr []int
		ind    []int
		val    []float64
		y      []float64
		cls    []int8
		src    []int
	}
	var (
		tasks    []*sparseTask
		byName   = map[string]*sparseTask{}
		lab      = labeler{file: name, mode: opt.Kind}
		lineNo   int
		row      int
		maxIdx   int
		nonBlank bool
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
		ls, le := nextField(b, te)
		if ls == le || b[ls] == '#' {
			return nil, parseErr(name, lineNo, ls+1, ErrMissingValue, "missing label after task %q: want task label index:value ...", short(string(b[ts:te])))
		}
		if bytes.IndexByte(b[ls:le], ':') >= 0 && bytes.IndexByte(b[ts:te], ':') < 0 {
			// libsvm's format: "label index:value ..." with no task.
			return nil, parseErr(name, lineNo, ls+1, ErrToken, "the second field %q is a feature (index:value) where the label should be: a line is task label index:value ...; a libsvm file has no task, so put each line's task name first", short(string(b[ls:le])))
		}
		if te-ts > MaxNameBytes {
			return nil, parseErr(name, lineNo, ts+1, ErrLongName, "the task name is %d bytes long, more than the %d a name may have: shorten it", te-ts, MaxNameBytes)
		}
		nr := opt.newRows
		if nr != nil {
			nr.labels = append(nr.labels, string(b[ls:le]))
		}
		if nr != nil && nr.known != nil && !nr.known[string(b[ts:te])] {
			tn := string(b[ts:te])
			if !nr.skip {
				return nil, unknownTask(name, lineNo, ts+1, tn, nr.list, nr.models)
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
		if nr == nil {
			var err error
			if c, v, err = lab.add(string(b[ls:le]), lineNo, ls+1); err != nil {
				return nil, err
			}
		}
		prev := 0
		for p := le; ; {
			s, e := nextField(b, p)
			if s == e || b[s] == '#' {
				break
			}
			p = e
			tok := b[s:e]
			colon := bytes.IndexByte(tok, ':')
			if colon < 0 {
				return nil, parseErr(name, lineNo, s+1, ErrToken, "bad token %q: want index:value", short(string(tok)))
			}
			idx, err := parseIndex(tok[:colon])
			if err != nil {
				return nil, &ParseError{File: name, Line: lineNo, Column: s + 1, Err: err}
			}
			switch {
			case idx <= prev:
				return nil, parseErr(name, lineNo, s+1, ErrIndex, "feature index %d not greater than previous %d: indices must increase within a line", idx, prev)
			case opt.Features > 0 && idx > opt.Features:
				return nil, parseErr(name, lineNo, s+1, ErrIndex, "feature index %d greater than the number of features %d", idx, opt.Features)
			}
			x, st := parseNum(string(tok[colon+1:]))
			switch st {
			case numEmpty:
				return nil, parseErr(name, lineNo, s+1, ErrMissingValue, "missing value for feature %d in token %q", idx, short(string(tok)))
			case numNotFinite:
				return nil, parseErr(name, lineNo, s+1, ErrNotFinite, "NaN or Inf value %q for feature %d", short(string(tok[colon+1:])), idx)
			case numTooLarge:
				return nil, parseErr(name, lineNo, s+1, ErrTooLarge, "value %g for feature %d is beyond ±1e100, too large to train on: rescale the feature", x, idx)
			case numSyntax:
				return nil, parseErr(name, lineNo, s+1, ErrNotNumber, "non-numeric value %q for feature %d", short(string(tok[colon+1:])), idx)
			}
			prev = idx
			t.ind = append(t.ind, idx-1)
			t.val = append(t.val, x)
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
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &ParseError{File: name, Line: lineNo + 1, Column: 1, Err: fmt.Errorf("line longer than %d bytes: %w", maxLineBytes, err)}
		}
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if row == 0 {
		if !nonBlank {
			return nil, parseErr(name, 1, 1, ErrEmptyFile, "empty file: want lines of task label index:value ...")
		}
		return nil, parseErr(name, 1, 1, ErrNoRows, "no data rows: the file has only comments")
	}
	d := opt.Features
	if d == 0 {
		d = maxIdx
	}
	if d == 0 {
		return nil, fmt.Errorf("%s: no features: no line has an index:value field; give each line its features as index:value after the task and the label", name)
	}
	ds := &Dataset{Name: name, Features: d, SourceRows: row}
	ys := make([][]float64, len(tasks))
	cls := make([][]int8, len(tasks))
	for k, t := range tasks {
		ys[k], cls[k] = t.y, t.cls
	}
	if opt.newRows == nil {
		if err := lab.finish(ds, opt.Positive, ys, cls); err != nil {
			return nil, err
		}
	}
	ds.Tasks = make([]Task, len(tasks))
	for k, t := range tasks {
		s := &CSR{Rows: len(t.y), Cols: d, Indptr: t.indptr, Indices: t.ind, Values: t.val}
		ds.Tasks[k] = Task{Name: t.name, S: s, Y: t.y, Source: t.src}
	}
	return ds, nil
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
	ds, err := ReadSparse(bytes.NewReader(text), name, SparseOptions{Kind: opt.Kind, Positive: opt.Positive, Features: opt.Features})
	if err != nil {
		return nil, err
	}
	return &Table{Data: ds, Encoding: &Encoding{Format: "sparse", Features: ds.Features}}, nil
}

// readNewSparse reads new rows in the sparse format for a model with enc's
// features; tasks, when set, are the tasks it knows. Each row is kept as
// its number (from 1) and its task, the columns of Header.
func readNewSparse(text []byte, name string, enc *Encoding, opt NewRowsOptions) (*Table, error) {
	nr := &sparseNewRows{skipped: &Skipped{}, taskOf: map[int]string{}}
	if opt.Tasks != nil {
		nr.known, nr.list, nr.models, nr.skip = map[string]bool{}, opt.Tasks, opt.NewTaskModels, opt.SkipUnknown
		for _, tn := range opt.Tasks {
			nr.known[tn] = true
		}
	}
	so := SparseOptions{Features: enc.Features, newRows: nr}
	ds, err := ReadSparse(bytes.NewReader(text), name, so)
	if err != nil {
		return nil, err
	}
	if ds.Features != enc.Features {
		return nil, fmt.Errorf("predict %s: %d features, the model has %d", name, ds.Features, enc.Features)
	}
	tab := &Table{Data: ds, Encoding: &Encoding{Format: "sparse", Features: ds.Features}, Header: []string{"row", "task"}}
	tab.Rows = make([][]string, ds.SourceRows)
	for i := range ds.Tasks {
		for _, src := range ds.Tasks[i].Source {
			tab.Rows[src] = []string{strconv.Itoa(src + 1), ds.Tasks[i].Name}
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
	if nr.skipped.Rows > 0 {
		nr.skipped.Of = ds.SourceRows
		tab.Skipped = nr.skipped
		for src, r := range tab.Rows {
			if r == nil {
				tab.Rows[src] = []string{strconv.Itoa(src + 1), nr.taskOf[src]}
			}
		}
	}
	return tab, nil
}
