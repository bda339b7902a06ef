package data

import (
	"fmt"
	"slices"
	"strings"
)

// Omitted describes the rows a training read left out for a missing value
// (TableOptions.OmitMissing), as R's na.omit leaves them out of a model.
type Omitted struct {
	// Rows counts the rows left out, of Of data rows in the file.
	Rows int `json:"rows"`
	Of   int `json:"of"`
	// Columns are the columns with missing values among the rows read
	// with them (the task, the label, the numeric features), the most
	// missing first.
	Columns []MissingColumn `json:"columns"`
	// Lines are the lines of the first rows left out (at most
	// omittedLines).
	Lines []int `json:"lines"`
	// Tasks are the tasks every row of which was left out: they are not
	// in the data set.
	Tasks []string `json:"tasks,omitempty"`
}

// MissingColumn counts a column's missing values.
type MissingColumn struct {
	Name  string `json:"name"`
	Cells int    `json:"cells"`
}

// omittedLines is how many lines of the rows left out Omitted keeps.
const omittedLines = 5

// Text says what was left out, for a front end's notes: "12 of the 749
// rows were left out for a missing value (x1: 8, x3: 5), the first at
// lines 4, 9, 22, 40, 41; task s3 had no other rows and is not in the
// data".
func (o *Omitted) Text() string {
	if o == nil || o.Rows == 0 {
		return ""
	}
	s := fmt.Sprintf("%s left out for a missing value (%s), %s", countOf(o.Rows, o.Of, "were"), columnCounts(o.Columns), o.at())
	switch n := len(o.Tasks); {
	case n == 1:
		s += fmt.Sprintf("; task %s had no other rows and is not in the data", listOf(o.Tasks, "tasks"))
	case n > 1:
		s += fmt.Sprintf("; %d tasks had no other rows and are not in the data: %s", n, listOf(o.Tasks, "tasks"))
	}
	return s
}

// NoPrediction says, for new rows read with NewRowsOptions.OmitMissing,
// which rows have no prediction: "2 of the 40 rows have a missing value
// (x1: 1, task: 1) and no prediction, at lines 3, 9"; "" when none.
func (o *Omitted) NoPrediction() string {
	if o == nil || o.Rows == 0 {
		return ""
	}
	return fmt.Sprintf("%s a missing value (%s) and no prediction, %s", countOf(o.Rows, o.Of, "have"), columnCounts(o.Columns), o.at())
}

// Skipped describes the new rows a prediction left out because their task
// is not one the model was trained on (NewRowsOptions.SkipUnknown).
type Skipped struct {
	Rows, Of int
	// Tasks are the first few such tasks, Lines the first few rows' lines;
	// TaskCount counts every such task.
	Tasks     []string `json:"tasks,omitempty"`
	Lines     []int    `json:"lines,omitempty"`
	TaskCount int      `json:"taskCount,omitempty"`
	seen      map[string]bool
}

// add counts a row of task tn, at line, left out.
func (s *Skipped) add(tn string, line int) {
	s.Rows++
	if len(s.Lines) < omittedLines {
		s.Lines = append(s.Lines, line)
	}
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	if !s.seen[tn] {
		tn = strings.Clone(tn)
		s.seen[tn] = true
		s.TaskCount++
		if len(s.Tasks) < omittedLines {
			s.Tasks = append(s.Tasks, tn)
		}
	}
}

// taskWord is "a task" or "13 tasks", as many as were left out.
func (s *Skipped) taskWord() string {
	if s.TaskCount == 1 {
		return "a task"
	}
	return fmt.Sprintf("%d tasks", s.TaskCount)
}

// tasks names the first few tasks left out, and how many more there are:
// "10, 12, 13, 15, 20 and 8 more".
func (s *Skipped) tasks() string {
	names := listOf(s.Tasks, "tasks")
	if more := s.TaskCount - len(s.Tasks); more > 0 {
		names += fmt.Sprintf(" and %d more", more)
	}
	return names
}

// NoPrediction says which rows have no prediction: "2 of the 40 rows are
// of tasks the model was not trained on and cannot predict (S9 S10): they
// have no prediction, at lines 3, 9"; "" when none.
func (s *Skipped) NoPrediction() string {
	if s == nil || s.Rows == 0 {
		return ""
	}
	at := linesAt(s.Rows, s.Lines)
	if s.Rows == 1 {
		return fmt.Sprintf("1 of the %d rows is of a task the model was not trained on and cannot predict (%s): it has no prediction, %s", s.Of, s.tasks(), at)
	}
	return fmt.Sprintf("%d of the %d rows are of %s the model was not trained on and cannot predict (%s): they have no prediction, %s", s.Rows, s.Of, s.taskWord(), s.tasks(), at)
}

