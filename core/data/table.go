package data

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Encoding says how a table's columns became the features: the feature
// columns in file order, numeric ones as they are and text ones one
// indicator per value. It travels with a trained model, so that new rows
// are read exactly as the training rows were.
type Encoding struct {
	// Format is "csv" (Columns apply) or "sparse" (Features indices).
	Format    string `json:"format"`
	Delimiter string `json:"delimiter,omitempty"`
	// TaskColumn and LabelColumn name the task and label columns.
	TaskColumn  string `json:"taskColumn,omitempty"`
	LabelColumn string `json:"labelColumn,omitempty"`
	// Columns are the feature columns, in order.
	Columns []EncodedColumn `json:"columns,omitempty"`
	// Dropped names the columns left out.
	Dropped []string `json:"dropped,omitempty"`
	// Text names the columns read as words on request (TableOptions.Text)
	// although their values look like numbers; Columns holds their values,
	// which is how new rows are read. A model saved before it existed has
	// none.
	Text []string `json:"text,omitempty"`
	// Features is the number of features (the sparse format's columns).
	Features int `json:"features"`
}

// EncodedColumn is one feature column: numeric (no Values) or text, one
// indicator per value.
type EncodedColumn struct {
	Name   string   `json:"name"`
	Values []string `json:"values,omitempty"`
}

// FeatureNames returns the encoded features' names: a numeric column's
// name, "name=value" for each value of a text column.
func (e *Encoding) FeatureNames() []string {
	var out []string
	for _, c := range e.Columns {
		if c.Values == nil {
			out = append(out, c.Name)
			continue
		}
		for _, v := range c.Values {
			out = append(out, c.Name+"="+v)
		}
	}
	return out
}

// TableOptions configure ReadTable. The zero value reads a CSV whose
// delimiter (comma, semicolon or tab) is sniffed from its header, with the
// task in column "task" and the label in column "y".
type TableOptions struct {
	// Delimiter is ',', ';' or '\t', or 0 to sniff it from the header.
	Delimiter rune
	// TaskColumn and LabelColumn name the task and label columns ("task"
	// and "y" when empty). They are never guessed: a missing one is an
	// error that lists the header's columns.
	TaskColumn, LabelColumn string
	// Drop names columns to leave out.
	Drop []string
	// Text names columns to read as words, one indicator per value, even
	// when their values look like numbers (a category written 0, 1, 2,
	// 3+). A column may not be both in Drop and in Text. It is ignored when
	// reading with an Encoding, whose columns say how.
	Text []string
	// MaxCategories is the most distinct values a text column may have to
	// be encoded (DefaultMaxCategories when 0).
	MaxCategories int
	// DropRefused leaves out, with a reason, text columns with too many
	// values instead of failing (the page shows them unticked).
	DropRefused bool
	// NumericOnly refuses text columns: a non-numeric value is an error at
	// its position (ReadCSV).
	NumericOnly bool
	// Kind and Positive are as in CSVOptions.
	Kind     KindChoice
	Positive string
	// Encoding, when set, reads new rows the way a model's training rows
	// were read (predict): its feature columns by name (any order; others
	// ignored), its text values (an unseen value gets all-zero indicators
	// and a warning), the label column optional and ignored. Tasks, when
	// set with it, are the tasks the model knows; a row of another task is
	// an error at its line.
	Encoding *Encoding
	Tasks    []string
}

// Table is a table file read by the intake.
type Table struct {
	Data     *Dataset
	Encoding *Encoding
	// Columns describes every column of the header and its role.
	Columns []ColumnInfo
	// Labels describes the label column.
	Labels LabelInfo
	// Warnings are things read that the caller should show (unseen values
	// at predict time).
	Warnings []string
	// Rows are the raw fields of every data row, kept when reading with an
	// Encoding (predict writes them back with the predictions).
	Rows [][]string
	// Header is the header's column names.
	Header []string
}

