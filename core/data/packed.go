package data

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
	"strings"

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
// is a valid number). Version 1, the same without it, is refused: a table
// without its checksum cannot be told from a damaged or hand-made one.
// The numbers obey the CSV's limits (MaxMagnitude), so that a table read
// packed is one the CSV reader could have read.
const packedMagic = packedPrefix + "2\n"

// packedPrefix is the magic line up to its version.
const packedPrefix = "spmtl packed table "

// IsPacked reports whether b starts like a packed table (of any version).
func IsPacked(b []byte) bool { return bytes.HasPrefix(b, []byte(packedPrefix)) }

// packedCRC is the table of the packed format's checksum.
func packedCRC() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) }

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
		Positive: ds.Positive, Negative: ds.Negative, SourceRows: ds.SourceRows, Omitted: t.Omitted}
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
// truncated file, one without a valid checksum (version 1, or hand-made),
// and one with a number the CSV reader refuses (beyond ±1e100, NaN or
// infinite: at its row and column) are errors that name the file, never a
// panic.
func ReadPacked(b []byte, name string) (*Table, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: not a readable packed table: %s", name, fmt.Sprintf(format, args...))
	}
	b, err := packedBody(b, bad)
	if err != nil {
		return nil, err
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
	if mr.err == nil {
		mr.err = packedNames(m)
	}
	if mr.err != nil {
		return nil, bad("description: %v", mr.err)
	}
	b = b[w+int(ml):]
	if m.Features < 1 || m.Features > len(b) {
		return nil, bad("%d features", m.Features)
	}
	if len(m.Tasks) == 0 {
		return nil, bad("it has no tasks")
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
	if err := packedValues(ds); err != nil {
		return nil, fmt.Errorf("%s: not a readable packed table: %w", name, err)
	}
	tab := &Table{Data: ds, Encoding: m.Encoding, Columns: m.Columns, Labels: m.Labels, Warnings: m.Warnings, Header: m.Header, Omitted: m.Omitted}
	tab.Labels.Third = m.Third
	return tab, nil
}

// packedNames refuses a packed table's column or task name longer than a
// CSV's may be (MaxNameBytes).
func packedNames(m packedMeta) error {
	for j, h := range m.Header {
		if len(h) > MaxNameBytes {
			return fmt.Errorf("the name of column %d is %d bytes long, more than the %d a name may have", j+1, len(h), MaxNameBytes)
		}
	}
	for _, t := range m.Tasks {
		if len(t.Name) > MaxNameBytes {
			return fmt.Errorf("a task name is %d bytes long, more than the %d a name may have", len(t.Name), MaxNameBytes)
		}
	}
	return nil
}

// packedBody returns what a packed table holds after its magic line, once
// its checksum is verified; bad makes the error.
func packedBody(b []byte, bad func(string, ...any) error) ([]byte, error) {
	switch {
	case bytes.HasPrefix(b, []byte(packedMagic)):
		if len(b) < len(packedMagic)+4 {
			return nil, bad("it ends early: pack the CSV again (spmtl pack)")
		}
		body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
		if crc32.Checksum(body, packedCRC()) != sum {
			return nil, bad("it is damaged or cut short (its checksum does not match): pack the CSV again (spmtl pack)")
		}
		return body[len(packedMagic):], nil
	case IsPacked(b):
		v, _, _ := bytes.Cut(b[len(packedPrefix):min(len(b), len(packedPrefix)+8)], []byte("\n"))
		return nil, bad("version %q: this spmtl reads version 2, which carries a checksum; pack the CSV again with it (spmtl pack)", v)
	}
	return nil, bad("it does not start with %q", packedMagic[:len(packedMagic)-1])
}

// packedValues checks a packed table's numbers as the CSV reader checks
// them (parseNum): every feature value and label finite and within
// ±MaxMagnitude, at its row and column, and a classifier's labels -1 or
// +1. It is the checks of Dataset.Validate that the packed layout does not
// make true by construction.
func packedValues(ds *Dataset) error {
	for ti := range ds.Tasks {
		t := &ds.Tasks[ti]
		for k, v := range t.X.RawMatrix().Data {
			if !(v >= -MaxMagnitude && v <= MaxMagnitude) {
				i, j := k/ds.Features, k%ds.Features
				return errf(ErrTooLarge, "value %g in column %s of %s is %s", v, featureName(ds, j), packedRow(t, i), beyond(v))
			}
		}
		for i, y := range t.Y {
			switch {
			case !(y >= -MaxMagnitude && y <= MaxMagnitude):
				return errf(ErrTooLarge, "label %g of %s is %s", y, packedRow(t, i), beyond(y))
			case ds.Kind == Classification && y != 1 && y != -1:
				return errf(ErrLabels, "label %g of %s is not -1 or +1, as a classifier's are", y, packedRow(t, i))
			}
		}
	}
	return nil
}

// beyond says what is wrong with a number outside the CSV's limits.
func beyond(v float64) string {
	if finite(v) {
		return "beyond ±1e100, which the CSV reader refuses too: pack the CSV again (spmtl pack)"
	}
	return "not a finite number, which the CSV reader refuses too: pack the CSV again (spmtl pack)"
}

// packedRow names row i of a packed task: by its data row in the CSV that
// was packed (from 1), when the table keeps it.
func packedRow(t *Task, i int) string {
	if t.Source != nil {
		return fmt.Sprintf("data row %d (task %s)", t.Source[i]+1, t.Name)
	}
	return fmt.Sprintf("row %d of task %s", i+1, t.Name)
}

// featureName names feature j of a data set: its name, or "feature N".
func featureName(ds *Dataset, j int) string {
	if j < len(ds.FeatureNames) && ds.FeatureNames[j] != "" {
		return ds.FeatureNames[j]
	}
	return fmt.Sprintf("feature %d", j+1)
}

// readPackedFormat is the packed table's row of the formats. A packed
// table holds a CSV read with one choice of task and label columns, of
// columns left out and of columns read as words, so options that ask for
// others are refused: they need the CSV itself. An option not given
// reads the table as it was packed. (Options.Format may name
// "csv", which a packed table is, or "packed".)
func readPackedFormat(b []byte, name string, opt Options) (*Table, error) {
	tab, err := ReadPacked(b, name)
	if err != nil {
		return nil, err
	}
	enc := tab.Encoding
	var dropped []string // the columns the packer was asked to leave out
	for _, c := range tab.Columns {
		if c.Role == RoleDropped {
			dropped = append(dropped, c.Name)
		}
	}
	slices.Sort(dropped)
	asked := columnSet(opt.Drop) // "-drop x,x" leaves out x, as the CSV does
	words, askedWords := columnSet(enc.Text), columnSet(opt.Text)
	// Names as ReadTable takes them: " y" is the column y.
	task, label := strings.TrimSpace(opt.TaskColumn), strings.TrimSpace(opt.LabelColumn)
	// The default names, which a form sends when nothing was chosen, ask
	// for nothing where the packed CSV has no such column: its own task
	// and label columns are read.
	if task == "task" && !slices.Contains(tab.Header, task) {
		task = ""
	}
	if label == "y" && !slices.Contains(tab.Header, label) {
		label = ""
	}
	switch f := strings.ToLower(strings.TrimSpace(opt.Format)); {
	case f != "" && f != "csv" && f != "packed":
		return nil, fmt.Errorf("%s: a packed table is a CSV, not %q", name, opt.Format)
	case task != "" && task != enc.TaskColumn, label != "" && label != enc.LabelColumn, asked != nil && !slices.Equal(asked, dropped), askedWords != nil && !slices.Equal(askedWords, words):
		if len(words)+len(askedWords) > 0 {
			return nil, fmt.Errorf("%s: a packed table was read with task column %q, label column %q, %s and %s; load the CSV itself to choose others", name, enc.TaskColumn, enc.LabelColumn, droppedText(dropped), wordsText(words))
		}
		return nil, fmt.Errorf("%s: a packed table was read with task column %q, label column %q and %s; load the CSV itself to choose others", name, enc.TaskColumn, enc.LabelColumn, droppedText(dropped))
	}
	return tab, nil
}

// packedHeader returns the header of the CSV a packed table was read
// from, and its delimiter.
func packedHeader(b []byte, name string) ([]string, rune, error) {
	tab, err := ReadPacked(b, name)
	if err != nil {
		return nil, 0, err
	}
	var d rune
	for _, r := range tab.Encoding.Delimiter {
		d = r
		break
	}
	return tab.Header, d, nil
}

// columnSet returns column names as ReadTable takes them (trimmed, the
// empty ones skipped), sorted, each once.
func columnSet(cols []string) []string {
	var out []string
	for _, c := range cols {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func wordsText(cols []string) string {
	if len(cols) == 0 {
		return "no column read as words on request"
	}
	return fmt.Sprintf("%s read as words", strings.Join(cols, ", "))
}

func droppedText(cols []string) string {
	if len(cols) == 0 {
		return "no column left out"
	}
	return fmt.Sprintf("%s left out", strings.Join(cols, ", "))
}
