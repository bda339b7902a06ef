package data

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// readTraining reads a checked CSV text for training (ReadTable without an
// Encoding): its header, a first pass over the rows for every column's
// statistics (scan), the roles they decide (trainingColumns), then the
// rows themselves (rowReader), labels included.
func readTraining(text []byte, name string, opt TableOptions) (*Table, error) {
	maxCat := cmp.Or(opt.MaxCategories, DefaultMaxCategories)
	t, cr, err := openCSV(text, name, opt.Delimiter, cmp.Or(strings.TrimSpace(opt.TaskColumn), "task"), cmp.Or(strings.TrimSpace(opt.LabelColumn), "y"))
	if err != nil {
		return nil, err
	}
	if err := t.trainingRoles(); err != nil {
		return nil, err
	}
	if err := t.drop(opt.Drop); err != nil {
		return nil, err
	}
	asText, err := t.textColumns(opt.Text)
	if err != nil {
		return nil, err
	}
	stats, err := t.scan(cr, !opt.NumericOnly, maxCat, opt.DropRefused)
	if err != nil {
		return nil, err
	}
	cols, words, err := t.trainingColumns(stats, asText, maxCat, opt.DropRefused)
	if err != nil {
		return nil, err
	}
	if opt.OmitMissing {
		gapless(cols)
	}
	colOf := make([]int, len(t.header))
	for j := range colOf {
		colOf[j] = -1
	}
	for k, c := range cols {
		colOf[t.idx[c.Name]] = k
	}
	offered := stats // the roles a column may take, and ids
	if opt.NumericOnly {
		offered = nil
	}
	tab := &Table{Header: t.header}
	if tab.Columns, err = t.columnInfos(cols, colOf, offered, maxCat); err != nil {
		return nil, err
	}
	r := newRowReader(t, cols, colOf)
	r.labels = &labelReader{col: t.label, lab: labeler{file: name, column: t.labelCol, mode: opt.Kind}}
	r.missing, r.omit = &missingCount{}, opt.OmitMissing
	r.bad = func(j, line int, st numStatus, s string, x float64) error {
		pe := valueErr(name, line, j+1, st, s, x, t.header[j], false)
		if st == numSyntax && !opt.NumericOnly {
			pe.Err = fmt.Errorf("%w%s", pe.Err, advice(&stats[j], maxCat))
			pe.Remedy = Remedy{Drop: t.header[j]}
			if slices.Contains(stats[j].roles(maxCat, maxCat), RoleText) {
				pe.Remedy.Text = t.header[j]
			}
		}
		return pe
	}
	cr = tableReader(t.text, t.delim)
	if err := t.skipHeader(cr); err != nil {
		return nil, err
	}
	if err := r.read(cr); err != nil {
		return nil, err
	}
	tab.Encoding = &Encoding{Format: "csv", Delimiter: string(t.delim), TaskColumn: t.taskCol, LabelColumn: t.labelCol, DecimalComma: t.decimalMarks || t.groupDots,
		Columns: cols, Dropped: t.leftOut(), Text: words, Features: r.d}
	tab.Levels, tab.Codes, tab.ManyCodes, tab.QuotedNumbers, tab.Dates = t.levels, t.codes, t.manyCodes, t.quotedNumbers, t.dates
	if err := r.finish(tab, opt.Positive); err != nil {
		return nil, err
	}
	return tab, nil
}

// dataLikeNames counts the header's names that read as numbers with a
// fraction or a sign ("3.077", "-1.4"): a year or a count ("2019") names a
// column of a wide table, but such numbers are a data row's (a file
// without its header, whose first row was read as one and lost).
func dataLikeNames(header []string) int {
	n := 0
	for _, h := range header {
		if dataLike(h) {
			n++
		}
	}
	return n
}

// dataLike reports whether a name reads as a number with a fraction or a
// sign.
func dataLike(h string) bool {
	_, st := parseNum(h)
	return st == numOK && strings.ContainsAny(h, ".-+eE")
}

// firstDataLike returns the first of names that is dataLike, or "".
func firstDataLike(names []string) string {
	for _, h := range names {
		if dataLike(h) {
			return h
		}
	}
	return ""
}

// hasRows reports whether a row that is not blank follows the header.
func (t *csvTable) hasRows() bool {
	cr := tableReader(t.text, t.delim)
	for {
		rec, err := cr.Read()
		if err != nil {
			return err != io.EOF // a damaged row is a row, which the pass reports
		}
		if line, _ := cr.FieldPos(0); line > t.hline && !allBlank(rec) {
			return true
		}
	}
}

