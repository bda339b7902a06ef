package data

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"math"
	"strings"
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
	// Scale, when set, holds each feature's divisor: the features were
	// divided by it after they were read (Standardize), and new rows read
	// with this encoding are divided by it too (LoadNewRows). A model saved
	// before it existed has none.
	Scale []float64 `json:"scale,omitempty"`
	// Center, when set, holds the features' origin in the standardized
	// units (after Scale): their means over the training file's rows, a
	// multiple of them, or a point along one feature (Centre); new rows are
	// moved alike.
	Center []float64 `json:"center,omitempty"`
	// Fixed lists the features constant within every task of the
	// training file but not across its tasks (TaskLevel): a task-level
	// covariate, which Fix divided by FixedScale more than Standardize did
	// (Scale holds both), so that the models' deviations from a shared
	// weight have almost no room on it (docs/algorithms.md §14). A model
	// saved before it existed has none.
	Fixed []int `json:"fixed,omitempty"`
	// DecimalComma: the training file wrote its numbers with a decimal
	// comma (in quotes, comma-separated; or separated by semicolons); new
	// rows are read so too, a point in their numbers separating thousands
	// ("1.750" is 1750).
	DecimalComma bool `json:"decimalComma,omitempty"`
}

// Standardize divides each feature of ds, a dense data set read with e,
// by its standard deviation over all of ds's rows (a constant feature by
// 1), and records the divisors in e.Scale, so that rows read later with e
// are divided alike. A sparse data set is left as it is. The feature's
// mean is not taken out: the tasks' intercepts stay those of x = 0.
func (e *Encoding) Standardize(ds *Dataset) {
	if ds.Sparse() || ds.Features == 0 {
		return
	}
	p := ds.Features
	n := 0
	mean, m2 := make([]float64, p), make([]float64, p)
	for i := range ds.Tasks {
		x := ds.Tasks[i].X
		for r := 0; r < ds.Tasks[i].Rows(); r++ {
			n++
			for j, v := range x.RawRowView(r) { // Welford's update, one pass
				dv := v - mean[j]
				mean[j] += dv / float64(n)
				m2[j] += dv * (v - mean[j])
			}
		}
	}
	scale := make([]float64, p)
	for j := range scale {
		scale[j] = 1
		sd := math.Sqrt(m2[j] / float64(max(n, 1)))
		if sd == 0 {
			sd = tinySD(ds, j)
		}
		if sd > 0 && !math.IsInf(sd, 0) && !math.IsNaN(sd) {
			scale[j] = sd
		}
	}
	e.Scale = scale
	e.divide(ds)
}

// tinySD is the standard deviation of feature j over ds's rows in units
// of its largest magnitude, for a column whose squares underflowed: values
// near 1e-300 vary, yet their deviations' products are 0, and the column
// stayed at 1e-300 beside features of unit spread, as if it were 0. It is
// 0 for a constant column, as Standardize's own pass says of one.
func tinySD(ds *Dataset, j int) float64 {
	var top float64
	for i := range ds.Tasks {
		t := &ds.Tasks[i]
		for r := 0; r < t.Rows(); r++ {
			top = math.Max(top, math.Abs(t.X.At(r, j)))
		}
	}
	if !(top > 0) || math.IsInf(top, 0) {
		return 0
	}
	n := 0
	var mean, m2 float64
	for i := range ds.Tasks {
		t := &ds.Tasks[i]
		for r := 0; r < t.Rows(); r++ {
			n++
			v := t.X.At(r, j) / top
			dv := v - mean
			mean += dv / float64(n)
			m2 += dv * (v - mean)
		}
	}
	return math.Sqrt(m2/float64(max(n, 1))) * top
}

// divide divides ds's features by e.Scale and then takes e.Center from
// them (neither: nothing to do).
func (e *Encoding) divide(ds *Dataset) {
	if ds.Sparse() {
		return
	}
	scale, center := len(e.Scale) == ds.Features, len(e.Center) == ds.Features
	if !scale && !center {
		return
	}
	for i := range ds.Tasks {
		x := ds.Tasks[i].X
		for r := 0; r < ds.Tasks[i].Rows(); r++ {
			row := x.RawRowView(r)
			for j := range row {
				if scale {
					row[j] /= e.Scale[j]
				}
				if center {
					row[j] -= e.Center[j]
				}
			}
		}
	}
}

