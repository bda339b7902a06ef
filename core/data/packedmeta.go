package data

import (
	"encoding/binary"
	"fmt"
	"math"
)

// packedMeta is the description part of a packed table: everything of
// the Table but the numbers and source rows.
type packedMeta struct {
	Header   []string
	Columns  []ColumnInfo
	Labels   LabelInfo // without Third
	Third    *ParseError
	Encoding *Encoding
	Warnings []string

	Features     int
	FeatureNames []string
	Kind         Kind
	Positive     string
	Negative     string
	SourceRows   int
	Tasks        []packedTask
	// Omitted are the rows the packer left out for a missing value
	// (written last, when there are any).
	Omitted *Omitted
}

type packedTask struct {
	Name   string
	Rows   int
	Source bool // whether Task.Source is stored
}

// The description is written field by field with varints rather than as
// JSON: decoding JSON would link encoding/json's decoder into the wasm
// learner, 0.5 MB for this one use.

// metaWriter appends a description's fields.
type metaWriter struct{ b []byte }

func (w *metaWriter) int(v int)    { w.b = binary.AppendVarint(w.b, int64(v)) }
func (w *metaWriter) str(s string) { w.int(len(s)); w.b = append(w.b, s...) }
func (w *metaWriter) flag(v bool) {
	if v {
		w.int(1)
	} else {
		w.int(0)
	}
}
func (w *metaWriter) strs(v []string) { // nil and empty differ: 0 is nil
	if v == nil {
		w.int(0)
		return
	}
	w.int(len(v) + 1)
	for _, s := range v {
		w.str(s)
	}
}

func (m *packedMeta) append(b []byte) []byte {
	w := &metaWriter{b: b}
	w.strs(m.Header)
	w.int(len(m.Columns))
	for _, c := range m.Columns {
		w.str(c.Name)
		w.str(string(c.Role))
		w.int(c.Distinct)
		w.strs(c.Values)
		w.str(c.Reason)
	}
	w.strs(m.Labels.Values)
	w.int(m.Labels.Distinct)
	w.str(m.Labels.Note)
	w.flag(m.Third != nil)
	if m.Third != nil {
		w.str(m.Third.File)
		w.int(m.Third.Line)
		w.int(m.Third.Column)
	}
	w.flag(m.Encoding != nil)
	if e := m.Encoding; e != nil {
		w.str(e.Format)
		w.str(e.Delimiter)
		w.str(e.TaskColumn)
		w.str(e.LabelColumn)
		w.flag(e.Columns != nil)
		w.int(len(e.Columns))
		for _, c := range e.Columns {
			w.str(c.Name)
			w.strs(c.Values)
		}
		w.strs(e.Dropped)
		w.int(e.Features)
	}
	w.strs(m.Warnings)
	w.int(m.Features)
	w.strs(m.FeatureNames)
	w.int(int(m.Kind))
	w.str(m.Positive)
	w.str(m.Negative)
	w.int(m.SourceRows)
	w.int(len(m.Tasks))
	for _, t := range m.Tasks {
		w.str(t.Name)
		w.int(t.Rows)
		w.flag(t.Source)
	}
	// Added later, so written only when there is something to say (and
	// read only when present): the columns with thousands separators.
	var thousands []int
	for j, c := range m.Columns {
		if c.Thousands {
			thousands = append(thousands, j)
		}
	}
	roles := false // added after the thousands: the roles a column may take, ids, -text
	for _, c := range m.Columns {
		roles = roles || c.Roles != nil || c.ID
	}
	roles = roles || m.Encoding != nil && m.Encoding.Text != nil
	// Added after the roles: the columns with decimal commas, whether the
	// file wrote its numbers so (Encoding.DecimalComma), the columns with
	// percentages, and (later still) those with amounts of money.
	var decimals, percents, moneys []int
	for j, c := range m.Columns {
		if c.DecimalComma {
			decimals = append(decimals, j)
		}
		if c.Percent {
			percents = append(percents, j)
		}
		if c.Money {
			moneys = append(moneys, j)
		}
	}
	decimalFile := m.Encoding != nil && m.Encoding.DecimalComma
	omitted := m.Omitted != nil && m.Omitted.Rows > 0 // added after the money
	more := decimals != nil || decimalFile || percents != nil || moneys != nil || omitted
	roles = roles || more // the sections are read in order
	if thousands != nil || roles {
		w.int(len(thousands))
		for _, j := range thousands {
			w.int(j)
		}
	}
	if roles {
		for _, c := range m.Columns {
			rs := make([]string, len(c.Roles))
			for i, r := range c.Roles {
				rs[i] = string(r)
			}
			if c.Roles == nil {
				rs = nil
			}
			w.strs(rs)
			w.flag(c.ID)
		}
		if m.Encoding != nil {
			w.strs(m.Encoding.Text)
		}
	}
	if more {
		w.int(len(decimals))
		for _, j := range decimals {
			w.int(j)
		}
		w.flag(decimalFile)
		w.int(len(percents))
		for _, j := range percents {
			w.int(j)
		}
		if moneys != nil || omitted {
			w.int(len(moneys))
			for _, j := range moneys {
				w.int(j)
			}
		}
		if omitted {
			o := m.Omitted
			w.int(o.Rows)
			w.int(o.Of)
			w.int(len(o.Columns))
			for _, c := range o.Columns {
				w.str(c.Name)
				w.int(c.Cells)
			}
			w.int(len(o.Lines))
			for _, l := range o.Lines {
				w.int(l)
			}
			w.strs(o.Tasks)
		}
	}
	return w.b
}