// namedFields counts a header's fields that are not empty.
func namedFields(header []string) int {
	n := 0
	for _, h := range header {
		if strings.TrimSpace(h) != "" {
			n++
		}
	}
	return n
}

// trainingRoles finds the task and label columns, which training needs
// both of, by name; a missing one is refused with the header's columns.
func (t *csvTable) trainingRoles() error {
	if n := dataLikeNames(t.header); n >= 2 && 2*n >= len(t.header) {
		return parseErr(t.name, t.hline, 1, ErrHeader, "the first line (%s) looks like a row of data, not a header (%d of its %d fields are numbers such as %q): add a first line that names the columns (the task column, the label and the features)", listNames(t.header), n, len(t.header), short(firstDataLike(t.header)))
	}
	ti, tok := t.idx[t.taskCol]
	li, lok := t.idx[t.labelCol]
	if named := namedFields(t.header); named == 1 && len(t.header) >= 2 && (!tok || !lok) {
		// "Sales report 2023,,,," above the table, as a spreadsheet's
		// report has: no choice of columns among these reads the file.
		return parseErr(t.name, t.hline, 1, ErrHeader, "the first line (%s) names one column of %d, as a title above a table does: delete the lines above the one that names the columns, and give the file again", listNames(t.header), len(t.header))
	}
	if (!tok || !lok) && !t.hasRows() {
		// Choosing columns for a file of no rows would end in this.
		return parseErr(t.name, t.hline, 1, ErrNoRows, "no data rows: the file has a header and nothing else")
	}
	switch {
	case !tok && t.headerIsData():
		pe := parseErr(t.name, t.hline, 1, ErrHeader, "no task column %q in header (%s), which looks like a row of data: if the file has no header, add a first line that names its columns; else choose the task column among these", short(t.taskCol), listNames(t.header))
		pe.Remedy = Remedy{Choose: RoleTask}
		return pe
	case !tok:
		if twin := invisibleTwin(t.header, t.taskCol); twin != "" {
			return parseErr(t.name, t.hline, 1, ErrHeader, "no task column %q in header (%s)%s", short(t.taskCol), listNames(t.header), twin)
		}
		if err := t.unnamedInstead(true, !lok); err != nil {
			return err
		}
		pe := parseErr(t.name, t.hline, 1, ErrHeader, "no task column %q in header (%s); choose the task column among these", short(t.taskCol), listNames(t.header))
		pe.Remedy = Remedy{Choose: RoleTask}
		return pe
	case !lok:
		if twin := invisibleTwin(t.header, t.labelCol); twin != "" {
			return parseErr(t.name, t.hline, 1, ErrHeader, "no label column %q in header (%s)%s", short(t.labelCol), listNames(t.header), twin)
		}
		if err := t.unnamedInstead(false, true); err != nil {
			return err
		}
		pe := parseErr(t.name, t.hline, 1, ErrHeader, "no label column %q in header (%s); choose the label column among these", short(t.labelCol), listNames(t.header))
		pe.Remedy = Remedy{Choose: RoleLabel}
		return pe
	}
	t.task, t.label = ti, li
	t.roles[ti], t.roles[li] = RoleTask, RoleLabel
	return nil
}

