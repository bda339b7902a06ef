package data

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// KindChoice tells a reader which Kind the labels are: detect it, or force
// one.
type KindChoice int

const (
	// KindAuto detects the kind: Classification when the labels take
	// exactly two distinct values, or when any label is not a number (then
	// there must be at most two distinct labels); Regression otherwise
	// (numbers taking one value, or more than two).
	KindAuto KindChoice = iota
	// KindRegression forces Regression: every label must be a finite
	// number, and they are kept as they are.
	KindRegression
	// KindClassification forces Classification: the labels must take at
	// most two distinct values.
	KindClassification
)

// String returns "auto", "regression" or "classification".
func (c KindChoice) String() string {
	switch c {
	case KindRegression:
		return "regression"
	case KindClassification:
		return "classification"
	}
	return "auto"
}

// Label mapping for classification, shared by the readers, follows the
// rules in the package documentation (doc.go, "Labels").

// labelClass is one distinct label seen so far.
type labelClass struct {
	text    string  // first spelling
	num     float64 // value when numeric
	numeric bool
}

// labeler collects the labels of a file as they are read, detects the kind
// and reports contradictions at the row where they appear.
type labeler struct {
	file    string
	column  string // column name for messages, "" when the format has none
	mode    KindChoice
	classes []labelClass // at most two
	many    bool         // more than two distinct numeric labels seen (auto)
	// firstText is the first non-numeric label seen, if any.
	firstText string
	nonNum    bool
}

// add records one label at line:col. It returns the class index (0 or 1,
// or -1 when the label is one of more than two numeric values) and the
// numeric value (0 for non-numeric labels).
func (l *labeler) add(raw string, line, col int) (int8, float64, error) {
	s := strings.TrimSpace(raw)
	if s == "" || missingMarkers[s] {
		marked := ""
		if s != "" {
			marked = fmt.Sprintf(" (%q)", short(s))
		}
		return 0, 0, parseErr(l.file, line, col, ErrMissingValue, "missing label%s%s: give the row its label, or delete the row", marked, l.where())
	}
	v, st := parseNum(s)
	switch st {
	case numNotFinite:
		return 0, 0, parseErr(l.file, line, col, ErrNotFinite, "NaN or Inf label %q%s: correct the label, or delete the row", short(s), l.where())
	case numTooLarge:
		return 0, 0, parseErr(l.file, line, col, ErrTooLarge, "label %g%s is beyond ±1e100, too large to train on: rescale the labels", v, l.where())
	case numSyntax:
		if l.mode == KindRegression {
			return 0, 0, parseErr(l.file, line, col, ErrNotNumber, "non-numeric label %q%s: regression labels must be numbers", short(s), l.where())
		}
	}
	numeric := st == numOK
	for k := range l.classes {
		c := &l.classes[k]
		if (numeric && c.numeric && c.num == v) || c.text == s {
			return l.noteText(s, numeric, int8(k), v, line, col)
		}
	}
	if len(l.classes) < 2 && !l.many {
		l.classes = append(l.classes, labelClass{text: strings.Clone(s), num: v, numeric: numeric})
		return l.noteText(s, numeric, int8(len(l.classes)-1), v, line, col)
	}
	// A new distinct label beyond two.
	if l.mode == KindRegression {
		return -1, v, nil
	}
	if l.mode == KindClassification || l.nonNum || !numeric {
		if l.many {
			return 0, 0, l.notNumbers(s, line, col)
		}
		for _, c := range l.classes {
			if strings.EqualFold(c.text, s) {
				return 0, 0, parseErr(l.file, line, col, ErrLabels, "third class %q: labels seen so far are %q and %q, and %q differs from %q only in letter case: write each class the same way throughout",
					short(s), short(l.classes[0].text), short(l.classes[1].text), short(s), short(c.text))
			}
		}
		fix := "merge the classes into two, or keep only the rows of two"
		if _, st := parseNum(s); st == numOK && l.nonNum && l.mode != KindClassification {
			// Numbers but for one word: the word is likely a missing
			// value written as SAS or a spreadsheet writes one.
			fix = fmt.Sprintf("if %q marks a missing label, write NA there instead (rows missing a label can be left out), or correct it", short(l.firstText))
		} else if _, st := parseNum(s); st != numOK && l.classes[0].numeric && l.classes[1].numeric {
			// A word among 0/1 labels: likely a missing value too.
			fix = fmt.Sprintf("if %q marks a missing label, write NA there instead (rows missing a label can be left out); else %s", short(s), fix)
		}
		return 0, 0, parseErr(l.file, line, col, ErrLabels, "third class %q: labels seen so far are %q and %q%s; a classifier here learns two classes: %s",
			short(s), short(l.classes[0].text), short(l.classes[1].text), l.why(), fix)
	}
	l.many = true
	return -1, v, nil
}

