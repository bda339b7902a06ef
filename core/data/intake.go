package data

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

// A format is one kind of input the intake reads, a row of the table
// formats: how to recognise it, read it for training, read its header, and
// read new rows for a model trained on it. Adding a format is adding a row
// (and the file that reads it); Load, LoadHeader and LoadNewRows find it
// here.
type format struct {
	// name is how Options.Format and Encoding.Format call it.
	name string
	// binary formats are read as their bytes are; the input of a text one
	// is decoded (DecodeText) and checked (CheckText) once, before detect
	// and the readers see it.
	binary bool
	// detect reports whether an input is in the format, from its first
	// bytes (at most detectBytes of them).
	detect func(prefix []byte) bool
	// read reads an input for training.
	read func(b []byte, name string, opt Options) (*Table, error)
	// header returns the input's column names and delimiter; nil for a
	// format without a header (LoadHeader returns none).
	header func(b []byte, name string) ([]string, rune, error)
	// readNew reads new rows the way a model's training rows were read
	// (enc, whose Format is this one's name); tasks, when set, are the
	// tasks the model knows. Nil for a format whose tables are read as
	// another's (a packed table is a CSV's).
	readNew func(b []byte, name string, enc *Encoding, opt NewRowsOptions) (*Table, error)
}

// formats are the formats in the order detection tries them: the binary
// ones by their first bytes, then the text ones, the CSV last, for it
// takes whatever the others do not.
var formats = []format{
	{name: "packed", binary: true, detect: IsPacked, read: readPackedFormat, header: packedHeader},
	{name: "sparse", detect: isSparse, read: readSparseFormat, readNew: readNewSparse},
	{name: "csv", detect: func([]byte) bool { return true }, read: readCSVFormat, header: csvHeader, readNew: readNewCSVFormat},
}

// Options say how Load (and Read) read an input; each format uses the
// fields that apply to it.
type Options struct {
	// Format is a format's name ("csv", "sparse"; "packed" for a packed
	// table, which is recognised by its first bytes whatever Format says),
	// or "" to detect it with Detect.
	Format string
	// TaskColumn and LabelColumn name the CSV task and label columns
	// ("task" and "y" when empty); see TableOptions.
	TaskColumn, LabelColumn string
	// Drop names CSV columns to leave out, Text columns to read as words,
	// and DropRefused leaves out text columns with too many values
	// instead of refusing the file; see TableOptions.
	Drop, Text  []string
	DropRefused bool
	// OmitMissing leaves out the rows with a missing value (a CSV's, see
	// TableOptions; a sparse file's, SparseOptions). A packed table has
	// none.
	OmitMissing bool
	// Kind and Positive are as in CSVOptions and SparseOptions.
	Kind     KindChoice
	Positive string
	// Features is the sparse number of features; see SparseOptions.
	Features int
}

// detectBytes is how much of an input detection looks at.
const detectBytes = 64 << 10

// Load is the intake's one entry for training: it reads an input in any
// format of the table formats (a CSV, the sparse text format, a packed
// table), detected from its first bytes unless opt.Format names one. A
// text is decoded (DecodeText: UTF-16, Windows-1252) and checked
// (CheckText) once, then read by its format's reader; Table.TextEncoding
// says what it was decoded from. A sparse file's table has no header and
// no columns.
func Load(b []byte, name string, opt Options) (*Table, error) {
	if f := binaryFormat(b); f != nil {
		return f.read(b, name, opt)
	}
	text, enc := DecodeText(b)
	if err := CheckText(text, name); err != nil {
		return nil, err
	}
	f, err := textFormat(text, name, opt.Format)
	if err != nil {
		return nil, err
	}
	tab, err := f.read(text, name, opt)
	if err != nil {
		return nil, err
	}
	tab.TextEncoding = enc
	return tab, nil
}

// LoadNewRows is the intake's entry for prediction: it reads new rows
// (a text, decoded and checked as Load does) the way a model's training
// rows were read, in the format its encoding names; tasks, when set, are
// the tasks the model knows, and a row of another is refused. The table
// keeps every row's fields (Table.Rows), for predictions written beside
// them.
func LoadNewRows(b []byte, name string, enc *Encoding, tasks []string) (*Table, error) {
	return LoadNewRowsWith(b, name, enc, NewRowsOptions{Tasks: tasks})
}