// FixedScale is how much more Fix divides a task-level feature than its
// standard deviation: a deviation from a shared weight on it then costs
// FixedScale² (a million times) what the same deviation costs on another
// feature, while the shared weight itself, which no model here penalizes
// (MMTL's mean, the intercept's), is free to be as large as it needs.
// A floating-point constant: as an integer one, 1/(FixedScale·FixedScale)
// was integer division, 0, and the prior and STL's penalty that meant
// 1/FixedScale² on such a feature left it unpenalized.
const FixedScale = 1000.0

// TaskLevel returns the features of ds, a dense data set, that are
// constant within every task and not across all of them: a task-level
// covariate (a chick's diet, a plant's treatment, a school's sector),
// which within a task is a second intercept. None for a sparse data set.
func TaskLevel(ds *Dataset) []int {
	within, across := constancy(ds)
	var out []int
	for j := range within {
		if within[j] && across[j] {
			out = append(out, j)
		}
	}
	return out
}

// VaryWithin reports, for each feature of ds, a dense data set, whether
// two rows of one task differ in it (what a task's average of it can say
// that its rows do not); nil for a sparse data set.
func VaryWithin(ds *Dataset) []bool {
	within, _ := constancy(ds)
	for j := range within {
		within[j] = !within[j]
	}
	return within
}

// constancy reports, for each feature of ds, a dense data set, whether it
// is constant within every task, and whether the tasks' first rows differ
// in it; nil for a sparse one.
func constancy(ds *Dataset) (within, across []bool) {
	if ds.Sparse() || ds.Features == 0 {
		return nil, nil
	}
	// One pass over the rows in their order, as Standardize's: each
	// feature stays within while every row equals its task's first.
	p := ds.Features
	within, across = make([]bool, p), make([]bool, p)
	for j := range within {
		within[j] = true
	}
	var first []float64 // the first task's first row
	for i := range ds.Tasks {
		t := &ds.Tasks[i]
		if t.Rows() == 0 {
			continue
		}
		v0 := t.X.RawRowView(0)
		for r := 1; r < t.Rows(); r++ {
			for j, v := range t.X.RawRowView(r) {
				if v != v0[j] {
					within[j] = false
				}
			}
		}
		if first == nil {
			first = v0
			continue
		}
		for j, v := range v0 {
			if v != first[j] {
				across[j] = true
			}
		}
	}
	return within, across
}

// Fix divides the features js of ds, a dense data set read (and
// standardized) with e, by FixedScale, and records them in e.Fixed and
// the divisor in e.Scale, so that rows read later with e are divided
// alike. Nothing is done without e.Scale (Standardize first).
func (e *Encoding) Fix(ds *Dataset, js []int) {
	if len(js) == 0 || len(e.Scale) != ds.Features {
		return
	}
	for _, j := range js {
		for i := range ds.Tasks {
			t := &ds.Tasks[i]
			for r := 0; r < t.Rows(); r++ {
				row := t.X.RawRowView(r)
				row[j] /= FixedScale
			}
		}
		e.Scale[j] *= FixedScale
	}
	e.Fixed = append([]int(nil), js...)
	ds.Fixed = append([]int(nil), js...)
}

// Centre moves the origin of ds's features, a dense data set read (and
// standardized) with e, to c (in the standardized units: t times the
// means, Centres, or a point chosen otherwise), and records it in e.Center
// so that rows read later with e are moved alike. A task's intercept is
// then its level there rather than at x = 0 (docs/algorithms.md §15). A
// sparse data set is left as it is.
func (e *Encoding) Centre(ds *Dataset, c []float64) {
	if ds.Sparse() || ds.Features == 0 {
		return
	}
	e.Center = append([]float64(nil), c...)
	Shift(ds, e.Center)
}

// Centres returns the features' means as an origin (Centre): each numeric
// feature's mean over ds's rows, and 0 for a text column's indicators,
// which stay 0 or 1 (the intercept is then a task's level at each
// category's indicator 0, as a model with a factor has it).
func (e *Encoding) Centres(ds *Dataset) []float64 {
	c := Means(ds)
	at := e.Starts()
	for k, col := range e.Columns {
		if col.Values != nil {
			clear(c[min(at[k], len(c)):min(at[k+1], len(c))])
		}
	}
	return c
}