// noteText records a non-numeric label and fails when the numeric labels
// before it already rule out classification.
func (l *labeler) noteText(s string, numeric bool, k int8, v float64, line, col int) (int8, float64, error) {
	if !numeric && !l.nonNum {
		l.nonNum = true
		l.firstText = strings.Clone(s)
		if l.many {
			return 0, 0, l.notNumbers(s, line, col)
		}
	}
	return k, v, nil
}

func (l *labeler) notNumbers(s string, line, col int) error {
	return parseErr(l.file, line, col, ErrLabels,
		"non-numeric label %q%s, but the labels before it take more than two values (%q, %q, ...): they are neither numbers nor two classes; if %q marks a missing label, write NA there instead (rows missing a label can be left out), or correct it",
		short(s), l.where(), short(l.classes[0].text), short(l.classes[1].text), short(s))
}

// where names the label column for a message, if there is one.
func (l *labeler) where() string {
	if l.column == "" {
		return ""
	}
	return " in column " + l.column
}

// why explains, for a third-class error, why the labels are classes.
func (l *labeler) why() string {
	switch {
	case l.mode == KindClassification:
		return " (classification wants two)"
	case l.nonNum:
		return fmt.Sprintf(" (labels are classes because %q is not a number)", short(l.firstText))
	}
	return ""
}

// kind returns the kind decided by the labels read.
func (l *labeler) kind() Kind {
	switch l.mode {
	case KindRegression:
		return Regression
	case KindClassification:
		return Classification
	}
	if l.nonNum || (len(l.classes) == 2 && !l.many) {
		return Classification
	}
	return Regression
}

// positive returns the index of the positive class (-1 when every example
// is negative) and the class names, following the rules above.
func (l *labeler) positive(want string) (pos int, posName, negName string, err error) {
	cs := l.classes
	name := func(k int) string {
		if k < 0 || k >= len(cs) {
			return ""
		}
		return cs[k].text
	}
	other := func(k int) int {
		if len(cs) == 2 {
			return 1 - k
		}
		return -1
	}
	if want = strings.TrimSpace(want); want != "" {
		wv, perr := strconv.ParseFloat(want, 64)
		for k, c := range cs {
			if c.text == want || (perr == nil && c.numeric && c.num == wv) {
				return k, c.text, name(other(k)), nil
			}
		}
		if len(cs) == 2 {
			return 0, "", "", fmt.Errorf("%s: positive class %q is not one of the labels %q and %q", l.file, want, cs[0].text, cs[1].text)
		}
		return -1, want, name(0), nil
	}
	if len(cs) == 0 {
		return -1, "", "", nil
	}
	if len(cs) == 1 {
		c := cs[0]
		if (c.numeric && c.num > 0) || (!c.numeric && looksPositive(c.text)) {
			return 0, c.text, "", nil
		}
		return -1, "", c.text, nil
	}
	var k int
	switch p0, p1, n0, n1 := looksPositive(cs[0].text), looksPositive(cs[1].text), looksNegative(cs[0].text), looksNegative(cs[1].text); {
	case cs[0].numeric && cs[1].numeric:
		if cs[1].num > cs[0].num {
			k = 1
		}
	case p0 != p1:
		if p1 {
			k = 1
		}
	case n0 != n1:
		if n0 {
			k = 1
		}
	case cs[1].text > cs[0].text:
		k = 1
	}
	return k, cs[k].text, cs[1-k].text, nil
}

func looksPositive(s string) bool {
	switch strings.ToLower(s) {
	case "1", "+1", "true", "yes", "pos", "positive":
		return true
	}
	return false
}

func looksNegative(s string) bool {
	switch strings.ToLower(s) {
	case "0", "-1", "false", "no", "neg", "negative":
		return true
	}
	return false
}