// unnamedInstead refuses a header that lacks the task column (task set),
// the label column (label set) or both when a column with no name holds
// values: the column most likely is the one whose name was lost
// ("task,,x1,x2"), and a choice among the named columns alone never
// offers it, nor says it is there (the page's prompt listed 3 columns of
// a file of 4). It is refused at the header's line and the column, with
// what its values are and what to do: name it, or choose among the named
// ones. The refusal carries no Remedy.Choose: the page turns that into
// its column prompt, whose words are its own, and this message would not
// be seen. The unnamed columns a file starts with are row names (scan)
// and are not named here; nil when no other unnamed column holds a value.
func (t *csvTable) unnamedInstead(task, label bool) error {
	type column struct {
		j, values, numbers, line int
		first                    string
	}
	var cols []column
	for j, h := range t.header {
		if h == "" && !t.leading(j) {
			cols = append(cols, column{j: j})
		}
	}
	if len(cols) == 0 {
		return nil
	}
	rows := 0
	cr := tableReader(t.text, t.delim)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			// A damaged row: the caller's refusal of the missing
			// column stands, and the rows' pass reports the row.
			return nil
		}
		line, _ := cr.FieldPos(0)
		if line <= t.hline || blankRow(rec, t.header) {
			continue
		}
		rows++
		for k := range cols {
			c := &cols[k]
			if c.j >= len(rec) {
				continue
			}
			raw := strings.TrimSpace(rec[c.j])
			if raw == "" {
				continue
			}
			if c.values == 0 {
				c.first, c.line = strings.Clone(raw), line
			}
			c.values++
			if s, _, _ := numberText(raw, t.delim, t.decimalMarks, t.groupDots); numClass(s) == numOK {
				c.numbers++
			}
		}
	}
	var holding []column
	for _, c := range cols {
		if c.values > 0 {
			holding = append(holding, c)
		}
	}
	if len(holding) == 0 {
		return nil
	}
	c := holding[0]
	var what string
	switch {
	case c.numbers == c.values && c.values == rows:
		what = "a number in every row"
	case c.numbers == c.values:
		what = fmt.Sprintf("numbers in %d of the %d rows", c.values, rows)
	case c.numbers == 0 && c.values == rows:
		what = "words in every row"
	case c.numbers == 0:
		what = fmt.Sprintf("words in %d of the %d rows", c.values, rows)
	case c.values == rows:
		what = "a value in every row"
	default:
		what = fmt.Sprintf("values in %d of the %d rows", c.values, rows)
	}
	more := ""
	switch n := len(holding) - 1; {
	case n == 1:
		more = fmt.Sprintf(" (and column %d, with no name, holds values too)", holding[1].j+1)
	case n > 1:
		more = fmt.Sprintf(" (and %d more columns with no name hold values)", n)
	}
	var named []string
	for _, h := range t.header {
		if h != "" {
			named = append(named, h)
		}
	}
	// What is missing, what the column may be, what to name it, what to
	// choose otherwise.
	missing := fmt.Sprintf("task column %q", short(t.taskCol))
	role, names, choose := "the task", strconv.Quote(short(t.taskCol)), "task column"
	switch {
	case task && label:
		missing += fmt.Sprintf(" nor label column %q", short(t.labelCol))
		role, names, choose = "the task or the label", names+" or "+strconv.Quote(short(t.labelCol)), "task and label columns"
	case label:
		missing = fmt.Sprintf("label column %q", short(t.labelCol))
		role, names, choose = "the label", strconv.Quote(short(t.labelCol)), "label column"
	}
	return parseErr(t.name, t.hline, c.j+1, ErrHeader, "no %s in header (%s), and column %d has no name but holds %s (%q on line %d)%s: if it is %s, name it %s on line %d and give the file again; else choose the %s among the named ones (%s)",
		missing, listNames(t.header), c.j+1, what, short(c.first), c.line, more, role, names, t.hline, choose, listNames(named))
}

// headerIsData reports whether the header reads as a row of data: at least
// two of its names, and a third of them, are numbers
// ("Qn1,Quebec,nonchilled,95,16"), as in a file written without a header.
func (t *csvTable) headerIsData() bool {
	nums := 0
	for _, h := range t.header {
		if numClass(strings.TrimSpace(h)) == numOK {
			nums++
		}
	}
	return nums >= 2 && 3*nums >= len(t.header)
}