// at names the lines of the rows (linesAt).
func (o *Omitted) at() string { return linesAt(o.Rows, o.Lines) }

// linesAt names the lines of rows, of which lines holds the first few:
// "at line 4", "at lines 4, 9", or "the first at lines …" of many.
func linesAt(rows int, first []int) string {
	lines := make([]string, len(first))
	for i, l := range first {
		lines[i] = fmt.Sprint(l)
	}
	if len(lines) == 0 {
		return ""
	}
	at := "at line " + lines[0]
	if rows > 1 {
		at = "the first at lines " + strings.Join(lines, ", ")
		if rows <= omittedLines {
			at = "at lines " + strings.Join(lines, ", ")
		}
	}
	return at
}

// countOf is "12 of the 749 rows VERB", or "1 of the 749 rows" with
// the verb's singular ("was", "has").
func countOf(n, of int, verb string) string {
	if n == 1 {
		if verb == "were" {
			verb = "was"
		} else {
			verb = "has"
		}
		return fmt.Sprintf("1 of the %d rows %s", of, verb)
	}
	return fmt.Sprintf("%d of the %d rows %s", n, of, verb)
}

// missingRows says how many of the file's rows miss a value (what: "a
// missing value", or "a missing value or NaN") and where: "3 of the 4 rows
// have a missing value (x1: 2, x2: 2)", or "…, all in this column".
func missingRows(n, of int, what string, cols []MissingColumn) string {
	s := countOf(n, of, "have") + " " + what
	switch {
	case len(cols) == 1 && n == 1:
	case len(cols) == 1:
		s += ", all in this column"
	default:
		s += " (" + columnCounts(cols) + ")"
	}
	return s
}

// columnCounts lists columns with their counts, "x1: 8, x3: 5", at
// most six of them.
func columnCounts(cols []MissingColumn) string {
	const max = 6
	parts := make([]string, 0, min(len(cols), max)+1)
	for i, c := range cols {
		if i == max {
			more := "columns"
			if len(cols) == max+1 {
				more = "column"
			}
			parts = append(parts, fmt.Sprintf("and %d more %s", len(cols)-max, more))
			break
		}
		name := short(c.Name)
		if name == "" || strings.ContainsAny(name, " \t\"[]:,") || !printable(name) {
			name = fmt.Sprintf("%q", name)
		}
		parts = append(parts, fmt.Sprintf("%s: %d", name, c.Cells))
	}
	return strings.Join(parts, ", ")
}

// missingCount counts, in a training read, the rows with a missing value
// in a column they are read with: an empty or marked task name, an empty
// or marked label (missingMarkers), an empty or marked number in a
// numeric feature, and NaN in a label or a number (nanCell).
// A text column's empty cell is a value of its own ("(empty)"), and a
// column left out is not read, so neither makes a row incomplete.
type missingCount struct {
	rows  int             // rows with at least one
	cells []int           // per header column
	lines []int           // the first rows' lines
	tasks map[string]bool // the tasks of those rows
	// first is the first missing cell's text, for the refusal.
	first string
	// nan is set once a label or a number is NaN (nanCell), which counts
	// as missing: R's is.na and na.omit take it so.
	nan bool
	// words counts, per header column, the empty or marked cells of a
	// column of words, read without omit (where each is a value of its
	// own); wordRows the rows with no other gap. Omit leaves them out too
	// (gapless text columns, rowReader.textGaps), so the refusal that
	// offers it counts them.
	words    []int
	wordRows int
}

// add counts the missing cells of a data row at line, and reports whether
// it has any.
func (m *missingCount) add(r *rowReader, rec []string, line int) bool {
	if m.cells == nil {
		m.cells = make([]int, len(r.t.header))
		m.tasks = map[string]bool{}
	}
	any, word := false, false
	for j, f := range rec {
		switch k := r.colOf[j]; {
		case j == r.t.task:
			if !missingCell(f) {
				continue
			}
		case j == r.t.label && r.labels != nil, k >= 0 && r.cols[k].Values == nil:
			if !missingCell(f) {
				if !nanCell(f) {
					continue
				}
				m.nan = true
			}
		case k >= 0 && r.omit && r.textGaps[k]:
			// A column of words read for omit has no level for an
			// empty or NA cell (gapless): there it is missing, as R's
			// na.omit takes a factor's NA.
			if !missingCell(f) {
				continue
			}
		case k >= 0 && !r.omit && r.cols[k].Values != nil:
			if missingCell(f) {
				if m.words == nil {
					m.words = make([]int, len(r.t.header))
				}
				m.words[j]++
				word = true
			}
			continue
		default:
			continue
		}
		m.cells[j]++
		any = true
	}
	if !any {
		if word {
			m.wordRows++
		}
		return false
	}
	m.rows++
	if len(m.lines) < omittedLines {
		m.lines = append(m.lines, line)
	}
	if tn := strings.TrimSpace(rec[r.t.task]); !missingCell(tn) && !m.tasks[tn] {
		m.tasks[strings.Clone(tn)] = true
	}
	return true
}

