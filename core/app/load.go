// Package app is what the command line and the page have in common: it
// loads data sets (a file's text, or one of the bundled data sets of
// Bundles), starts training runs of any method of the catalogue
// (core/method) on them, steps and evaluates them, and builds the paper's
// evaluation protocol. The command line calls it directly; core/session
// keeps its objects behind integer handles for the wasm bridge. Nothing here
// touches JavaScript.
package app

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/internal/words"
	"gonum.org/v1/gonum/mat"
)

// LoadOptions say how to read a data text.
type LoadOptions struct {
	// Name labels the data in messages (a file name). Default "data".
	Name string
	// Format names a format of the intake (data.FormatNames: "csv",
	// "sparse"), or is "" to detect it from the text.
	Format string
	// TaskColumn and LabelColumn name the CSV columns (default task, y);
	// they are never guessed.
	TaskColumn, LabelColumn string
	// Drop names CSV columns to leave out; DropRefused leaves out text
	// columns with too many values instead of refusing the file (the page
	// shows them unticked with the reason).
	Drop        []string
	DropRefused bool
	// Text names CSV columns to read as words (one-hot encoded like any
	// text column) even when their values look like numbers: a category
	// written 0, 1, 2, 3+. A saved model's encoding keeps them, so predict
	// reads new rows the same way.
	Text []string
	// OmitMissing leaves out the rows with a missing value in the task,
	// the label or a feature (data.TableOptions.OmitMissing);
	// without it such a file is refused at its first. The summary says
	// what was left out (Summary.MissingNote).
	OmitMissing bool
	// Origin is the features' origin on a visitor's dense file (read by
	// ParseOrigin): OriginAuto ("" too) as written until tune finds the
	// likelihood prefers another (Data.Centre), OriginZero as written,
	// OriginMeans at the numeric features' means over every row, t times
	// them, or "column=value" (data.Encoding.Centre).
	Origin string
	// Splits, when set, is a split file (row,split1,...) whose column
	// SplitColumn (default: its first) fixes the train/test split instead
	// of a random one. SplitName labels it in messages (a file name;
	// default "NAME's split file").
	Splits      []byte
	SplitColumn string
	SplitName   string
	// Bundled marks one of the bundled data sets (their presets give the
	// paper's settings); any other text is a visitor's own data, whose
	// runs take the own-data profile (OwnData).
	Bundled bool
}

// Data is a loaded data set, with its fixed train/test split when it has
// one (generated data, a split file), and how its file was read.
type Data struct {
	All         *data.Dataset
	Train, Test *data.Dataset
	// Table is how the intake read a CSV (nil for the sparse format and
	// generated data); Encoding is how the features were made, which a
	// saved model keeps.
	Table    *data.Table
	Encoding *data.Encoding
	// omitted are the rows left out for a missing value
	// (LoadOptions.OmitMissing), in every format (a sparse file has no
	// Table).
	omitted *data.Omitted
	// TextEncoding is the text encoding the file was read from
	// (data.DecodeText: "" for UTF-8).
	TextEncoding string
	// Own is set for a visitor's own file (Load without Bundled): its runs
	// and tuning fill unset settings from the own-data profile (OwnData).
	Own bool
	// Origin is the features' origin (LoadOptions.Origin, Origin.String)
	// once moved, OriginZero when asked to stay as written, else "" (tune
	// may move it).
	Origin string
	// OriginNote says why tune moved the origin (Centre); empty otherwise.
	OriginNote string
	// originAsked says that the origin asked for when the file was read
	// moves nothing (no numeric feature): the summary's note.
	originAsked string
}