// scan is the training's first pass over the rows. It refuses a ragged
// row; keeps, when stats is set, the statistics of every feature column
// (columnStats), a column left out too, for the roles it may take instead
// (ColumnInfo.Roles); and leaves out, with the reason, an unnamed column
// that holds values when it comes before every named one (the row names
// R's write.csv writes under "", pandas' index under an empty name: R's
// read.csv takes them as row names), or any with dropRefused; another
// unnamed column with a value (a stray value past the header's end) is
// refused where the value is.
func (t *csvTable) scan(cr *csv.Reader, stats bool, maxCat int, dropRefused bool) ([]columnStats, error) {
	type cell struct {
		line int
		text string
	}
	st := make([]columnStats, len(t.header))
	unnamed := map[int]cell{} // an unnamed column's first value
	lines := lineCursor{text: t.text, line: 1}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, quoteErr(t.text, t.name, err)
		}
		line, _ := cr.FieldPos(0)
		rec, blank, err := fitRow(rec, t.header, t.name, line)
		if err != nil {
			return nil, err
		}
		if blank {
			continue
		}
		for j, f := range rec {
			if stats && (t.roles[j] == RoleNumeric || t.roles[j] == RoleDropped) {
				// Classified as the number it would be read as; kept as
				// written, for a text column's values.
				raw := strings.TrimSpace(f)
				s, _, _ := numberText(raw, t.delim, t.decimalMarks, t.groupDots)
				ns := numClass(s)
				st[j].add(raw, ns, namedCap(maxCat))
				st[j].whole(s, ns)
				if ns == numOK {
					if lines.quoted(cr, j) {
						if s == raw && !strings.ContainsRune(raw, t.delim) {
							st[j].quoted++
						}
					} else {
						st[j].bare++
						t.bare = true
					}
				}
			} else if stats && j == t.label && !t.bare && numClass(strings.TrimSpace(f)) == numOK && !lines.quoted(cr, j) {
				t.bare = true
			}
			if _, seen := unnamed[j]; t.header[j] == "" && !seen && strings.TrimSpace(f) != "" {
				l, _ := cr.FieldPos(j)
				unnamed[j] = cell{l, strings.Clone(strings.TrimSpace(f))}
			}
		}
	}
	for j := range t.header {
		v, ok := unnamed[j]
		if !ok {
			continue
		}
		if !dropRefused && !t.leading(j) {
			return nil, parseErr(t.name, v.line, j+1, ErrHeader, "column %d has values (%q) but no name in the header; name it in the header, or delete the column", j+1, short(v.text))
		}
		t.refused[j] = "no name, so its values are not read"
	}
	return st, nil
}

// leading reports whether column j and every column before it have no
// name in the header: the row names or index a file starts with.
func (t *csvTable) leading(j int) bool {
	for _, h := range t.header[:j+1] {
		if h != "" {
			return false
		}
	}
	return true
}

// trainingColumns decides the feature columns from the first pass's
// statistics: a column is text when most of its values are words, when it
// was asked to be (asText), when it counts levels with an open one
// (columnStats.levels: 0, 1, 2, 3+; these are Table.Levels), or when it
// holds codes in quotes (columnStats.codes; Table.Codes); a numeric
// column with a stray word stays numeric, and the rows' pass reports the
// word where it is. A text column
// with more than maxCat values is refused, or with dropRefused left out
// with the reason. It returns the feature columns in header order and the
// names of those read as words on request.
func (t *csvTable) trainingColumns(stats []columnStats, asText map[int]bool, maxCat int, dropRefused bool) (cols []EncodedColumn, words []string, err error) {
	for j, h := range t.header {
		st := &stats[j]
		if t.roles[j] == RoleNumeric && st.numeric == 0 && st.text == 0 && st.empty > 0 {
			// A column with no value in any row has nothing to learn from;
			// read, its first cell would refuse the file, one such column
			// per reading.
			t.roles[j], t.refused[j] = RoleRefused, "no value in any row"
			continue
		}
		isWords := asText[j] || st.text > 0 && 2*st.numeric < st.numeric+st.text
		switch {
		case t.roles[j] != RoleNumeric || isWords:
		case st.levels(maxCat):
			isWords = true
			t.levels = append(t.levels, h)
		case t.bare && st.codes(maxCat):
			isWords, st.readAsCodes = true, true
			if st.text == 0 {
				// Named as numbers in quotes only when they all are:
				// a word among them ("K", 1, 2, 3) is a category anyway,
				// and writing the numbers bare would not make it one.
				t.codes = append(t.codes, h)
			}
		case t.bare && st.quotedOnly():
			t.manyCodes = append(t.manyCodes, h)
		case !t.bare && st.codes(maxCat) && !st.fraction:
			t.quotedNumbers = append(t.quotedNumbers, h)
		}
		if t.roles[j] != RoleNumeric || !isWords {
			continue
		}
		t.roles[j] = RoleText
		limit := maxCat
		if asText[j] {
			limit = st.namedLimit(maxCat)
		}
		if st.overflow || st.distinct > limit {
			count := fmt.Sprintf("%d", st.distinct)
			if st.overflow {
				count = fmt.Sprintf("more than %d", namedCap(maxCat))
			}
			reason := fmt.Sprintf("%s distinct values, more than %d to encode", count, limit)
			// Named as words, up to namedCap are encoded: said, so that
			// the visitor who wants the category knows how.
			// (Not dates: one indicator per day keeps neither their order
			// nor their distances.)
			canName := !asText[j] && !st.overflow && st.distinct <= st.namedLimit(maxCat) && !looksLikeDates(st.values)
			if canName {
				reason += fmt.Sprintf("; up to %d when it is named among the columns read as words", namedCap(maxCat))
			}
			if looksLikeDates(st.values) {
				reason += "; dates: written as days since a start, they could be used"
			}
			if asText[j] {
				reason = fmt.Sprintf("read as words: %s", reason)
			}
			if !dropRefused {
				do := "leave it out"
				if canName {
					do = "read it as words, or leave it out"
				}
				pe := parseErr(t.name, t.hline, j+1, ErrHeader, "text column %s has %s; %s", h, reason, do)
				pe.Remedy = Remedy{Drop: h}
				if canName {
					pe.Remedy.Text = h
				}
				return nil, nil, pe
			}
			t.roles[j] = RoleRefused
			t.refused[j] = reason
		} else if looksLikeDates(st.values) {
			t.dates = append(t.dates, h)
		}
	}
	for j, h := range t.header {
		switch t.roles[j] {
		case RoleNumeric:
			cols = append(cols, EncodedColumn{Name: h})
		case RoleText:
			cols = append(cols, EncodedColumn{Name: h, Values: stats[j].values})
			if asText[j] {
				words = append(words, h)
			}
		}
	}
	return cols, words, nil
}