// NewRowsOptions are the choices of a read of new rows (LoadNewRowsWith).
type NewRowsOptions struct {
	// Tasks, when not nil, are the tasks a row may have: another one is
	// refused at its line.
	Tasks []string
	// NewTaskModels, when Tasks is set, are the models that predict a task
	// they were not trained on (method.NewTaskLabels), named in the
	// refusal of a row of another task.
	NewTaskModels []string
	// OmitMissing leaves out of Table.Data the rows with a missing value
	// in the task or a feature the model reads (in a text column, an
	// empty or NA cell its encoding has no level for), as a training read
	// with TableOptions.OmitMissing does, and says which (Table.Omitted);
	// Table.Rows still holds every row, so that the predictions line up
	// with the file. Without it the first such value is refused.
	OmitMissing bool
	// SkipUnknown leaves out of Table.Data, in the same way, the rows of a
	// task that is not one of Tasks, and says which (Table.Skipped).
	// Without it the first such row is refused.
	SkipUnknown bool
	// Classes are a classifier's negative and positive labels as the
	// training file wrote them, by which Table.Truth reads a label column
	// the new rows have; nil for regression.
	Classes []string
}

// LoadNewRowsWith is LoadNewRows with its options.
func LoadNewRowsWith(b []byte, name string, enc *Encoding, opt NewRowsOptions) (*Table, error) {
	text, _ := DecodeText(b)
	if err := CheckText(text, name); err != nil {
		return nil, err
	}
	i := slices.IndexFunc(formats, func(f format) bool { return f.name == enc.Format && f.readNew != nil })
	if i < 0 {
		return nil, fmt.Errorf("predict %s: the model was trained on %s data and has no file encoding to read new rows with: it predicts only data made as its own was; to predict a file, train a model on a file of the same columns", name, enc.Format)
	}
	tab, err := formats[i].readNew(text, name, enc, opt)
	if err != nil {
		// A file in the other format fails at its first line with what
		// that format's reader expected; say what is wrong first.
		if got := Detect([]byte(text)); got != enc.Format && (got == "csv" || got == "sparse") {
			want := "lines of task label index:value ..."
			if enc.Format == "csv" {
				cols := []string{cmp.Or(enc.TaskColumn, "task")}
				for _, c := range enc.Columns {
					cols = append(cols, c.Name)
				}
				want = "a CSV with the model's columns (" + listOf(cols, "columns") + ")"
			}
			return nil, fmt.Errorf("predict %s: the file looks like %s, but the model was trained on %s: give it %s (read as the model's format: %w)", name, formatWords(got), formatWords(enc.Format), want, err)
		}
		return nil, err
	}
	enc.divide(tab.Data)
	return tab, nil
}

// formatWords names a format in a sentence.
func formatWords(f string) string {
	if f == "sparse" {
		return "the sparse format (task label index:value ...)"
	}
	return "a CSV"
}

// LoadHeader returns an input's column names and delimiter as Load reads
// them (a text decoded as Load decodes it), so that a page can offer the
// columns of a file it could not read yet; none for a format without a
// header (the sparse format).
func LoadHeader(b []byte, name string) ([]string, rune, error) {
	if f := binaryFormat(b); f != nil {
		return f.header(b, name)
	}
	text, _ := DecodeText(b)
	if err := CheckText(text, name); err != nil {
		return nil, 0, err
	}
	f, _ := textFormat(text, name, "")
	if f.header == nil {
		return nil, 0, nil
	}
	return f.header(text, name)
}

// Read reads a data set from r as Load does. See ReadCSV, ReadSparse and
// ReadTable.
func Read(r io.Reader, name string, opt Options) (*Dataset, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	tab, err := Load(b, name, opt)
	if err != nil {
		return nil, err
	}
	return tab.Data, nil
}

// binaryFormat returns the binary format an input is in, or nil.
func binaryFormat(b []byte) *format {
	for i := range formats {
		if f := &formats[i]; f.binary && f.detect(b[:min(len(b), detectBytes)]) {
			return f
		}
	}
	return nil
}