// finish turns the per-example class indices into ±1 labels in y when
// the kind is Classification, and fills ds.Kind, ds.Positive and
// ds.Negative.
func (l *labeler) finish(ds *Dataset, want string, ys [][]float64, cls [][]int8) error {
	ds.Kind = l.kind()
	if ds.Kind == Regression {
		return nil
	}
	pos, pn, nn, err := l.positive(want)
	if err != nil {
		return err
	}
	ds.Positive, ds.Negative = pn, nn
	for t := range ys {
		y, c := ys[t], cls[t]
		for i := range y {
			if int(c[i]) == pos {
				y[i] = 1
			} else {
				y[i] = -1
			}
		}
	}
	return nil
}

// labelTracker remembers the distinct labels and where the third one
// first appears.
type labelTracker struct {
	values []string
	seen   map[string]bool
	third  *ParseError
	allInt bool
	// numeric: every label is a number.
	numeric bool
	count   int
	// rows counts the labels read; first and last are the first and the
	// last of them while each is one more than the one before (a row
	// number chosen as the label), and uneven is set at the first that
	// is not.
	rows        int
	first, last float64
	uneven      bool
}

// step follows the labels' values in file order (counting).
func (l *labelTracker) step(v float64) {
	switch {
	case l.uneven:
	case l.rows == 0:
		l.first, l.last = v, v
	case v == l.last+1 && v == math.Trunc(v):
		l.last = v
	default:
		l.uneven = true
	}
	l.rows++
}

// counting reports whether the labels count up by one from row to row,
// over at least minIDRows rows, as a row number does.
func (l *labelTracker) counting() bool {
	return !l.uneven && l.rows >= minIDRows && l.first == math.Trunc(l.first)
}

func (l *labelTracker) add(s string, line, col int, file string) {
	if l.seen == nil {
		l.seen, l.allInt, l.numeric = map[string]bool{}, true, true
	}
	if l.seen[s] {
		return
	}
	l.seen[s] = true
	l.count++
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v != math.Trunc(v) || math.Abs(v) > 100 {
		l.allInt = false
	}
	if err != nil {
		l.numeric = false
	}
	if len(l.values) <= 10 {
		l.values = append(l.values, strings.Clone(s))
	}
	if l.count == 3 {
		l.third = &ParseError{File: file, Line: line, Column: col}
	}
}

// info describes the labels; a few small integers read as regression get
// a note, and so do two numbers with a fraction read as two classes (0.1
// and 0.9 were silently a classifier's classes).
func (l *labelTracker) info(col string, kind Kind) LabelInfo {
	out := LabelInfo{Values: l.values, Distinct: l.count}
	switch {
	case kind == Regression && l.allInt && l.count >= 3 && l.count <= 10:
		// In number order (chem97's 10, 6, 8, 4, 2, 0 read as a list to
		// decode); every one is a whole number here.
		// An insertion sort of at most ten: slices.SortFunc on strings
		// was a new instantiation of its sort, 3.8 KB of the gzipped
		// learner.
		inOrder := slices.Clone(l.values)
		num := func(s string) float64 { x, _ := strconv.ParseFloat(s, 64); return x }
		for i := 1; i < len(inOrder); i++ {
			for j := i; j > 0 && num(inOrder[j]) < num(inOrder[j-1]); j-- {
				inOrder[j], inOrder[j-1] = inOrder[j-1], inOrder[j]
			}
		}
		out.Note = fmt.Sprintf("%s has %d distinct values (%s): read as regression", col, l.count, strings.Join(inOrder, ", "))
		out.Third = l.third
	case kind == Regression && l.counting():
		out.Note = fmt.Sprintf("%s counts up by one from row to row (%s, %s, … %s), as a row number does: a model of it learns nothing; choose the column that holds what to predict",
			col, strconv.FormatFloat(l.first, 'f', -1, 64), strconv.FormatFloat(l.first+1, 'f', -1, 64), strconv.FormatFloat(l.last, 'f', -1, 64))
	case kind == Classification && l.count == 2 && l.numeric && !l.allInt:
		out.Note = fmt.Sprintf("%s has two values, %s and %s, so it is read as two classes (a label of measurements would have more)", col, l.values[0], l.values[1])
	}
	return out
}
