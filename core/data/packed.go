package data

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"

	"gonum.org/v1/gonum/mat"
)

// A packed table is a Table as ReadTable returned it, stored so that it
// can be read back without parsing a number (docs/architecture.md,
// "Packed presets"). The page's bundled CSV presets ship one beside the
// CSV: in a cold WebAssembly instance, reading landmine's 148,000
// seventeen-digit numbers took 0.6 s of the first second in the browser;
// reading them packed is a copy.
//
// Layout: the magic line, a uvarint length and that many bytes of
// description (everything but the numbers, as varints and strings), then the numbers as little-endian float64
// split into byte planes (all first bytes, then all second bytes, ...: the
// high bytes of nearby values repeat, so the file gzips to about the CSV's
// size), then every task's source rows as uvarints. The numbers are, task
// by task, X row-major and then Y. Version 2 ends with the CRC-32
// (Castagnoli) of every byte before it, little-endian, so that damage is
// refused rather than read as changed numbers (a flipped byte of a number
// is a valid number); version 1, the same without it, still reads.
const packedMagic = packedPrefix + "2\n"

// packedPrefix is the magic line up to its version.
const packedPrefix = "spmtl packed table "

// packedV1 is the magic line of version 1 (no checksum).
const packedV1 = packedPrefix + "1\n"

// IsPacked reports whether b starts like a packed table (of any version).
func IsPacked(b []byte) bool { return bytes.HasPrefix(b, []byte(packedPrefix)) }

// packedCRC is the table of the packed format's checksum.
func packedCRC() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) }

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
	return w.b
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
		for n := r.count(); n > 0 && r.err == nil; n-- {
			if j := r.int(); j >= 0 && j < len(m.Columns) {
				m.Columns[j].Thousands = true
			} else if r.err == nil {
				r.err = fmt.Errorf("a column number of the description is damaged")
			}
		}
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
	return m
}

// PackTable returns t packed. It packs what ReadTable returns for a data
// file: dense tasks, no raw rows (a table read with a model's encoding
// keeps them for predict, and is not packed).
func PackTable(t *Table) ([]byte, error) {
	if t == nil || t.Data == nil {
		return nil, fmt.Errorf("pack table: no data")
	}
	if t.Rows != nil {
		return nil, fmt.Errorf("pack table %s: it keeps its raw rows (read with a model's encoding)", t.Data.Name)
	}
	ds := t.Data
	m := packedMeta{Header: t.Header, Columns: t.Columns, Labels: t.Labels, Third: t.Labels.Third, Encoding: t.Encoding,
		Warnings: t.Warnings, Features: ds.Features, FeatureNames: ds.FeatureNames, Kind: ds.Kind,
		Positive: ds.Positive, Negative: ds.Negative, SourceRows: ds.SourceRows}
	m.Labels.Third = nil
	n := 0
	for i := range ds.Tasks {
		tk := &ds.Tasks[i]
		if tk.X == nil || tk.S != nil {
			return nil, fmt.Errorf("pack table %s: task %s is not dense", ds.Name, tk.Name)
		}
		if r, c := tk.X.Dims(); r != tk.Rows() || c != ds.Features {
			return nil, fmt.Errorf("pack table %s: task %s has a %d×%d matrix for %d rows of %d features", ds.Name, tk.Name, r, c, tk.Rows(), ds.Features)
		}
		if tk.Source != nil && len(tk.Source) != tk.Rows() {
			return nil, fmt.Errorf("pack table %s: task %s has %d source rows for %d rows", ds.Name, tk.Name, len(tk.Source), tk.Rows())
		}
		m.Tasks = append(m.Tasks, packedTask{Name: tk.Name, Rows: tk.Rows(), Source: tk.Source != nil})
		n += tk.Rows() * (ds.Features + 1)
	}
	meta := m.append(nil)
	out := append([]byte(packedMagic), binary.AppendUvarint(nil, uint64(len(meta)))...)
	out = append(out, meta...)
	planes := make([]byte, 8*n)
	k := 0
	put := func(vs []float64) {
		for _, v := range vs {
			bits := math.Float64bits(v)
			for b := 0; b < 8; b++ {
				planes[b*n+k] = byte(bits >> (8 * b))
			}
			k++
		}
	}
	for i := range ds.Tasks {
		tk := &ds.Tasks[i]
		put(tk.X.RawMatrix().Data[:tk.Rows()*ds.Features])
		put(tk.Y)
	}
	out = append(out, planes...)
	for i := range ds.Tasks {
		for _, s := range ds.Tasks[i].Source {
			if s < 0 {
				return nil, fmt.Errorf("pack table %s: task %s has a negative source row", ds.Name, ds.Tasks[i].Name)
			}
			out = binary.AppendUvarint(out, uint64(s))
		}
	}
	return binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, packedCRC())), nil
}