// Starts returns where each column of e starts among the encoded
// features, and their number last: column k is features [at[k], at[k+1]),
// one for a numeric column and one indicator per value for a text column.
func (e *Encoding) Starts() []int {
	at := make([]int, len(e.Columns)+1)
	for k, col := range e.Columns {
		at[k+1] = at[k] + max(len(col.Values), 1)
	}
	return at
}

// Numeric returns the features of e's numeric columns (one each, not a
// text column's indicators) and their names, in the columns' order.
func (e *Encoding) Numeric() (features []int, names []string) {
	at := e.Starts()
	for k, c := range e.Columns {
		if c.Values == nil {
			features, names = append(features, at[k]), append(names, c.Name)
		}
	}
	return features, names
}

// Shifted returns a copy of ds, a dense data set, with c taken from every
// row's features; ds is left as it is.
func Shifted(ds *Dataset, c []float64) *Dataset {
	out := ds.emptyCopy()
	for i := range ds.Tasks {
		t := &ds.Tasks[i]
		all := make([]int, t.Rows())
		for r := range all {
			all[r] = r
		}
		out.Tasks = append(out.Tasks, t.Subset(all))
	}
	Shift(out, c)
	return out
}

// Shift takes c from every row's features of ds, a dense data set.
func Shift(ds *Dataset, c []float64) {
	for i := range ds.Tasks {
		x := ds.Tasks[i].X
		if x == nil {
			continue
		}
		for r := 0; r < ds.Tasks[i].Rows(); r++ {
			row := x.RawRowView(r)
			for j := range row {
				row[j] -= c[j]
			}
		}
	}
}

// Means returns each feature's mean over every row of ds, a dense data set.
func Means(ds *Dataset) []float64 {
	mean := make([]float64, ds.Features)
	n := 0
	for i := range ds.Tasks {
		x := ds.Tasks[i].X
		for r := 0; r < ds.Tasks[i].Rows(); r++ {
			n++
			for j, v := range x.RawRowView(r) { // a running mean: no overflow on large values
				mean[j] += (v - mean[j]) / float64(n)
			}
		}
	}
	return mean
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
	// OmitMissing leaves out, for training, every row with a missing value
	// (an empty cell, or a marker such as NA) in its task, its label or a
	// feature, as R's na.omit does; Table.Omitted says what was left out.
	// Without it the first missing value is refused, saying how many rows
	// have one, except in a text column, where an empty or NA cell is then
	// a value of its own. New rows (Encoding) are left out of Data only:
	// Rows keeps every row, so that predictions line up with the file; in
	// a text column whose encoding has a level for the cell, it is that
	// level and no missing value.
	OmitMissing bool
	// Encoding, when set, reads new rows the way a model's training rows
	// were read (predict): its feature columns by name (any order; others
	// ignored), its text values (an unseen value gets all-zero indicators
	// and a warning), the label column optional and ignored, as
	// LoadNewRows reads a CSV. Tasks, when set with it, are the tasks the
	// model knows; a row of another task is an error at its line.
	Encoding *Encoding
	Tasks    []string
	// skipUnknown: NewRowsOptions.SkipUnknown.
	skipUnknown bool
	// newTaskModels: NewRowsOptions.NewTaskModels.
	newTaskModels []string
	// classes: NewRowsOptions.Classes.
	classes []string
}