// LabelInfo describes a file's labels.
type LabelInfo struct {
	// Values are the distinct labels, in order of first appearance (at
	// most 11 are kept).
	Values []string `json:"values"`
	// Distinct counts them (all of them).
	Distinct int `json:"distinct"`
	// Note is a sentence about how the labels were read, when it is worth
	// saying: "y has 3 distinct values (0, 1, 2): read as regression".
	Note string `json:"note,omitempty"`
	// Third is where the first third distinct value appears, when the
	// labels are a few small integers (for the refusal of a logistic loss).
	Third *ParseError `json:"-"`
}

// ReadHeader returns a CSV text's column names and its delimiter as ReadTable
// reads them (a "sep=" first line's, else sniffed), so that a page can
// offer the columns of a file it could not read yet. The sparse format has
// no header: nil.
func ReadHeader(text []byte, name string) ([]string, rune, error) {
	if err := CheckText(text, name); err != nil {
		return nil, 0, err
	}
	if Detect(text[:min(len(text), 64<<10)]) == "sparse" {
		return nil, 0, nil
	}
	text = crLines(text)
	delim, text, err := excelSep(text, name)
	if err != nil {
		return nil, 0, err
	}
	if delim == 0 {
		delim = SniffDelimiter(text)
	}
	header, _, err := readHeader(tableReader(text, delim), name, true)
	if err != nil {
		return nil, delim, quoteErr(text, name, err)
	}
	return header, delim, nil
}