// nanCell reports whether a cell is NaN, as Python and numpy write a
// missing number ("nan", "NaN", "NAN"): a missing value in a label or a
// numeric feature, left out with OmitMissing and refused, with the offer,
// without it. (Inf is no missing value, and is refused either way.)
func nanCell(f string) bool {
	s := strings.TrimSpace(f)
	return len(s) == 3 && strings.EqualFold(s, "nan")
}

// missingCell reports whether a cell is empty or holds a missing-value
// marker (missingMarkers). Every marker is at most eight bytes and starts
// with one of "Nn#<?", so most numbers are told apart without the map.
func missingCell(f string) bool {
	s := strings.TrimSpace(f)
	if s == "" {
		return true
	}
	if len(s) > 8 || !strings.ContainsRune("Nn#<?", rune(s[0])) {
		return false
	}
	return missingMarkers[s]
}

// columns returns the columns with missing cells, the most first (then
// in the header's order). The insertion is written out: a sort function
// instantiated for MissingColumn took 2.5 KB of the gzipped learner, for
// lists the length of a header.
func (m *missingCount) columns(r *rowReader) []MissingColumn {
	return countedColumns(r, m.cells)
}

// countedColumns lists the header columns with a count in cells, most
// first.
func countedColumns(r *rowReader, cells []int) []MissingColumn {
	var out []MissingColumn
	for j, n := range cells {
		if n == 0 {
			continue
		}
		i := len(out)
		out = append(out, MissingColumn{})
		for i > 0 && out[i-1].Cells < n {
			out[i] = out[i-1]
			i--
		}
		out[i] = MissingColumn{Name: r.t.header[j], Cells: n}
	}
	return out
}

// cellsIn is how many of the rows with a missing value miss one in col.
func cellsIn(cols []MissingColumn, col string) int {
	for _, c := range cols {
		if c.Name == col {
			return c.Cells
		}
	}
	return 0
}

// mostlyIn reports whether col holds the gaps of all but a tenth of the
// rows that have one: the other columns' gaps are in at most rows/10
// rows.
func mostlyIn(cols []MissingColumn, col string, rows int) bool {
	others := 0
	for _, c := range cols {
		if c.Name != col {
			others += c.Cells
		}
	}
	return cellsIn(cols, col) > 0 && 10*others <= rows
}

// omitted returns what a read with OmitMissing left out (nil when nothing).
func (m *missingCount) omitted(r *rowReader) *Omitted {
	if m == nil || m.rows == 0 {
		return nil
	}
	o := &Omitted{Rows: m.rows, Of: r.rows, Columns: m.columns(r), Lines: m.lines}
	for tk := range m.tasks {
		if r.byName[tk] == nil {
			o.Tasks = append(o.Tasks, tk)
		}
	}
	slices.Sort(o.Tasks)
	return o
}