// Table is an input read by the intake: a table file (a CSV, or a packed
// table) with its header and columns, or a sparse file, which has neither.
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
	// Omitted describes the rows left out for a missing value
	// (TableOptions.OmitMissing); nil when none were.
	Omitted *Omitted
	// Skipped describes the new rows left out for a task the model does
	// not know (NewRowsOptions.SkipUnknown); nil when none were.
	Skipped *Skipped
	// Levels names the columns read as words unasked because they count
	// levels with an open one (0, 1, 2, 3+; columnStats.levels): a front
	// end says so, since their values look like numbers.
	Levels []string
	// Codes names the columns read as words unasked because every number
	// in them is written in quotes where the file writes its other
	// numbers bare, as R's write.csv writes a factor's codes
	// (columnStats.codes): a front end says so, since they look like
	// numbers.
	Codes []string
	// ManyCodes names the columns whose numbers are all written in
	// quotes likewise but which have too many distinct values to encode:
	// they are read as numbers, and a front end says what that means.
	ManyCodes []string
	// QuotedNumbers names the columns that would be Codes if the file
	// wrote any number bare: every number in the file is in quotes, so its
	// quotes cannot tell a factor's codes (R's write.csv of a data frame
	// of factors only) from numbers (a writer that quotes every field).
	// They are read as numbers, whole and few enough to be codes, and a
	// front end says how to read them as words.
	QuotedNumbers []string
	// Dates names the columns read as categories whose values look like
	// dates (nine in ten of them: 2024-03-01, 1/3/2024): one indicator per
	// date keeps neither their order nor their distances, and a front end
	// says so.
	Dates []string
	// Truth is the label of every data row of new rows whose file has the
	// label column (indexed like Rows), for a score of the predictions:
	// the number, or for a classifier (NewRowsOptions.Classes) −1 and +1
	// for its negative and positive class; NaN where the label is missing,
	// not a number, or another class. Nil when the file has no label
	// column (a sparse file has one on every line: its second field).
	Truth []float64
	// Rows are the raw fields of every data row, kept when reading new
	// rows (LoadNewRows; ReadTable with an Encoding), which predict writes
	// back with the predictions: for the sparse format, each row's line in
	// the file and its task, under the Header "line", "task".
	Rows [][]string
	// Header is the header's column names.
	Header []string
	// TextEncoding is the text encoding Load decoded the input from
	// (DecodeText: "" for UTF-8 and for what it does not decode).
	TextEncoding string
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

// ReadTable reads a table file (a CSV with a header) through the intake:
// it sniffs the delimiter, finds the task and label columns by name (never
// by guessing), decides every other column's role (numeric; text, encoded
// one indicator per value; left out) and reads the rows. Errors concerning
// a position are *ParseError values whose Column is the field number. See
// ReadCSV for the accepted CSV conventions.
//
// It checks the text first (CheckText), then reads it for training, or,
// with opt.Encoding, as new rows for that model. Load, the intake's entry
// for any input, checks a text once itself and reads it the same way.
func ReadTable(text []byte, name string, opt TableOptions) (*Table, error) {
	if err := CheckText(text, name); err != nil {
		return nil, err
	}
	if opt.Encoding != nil {
		return readNewCSV(text, name, opt)
	}
	return readTraining(text, name, opt)
}

// csvHeader returns a checked CSV text's column names and its delimiter
// as readTraining reads them (a "sep=" first line's, else sniffed): the
// CSV's header in the table of formats (LoadHeader).
func csvHeader(text []byte, name string) ([]string, rune, error) {
	text, delim, named, err := prepareCSV(text, name, 0)
	if err != nil {
		return nil, 0, err
	}
	header, line, err := readHeader(tableReader(text, delim), name, true)
	if err != nil {
		return nil, delim, quoteErr(text, name, err)
	}
	// As openCSV with the columns Load looks for unless told: the page's
	// menus after a refusal never offer a title's words as columns.
	if err := checkAbove(text, name, delim, named, header, "task", "y"); err != nil {
		return nil, delim, err
	}
	if err := checkNames(header, name, line); err != nil {
		return nil, delim, err
	}
	return header, delim, nil
}

// prepareCSV returns a CSV text with its lines ending in "\n" (crLines)
// and an Excel "sep=" first line emptied (excelSep), and its delimiter:
// delim when it is given, else the "sep=" line's, else sniffed. named
// says the delimiter was given or named by the file, not sniffed.
func prepareCSV(text []byte, name string, delim rune) (_ []byte, _ rune, named bool, _ error) {
	text = crLines(text)
	sep, text, err := excelSep(text, name)
	if err != nil {
		return nil, 0, false, err
	}
	delim = cmp.Or(delim, sep)
	if delim != 0 {
		return text, delim, true, nil
	}
	return text, SniffDelimiter(text), false, nil
}