// lineCursor finds where the text's lines start, for the rows of one pass
// in order (their lines only grow), without an index of every line.
type lineCursor struct {
	text []byte
	line int // the line that starts at off
	off  int
}

// quoted reports whether field j of the record cr has just read starts
// with a quote in the text (encoding/csv drops the quotes, and
// csv.Reader.FieldPos places a quoted field at its opening quote).
func (c *lineCursor) quoted(cr *csv.Reader, j int) bool {
	line, col := cr.FieldPos(j)
	if line < c.line {
		return false
	}
	for c.line < line {
		i := bytes.IndexByte(c.text[c.off:], '\n')
		if i < 0 {
			return false
		}
		c.off += i + 1
		c.line++
	}
	k := c.off + col - 1
	return k < len(c.text) && c.text[k] == '"'
}

// gapless takes the level of empty or NA cells (and of any other
// missing-value marker) out of the text columns: read with
// TableOptions.OmitMissing, a row with such a cell is left out, as R's
// na.omit leaves out a row whose factor is NA, so no row has that level.
// A column keeps a non-nil list of values (nil would make it numeric).
func gapless(cols []EncodedColumn) {
	for k, c := range cols {
		if c.Values == nil || !slices.ContainsFunc(c.Values, MissingMarker) {
			continue
		}
		vals := make([]string, 0, len(c.Values))
		for _, v := range c.Values {
			if !MissingMarker(v) {
				vals = append(vals, v)
			}
		}
		cols[k].Values = vals
	}
}

// dateLike reports whether s is a date as spreadsheets and R write one:
// 2020-09-17 (with a time after a space or a T, or not), 2020/09/17, 17/09/2020,
// 9/17/20, 17.09.2020. Written out, not with package regexp, which would
// add about 120 KB to the page's gzipped learner.
func dateLike(s string) bool {
	digits := func(s string) (n int, rest string) {
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		return n, s[n:]
	}
	n1, r := digits(s)
	if n1 == 4 && len(r) > 0 && (r[0] == '-' || r[0] == '/') {
		sep := r[0]
		n2, r := digits(r[1:])
		if n2 < 1 || n2 > 2 || len(r) == 0 || r[0] != sep {
			return false
		}
		n3, r := digits(r[1:])
		return n3 >= 1 && n3 <= 2 && (r == "" || r[0] == ' ' || r[0] == 'T')
	}
	if n1 < 1 || n1 > 2 || len(r) == 0 || !strings.ContainsRune("/.-", rune(r[0])) {
		return false
	}
	n2, r := digits(r[1:])
	if n2 < 1 || n2 > 2 || len(r) == 0 || !strings.ContainsRune("/.-", rune(r[0])) {
		return false
	}
	n3, r := digits(r[1:])
	return (n3 == 2 || n3 == 4) && r == ""
}

// looksLikeDates reports whether nine in ten of a column's values (the
// first ones, as columnStats keeps them; empty cells aside) are dates.
func looksLikeDates(values []string) bool {
	n, dates := 0, 0
	for _, v := range values {
		if v == emptyValue {
			continue
		}
		n++
		if dateLike(strings.TrimSpace(v)) {
			dates++
		}
	}
	return n > 0 && 10*dates >= 9*n
}
