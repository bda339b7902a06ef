package data

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// readNewCSV reads the new rows of a checked CSV text the way a model's
// training rows were read (ReadTable with opt.Encoding), in one pass: its
// feature columns by name (any order; others ignored), its text values (an
// unseen value gets all-zero indicators and a warning), the label column
// optional and ignored. With opt.Tasks, a row of another task is an error
// at its line. Every row's fields are kept (Table.Rows).
func readNewCSV(text []byte, name string, opt TableOptions) (*Table, error) {
	enc := opt.Encoding
	taskCol := cmp.Or(enc.TaskColumn, strings.TrimSpace(opt.TaskColumn), "task")
	labelCol := cmp.Or(enc.LabelColumn, strings.TrimSpace(opt.LabelColumn), "y")
	t, cr, err := openCSV(text, name, opt.Delimiter, taskCol, labelCol)
	if err != nil {
		return nil, err
	}
	t.decimalMarks = t.decimalMarks || (enc.DecimalComma && (t.delim == ',' || t.delim == '\t'))
	t.groupDots = t.groupDots || (enc.DecimalComma && (t.delim == ',' || t.delim == ';'))
	ti, ok := t.idx[taskCol]
	if !ok {
		return nil, parseErr(name, t.hline, 1, ErrHeader, "no task column %q in header (%s): the file must have the columns the model was trained with%s", short(taskCol), listNames(t.header), invisibleTwin(t.header, taskCol))
	}
	t.task, t.roles[ti] = ti, RoleTask
	if li, ok := t.idx[labelCol]; ok {
		t.label, t.roles[li] = li, RoleLabel
	}
	// A label column under another case ("Y" for "y") is not the model's,
	// so the rows are not scored: said, since the visitor kept the labels
	// to score them (hunt10).
	var caseNote string
	if t.label < 0 {
		for _, h := range t.header {
			if h != labelCol && strings.EqualFold(strings.TrimSpace(h), labelCol) {
				caseNote = fmt.Sprintf("the file has no column %q, the model's label column, but one named %q: name it %q to score the predictions against its labels", short(labelCol), short(h), short(labelCol))
				break
			}
		}
	}
	// Only the model's feature columns are read, in its order.
	want := map[string]bool{}
	for _, c := range enc.Columns {
		if _, ok := t.idx[c.Name]; !ok {
			return nil, parseErr(name, t.hline, 1, ErrHeader, "no column %q in header (%s): the model was trained with it, so the file must have it too%s", short(c.Name), listNames(t.header), invisibleTwin(t.header, c.Name))
		}
		want[c.Name] = true
	}
	for j, h := range t.header {
		if t.roles[j] == RoleNumeric && !want[h] {
			t.roles[j] = RoleDropped
		}
	}
	if err := t.drop(opt.Drop); err != nil {
		return nil, err
	}
	cols := slices.Clone(enc.Columns)
	colOf := make([]int, len(t.header))
	for j := range colOf {
		colOf[j] = -1
	}
	for k, c := range cols {
		j := t.idx[c.Name]
		colOf[j] = k
		if c.Values != nil && t.roles[j] == RoleNumeric {
			t.roles[j] = RoleText
		}
	}
	tab := &Table{Header: t.header}
	if tab.Columns, err = t.columnInfos(cols, colOf, nil, 0); err != nil {
		return nil, err
	}
	r := newRowReader(t, cols, colOf)
	r.keep = true
	if opt.OmitMissing {
		r.missing, r.omit = &missingCount{}, true
	}
	if opt.Tasks != nil {
		r.skipUnknown = opt.skipUnknown
		r.known, r.knownList, r.newTaskModels = map[string]bool{}, opt.Tasks, opt.newTaskModels
		for _, tn := range opt.Tasks {
			r.known[tn] = true
		}
	}
	r.bad = func(j, line int, st numStatus, s string, x float64) error {
		return valueErr(name, line, j+1, st, s, x, t.header[j], true)
	}
	if err := r.read(cr); err != nil {
		// A missing value's refusal says whether leaving such rows out
		// (OmitMissing) is a remedy (predictGaps.refusal).
		return nil, err
	}
	// The new rows' own conventions (their delimiter, their decimal comma:
	// after a semicolon, or in a comma-separated file that writes one), for
	// a file of predictions written as they are.
	tab.Encoding = &Encoding{Format: "csv", Delimiter: string(t.delim), TaskColumn: taskCol, LabelColumn: labelCol,
		Columns: cols, Dropped: t.leftOut(), Features: r.d, DecimalComma: t.delim == ';' || t.decimalMarks}
	if err := r.finish(tab, ""); err != nil {
		return nil, err
	}
	if t.label >= 0 {
		tab.Truth = t.truth(tab.Rows, opt.classes)
	}
	if caseNote != "" {
		tab.Warnings = append(tab.Warnings, caseNote)
	}
	return tab, nil
}

// truth reads the label column of new rows for a score of their
// predictions (Table.Truth): as training reads a label (the file's own
// decimal comma, thousands separators, a unit), but where training refuses
// a label, a missing or unreadable one here only leaves its row unscored.
// With classes (negative, positive) a label is a class: its text as the
// training file wrote it, or the same number written otherwise ("1.0").
func (t *csvTable) truth(rows [][]string, classes []string) []float64 {
	nums := classNumbers(classes)
	out := make([]float64, len(rows))
	for i, rec := range rows {
		out[i] = math.NaN()
		if t.label >= len(rec) {
			continue
		}
		s := strings.TrimSpace(rec[t.label])
		if missingCell(s) {
			continue
		}
		num, comma, _ := numberText(s, t.delim, t.decimalMarks, t.groupDots)
		v, st := parseNum(num)
		if st != numOK || comma == strayDot {
			v = math.NaN()
		}
		out[i] = truthOf(s, v, classes, nums)
	}
	return out
}

// classNumbers is each class as a number (NaN for a word), for truthOf:
// "1.0" is class "1".
func classNumbers(classes []string) []float64 {
	nums := make([]float64, len(classes))
	for k, c := range classes {
		if v, st := parseNum(c); st == numOK {
			nums[k] = v
		} else {
			nums[k] = math.NaN()
		}
	}
	return nums
}

// truthOf is a new row's label for a score: v (the label s as a number, or
// NaN) without classes; with classes (negative, positive), −1 or +1 when s
// is one of them as written or as the same number, else NaN.
func truthOf(s string, v float64, classes []string, nums []float64) float64 {
	if len(classes) != 2 {
		return v
	}
	for k, c := range classes {
		if s == c || v == nums[k] {
			return float64(2*k - 1)
		}
	}
	return math.NaN()
}