// MaxNameBytes bounds the length of a column's name and of a task's name.
// Names are shown whole, in menus, tables and charts; a "name" longer
// than this is no name but a sign that the file is no table of named
// columns (a file with no line break: a 50 MB one made one menu option of
// its whole text), and is refused where it is.
const MaxNameBytes = 4 << 10

// checkNames refuses a header with a name longer than MaxNameBytes, at the
// name's column.
func checkNames(header []string, name string, line int) error {
	for j, h := range header {
		if len(h) > MaxNameBytes {
			return parseErr(name, line, j+1, ErrLongName, "the name of column %d is %d bytes long, more than the %d a name may have: the first line names the columns; give the file a header of column names, or shorten the name", j+1, len(h), MaxNameBytes)
		}
	}
	return nil
}

// csvTable is a CSV on its way through the intake, as both of its entries
// (readTraining, readNewCSV) see it once its header is read: the prepared
// text, its delimiter and header, and each column's role so far.
type csvTable struct {
	name   string
	text   []byte
	delim  rune
	header []string
	hline  int            // the header's line
	idx    map[string]int // a column's position by name
	task   int            // the task column
	label  int            // the label column, or -1 (new rows may have none)
	// taskCol and labelCol name the task and label columns asked for.
	taskCol, labelCol string
	roles             []Role
	refused           map[int]string // why the intake left a column out
	dropped           []string       // the columns left out on request
	// decimalMarks: a comma-separated file whose numbers are written
	// with a decimal comma (writesDecimalComma).
	decimalMarks bool
	// groupDots: the file writes its numbers with a decimal comma, so a
	// point in a number separates thousands (groupsDots).
	groupDots bool
	// levels are the columns read as words for the levels they count
	// (Table.Levels).
	levels []string
	// codes are the columns read as words for their quoted codes
	// (Table.Codes); bare is set once the first pass has seen a number
	// written without quotes, in a feature or the label.
	codes, manyCodes []string
	bare             bool
	// quotedNumbers are the columns of Table.QuotedNumbers, dates those of
	// Table.Dates.
	quotedNumbers, dates []string
}

// openCSV reads a checked text's header with the delimiter (0: from a
// "sep=" line, else sniffed). Every named column starts numeric and every
// unnamed one refused: most are the empty column a spreadsheet adds after a
// trailing delimiter, and one that holds values is refused when it is
// seen. The reader returned is at the first row after the header.
func openCSV(text []byte, name string, delim rune, taskCol, labelCol string) (*csvTable, *csv.Reader, error) {
	text, d, named, err := prepareCSV(text, name, delim)
	if err != nil {
		return nil, nil, err
	}
	if taskCol == labelCol {
		return nil, nil, fmt.Errorf("%s: the task and label columns are both %q", name, taskCol)
	}
	cr := tableReader(text, d)
	header, hline, err := readHeader(cr, name, true)
	if err != nil {
		return nil, nil, quoteErr(text, name, err)
	}
	if err := checkAbove(text, name, d, named, header, taskCol, labelCol); err != nil {
		return nil, nil, err
	}
	if len(header) == 1 && delim == 0 {
		// Lines of one field above one of several, which aboveHeader did
		// not take for a header (a row of numbers, say: the file may have
		// no header): no "no comma between column names" for a file with
		// commas.
		if l := widerLine(text, hline); l == hline+1 {
			return nil, nil, parseErr(name, hline, 1, ErrHeader, "line %d holds one field (%q) and line %d several: if line %d is %s above the header, delete it, so that the file starts with the column names", hline, short(header[0]), l, hline, titleOrComment(header[0]))
		} else if l > 0 {
			return nil, nil, parseErr(name, hline, 1, ErrHeader, "line %d holds one field (%q), and line %d is the first with several: if %s are a title or comments above the header, delete them, so that the file starts with the column names", hline, short(header[0]), l, lineSpan(hline, l-1))
		}
		seen := ""
		for _, sep := range []string{"|", ":", "^", "~"} {
			if strings.Count(header[0], sep) >= 2 {
				// A separator the reader does not take (a database's
				// export with pipes): name it and what to do.
				seen = fmt.Sprintf(" (it holds %q between names: save the file with commas, semicolons or tabs between fields)", sep)
				break
			}
		}
		return nil, nil, parseErr(name, hline, 1, ErrHeader, "the header has a single column %q: the file has no comma, semicolon or tab between column names%s", short(header[0]), seen)
	}
	if err := checkNames(header, name, hline); err != nil {
		return nil, nil, err
	}
	t := &csvTable{name: name, text: text, delim: d, header: header, hline: hline, idx: make(map[string]int, len(header)),
		label: -1, taskCol: taskCol, labelCol: labelCol, roles: make([]Role, len(header)), refused: map[int]string{},
		decimalMarks: writesDecimalComma(text, d)}
	t.groupDots = groupsDots(text, d, t.decimalMarks)
	for j, h := range header {
		t.idx[h] = j
		t.roles[j] = RoleNumeric
		if h == "" {
			t.roles[j], t.refused[j] = RoleRefused, "no name, no values"
		}
	}
	return t, cr, nil
}