// Load reads a data text. Errors from the readers keep their
// "file:line:col: message" form.
func Load(text []byte, opt LoadOptions) (*Data, error) {
	if opt.Name == "" {
		opt.Name = "data"
	}
	d, err := read(text, opt)
	if err != nil {
		return nil, err
	}
	d.Own = !opt.Bundled
	if d.Own && d.Encoding != nil {
		// A visitor's features are in units of their own, which the
		// penalties would otherwise weigh (docs/algorithms.md §14).
		d.Encoding.Standardize(d.All)
		// A feature constant within every task is a task-level covariate:
		// a shared effect, with no room for a task's own (§14).
		d.Encoding.Fix(d.All, data.TaskLevel(d.All))
	}
	o, err := ParseOrigin(opt.Origin)
	switch {
	case err != nil:
		return nil, err
	case !o.Set:
	case o.Column == "" && o.T == 0:
		d.Origin = OriginZero // asked for: tune keeps it
	default:
		if !d.Own || d.Encoding == nil || d.All.Sparse() {
			return nil, fmt.Errorf("%s: origin %s: only a visitor's dense file's features are moved (a bundled data set's and a sparse file's stay as written)", opt.Name, opt.Origin)
		}
		c, err := d.originAt(o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", opt.Name, err)
		}
		d.Encoding.Centre(d.All, c)
		d.Origin = o.String()
		if !slices.ContainsFunc(d.Encoding.Columns, func(c data.EncodedColumn) bool { return c.Values == nil }) {
			d.originAsked = "the features' origin at the numeric features' means moves nothing here: the file has no numeric feature, and a category's indicators stay 0 or 1"
		}
	}
	if err := d.oneLabel(opt.Name); err != nil {
		return nil, err
	}
	if err := d.labelOfTasks(opt.Name); err != nil {
		return nil, err
	}
	if len(opt.Splits) > 0 {
		if err := d.split(opt); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// Centre moves the features' origin of d, a visitor's dense data set, to
// o (Data.originAt; a fixed split's training and test rows are moved
// alike), and records why: tune does it when the likelihood prefers it
// (TuneSearch). The rows and the encoding are replaced by moved copies, so
// that a run made before keeps the rows it trains on and its model file
// the encoding it was trained with. A saved model keeps the origin, so
// predict moves new rows alike.
func (d *Data) Centre(o Origin, note string) error {
	if d.Encoding == nil || d.All.Sparse() {
		return nil
	}
	c, err := d.originAt(o)
	if err != nil {
		return err
	}
	e := *d.Encoding
	e.Center = c
	d.Encoding = &e
	for _, part := range []**data.Dataset{&d.All, &d.Train, &d.Test} {
		if *part != nil {
			*part = data.Shifted(*part, c)
		}
	}
	d.Origin, d.OriginNote = o.String(), note
	return nil
}

// originAt is the origin o in the standardized units the rows are in: t
// times the numeric features' means over every row (a category's
// indicators stay 0 or 1), or one numeric column's value divided as the
// column is. It fails for a column the file has no numeric feature of.
func (d *Data) originAt(o Origin) ([]float64, error) {
	e := d.Encoding
	if o.Column == "" {
		c := e.Centres(d.All)
		for j := range c {
			c[j] *= o.T
		}
		return c, nil
	}
	j, err := numericFeature(e, o.Column)
	if err != nil {
		return nil, fmt.Errorf("origin %s: %w", o, err)
	}
	c := make([]float64, d.All.Features)
	c[j] = o.At / featureScale(e, j)
	return c, nil
}

// numericFeature returns the feature of e's numeric column named col.
func numericFeature(e *data.Encoding, col string) (int, error) {
	features, numeric := e.Numeric()
	if i := slices.Index(numeric, col); i >= 0 {
		return features[i], nil
	}
	if len(numeric) == 0 {
		return 0, fmt.Errorf("no column is a numeric feature (%s is not one)", col)
	}
	if len(numeric) > 8 {
		numeric = append(numeric[:8:8], plural(len(numeric)-8, "more"))
	}
	return 0, fmt.Errorf("%s is not a numeric feature column (they are %s)", col, words.List(numeric))
}

// featureScale is the divisor of e's feature j (1 when none).
func featureScale(e *data.Encoding, j int) float64 {
	if j < len(e.Scale) && e.Scale[j] > 0 {
		return e.Scale[j]
	}
	return 1
}

// oneLabel refuses a data set whose label takes one value in every row
// (every row "yes", or 3.2): there is nothing to learn, and training
// would end with every score n/a, or fail later blaming λ0. Load refuses
// it for training; predict does not read labels.
func (d *Data) oneLabel(file string) error {
	ds := d.All
	var value string
	switch ds.Kind {
	case data.Classification:
		if ds.Positive != "" && ds.Negative != "" {
			return nil
		}
		value = ds.Positive + ds.Negative
	default:
		first := true
		var y0 float64
		for i := range ds.Tasks {
			for _, y := range ds.Tasks[i].Y {
				if first {
					y0, first = y, false
				} else if y != y0 {
					return nil
				}
			}
		}
		value = strconv.FormatFloat(y0, 'g', -1, 64)
		if d.Table != nil && d.Table.Labels.Distinct == 1 {
			value = d.Table.Labels.Values[0] // as written
		}
	}
	if d.Encoding == nil || d.Encoding.LabelColumn == "" {
		return fmt.Errorf("%s: the label is %s in every row: there is nothing to learn; give a file whose labels differ", file, value)
	}
	return &data.RemedyError{Err: fmt.Errorf("%s: label %s has one value (%s) in every row: there is nothing to learn; choose another label column", file, d.Encoding.LabelColumn, value),
		Remedy: data.Remedy{Choose: data.RoleLabel}}
}

// labelOfTasks refuses a data set whose label never varies within a task
// while its rows' features do (each child's sex with the child as the
// task, a school's mean with the school): the label describes the tasks,
// not their rows, so nothing can be learned within a task, a classifier's
// AUC is undefined on every task, and tuning would score a meaningless fit
// as perfect. A file of one row per task is let through (there it is the
// tasks' size that the split's and the scores' notes speak of), and so is
// one whose tasks' rows are copies of each other (nothing varies within a
// task at all).
func (d *Data) labelOfTasks(file string) error {
	tasks := d.All.Tasks
	varies := false
	for i := range tasks {
		y := tasks[i].Y
		for _, v := range y[1:] {
			if v != y[0] {
				return nil
			}
		}
		varies = varies || rowsDiffer(&tasks[i])
	}
	if !varies || d.Encoding == nil || d.Encoding.LabelColumn == "" {
		return nil
	}
	task := cmp.Or(d.Encoding.TaskColumn, "task")
	return &data.RemedyError{Err: fmt.Errorf("%s: label %s has one value within every task (%s) while the rows' features vary: it describes the tasks, not their rows, so there is nothing to learn within a task; choose another label column, or another task column", file, d.Encoding.LabelColumn, task),
		Remedy: data.Remedy{Choose: data.RoleLabel}}
}

// rowsDiffer reports whether two of a dense task's rows have different
// features (a sparse task's are taken to).
func rowsDiffer(t *data.Task) bool {
	if t.X == nil {
		return t.Rows() > 1
	}
	for r := 1; r < t.Rows(); r++ {
		if !slices.Equal(t.X.RawRowView(r), t.X.RawRowView(0)) {
			return true
		}
	}
	return false
}

// split applies the split file of opt, naming it in every error: its
// position in the split file, a row count that does not match the data's,
// a task that it leaves without training rows.
func (d *Data) split(opt LoadOptions) error {
	ds := d.All
	name := cmp.Or(opt.SplitName, opt.Name+"'s split file")
	mask, err := data.ReadSplitFile(bytes.NewReader(opt.Splits), name, opt.SplitColumn)
	if err != nil {
		return err
	}
	if ds.SourceRows > 0 && len(mask) != ds.SourceRows {
		return fmt.Errorf("%s has %d rows, %s has %d data rows: a split file has one row per data row, in the data file's order", name, len(mask), opt.Name, ds.SourceRows)
	}
	if d.Train, d.Test, err = data.SplitByMask(ds, mask); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var empty []string
	for i := range d.Train.Tasks {
		if d.Train.Tasks[i].Rows() == 0 {
			empty = append(empty, d.Train.Tasks[i].Name)
		}
	}
	switch {
	case len(empty) == len(d.Train.Tasks):
		return fmt.Errorf("%s puts every row in the test set, which leaves nothing to train on: mark some rows of each task train", name)
	case len(empty) == 1:
		return fmt.Errorf("%s puts every row of task %q in the test set; a task needs at least one training row: mark one of its rows train", name, empty[0])
	case len(empty) > 1:
		return fmt.Errorf("%s puts every row of tasks %s in the test set; a task needs at least one training row: mark one of each one's rows train", name, quotedList(empty))
	}
	return nil
}

// quotedList quotes names for a message, the first few of them.
func quotedList(names []string) string {
	const max = 5
	var q []string
	for i, n := range names {
		if i == max {
			q = append(q, "and "+words.Grouped(int64(len(names)-max))+" more")
			break
		}
		q = append(q, strconv.Quote(n))
	}
	return strings.Join(q, ", ")
}

// read reads a data text through the intake (data.Load), for the command
// line, the page and the reproduction alike: any format of the intake's
// table of formats (a CSV, the sparse format, a packed table), detected or
// asked for.
func read(text []byte, opt LoadOptions) (*Data, error) {
	tab, err := data.Load(text, opt.Name, data.Options{Format: opt.Format, TaskColumn: opt.TaskColumn, LabelColumn: opt.LabelColumn,
		Drop: opt.Drop, Text: opt.Text, DropRefused: opt.DropRefused, OmitMissing: opt.OmitMissing})
	if err != nil {
		return nil, err
	}
	d := &Data{All: tab.Data, Encoding: tab.Encoding, TextEncoding: tab.TextEncoding, omitted: tab.Omitted}
	if tab.Header != nil {
		d.Table = tab // a table with columns, as Summary shows them
	}
	return d, nil
}

// Header returns a file's column names and delimiter as the intake reads
// them (the file's bytes decoded as read decodes them; none for the sparse
// format), for the page's column menus after a refusal.
func Header(text []byte, name string) ([]string, rune, error) {
	return data.LoadHeader(text, name)
}

// Pack reads a CSV as Load does with opt (the page's bundled data sets:
// their own task and label columns, nothing left out) and returns it
// packed (data.PackTable), for the page's build to ship beside the CSV.
// Text columns with too many values are left out with a reason, as the
// page does. Load reads either to the same Data.
func Pack(text []byte, opt LoadOptions) ([]byte, error) {
	// A prefix decoded (UTF-16, a BOM) tells a sparse text.
	prefix, _ := data.DecodeText(text[:min(len(text), 8<<10)])
	switch {
	case data.IsPacked(text):
		return nil, fmt.Errorf("%s: the file is a packed table already", opt.Name)
	case data.Detect(prefix) == "sparse":
		return nil, fmt.Errorf("%s: the file is in the sparse format (task label index:value), which is read as it is: pack packs a CSV", opt.Name)
	}
	opt.Format, opt.DropRefused = "csv", true
	d, err := read(text, opt)
	if err != nil {
		return nil, err
	}
	return data.PackTable(d.Table)
}

// Generate makes a synthetic bundle (syn1, syn2) with its own train/test
// split; seed picks the draw.
func Generate(name string, seed uint64) (*Data, error) {
	b, err := LookupBundle(name)
	if err != nil {
		return nil, err
	}
	if !b.Generated {
		return nil, fmt.Errorf("generate: %s is not a synthetic data set (the generated ones are %s)", name, generatedNames())
	}
	res, err := b.generate(seed)
	if err != nil {
		return nil, err
	}
	all := &data.Dataset{Name: name, Features: res.Train.Features, Kind: data.Regression}
	for t := range res.Train.Tasks {
		a, c := &res.Train.Tasks[t], &res.Test.Tasks[t]
		ra, rc := a.X.RawMatrix(), c.X.RawMatrix()
		x := mat.NewDense(a.Rows()+c.Rows(), all.Features, append(append([]float64(nil), ra.Data...), rc.Data...))
		all.Tasks = append(all.Tasks, data.Task{Name: a.Name, X: x, Y: append(append([]float64(nil), a.Y...), c.Y...)})
	}
	return &Data{All: all, Train: res.Train, Test: res.Test}, nil
}

func generatedNames() string {
	var s string
	for _, b := range bundles {
		if b.Generated {
			if s != "" {
				s += ", "
			}
			s += b.Name
		}
	}
	return s
}

// TaskSummary describes one task of a loaded data set.
type TaskSummary struct {
	Name      string `json:"name"`
	Rows      int    `json:"rows"`
	Positives int    `json:"positives"`
}

// Summary describes a loaded data set.
type Summary struct {
	Name         string        `json:"name"`
	Tasks        []TaskSummary `json:"tasks"`
	Features     int           `json:"features"`
	Rows         int           `json:"rows"`
	Kind         string        `json:"kind"`
	Positive     string        `json:"positive"`
	Negative     string        `json:"negative"`
	FixedSplit   bool          `json:"fixedSplit"`
	FeatureNames []string      `json:"featureNames,omitempty"`
	// Format is "csv", "sparse" or "generated"; Delimiter names a CSV's
	// ("comma", "semicolon", "tab").
	Format    string `json:"format"`
	Delimiter string `json:"delimiter,omitempty"`
	// Header and Columns are a CSV's columns and their roles.
	Header  []string          `json:"header,omitempty"`
	Columns []data.ColumnInfo `json:"columns,omitempty"`
	// Features says how the features were made ("6 features from 5
	// columns: sex one-hot (2), ...; left out: student").
	FeatureText string `json:"featureText,omitempty"`
	// LabelNote says how the labels were read, when it is worth saying.
	LabelNote string `json:"labelNote,omitempty"`
	// TextEncoding names the file's text encoding when it was not UTF-8
	// ("UTF-16", "Windows-1252").
	TextEncoding string `json:"textEncoding,omitempty"`
	// NumberNote names the columns written with thousands separators
	// ("x1 has numbers written with thousands separators: 1,234 is read
	// as 1234").
	NumberNote string `json:"numberNote,omitempty"`
	// IDNote names the numeric columns that hold a different whole number
	// in every row, as an id does (data.ColumnInfo.ID), with the advice to
	// leave them out; IDColumns lists them. They are used as features all
	// the same: nothing is left out unasked.
	IDNote    string   `json:"idNote,omitempty"`
	IDColumns []string `json:"idColumns,omitempty"`
	// TaskNote says, when most rows are a task of their own, that the
	// task column may be the wrong one (taskNote).
	TaskNote string `json:"taskNote,omitempty"`
	// MissingNote says which rows were left out for a missing value
	// (LoadOptions.OmitMissing; data.Omitted.Text), and Omitted counts
	// them.
	MissingNote string        `json:"missingNote,omitempty"`
	Omitted     *data.Omitted `json:"omitted,omitempty"`
	// LevelNote names the columns of whole numbers and an open level (0,
	// 1, 2, 3+) read as categories unasked (data.Table.Levels), and the
	// columns of words whose empty or NA cells are a category of their own.
	LevelNote string `json:"levelNote,omitempty"`
	// OriginNote says that the origin asked for moves nothing (a file
	// without a numeric feature); tune's move is its own result's to say
	// (TuneResult.OriginNote).
	OriginNote string `json:"originNote,omitempty"`
	// FixedNote names the columns constant within every task, whose
	// features are shared effects (data.Encoding.Fixed).
	FixedNote string `json:"fixedNote,omitempty"`
	// LeakNote warns of a column of words that fixes a classifier's label
	// (leakNote), with LeakColumns its names.
	LeakNote    string   `json:"leakNote,omitempty"`
	LeakColumns []string `json:"leakColumns,omitempty"`
	// SameNote names the feature columns with one value in every row, and
	// those that repeat another column (sameNote); SameColumns are the
	// ones to leave out.
	SameNote    string   `json:"sameNote,omitempty"`
	SameColumns []string `json:"sameColumns,omitempty"`
	// QuotedNote names the columns of a few whole numbers in a file that
	// writes every number in quotes (data.Table.QuotedNumbers), read as
	// numbers though they may be a factor's codes; QuotedColumns are the
	// ones to read as words if they are.
	QuotedNote    string   `json:"quotedNote,omitempty"`
	QuotedColumns []string `json:"quotedColumns,omitempty"`
	// TaskColumn and LabelColumn are the CSV columns used.
	TaskColumn  string `json:"taskColumn,omitempty"`
	LabelColumn string `json:"labelColumn,omitempty"`
}

// Summary describes the data set (feature names when there are at most
// 200).
func (d *Data) Summary() Summary {
	ds := d.All
	sum := Summary{Name: ds.Name, Features: ds.Features, Rows: ds.Rows(), Kind: ds.Kind.String(),
		Positive: ds.Positive, Negative: ds.Negative, FixedSplit: d.Train != nil}
	if len(ds.FeatureNames) <= 200 {
		sum.FeatureNames = ds.FeatureNames
	}
	for i := range ds.Tasks {
		t := &ds.Tasks[i]
		ts := TaskSummary{Name: t.Name, Rows: t.Rows()}
		for _, y := range t.Y {
			if ds.Kind == data.Classification && y > 0 {
				ts.Positives++
			}
		}
		sum.Tasks = append(sum.Tasks, ts)
	}
	sum.Format = "generated"
	sum.TextEncoding = d.TextEncoding
	sum.Omitted, sum.MissingNote = d.omitted, d.omitted.Text()
	if d.Table == nil && ds.Sparse() {
		sum.LeakNote, sum.LeakColumns = leakNote(d) // a sparse file's feature (a table's: below)
	}
	if d.Encoding != nil {
		sum.Format = d.Encoding.Format
	}
	if tab := d.Table; tab != nil {
		enc := tab.Encoding
		sum.Delimiter, _ = delimiterName(enc.Delimiter)
		sum.Header, sum.Columns, sum.LabelNote = tab.Header, tab.Columns, tab.Labels.Note
		sum.TaskColumn, sum.LabelColumn = enc.TaskColumn, enc.LabelColumn
		sum.FeatureText = featureText(tab)
		sum.NumberNote = numberNote(tab)
		sum.IDNote, sum.IDColumns = idNote(tab)
		sum.TaskNote = taskNote(enc.TaskColumn, sum.Tasks, sum.Rows)
		if near := nearTaskNames(enc.TaskColumn, sum.Tasks); near != "" {
			sum.TaskNote = strings.TrimPrefix(sum.TaskNote+"; "+near, "; ")
		}
		sum.LevelNote = levelNote(tab)
		sum.LeakNote, sum.LeakColumns = leakNote(d)
		sum.FixedNote = fixedNote(d.Encoding)
		sum.SameNote, sum.SameColumns = sameNote(d)
		sum.QuotedNote, sum.QuotedColumns = quotedNote(tab)
	}
	sum.OriginNote = d.originAsked
	return sum
}

// taskNote is a warning when the task column makes nearly a task per row
// (more tasks than half the rows, of 20 rows or more): a column of
// measurements taken for the task column ("-task x1": 78 tasks of 80
// rows) trains every row alone, and nothing said so. "" otherwise.
func taskNote(col string, ts []TaskSummary, rows int) string {
	tasks := len(ts)
	if tasks == 1 && rows > 1 {
		// Nothing to share, nothing to pace: every model is one ridge
		// fit of the rows (a constant column taken for the task column).
		return fmt.Sprintf("the task column %s holds one task: learning tasks together, and the pace, need two or more, so every model here fits this one task alone; is %s the column that names each row's group?", col, col)
	}
	if rows < 20 || 2*tasks <= rows {
		return ""
	}
	alone := 0
	for _, t := range ts {
		if t.Rows == 1 {
			alone++
		}
	}
	// What the rows are: most of them alone, or tasks of a row or two (a
	// file of matched pairs, where the column is right).
	what := "most rows are a task of their own, and a task of one row has nothing to learn from"
	if 2*alone <= rows {
		what = fmt.Sprintf("the tasks have fewer than two rows on average (%s of one row), and a task of one row has nothing to learn from", words.Grouped(int64(alone)))
	}
	return fmt.Sprintf("the task column %s makes %s tasks of %s rows: %s; is %s the column that names each row's group?", col, words.Grouped(int64(tasks)), words.Grouped(int64(rows)), what, col)
}

// nearTaskNames says which task names differ only in letter case, in
// leading zeros or in a number's trailing ".0" ("G1" and "g1", "7" and
// "007", "1" and "1.0", as a spreadsheet or pandas may rewrite a column of
// codes): they are tasks apart, each with its own weights, where the file
// most likely meant one group. "" when none do.
func nearTaskNames(col string, tasks []TaskSummary) string {
	key := func(s string) string {
		k := strings.ToLower(strings.TrimSpace(s))
		if f, err := strconv.ParseFloat(k, 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1e15 && strings.Trim(k, "0123456789.+-") == "" {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
		return k
	}
	first := map[string]string{}
	var pairs []string
	n := 0
	for _, ts := range tasks {
		t := ts.Name
		k := key(t)
		if f, ok := first[k]; !ok {
			first[k] = t
		} else if f != t {
			n++
			if len(pairs) < 3 {
				pairs = append(pairs, fmt.Sprintf("%q and %q", f, t))
			}
		}
	}
	if n == 0 {
		return ""
	}
	more := ""
	if n > len(pairs) {
		more = fmt.Sprintf(" (and %d more)", n-len(pairs))
	}
	return fmt.Sprintf("the task column %s has names that differ only in letter case, leading zeros or a trailing .0: %s%s are separate tasks; if each pair is one group, write its name alike", col, strings.Join(pairs, ", "), more)
}

// quotedNote names the columns of data.Table.QuotedNumbers: every number of
// the file is in quotes, so its quotes tell nothing, and a column of a few
// whole numbers may be a factor's codes (R writes a data frame of factors
// so: cbpp's period "1" to "4") or numbers. They are read as numbers; the
// note says so and how to read them as words. "" when there is none.
func quotedNote(tab *data.Table) (string, []string) {
	var cols []string
	for _, name := range tab.QuotedNumbers {
		if slices.ContainsFunc(tab.Columns, func(c data.ColumnInfo) bool { return c.Name == name && c.Role == data.RoleNumeric }) {
			cols = append(cols, name)
		}
	}
	if len(cols) == 0 {
		return "", nil
	}
	return agreeing(cols,
		"holds a few whole numbers, all in quotes as every number of the file is, so the quotes cannot say whether they are a factor's codes (as R writes them) or numbers: it is read as a number; if its values are codes, read it as words",
		"hold a few whole numbers, all in quotes as every number of the file is, so the quotes cannot say whether they are a factor's codes (as R writes them) or numbers: they are read as numbers; if their values are codes, read them as words"), cols
}

// inNumberOrder returns the values sorted as numbers when every one is a
// number (a factor's codes "2", "10", "1" as 1, 2, 10), else as they are:
// a note lists them so, where the order they first appear in reads as
// arbitrary (Oxide's Site "2, 3, 1").
func inNumberOrder(values []string) []string {
	nums := make([]float64, len(values))
	for i, v := range values {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return values
		}
		nums[i] = x
	}
	idx := make([]int, len(values))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(nums[a], nums[b]) })
	out := make([]string, len(values))
	for k, i := range idx {
		out[k] = values[i]
	}
	return out
}

// levelNote says which columns were read as categories for their open
// level (data.Table.Levels): "visits holds whole numbers and 3+: it is
// read as a category, one indicator per value (0, 1, 2, 3+)"; "" when
// none was.
func levelNote(tab *data.Table) string {
	var parts []string
	for _, name := range tab.Levels {
		i := slices.IndexFunc(tab.Columns, func(c data.ColumnInfo) bool { return c.Name == name })
		if i < 0 {
			continue
		}
		var words []string
		for _, v := range tab.Columns[i].Values {
			if _, err := strconv.ParseFloat(v, 64); err != nil && v != "(empty)" {
				words = append(words, v)
			}
		}
		parts = append(parts, fmt.Sprintf("%s holds whole numbers and %s: it is read as a category, one indicator per value (%s)",
			name, strings.Join(words, " and "), strings.Join(tab.Columns[i].Values, ", ")))
	}
	// One sentence for every column of codes, each with its values (a file
	// of several, InstEval's, repeated the sentence for each).
	var codes []string
	for _, name := range tab.Codes {
		i := slices.IndexFunc(tab.Columns, func(c data.ColumnInfo) bool { return c.Name == name })
		if i < 0 {
			continue
		}
		codes = append(codes, fmt.Sprintf("%s (%s)", name, strings.Join(inNumberOrder(tab.Columns[i].Values), ", ")))
	}
	if len(codes) > 0 {
		parts = append(parts, agreeing(codes,
			"holds numbers written in quotes, as R writes a factor's codes: it is read as a category, one indicator per value; write them without quotes to read them as numbers",
			"hold numbers written in quotes, as R writes a factor's codes: they are read as categories, one indicator per value; write them without quotes to read them as numbers"))
	}
	// Dates read as categories (data.Table.Dates): what that loses, and
	// how to keep it.
	var dates []string
	for _, name := range tab.Dates {
		if i := slices.IndexFunc(tab.Columns, func(c data.ColumnInfo) bool { return c.Name == name }); i >= 0 && tab.Columns[i].Role == data.RoleText {
			dates = append(dates, name)
		}
	}
	if len(dates) > 0 {
		parts = append(parts, agreeing(dates,
			"looks like dates: it is read as a category, one indicator per date, which keeps neither their order nor how far apart they are; written as numbers (days since a start, say), it would be read as one number",
			"look like dates: they are read as categories, one indicator per date, which keeps neither their order nor how far apart they are; written as numbers (days since a start, say), each would be read as one number"))
	}
	// A column of words with empty or NA cells: those are a category of
	// their own here (R would make them missing), which -missing omit
	// does not change; say so where it happens, once for the columns with
	// the same gaps (hunt hF's mccurdy said it of ten columns, one by one).
	var gapKinds []string
	gapCols := map[string][]string{}
	for j, c := range tab.Columns {
		if c.Role != data.RoleText {
			continue
		}
		var gaps []string
		for _, v := range c.Values {
			switch {
			case v == "(empty)":
				gaps = append(gaps, "empty or NA cells")
			case data.MissingMarker(v):
				gaps = append(gaps, fmt.Sprintf("cells %q", v))
			}
		}
		if len(gaps) > 0 {
			kind := strings.Join(gaps, " and ")
			if gapCols[kind] == nil {
				gapKinds = append(gapKinds, kind)
			}
			gapCols[kind] = append(gapCols[kind], data.ColumnLabel(c.Name, j))
		}
	}
	for _, kind := range gapKinds {
		parts = append(parts, agreeing(gapCols[kind], "has "+kind, "have "+kind)+": read as a category of their own, not as missing values")
	}
	return strings.Join(parts, "; ")
}

// fixedNote names the columns whose features are all task-level
// (data.Encoding.Fixed): "Diet is constant within every task: …"; "" when
// none is.
func fixedNote(e *data.Encoding) string {
	names := fixedColumns(e)
	if len(names) == 0 {
		return ""
	}
	return agreeing(names, "is", "are") + " constant within every task (a task-level covariate): a shared effect, which the tasks do not deviate from, as a mixed model's fixed effect"
}

// fixedColumns names the columns all of whose features are task-level
// covariates (data.Encoding.Fixed).
func fixedColumns(e *data.Encoding) []string {
	if e == nil || len(e.Fixed) == 0 {
		return nil
	}
	fixed := map[int]bool{}
	for _, j := range e.Fixed {
		fixed[j] = true
	}
	var names []string
	at := e.Starts()
	for k, c := range e.Columns {
		all := true
		for i := at[k]; i < at[k+1]; i++ {
			all = all && fixed[i]
		}
		if all {
			names = append(names, c.Name)
		}
	}
	return names
}

// minLeakRows is the fewest rows in which a column of words that fixes the
// label is worth a warning (leakNote): in a handful of rows any category
// can.
const minLeakRows = 20

// leakNote warns of the columns of words that fix a classifier's label
// (a regression's label computed from numeric columns: formulaLeak):
// each of their values (two or more of them) is seen with one class only,
// over rows of both classes. Such a column is the label in other words (a
// label derived from it, as VerbAgg's r2 from resp), a fit reads the label
// off it, and cross-validation scores it as perfect; the visitor is told,
// and may leave it out. It returns "" when there is none, and the
// columns' names.
func leakNote(d *Data) (string, []string) {
	ds, enc := d.All, d.Encoding
	if ds.Kind == data.Regression {
		return formulaLeak(d)
	}
	if ds.Kind == data.Classification && ds.Sparse() && ds.Rows() >= minLeakRows {
		return separatingFeature(ds), nil // no column to leave out by name
	}
	if ds.Kind != data.Classification || enc == nil || ds.Sparse() || ds.Rows() < minLeakRows {
		return "", nil
	}
	var names, parts []string
	at := enc.Starts()
	for ci, c := range enc.Columns {
		if c.Values == nil {
			continue
		}
		off, end := at[ci], at[ci+1]
		k := end - off
		// seen[v]: bit 1 for a negative row with value v, bit 2 for a positive.
		seen := make([]byte, k)
		var classes byte
		for i := range ds.Tasks {
			t := &ds.Tasks[i]
			for r := 0; r < t.Rows(); r++ {
				cls := byte(1)
				if t.Y[r] > 0 {
					cls = 2
				}
				classes |= cls
				for v, on := range t.X.RawRowView(r)[off:end] {
					if on > 0 {
						seen[v] |= cls
					}
				}
			}
		}
		used, fixed := 0, true
		var pairs []string
		for v, b := range seen {
			if b == 0 {
				continue
			}
			used++
			if b == 3 {
				fixed = false
				break
			}
			class := ds.Negative
			if b == 2 {
				class = ds.Positive
			}
			pairs = append(pairs, fmt.Sprintf("%s: %s", c.Values[v], class))
		}
		if classes != 3 || used < 2 || !fixed {
			continue
		}
		names = append(names, c.Name)
		parts = append(parts, fmt.Sprintf("%s fixes the label: each of its values is seen with one class only (%s), so a model reads the label off it and scores as perfect; if %s is the label in other words, leave it out", c.Name, strings.Join(pairs, "; "), c.Name))
	}
	if note, col := separatingColumn(d); note != "" {
		names = append(names, col)
		parts = append(parts, note)
	}
	return strings.Join(parts, "; "), names
}

// minSeparatedRows is the fewest rows of each class in which a numeric
// column that separates them is worth a warning: a column separates a
// class of one row whenever that row holds its largest or smallest value.
const minSeparatedRows = 5

// separatingColumn names the first numeric column that separates a
// classifier's two classes exactly (every row of one class above every
// row of the other): a copy of a 0/1 label, or the number the label was
// cut from (passed = score > 50). A model reads the label off it and
// cross-validates as perfect. "" when none does, or when a class has
// fewer than minSeparatedRows rows.
func separatingColumn(d *Data) (string, string) {
	ds, enc := d.All, d.Encoding
	cols, colNames := enc.Numeric()
	if len(cols) == 0 || ds.Rows()*len(cols) > maxLeakCells {
		return "", ""
	}
	// Each column's range in each class, read in one pass over the stored
	// rows. A stored value is an increasing function of the file's (its
	// origin subtracted, divided by a positive divisor), so it orders the
	// rows as the file does: the ranges are taken here, and only the
	// separating column's ends are taken back to the file's numbers for
	// the message.
	// (The rows are not copied out as the file wrote them, rawColumns: on a
	// bundled classifier that copy was most of the load's time.)
	k := len(cols)
	rng := make([]float64, 4*k) // loP, hiP, loN, hiN of each column
	nan := make([]bool, k)
	for c := 0; c < k; c++ {
		rng[4*c], rng[4*c+1], rng[4*c+2], rng[4*c+3] = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	}
	var pos, neg int
	for i := range ds.Tasks {
		t := &ds.Tasks[i]
		for r := 0; r < t.Rows(); r++ {
			row, o := t.X.RawRowView(r), 2
			if t.Y[r] > 0 {
				pos++
				o = 0
			} else {
				neg++
			}
			for c, j := range cols {
				v, lh := row[j], rng[4*c+o:4*c+o+2]
				switch {
				case v < lh[0]:
					lh[0] = v
					if v > lh[1] {
						lh[1] = v
					}
				case v > lh[1]:
					lh[1] = v
				case v != v:
					nan[c] = true
				}
			}
		}
	}
	if pos < minSeparatedRows || neg < minSeparatedRows {
		return "", ""
	}
	raw := func(j int, v float64) float64 {
		if j < len(enc.Center) {
			v += enc.Center[j]
		}
		return v * featureScale(enc, j)
	}
	for c, j := range cols {
		if nan[c] {
			continue
		}
		loP, hiP, loN, hiN := rng[4*c], rng[4*c+1], rng[4*c+2], rng[4*c+3]
		var above, below string
		var lo, hi float64
		switch {
		case hiN < loP:
			above, below, lo, hi = ds.Positive, ds.Negative, loP, hiN
		case hiP < loN:
			above, below, lo, hi = ds.Negative, ds.Positive, loN, hiP
		default:
			continue
		}
		name := colNames[c]
		return fmt.Sprintf("%s separates the classes exactly: every %s row has %s ≥ %.4g and every %s row ≤ %.4g, so a model reads the label off it and scores as perfect; if the label is %s or was cut from it, leave %s out",
			name, above, name, raw(j, lo), below, raw(j, hi), name, name), name
	}
	return "", ""
}

// separatingFeature is separatingColumn for a sparse file: the first
// feature whose values in one class all lie above those in the other (a
// feature absent from a row is 0 there), over classes of at least
// minSeparatedRows rows. Its note names the feature by its index; the
// format has no columns to leave out, so the file is to be edited. ""
// when none separates.
func separatingFeature(ds *data.Dataset) string {
	d := ds.Features
	// Per class (0: negative, 1: positive): the smallest and largest stored
	// value of each feature, and how many rows store one.
	var lo, hi [2][]float64
	var n [2][]int
	for c := range 2 {
		lo[c], hi[c], n[c] = make([]float64, d), make([]float64, d), make([]int, d)
		for j := range d {
			lo[c][j], hi[c][j] = math.Inf(1), math.Inf(-1)
		}
	}
	var rows [2]int
	for i := range ds.Tasks {
		t := &ds.Tasks[i]
		s := t.S
		for r := 0; r < s.Rows; r++ {
			c := 0
			if t.Y[r] > 0 {
				c = 1
			}
			rows[c]++
			for k := s.Indptr[r]; k < s.Indptr[r+1]; k++ {
				j, v := s.Indices[k], s.Values[k]
				lo[c][j], hi[c][j] = math.Min(lo[c][j], v), math.Max(hi[c][j], v)
				n[c][j]++
			}
		}
	}
	if rows[0] < minSeparatedRows || rows[1] < minSeparatedRows {
		return ""
	}
	for j := range d {
		var l, h [2]float64
		for c := range 2 {
			l[c], h[c] = lo[c][j], hi[c][j]
			if n[c][j] < rows[c] { // some rows of the class lack it: 0 there
				l[c], h[c] = math.Min(l[c], 0), math.Max(h[c], 0)
			}
		}
		var above, below string
		var a, b float64
		switch {
		case h[0] < l[1]:
			above, below, a, b = ds.Positive, ds.Negative, l[1], h[0]
		case h[1] < l[0]:
			above, below, a, b = ds.Negative, ds.Positive, l[0], h[1]
		default:
			continue
		}
		return fmt.Sprintf("feature %d separates the classes exactly: every %s row has it ≥ %.4g and every %s row ≤ %.4g (a feature a line leaves out is 0), so a model reads the label off it and scores as perfect; if the label was made from it, take it out of the file's lines",
			j+1, above, a, below, b)
	}
	return ""
}

// idNote names the columns that look like ids (data.ColumnInfo.ID) and
// advises leaving them out, in words that fit every front end; "" when
// there is none.
func idNote(tab *data.Table) (string, []string) {
	var names, codes []string
	for _, c := range tab.Columns {
		switch {
		case c.Role != data.RoleNumeric:
		case c.ID:
			names = append(names, c.Name)
		case slices.Contains(tab.ManyCodes, c.Name):
			codes = append(codes, c.Name)
		}
	}
	var parts []string
	if len(names) > 0 {
		parts = append(parts, agreeing(names, "holds a different whole number in every row, as an id does: it is used as a feature, which rarely means anything; leave it out unless its numbers measure something",
			"hold a different whole number in every row, as ids do: they are used as features, which rarely means anything; leave them out unless their numbers measure something"))
	}
	// Codes in quotes with too many values for a category (data.Table.ManyCodes).
	if len(codes) > 0 {
		parts = append(parts, agreeing(codes, "holds numbers written in quotes, as R writes a factor's codes, with too many distinct values to read as a category: it is used as a number, which rarely means anything for codes; leave it out unless its numbers measure something",
			"hold numbers written in quotes, as R writes a factor's codes, with too many distinct values to read as categories: they are used as numbers, which rarely means anything for codes; leave them out unless their numbers measure something"))
	}
	return strings.Join(parts, "; "), append(names, codes...)
}

// numberNote names the columns some of whose numbers have thousands
// separators, and those written with a decimal comma in a comma-separated
// file, or is empty when none has.
func numberNote(tab *data.Table) string {
	var grouped, decimal, percent, money, parens []string
	for j, c := range tab.Columns {
		if c.Thousands {
			grouped = append(grouped, data.ColumnLabel(c.Name, j))
		}
		if c.DecimalComma {
			decimal = append(decimal, data.ColumnLabel(c.Name, j))
		}
		if c.Percent {
			percent = append(percent, data.ColumnLabel(c.Name, j))
		}
		if c.Money {
			money = append(money, data.ColumnLabel(c.Name, j))
		}
		if c.Parens {
			parens = append(parens, data.ColumnLabel(c.Name, j))
		}
	}
	var notes []string
	if len(grouped) > 0 {
		example := "1,234"
		if tab.Encoding != nil && tab.Encoding.DecimalComma {
			example = "1.234" // a decimal-comma file groups with points
		}
		notes = append(notes, namesHave(grouped)+" numbers written with thousands separators: "+example+" is read as 1234")
	}
	if len(decimal) > 0 {
		notes = append(notes, namesHave(decimal)+` numbers written with a decimal comma, as the file writes them: "1,5" is read as 1.5`)
	}
	if len(percent) > 0 {
		notes = append(notes, namesHave(percent)+" numbers written as percentages: 12% is read as 12")
	}
	if len(money) > 0 {
		notes = append(notes, namesHave(money)+" numbers written as amounts of money: $95 is read as 95")
	}
	if len(parens) > 0 {
		notes = append(notes, namesHave(parens)+" negative numbers written in parentheses, as an accountant writes them: (1.23) is read as −1.23")
	}
	return strings.Join(notes, "; ")
}

// namesHave is "x1 has" or "x1, x2 and x3 have".
func namesHave(names []string) string { return agreeing(names, "has", "have") }

// agreeing writes names (words.List) and what follows them, one after a
// single name and many after a list: "x1 is", "x1 and x2 are".
func agreeing(names []string, one, many string) string {
	if len(names) == 1 {
		return names[0] + " " + one
	}
	return words.List(names) + " " + many
}

func delimiterName(s string) (string, bool) {
	for _, r := range s {
		return data.DelimiterName(r), true
	}
	return "", false
}

// plural writes a count and its noun: "1 feature", "5,000 features"
// (core/internal/words).
var plural = words.Plural

// featureText says how a CSV's columns became features: "6 features from 5
// columns: sex one-hot (2), vr one-hot (3), ...; left out: student".
func featureText(tab *data.Table) string {
	var parts, out []string
	used := 0
	for j, c := range tab.Columns {
		switch c.Role {
		case data.RoleNumeric:
			used++
			parts = append(parts, c.Name)
		case data.RoleText:
			used++
			parts = append(parts, fmt.Sprintf("%s one-hot (%d)", c.Name, len(c.Values)))
		case data.RoleDropped:
			out = append(out, c.Name)
		case data.RoleRefused:
			out = append(out, fmt.Sprintf("%s (%s)", data.ColumnLabel(c.Name, j), c.Reason))
		}
	}
	s := fmt.Sprintf("%s from %s: %s", plural(tab.Data.Features, "feature"), plural(used, "column"), strings.Join(words.First(parts, 8), ", "))
	if len(out) > 0 {
		s += "; left out: " + strings.Join(out, ", ")
	}
	return s
}