// unplane decodes the numbers from their byte planes: byte p of number k
// is planes[p*len(vals)+k] (see PackTable). The eight planes are read side
// by side rather than in an inner loop over p: under js/wasm (node) that
// reads landmine's table in 0.8-1.6 ms instead of 3.9-4.4
// (BenchmarkReadPackedLandmine). Natively the two take the same time.
func unplane(vals []float64, planes []byte) {
	n := len(vals)
	p0, p1, p2, p3 := planes[:n], planes[n:2*n], planes[2*n:3*n], planes[3*n:4*n]
	p4, p5, p6, p7 := planes[4*n:5*n], planes[5*n:6*n], planes[6*n:7*n], planes[7*n:8*n]
	for k := range vals {
		vals[k] = math.Float64frombits(uint64(p0[k]) | uint64(p1[k])<<8 | uint64(p2[k])<<16 | uint64(p3[k])<<24 |
			uint64(p4[k])<<32 | uint64(p5[k])<<40 | uint64(p6[k])<<48 | uint64(p7[k])<<56)
	}
}

// ReadPacked reads a packed table; name is the file's name, for errors and
// the data set's name (as ReadTable's name is). The third label's position
// (Labels.Third) still points into the CSV that was packed. A damaged or
// truncated file is an error, never a panic: in version 2 any damage, by
// its checksum; version 1 has none, and reads as it did.
func ReadPacked(b []byte, name string) (*Table, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: not a readable packed table: %s", name, fmt.Sprintf(format, args...))
	}
	switch {
	case bytes.HasPrefix(b, []byte(packedMagic)):
		if len(b) < len(packedMagic)+4 {
			return nil, bad("it ends early: pack the CSV again (spmtl pack)")
		}
		body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
		if crc32.Checksum(body, packedCRC()) != sum {
			return nil, bad("it is damaged or cut short (its checksum does not match): pack the CSV again (spmtl pack)")
		}
		b = body[len(packedMagic):]
	case bytes.HasPrefix(b, []byte(packedV1)):
		b = b[len(packedV1):]
	case IsPacked(b):
		v, _, _ := bytes.Cut(b[len(packedPrefix):min(len(b), len(packedPrefix)+8)], []byte("\n"))
		return nil, bad("version %q: this spmtl reads versions 1 and 2; pack the CSV again with it (spmtl pack)", v)
	default:
		return nil, bad("it does not start with %q", packedMagic[:len(packedMagic)-1])
	}
	ml, w := binary.Uvarint(b)
	if w <= 0 || ml > uint64(len(b)-w) {
		return nil, bad("the description's length is damaged")
	}
	mr := &metaReader{b: b[w : w+int(ml)]}
	m := mr.meta()
	if mr.err == nil && len(mr.b) != 0 {
		mr.err = fmt.Errorf("%d bytes after its end", len(mr.b))
	}
	if mr.err == nil && m.Encoding == nil {
		mr.err = fmt.Errorf("it has no encoding")
	}
	if mr.err != nil {
		return nil, bad("description: %v", mr.err)
	}
	b = b[w+int(ml):]
	if m.Features < 1 || m.Features > len(b) {
		return nil, bad("%d features", m.Features)
	}
	n := 0
	for _, t := range m.Tasks {
		if t.Rows < 1 || t.Rows > len(b)/8 {
			return nil, bad("task %s has %d rows", t.Name, t.Rows)
		}
		n += t.Rows * (m.Features + 1)
		if n > len(b)/8 {
			return nil, bad("the numbers end early")
		}
	}
	planes, rest := b[:8*n], b[8*n:]
	vals := make([]float64, n)
	unplane(vals, planes)
	ds := &Dataset{Name: name, Features: m.Features, FeatureNames: m.FeatureNames, Kind: m.Kind,
		Positive: m.Positive, Negative: m.Negative, SourceRows: m.SourceRows}
	k := 0
	for _, t := range m.Tasks {
		x := vals[k : k+t.Rows*m.Features : k+t.Rows*m.Features]
		k += t.Rows * m.Features
		y := vals[k : k+t.Rows : k+t.Rows]
		k += t.Rows
		task := Task{Name: t.Name, X: mat.NewDense(t.Rows, m.Features, x), Y: y}
		if t.Source {
			task.Source = make([]int, t.Rows)
			for i := range task.Source {
				s, w := binary.Uvarint(rest)
				if w <= 0 || s >= uint64(max(m.SourceRows, 0)) {
					return nil, bad("task %s: source row %d is damaged", t.Name, i+1)
				}
				task.Source[i], rest = int(s), rest[w:]
			}
		}
		ds.Tasks = append(ds.Tasks, task)
	}
	if len(rest) != 0 {
		return nil, bad("%d bytes after the end", len(rest))
	}
	tab := &Table{Data: ds, Encoding: m.Encoding, Columns: m.Columns, Labels: m.Labels, Warnings: m.Warnings, Header: m.Header}
	tab.Labels.Third = m.Third
	if err := ds.Validate(); err != nil {
		return nil, bad("%v", err)
	}
	return tab, nil
}