// drop leaves out the columns asked (TableOptions.Drop); an unknown one,
// or the task or label column, is refused.
func (t *csvTable) drop(cols []string) error {
	for _, d := range cols {
		d = strings.TrimSpace(d)
		if d == "" {
			continue
		}
		j, ok := t.idx[d]
		switch {
		case !ok:
			return fmt.Errorf("%s: cannot leave out column %q: the header has (%s)", t.name, short(d), listNames(t.header))
		case j == t.task || j == t.label:
			return fmt.Errorf("%s: cannot leave out column %q: it is the %s column", t.name, d, t.roles[j])
		}
		t.roles[j] = RoleDropped
		t.dropped = append(t.dropped, d)
	}
	return nil
}

// leftOut names the columns left out (Encoding.Dropped): those asked,
// then the named ones the intake refused.
func (t *csvTable) leftOut() []string {
	out := t.dropped
	for j, h := range t.header {
		if t.roles[j] == RoleRefused && h != "" {
			out = append(out, h)
		}
	}
	return out
}

// columnInfos describes every column and its role (Table.Columns); cols
// are the feature columns and colOf a header column's place among them.
// stats, from the training's first pass, tell the roles a feature column
// may take and which one is an id; nil offers none.
func (t *csvTable) columnInfos(cols []EncodedColumn, colOf []int, stats []columnStats, maxCat int) ([]ColumnInfo, error) {
	infos := make([]ColumnInfo, len(t.header))
	for j, h := range t.header {
		ci := ColumnInfo{Name: h, Role: t.roles[j]}
		if stats != nil && j != t.task && j != t.label && h != "" {
			ci.Roles = stats[j].roles(maxCat, stats[j].namedLimit(maxCat))
		}
		switch t.roles[j] {
		case RoleNumeric:
			ci.ID = stats != nil && stats[j].isID()
		case RoleText:
			ci.Values = cols[colOf[j]].Values
			ci.Distinct = len(ci.Values)
		case RoleDropped:
			ci.Reason = "left out"
		case RoleRefused:
			if stats != nil {
				ci.Distinct = stats[j].distinct
			}
			ci.Reason = t.refused[j]
		}
		infos[j] = ci
	}
	if len(cols) == 0 {
		if out := leftOut(infos); out != "" {
			return nil, parseErr(t.name, t.hline, 1, ErrHeader, "no feature columns: the header has only the task column %q and the label column %q%s; read one of those back as a feature", t.taskCol, t.labelCol, out)
		}
		// A one-way layout (a group and a measurement, as R's Dyestuff):
		// the models learn weights of features, and have none to learn.
		return nil, parseErr(t.name, t.hline, 1, ErrHeader, "no feature columns: the header has only the task column %q and the label column %q. The models here learn each task's weights on features measured with each row; with none, each task's model would be its mean alone, which a one-way random-effects model fits (R: lmer(%s ~ 1 + (1 | %s))). Add a column of features to learn from", t.taskCol, t.labelCol, rName(t.labelCol), rName(t.taskCol))
	}
	return infos, nil
}

// rName writes a column's name as an R formula reads it: in backquotes
// unless it is a plain name.
func rName(s string) string {
	for i, r := range s {
		if !(r == '.' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return "`" + strings.ReplaceAll(s, "`", "\\`") + "`"
		}
	}
	return s
}