// refusal is the error for a file with missing values read without
// OmitMissing: at the first missing cell (pe, the row reader's own
// error there), it says how many rows have one and in which columns, and
// offers to leave those rows out (Remedy.Omit) beside the remedies of
// the cell's column.
func (m *missingCount) refusal(r *rowReader, pe *ParseError) error {
	t := r.t
	j := pe.Column - 1
	if j < 0 || j >= len(t.header) {
		return pe
	}
	mark := ""
	if m.first != "" {
		mark = fmt.Sprintf(" (%q)", short(m.first))
	}
	gap := "a missing value"
	if m.nan {
		gap += " or NaN"
	}
	col := t.header[j]
	cols := m.columns(r)
	count := missingRows(m.rows, r.rows, gap, cols)
	var what, fix string
	remedy := Remedy{Omit: true}
	sentinel := ErrMissingValue
	switch {
	case nanCell(m.first) && j == t.label:
		what, fix = fmt.Sprintf("NaN or Inf label %q in column %s", short(m.first), col), "or give them their labels"
		sentinel = ErrNotFinite
	case nanCell(m.first):
		what, fix = fmt.Sprintf("NaN or Inf value %q in column %s", short(m.first), col), "correct the values, or leave the column out"
		remedy.Drop, sentinel = col, ErrNotFinite
	case j == t.task && mark != "":
		what, fix = fmt.Sprintf("missing task name%s in column %s", mark, col), "or give them their tasks"
	case j == t.task:
		what, fix = fmt.Sprintf("empty task name in column %s", col), "or give them their tasks"
	case j == t.label:
		what, fix = fmt.Sprintf("missing label%s in column %s", mark, col), "or give them their labels"
	case len(cols) > 1 && mostlyIn(cols, col, m.rows):
		// Nearly every gap is this column's (hunt hF's instinnov: top1
		// missed in 2,192 of the 2,193 rows with a gap; leaving those rows
		// out lost 47% of the file): leaving the column out is offered
		// beside the rows, which then leaves the few others' gaps.
		what = fmt.Sprintf("missing value%s in column %s", mark, col)
		fix = fmt.Sprintf("fill the values in, or leave the column out (it misses a value in %d of those rows; the other columns' gaps would still need their rows left out)", cellsIn(cols, col))
		remedy.Drop = col
	case len(cols) > 1:
		// Leaving this column out would leave the others' gaps (gcsemv:
		// 163 in written, 137 in the label): not offered.
		what, fix = fmt.Sprintf("missing value%s in column %s", mark, col), "or fill the values in"
	default:
		what, fix = fmt.Sprintf("missing value%s in column %s", mark, col), "fill the values in, or leave the column out"
		remedy.Drop = col
	}
	leave := "leave those rows out, "
	if words := countedColumns(r, m.words); len(words) > 0 {
		// Omit also takes the rows whose word is empty or NA, which
		// this read kept as a value of their own.
		leave = fmt.Sprintf("leave those rows out, %d in all once an empty or NA word counts as missing too (%s), ", m.rows+m.wordRows, columnCounts(words))
	}
	if m.rows == r.rows {
		// Every row misses a value (a named column left empty): leaving
		// the rows out would leave nothing.
		leave, remedy.Omit = "", false
		fix = strings.TrimPrefix(fix, "or ")
		if remedy.Drop == "" {
			// A feature missing in some rows may be what leaves none
			// whole (a file of dose rows and measurement rows).
			if c, n := m.featureMissing(r); c != "" {
				fix += fmt.Sprintf(", or leave out %s (%d of its cells miss a value), which may leave rows whole", c, n)
				remedy.Drop = c
			}
		}
	}
	out := parseErr(pe.File, pe.Line, pe.Column, sentinel, "%s: %s; %s%s", what, count, leave, fix)
	out.Remedy = remedy
	return out
}

// featureMissing returns the feature column (not the task's, not the
// label's) with the most missing cells, and how many; "" when none misses
// one.
func (m *missingCount) featureMissing(r *rowReader) (string, int) {
	best, n := "", 0
	for j, c := range m.cells {
		if j != r.t.task && j != r.t.label && c > n {
			best, n = r.t.header[j], c
		}
	}
	return best, n
}

// predictGaps counts, in a read of new rows that refuses a missing value
// (no omit asked), the rows missing a value the model reads: a number, or
// a word whose encoding has no level for an empty one (textGaps). The
// refusal points at the first and says how many there are and where, as
// training's does (missingCount.refusal): one row to fill in is another
// remedy than two thousand.
type predictGaps struct {
	first *ParseError
	cell  string // the first missing cell's text (a marker such as "NA", or "")
	rows  int
	cells []int // per header column
}

// add counts a data row's missing values.
func (g *predictGaps) add(r *rowReader, rec []string) {
	if g.cells == nil {
		g.cells = make([]int, len(r.t.header))
	}
	any := false
	for j, f := range rec {
		k := r.colOf[j]
		if k < 0 || r.cols[k].Values != nil && !r.textGaps[k] || !missingCell(f) {
			continue
		}
		g.cells[j]++
		any = true
	}
	if any {
		g.rows++
	}
}

// refusal is the first missing value's error, with the count when more
// than one row misses a value. Leaving the rows out (Remedy.Omit) is not
// offered when it would leave no row to predict.
func (g *predictGaps) refusal(r *rowReader) error {
	pe := g.first
	pe.Remedy = Remedy{Omit: true}
	if g.rows <= 1 {
		return pe
	}
	j := pe.Column - 1
	if j < 0 || j >= len(r.t.header) {
		return pe
	}
	mark := ""
	if g.cell != "" {
		mark = fmt.Sprintf(" (%q)", short(g.cell))
	}
	leave := ", delete those rows, or predict only the rows that have every value"
	if g.rows == r.rows {
		leave, pe.Remedy.Omit = "", false
	}
	out := parseErr(pe.File, pe.Line, pe.Column, ErrMissingValue, "missing value%s in column %s, which the model was trained with: %s; fill them in%s",
		mark, r.t.header[j], missingRows(g.rows, r.rows, "a missing value", countedColumns(r, g.cells)), leave)
	out.Remedy = pe.Remedy
	return out
}