// textFormat returns the text format asked for (want, a name in any case),
// or, when want is empty, the one the text is in.
func textFormat(text []byte, name, want string) (*format, error) {
	w := strings.ToLower(strings.TrimSpace(want))
	var names []string
	for i := range formats {
		f := &formats[i]
		if f.binary {
			continue
		}
		if w == "" && f.detect(text[:min(len(text), detectBytes)]) || w == f.name {
			return f, nil
		}
		names = append(names, f.name)
	}
	slices.Sort(names)
	if w == "packed" {
		return nil, fmt.Errorf("%s: not a packed table (spmtl pack writes one from a CSV): leave the format unset to read the file as it is (%s)", name, orList(names))
	}
	return nil, fmt.Errorf("%s: unknown format %q: want %s", name, want, orList(names))
}

// FormatNames returns the names of the formats Options.Format may name, in
// the order detection tries them.
func FormatNames() []string {
	var out []string
	for _, f := range formats {
		out = append(out, f.name)
	}
	return out
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Detect names the format of an input from its first bytes: a packed
// table by its magic line; "sparse" for text whose first line that is
// neither blank nor a # comment has, before a comment that ends it, no
// commas or semicolons and either exactly two fields (an example without
// features) or an index:value field after the first two; "csv" for
// anything else. (A semicolon header
// such as "ward;dose mg;outcome" splits at its space into two fields.)
func Detect(prefix []byte) string {
	for _, f := range formats {
		if f.detect(prefix) {
			return f.name
		}
	}
	return "csv"
}

// isSparse reports whether a text's first bytes are in the sparse format
// (Detect).
func isSparse(prefix []byte) bool {
	b := bytes.TrimPrefix(prefix[:min(len(prefix), detectBytes)], utf8BOM)
	for len(b) > 0 {
		line := b
		if i := lineEnd(b); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		// A field that begins with # starts a comment, as the sparse
		// reader reads it: "a 1 1:1 # a note, with a comma".
		for i := 1; i < len(line); i++ {
			if line[i] == '#' && (line[i-1] == ' ' || line[i-1] == '\t') {
				line = line[:i]
				break
			}
		}
		if bytes.IndexByte(line, ',') >= 0 || bytes.IndexByte(line, ';') >= 0 {
			return false
		}
		f := bytes.Fields(line)
		return len(f) == 2 || (len(f) > 2 && isIndexValue(f[2]))
	}
	return false
}

// isIndexValue reports whether a field reads as a sparse feature: a
// number before its colon ("3:0.5"), where a header's name with a colon
// ("dose:mg", in a tab-separated file) is not.
func isIndexValue(f []byte) bool {
	colon := bytes.IndexByte(f, ':')
	if colon <= 0 {
		return false
	}
	for _, c := range f[:colon] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// lineEnd returns the index of the first line break of b, "\n" or a CR
// (a lone CR ends a line too), or -1.
func lineEnd(b []byte) int {
	for i, c := range b {
		if c == '\n' || c == '\r' {
			return i
		}
	}
	return -1
}

// readCSVFormat is the CSV's row of the formats: ReadTable for training,
// on a text Load has checked.
func readCSVFormat(text []byte, name string, opt Options) (*Table, error) {
	return readTraining(text, name, TableOptions{TaskColumn: opt.TaskColumn, LabelColumn: opt.LabelColumn,
		Drop: opt.Drop, Text: opt.Text, DropRefused: opt.DropRefused, OmitMissing: opt.OmitMissing, Kind: opt.Kind, Positive: opt.Positive})
}

// readNewCSVFormat is the CSV's reader of new rows (readNewCSV).
func readNewCSVFormat(text []byte, name string, enc *Encoding, opt NewRowsOptions) (*Table, error) {
	return readNewCSV(text, name, TableOptions{Encoding: enc, Tasks: opt.Tasks, OmitMissing: opt.OmitMissing, skipUnknown: opt.SkipUnknown, newTaskModels: opt.NewTaskModels, classes: opt.Classes})
}