// marks reads a list of column numbers and marks each of cols with mark;
// a number out of range is damage.
func (r *metaReader) marks(cols []ColumnInfo, mark func(*ColumnInfo)) {
	for n := r.count(); n > 0 && r.err == nil; n-- {
		if j := r.int(); j >= 0 && j < len(cols) {
			mark(&cols[j])
		} else if r.err == nil {
			r.err = fmt.Errorf("a column number of the description is damaged")
		}
	}
}

// metaReader reads a description's fields; the first damage it meets
// sticks in err and every later read returns zero values.
type metaReader struct {
	b   []byte
	err error
}

func (r *metaReader) int() int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 || v < math.MinInt32 || v > math.MaxInt32 {
		r.err = fmt.Errorf("a number of the description is damaged")
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

// count reads a length, which cannot exceed the bytes left.
func (r *metaReader) count() int {
	n := r.int()
	if r.err == nil && (n < 0 || n > len(r.b)) {
		r.err = fmt.Errorf("a length of the description is damaged")
		return 0
	}
	return n
}

func (r *metaReader) str() string {
	n := r.count()
	if r.err != nil {
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *metaReader) flag() bool { return r.int() != 0 }

func (r *metaReader) strs() []string {
	n := r.count()
	if r.err != nil || n == 0 {
		return nil
	}
	out := make([]string, n-1)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

func (r *metaReader) meta() (m packedMeta) {
	m.Header = r.strs()
	if n := r.count(); n > 0 {
		m.Columns = make([]ColumnInfo, n)
		for i := range m.Columns {
			c := &m.Columns[i]
			c.Name, c.Role, c.Distinct, c.Values, c.Reason = r.str(), Role(r.str()), r.int(), r.strs(), r.str()
		}
	}
	m.Labels.Values, m.Labels.Distinct, m.Labels.Note = r.strs(), r.int(), r.str()
	if r.flag() {
		m.Third = &ParseError{File: r.str(), Line: r.int(), Column: r.int()}
	}
	if r.flag() {
		e := &Encoding{Format: r.str(), Delimiter: r.str(), TaskColumn: r.str(), LabelColumn: r.str()}
		has, n := r.flag(), r.count()
		if has {
			e.Columns = make([]EncodedColumn, n)
			for i := range e.Columns {
				e.Columns[i] = EncodedColumn{Name: r.str(), Values: r.strs()}
			}
		}
		e.Dropped, e.Features = r.strs(), r.int()
		m.Encoding = e
	}
	m.Warnings = r.strs()
	m.Features, m.FeatureNames, m.Kind = r.int(), r.strs(), Kind(r.int())
	m.Positive, m.Negative, m.SourceRows = r.str(), r.str(), r.int()
	if n := r.count(); n > 0 {
		m.Tasks = make([]packedTask, n)
		for i := range m.Tasks {
			m.Tasks[i] = packedTask{Name: r.str(), Rows: r.int(), Source: r.flag()}
		}
	}
	if r.err == nil && len(r.b) > 0 {
		r.marks(m.Columns, func(c *ColumnInfo) { c.Thousands = true })
	}
	if r.err == nil && len(r.b) > 0 {
		for i := range m.Columns {
			if rs := r.strs(); rs != nil {
				m.Columns[i].Roles = make([]Role, len(rs))
				for k, s := range rs {
					m.Columns[i].Roles[k] = Role(s)
				}
			}
			m.Columns[i].ID = r.flag()
		}
		if m.Encoding != nil {
			m.Encoding.Text = r.strs()
		}
	}
	if r.err == nil && len(r.b) > 0 {
		r.marks(m.Columns, func(c *ColumnInfo) { c.DecimalComma = true })
		if f := r.flag(); m.Encoding != nil {
			m.Encoding.DecimalComma = f
		}
		r.marks(m.Columns, func(c *ColumnInfo) { c.Percent = true })
		if r.err == nil && len(r.b) > 0 {
			r.marks(m.Columns, func(c *ColumnInfo) { c.Money = true })
		}
		if r.err == nil && len(r.b) > 0 {
			o := &Omitted{Rows: r.int(), Of: r.int()}
			for n := r.count(); n > 0 && r.err == nil; n-- {
				o.Columns = append(o.Columns, MissingColumn{Name: r.str(), Cells: r.int()})
			}
			for n := r.count(); n > 0 && r.err == nil; n-- {
				o.Lines = append(o.Lines, r.int())
			}
			o.Tasks = r.strs()
			m.Omitted = o
		}
	}
	return m
}