// ReadTable reads a table file (a CSV with a header) through the intake:
// it sniffs the delimiter, finds the task and label columns by name (never
// by guessing), decides every other column's role (numeric; text, encoded
// one indicator per value; left out) and reads the rows. Errors concerning
// a position are *ParseError values whose Column is the field number. See
// ReadCSV for the accepted CSV conventions.
func ReadTable(text []byte, name string, opt TableOptions) (*Table, error) {
	if err := CheckText(text, name); err != nil {
		return nil, err
	}
	text = crLines(text)
	sep, text, err := excelSep(text, name)
	if err != nil {
		return nil, err
	}
	delim := cmp.Or(opt.Delimiter, sep)
	if delim == 0 {
		delim = SniffDelimiter(text)
	}
	maxCat := cmp.Or(opt.MaxCategories, DefaultMaxCategories)
	taskCol := cmp.Or(strings.TrimSpace(opt.TaskColumn), "task")
	labelCol := cmp.Or(strings.TrimSpace(opt.LabelColumn), "y")
	if opt.Encoding != nil {
		taskCol = cmp.Or(opt.Encoding.TaskColumn, taskCol)
		labelCol = cmp.Or(opt.Encoding.LabelColumn, labelCol)
	}
	if taskCol == labelCol {
		return nil, fmt.Errorf("%s: the task and label columns are both %q", name, taskCol)
	}

	// Pass 1: the header and every column's values.
	cr := tableReader(text, delim)
	header, hline, err := readHeader(cr, name, true)
	if err != nil {
		return nil, quoteErr(text, name, err)
	}
	if len(header) == 1 && opt.Delimiter == 0 {
		return nil, parseErr(name, hline, 1, ErrHeader, "the header has a single column %q: the file has no comma, semicolon or tab between column names", short(header[0]))
	}
	idx := map[string]int{}
	for j, h := range header {
		idx[h] = j
	}
	ti, tok := idx[taskCol]
	li, lok := idx[labelCol]
	switch {
	case !tok && opt.Encoding != nil:
		return nil, parseErr(name, hline, 1, ErrHeader, "no task column %q in header [%s]: the file must have the columns the model was trained with", short(taskCol), listNames(header))
	case !tok:
		pe := parseErr(name, hline, 1, ErrHeader, "no task column %q in header [%s]; choose the task column among these", short(taskCol), listNames(header))
		pe.Remedy = Remedy{Choose: RoleTask}
		return nil, pe
	case !lok && opt.Encoding == nil:
		pe := parseErr(name, hline, 1, ErrHeader, "no label column %q in header [%s]; choose the label column among these", short(labelCol), listNames(header))
		pe.Remedy = Remedy{Choose: RoleLabel}
		return nil, pe
	}
	if !lok {
		li = -1
	}
	roles := make([]Role, len(header))
	for j := range roles {
		roles[j] = RoleNumeric
	}
	roles[ti] = RoleTask
	if li >= 0 {
		roles[li] = RoleLabel
	}
	// A column without a name is never read: most are the empty column a
	// spreadsheet adds after a trailing delimiter. One that holds values is
	// refused below.
	refused := map[int]string{}
	type cell struct {
		line int
		text string
	}
	unnamedValue := map[int]cell{} // an unnamed column's first value
	for j, h := range header {
		if h == "" {
			roles[j], refused[j] = RoleRefused, "no name, no values"
		}
	}
	var dropped []string
	if opt.Encoding != nil {
		// Only the model's feature columns are read.
		want := map[string]bool{}
		for _, c := range opt.Encoding.Columns {
			if _, ok := idx[c.Name]; !ok {
				return nil, parseErr(name, hline, 1, ErrHeader, "no column %q in header [%s]: the model was trained with it, so the file must have it too", short(c.Name), listNames(header))
			}
			want[c.Name] = true
		}
		for j, h := range header {
			if roles[j] == RoleNumeric && !want[h] {
				roles[j] = RoleDropped
			}
		}
	}
	for _, d := range opt.Drop {
		d = strings.TrimSpace(d)
		if d == "" {
			continue
		}
		j, ok := idx[d]
		switch {
		case !ok:
			return nil, fmt.Errorf("%s: cannot leave out column %q: the header has [%s]", name, short(d), listNames(header))
		case j == ti || j == li:
			return nil, fmt.Errorf("%s: cannot leave out column %q: it is the %s column", name, d, roles[j])
		}
		roles[j] = RoleDropped
		dropped = append(dropped, d)
	}
	asText, err := textColumns(opt, name, header, idx, roles, ti, li)
	if err != nil {
		return nil, err
	}
	stats := make([]columnStats, len(header))
	labelThousands := false
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, quoteErr(text, name, err)
		}
		line, _ := cr.FieldPos(0)
		rec, blank, err := fitRow(rec, header, name, line)
		if err != nil {
			return nil, err
		}
		if blank {
			continue
		}
		for j, f := range rec {
			// A column left out is looked at too, for the roles it may
			// take instead (ColumnInfo.Roles); not when predicting.
			if (roles[j] == RoleNumeric || roles[j] == RoleDropped && opt.Encoding == nil) && !opt.NumericOnly {
				// Classified as the number it would be read as; kept as
				// written, for a text column's values.
				raw := strings.TrimSpace(f)
				s, grouped := numberText(raw, delim)
				ns := numClass(s)
				if grouped && ns == numOK {
					stats[j].thousands++
				}
				stats[j].add(raw, ns, maxCat)
				stats[j].whole(s, ns)
			}
			if j == li {
				if _, grouped := numberText(strings.TrimSpace(f), delim); grouped {
					labelThousands = true
				}
			}
			if _, seen := unnamedValue[j]; header[j] == "" && !seen && strings.TrimSpace(f) != "" {
				l, _ := cr.FieldPos(j)
				unnamedValue[j] = cell{l, strings.Clone(strings.TrimSpace(f))}
			}
		}
	}
	for j := range header {
		v, ok := unnamedValue[j]
		if !ok || opt.Encoding != nil {
			continue // predict reads only the model's columns
		}
		if !opt.DropRefused {
			return nil, parseErr(name, v.line, j+1, ErrHeader, "column %d has values (%q) but no name in the header; name it in the header, or delete the column", j+1, short(v.text))
		}
		refused[j] = "no name, so its values are not read"
	}

	// Decide the roles.
	tab := &Table{Header: header}
	enc := &Encoding{Format: "csv", Delimiter: string(delim), TaskColumn: taskCol, LabelColumn: labelCol, Dropped: dropped}
	var encCols []EncodedColumn // in header order
	colOf := make([]int, len(header))
	for j := range colOf {
		colOf[j] = -1
	}
	if opt.Encoding != nil {
		byName := map[string]EncodedColumn{}
		for _, c := range opt.Encoding.Columns {
			byName[c.Name] = c
		}
		for j, h := range header {
			if roles[j] != RoleNumeric {
				continue
			}
			if c := byName[h]; c.Values != nil {
				roles[j] = RoleText
			}
		}
		// The model's column order, not the file's.
		for _, c := range opt.Encoding.Columns {
			colOf[idx[c.Name]] = len(encCols)
			encCols = append(encCols, c)
		}
	} else {
		for j, h := range header {
			st := &stats[j]
			// A column is text when most of its values are words, or when
			// it was asked to be (opt.Text); a numeric column with a stray
			// word stays numeric, and pass 2 reports the word where it is.
			words := asText[j] || st.text > 0 && 2*st.numeric < st.numeric+st.text
			if roles[j] != RoleNumeric || !words {
				continue
			}
			roles[j] = RoleText
			if st.overflow || st.distinct > maxCat {
				count := fmt.Sprintf("%d", st.distinct)
				if st.overflow {
					count = fmt.Sprintf("more than %d", maxCat)
				}
				reason := fmt.Sprintf("%s distinct values, more than %d to encode", count, maxCat)
				if asText[j] {
					reason = fmt.Sprintf("read as words: %s", reason)
				}
				if !opt.DropRefused {
					pe := parseErr(name, hline, j+1, ErrHeader, "text column %s has %s; leave it out", h, reason)
					pe.Remedy = Remedy{Drop: h}
					return nil, pe
				}
				roles[j] = RoleRefused
				refused[j] = reason
			}
		}
		for j, h := range header {
			switch roles[j] {
			case RoleNumeric:
				colOf[j] = len(encCols)
				encCols = append(encCols, EncodedColumn{Name: h})
			case RoleText:
				colOf[j] = len(encCols)
				encCols = append(encCols, EncodedColumn{Name: h, Values: stats[j].values})
				if asText[j] {
					enc.Text = append(enc.Text, h)
				}
			}
		}
	}
	enc.Columns = encCols
	for j, h := range header {
		ci := ColumnInfo{Name: h, Role: roles[j]}
		if j != ti && j != li && h != "" && opt.Encoding == nil && !opt.NumericOnly {
			ci.Roles = stats[j].roles(maxCat)
		}
		switch roles[j] {
		case RoleNumeric:
			ci.Thousands = stats[j].thousands > 0
			ci.ID = opt.Encoding == nil && stats[j].isID()
		case RoleLabel:
			ci.Thousands = labelThousands
		case RoleText:
			ci.Values = encCols[colOf[j]].Values
			ci.Distinct = len(ci.Values)
		case RoleDropped:
			ci.Reason = "left out"
		case RoleRefused:
			ci.Distinct = stats[j].distinct
			ci.Reason = refused[j]
			if h != "" {
				enc.Dropped = append(enc.Dropped, h)
			}
		}
		tab.Columns = append(tab.Columns, ci)
	}
	if len(encCols) == 0 {
		return nil, parseErr(name, hline, 1, ErrHeader, "no feature columns: the header has only the task column %q and the label column %q%s", taskCol, labelCol, leftOut(tab.Columns))
	}
	// Feature offsets.
	offset := make([]int, len(encCols))
	d := 0
	for k, c := range encCols {
		offset[k] = d
		if c.Values == nil {
			d++
		} else {
			d += len(c.Values)
		}
	}
	enc.Features = d
	valueIndex := make([]map[string]int, len(encCols))
	for k, c := range encCols {
		if c.Values != nil {
			valueIndex[k] = make(map[string]int, len(c.Values))
			for i, v := range c.Values {
				valueIndex[k][v] = i
			}
		}
	}

	// Pass 2: the rows.
	type rowsOf struct {
		name string
		x, y []float64
		cls  []int8
		src  []int
	}
	var (
		tasks   []*rowsOf
		byName  = map[string]*rowsOf{}
		known   map[string]bool
		lab     = labeler{file: name, column: labelCol, mode: opt.Kind}
		row     int
		unseen  = make([]int, len(encCols))
		example = make([]string, len(encCols))
		li3     labelTracker
	)
	if opt.Tasks != nil {
		known = map[string]bool{}
		for _, t := range opt.Tasks {
			known[t] = true
		}
	}
	cr = tableReader(text, delim)
	for {
		// The header, after any blank rows before it (readHeader).
		if _, err := cr.Read(); err != nil {
			return nil, quoteErr(text, name, err)
		}
		if l, _ := cr.FieldPos(0); l >= hline {
			break
		}
	}
	xrow := make([]float64, d)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, quoteErr(text, name, err)
		}
		if blankRow(rec, header) {
			continue
		}
		rec, ok := fitRecord(rec, header)
		if !ok {
			continue // (pass 1 refused ragged rows)
		}
		tn := strings.TrimSpace(rec[ti])
		if tn == "" {
			l, _ := cr.FieldPos(ti)
			return nil, parseErr(name, l, ti+1, ErrMissingValue, "empty task name in column %s: give the row its task, or delete the row", taskCol)
		}
		if known != nil && !known[tn] {
			l, _ := cr.FieldPos(ti)
			return nil, parseErr(name, l, ti+1, ErrHeader, "task %q is not one the model was trained on (it knows %s)", short(tn), listNames(opt.Tasks))
		}
		t := byName[tn]
		if t == nil {
			t = &rowsOf{name: strings.Clone(tn)}
			byName[t.name] = t
			tasks = append(tasks, t)
		}
		var c int8
		var v float64
		if opt.Encoding == nil {
			l, _ := cr.FieldPos(li)
			ls, _ := numberText(strings.TrimSpace(rec[li]), delim)
			if c, v, err = lab.add(ls, l, li+1); err != nil {
				return nil, err
			}
			li3.add(ls, l, li+1, name)
		}
		for k := range xrow {
			xrow[k] = 0
		}
		for j, f := range rec {
			k := colOf[j]
			if k < 0 {
				continue
			}
			s := strings.TrimSpace(f)
			if encCols[k].Values == nil {
				s, _ = numberText(s, delim)
				x, st := parseNum(s)
				if st != numOK {
					l, _ := cr.FieldPos(j)
					pe := valueErr(name, l, j+1, st, s, x, header[j], opt.Encoding != nil)
					if st == numSyntax && !opt.NumericOnly && opt.Encoding == nil {
						pe.Err = fmt.Errorf("%w%s", pe.Err, advice(&stats[j], maxCat))
						pe.Remedy = Remedy{Drop: header[j]}
						if slices.Contains(stats[j].roles(maxCat), RoleText) {
							pe.Remedy.Text = header[j]
						}
					}
					return nil, pe
				}
				xrow[offset[k]] = x
				continue
			}
			if s == "" {
				s = emptyValue
			}
			if i, ok := valueIndex[k][s]; ok {
				xrow[offset[k]+i] = 1
			} else {
				unseen[k]++
				if example[k] == "" {
					example[k] = strings.Clone(s)
				}
			}
		}
		t.x = append(t.x, xrow...)
		t.y = append(t.y, v)
		t.cls = append(t.cls, c)
		t.src = append(t.src, row)
		if opt.Encoding != nil {
			tab.Rows = append(tab.Rows, slices.Clone(rec))
		}
		row++
	}
	if row == 0 {
		return nil, parseErr(name, hline, 1, ErrNoRows, "no data rows: the file has a header and nothing else")
	}
	for k, n := range unseen {
		if n > 0 {
			tab.Warnings = append(tab.Warnings, fmt.Sprintf("column %s: %d rows have values the model never saw (such as %q); their %s indicators are all zero",
				encCols[k].Name, n, short(example[k]), encCols[k].Name))
		}
	}
	ds := &Dataset{Name: name, Features: d, FeatureNames: enc.FeatureNames(), SourceRows: row}
	if opt.Encoding == nil {
		ys := make([][]float64, len(tasks))
		cls := make([][]int8, len(tasks))
		for k, t := range tasks {
			ys[k], cls[k] = t.y, t.cls
		}
		if err := lab.finish(ds, opt.Positive, ys, cls); err != nil {
			return nil, err
		}
		tab.Labels = li3.info(labelCol, ds.Kind)
	}
	ds.Tasks = make([]Task, len(tasks))
	for k, t := range tasks {
		ds.Tasks[k] = Task{Name: t.name, X: mat.NewDense(len(t.y), d, t.x), Y: t.y, Source: t.src}
	}
	tab.Data, tab.Encoding = ds, enc
	return tab, nil
}
