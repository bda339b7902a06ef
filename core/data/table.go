package data

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"
)

// Role is what the intake makes of a column of a table file.
type Role string

// The roles of a column.
const (
	RoleTask    Role = "task"    // names the task of each row
	RoleLabel   Role = "label"   // holds the label
	RoleNumeric Role = "numeric" // a feature, as it is
	RoleText    Role = "text"    // a feature of words: one indicator column per value
	RoleDropped Role = "dropped" // left out on request
	RoleRefused Role = "refused" // left out: too many distinct words to encode
)

// decimal returns s with a decimal comma read as a point ("1,5" → "1.5"):
// files separated by semicolons come from spreadsheets that write numbers
// that way. Anything else is returned as it is.
func decimal(s string) string {
	if strings.Count(s, ",") != 1 || strings.ContainsAny(s, ".eE") {
		return s
	}
	t := strings.Replace(s, ",", ".", 1)
	if _, st := parseNum(t); st == numOK || st == numTooLarge {
		return t
	}
	return s
}

// ungroup returns s without its thousands separators when it is a number
// written with them in the English way ("1,234", "-12,345,678.5"): a first
// group of one to three digits not starting with 0, then groups of exactly
// three, an optional fraction after a point. Anything else (a decimal
// comma "1,5" or "0,125", a list "1,23") is returned as it is, with false.
func ungroup(s string) (string, bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i == len(s) || s[i] == '0' {
		return s, false
	}
	if n := digits(); n < 1 || n > 3 {
		return s, false
	}
	groups := 0
	for i < len(s) && s[i] == ',' {
		i++
		if digits() != 3 {
			return s, false
		}
		groups++
	}
	if groups == 0 {
		return s, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		digits()
	}
	if i != len(s) {
		return s, false
	}
	return strings.ReplaceAll(s, ",", ""), true
}

// numberText returns a cell of a numeric column as strconv reads it, and
// whether it was written with thousands separators. A comma is a decimal
// mark after a semicolon delimiter (decimal) and a thousands separator
// inside a quoted field of a comma-separated file (ungroup); a tab-separated
// file could mean either, and gets neither.
func numberText(s string, delim rune) (string, bool) {
	switch delim {
	case ';':
		return decimal(s), false
	case ',':
		if t, ok := ungroup(s); ok {
			return t, true
		}
	}
	return s, false
}

// DefaultMaxCategories is the most distinct values a text column may have
// to be encoded.
const DefaultMaxCategories = 50

// emptyValue is the value an empty cell of a text column takes.
const emptyValue = "(empty)"

// ColumnInfo describes one column of a table and what the intake did with
// it.
type ColumnInfo struct {
	Name string `json:"name"`
	Role Role   `json:"role"`
	// Distinct counts a text column's distinct values.
	Distinct int `json:"distinct,omitempty"`
	// Values are an encoded text column's values, in order of first
	// appearance: one indicator feature "name=value" each.
	Values []string `json:"values,omitempty"`
	// Reason says why a column was left out.
	Reason string `json:"reason,omitempty"`
	// Thousands is set on a numeric or label column some of whose numbers
	// are written with thousands separators ("1,234", read as 1234).
	Thousands bool `json:"thousands,omitempty"`
	// Roles are the roles a visitor may give a feature column, in the
	// order a menu offers them: RoleNumeric for a column of numbers, then
	// RoleText for one of words, or of numbers that are all whole or mixed
	// with words (TableOptions.Text), then RoleDropped. A text column with
	// too many values to encode has RoleDropped alone. Nil for the task,
	// label and unnamed columns, and when reading with a model's Encoding.
	Roles []Role `json:"roles,omitempty"`
	// ID is set on a numeric column that holds a different whole number in
	// every row (at least minIDRows of them), as an id or a row number
	// does: it is used as a feature, which rarely means anything, and is
	// worth leaving out. It is never left out unasked.
	ID bool `json:"id,omitempty"`
}

// minIDRows is the fewest rows in which a column of distinct whole numbers
// is flagged as an id (ColumnInfo.ID): in a handful of rows, any counts
// can differ.
const minIDRows = 10

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

// DelimiterName names a delimiter for messages: "comma", "semicolon",
// "tab".
func DelimiterName(r rune) string {
	switch r {
	case ';':
		return "semicolon"
	case '\t':
		return "tab"
	}
	return "comma"
}

// ErrNotText: the input is not a text file.
var ErrNotText = errors.New("not a text file")

// notTables are file types a visitor may give by mistake, by their first
// bytes, with what to do instead.
var notTables = []struct{ magic, what string }{
	{"PK\x03\x04", "a zip archive, such as an Excel workbook (.xlsx) or an OpenDocument sheet (.ods): save the sheet as CSV (in Excel: File, Save As, CSV UTF-8) and give that file"},
	{"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", "an Excel 97-2003 workbook (.xls): save the sheet as CSV (in Excel: File, Save As, CSV UTF-8) and give that file"},
	{"\x1F\x8B", "compressed with gzip: decompress it and give the file inside"},
	{"%PDF", "a PDF document: export its table as CSV and give that file"},
	{"PAR1", "a Parquet file: write it as CSV (pandas: read_parquet, then to_csv) and give that file"},
	// The intake reads packed tables before it checks for text; a reader
	// of rows' text (predict, a split file, the column menus) cannot.
	{packedPrefix, "a packed table (spmtl pack), which keeps the encoded numbers but not the rows' text: give the CSV it was packed from"},
}

// CheckText refuses input that is not text: a file type that is known not
// to be one (an Excel workbook, a zip or gzip archive, a PDF, Parquet, a
// packed table), named with what to do instead, a zero byte in the first
// 8 KB, or bytes that are not UTF-8 anywhere (at their line and column:
// notUTF8). It also refuses JSON, which is
// text but no table (ErrNotTable). The readers call it; so does the
// intake before it guesses a text's format.
func CheckText(b []byte, name string) error {
	for _, t := range notTables {
		if bytes.HasPrefix(b, []byte(t.magic)) {
			return fmt.Errorf("%s: %w: it is %s", name, ErrNotText, t.what)
		}
	}
	if looksJSON(b) {
		return fmt.Errorf("%s: %w: it is JSON: write it as CSV, one row per example with a header (pandas: read_json, then to_csv), and give that file", name, ErrNotTable)
	}
	head := b[:min(len(b), 8<<10)]
	if i := bytes.IndexByte(head, 0); i >= 0 {
		return fmt.Errorf("%s: %w (a zero byte at offset %d): give a CSV file or a sparse text file", name, ErrNotText, i)
	}
	if !utf8.Valid(b) {
		return notUTF8(b, name)
	}
	return nil
}

// notUTF8 is the error for text with bytes that are not UTF-8 (DecodeText
// reads text with none as Windows-1252, so these are text that mixes the
// two, or text not decoded): the position of the first such byte, as a
// line and a character column, and what to do.
func notUTF8(b []byte, name string) error {
	off, mixed := 0, false
	if bytes.HasPrefix(b, utf8BOM) {
		off = len(utf8BOM) // says UTF-8, but is no character of the text
	}
	for off < len(b) {
		if b[off] < utf8.RuneSelf {
			off++
			continue
		}
		r, size := utf8.DecodeRune(b[off:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		mixed = true
		off += size
	}
	nl := byte('\n')
	if bytes.IndexByte(b, '\n') < 0 {
		nl = '\r' // lines that end with a lone CR (crLines)
	}
	start := bytes.LastIndexByte(b[:off], nl) + 1
	line := bytes.Count(b[:start], []byte{nl}) + 1
	before := b[start:off]
	if line == 1 {
		before = bytes.TrimPrefix(before, utf8BOM)
	}
	col := utf8.RuneCount(before) + 1
	where := "at the start of the line"
	if len(before) > 0 {
		// The last 20 characters before it.
		i := len(before)
		for n := 0; n < 20 && i > 0; n++ {
			_, size := utf8.DecodeLastRune(before[:i])
			i -= size
		}
		where = fmt.Sprintf("after %q", before[i:])
	}
	for i := off + 1; i < len(b) && !mixed; {
		r, size := utf8.DecodeRune(b[i:])
		mixed = size > 1 && r != utf8.RuneError
		i += size
	}
	why := ""
	if mixed {
		why = ", though other characters of the file are (it mixes two text encodings)"
	}
	return parseErr(name, line, col, ErrNotText, "the byte 0x%02X %s is not UTF-8 text%s: save the file as UTF-8 text (in Excel: File, Save As, CSV UTF-8) and give it again", b[off], where, why)
}

// ErrNotTable: the input is text, but no table (JSON).
var ErrNotTable = errors.New("not a table")

// looksJSON reports whether b starts like JSON: an object ({ then a quote
// or }), or an array of objects or arrays. A CSV header does not start
// that way.
func looksJSON(b []byte) bool {
	b = skipSpace(bytes.TrimPrefix(b, utf8BOM))
	if len(b) == 0 || (b[0] != '{' && b[0] != '[') {
		return false
	}
	rest := skipSpace(b[1:])
	if len(rest) == 0 {
		return false
	}
	if b[0] == '{' {
		return rest[0] == '"' || rest[0] == '}'
	}
	return rest[0] == '{' || rest[0] == '[' || rest[0] == ']'
}

// skipSpace returns b after its leading spaces, tabs and line breaks.
func skipSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	return b
}

// crLines returns text with its line breaks as "\n" when it ends its lines
// with a lone carriage return (Excel for Mac's "CSV (Macintosh)"), which
// encoding/csv does not take for a line break; any other text is returned
// as it is. Every line keeps its number.
func crLines(text []byte) []byte {
	if bytes.IndexByte(text, '\r') < 0 || bytes.IndexByte(text, '\n') >= 0 {
		return text
	}
	out := make([]byte, len(text))
	for i, c := range text {
		if c == '\r' {
			c = '\n'
		}
		out[i] = c
	}
	return out
}

// SniffDelimiter returns the delimiter of a CSV text: of comma, semicolon
// and tab, the one that appears most often outside quotes in the first
// non-blank line (comma when none does).
func SniffDelimiter(b []byte) rune {
	b = bytes.TrimPrefix(b, utf8BOM)
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		counts := map[rune]int{}
		quoted := false
		for _, c := range string(line) {
			switch {
			case c == '"':
				quoted = !quoted
			case !quoted && (c == ',' || c == ';' || c == '\t'):
				counts[c]++
			}
		}
		best := ','
		for _, c := range []rune{';', '\t'} {
			if counts[c] > counts[best] {
				best = c
			}
		}
		return best
	}
	return ','
}

// excelSep reads the "sep=;" line that Excel writes first (and reads) to
// name a file's delimiter. It returns that delimiter and the text with the
// line's content removed but its line break kept, so that every later line
// keeps its number (csv skips the empty line); 0 and the text as it was when
// there is no such line. A delimiter other than comma, semicolon or tab is
// refused: the column names would come out wrong.
func excelSep(text []byte, name string) (rune, []byte, error) {
	b := bytes.TrimPrefix(text, utf8BOM)
	end := bytes.IndexByte(b, '\n')
	if end < 0 {
		end = len(b)
	}
	line := bytes.TrimSuffix(b[:end], []byte("\r"))
	v, ok := bytes.CutPrefix(line, []byte("sep="))
	if !ok || len(v) == 0 {
		return 0, text, nil
	}
	r, size := utf8.DecodeRune(v)
	if size != len(v) {
		return 0, text, nil // a header whose first name starts "sep=", say
	}
	if r != ',' && r != ';' && r != '\t' {
		return 0, nil, parseErr(name, 1, 1, ErrHeader, "the first line %q names the delimiter %q: spmtl reads comma, semicolon or tab; save the file with one of them", short(string(line)), string(v))
	}
	return r, b[end:], nil
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

// columnStats is what the first pass learns of a column.
type columnStats struct {
	numeric, text, empty int
	thousands            int // numbers written with thousands separators
	// values are the distinct values (an empty cell as "(empty)") in order
	// of first appearance, the first maxCat+1 of them; distinct counts them
	// all, unless the column was clearly numeric when it passed maxCat+1
	// (overflow: it is no text column, or a text column with more than
	// maxCat values).
	values   []string
	seen     map[string]bool
	distinct int
	overflow bool
	// fraction is set once a value is a number that is not written as a
	// whole one (a point or an exponent: "1.5", "3.0", "1e3").
	fraction bool
	// ids holds the values while every one is a whole number unlike the
	// others (an id: ColumnInfo.ID); notID is set, and ids dropped, at the
	// first value that is not.
	ids   map[string]struct{}
	notID bool
}

// whole records whether one value (as numberText reads it, classified ns)
// is a whole number, and whether the column can still be an id.
func (st *columnStats) whole(s string, ns numStatus) {
	if ns == numOK && strings.ContainsAny(s, ".eE") || ns == numNotFinite || ns == numTooLarge {
		st.fraction = true
	}
	if st.notID {
		return
	}
	if ns != numOK || strings.ContainsAny(s, ".eE") {
		st.notID, st.ids = true, nil
		return
	}
	if st.ids == nil {
		st.ids = map[string]struct{}{}
	}
	if _, dup := st.ids[s]; dup {
		st.notID, st.ids = true, nil
		return
	}
	st.ids[strings.Clone(s)] = struct{}{}
}

// isID reports whether the column is an id: a different whole number in
// each of at least minIDRows rows.
func (st *columnStats) isID() bool {
	return !st.notID && len(st.ids) >= minIDRows && st.text == 0 && st.empty == 0
}

// roles are the roles a visitor may give the column (ColumnInfo.Roles):
// words only when there are few enough values to encode, and, for a
// column of numbers, when they are whole or mixed with words.
func (st *columnStats) roles(maxCat int) []Role {
	encodable := !st.overflow && st.distinct <= maxCat
	switch {
	case 2*st.numeric >= st.numeric+st.text && encodable && (st.text > 0 || !st.fraction):
		return []Role{RoleNumeric, RoleText, RoleDropped}
	case 2*st.numeric >= st.numeric+st.text:
		return []Role{RoleNumeric, RoleDropped}
	case !encodable:
		return []Role{RoleDropped}
	}
	return []Role{RoleText, RoleDropped}
}

// add records one value of the column.
func (st *columnStats) add(s string, ns numStatus, maxCat int) {
	switch ns {
	case numEmpty:
		st.empty++
		s = emptyValue
	case numOK, numNotFinite:
		st.numeric++
	default:
		st.text++
	}
	if st.overflow {
		return
	}
	if st.seen == nil {
		st.seen = map[string]bool{}
	}
	if st.seen[s] {
		return
	}
	st.seen[s] = true
	st.distinct++
	if len(st.values) <= maxCat {
		st.values = append(st.values, strings.Clone(s))
	}
	if st.distinct > maxCat+1 && st.numeric > st.text {
		st.overflow, st.seen = true, nil
	}
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

// advice completes the message for a word in a numeric column: reading
// the column as words is advised when its values can be encoded.
func advice(st *columnStats, maxCat int) string {
	if slices.Contains(st.roles(maxCat), RoleText) {
		return fmt.Sprintf(" (%d of its %d values are numbers): correct the value, read the column as words, or leave the column out", st.numeric, st.numeric+st.text)
	}
	return fmt.Sprintf(" (%d of its %d values are numbers): correct the value, or leave the column out", st.numeric, st.numeric+st.text)
}

// textColumns checks the columns opt.Text asks to read as words (ReadTable)
// and returns them by position: an unknown column, the task or label
// column, or one also left out (opt.Drop) is refused. A model's Encoding
// says itself which columns are words, so opt.Text is ignored with it.
func textColumns(opt TableOptions, name string, header []string, idx map[string]int, roles []Role, ti, li int) (map[int]bool, error) {
	asText := map[int]bool{}
	if opt.Encoding != nil {
		return asText, nil
	}
	for _, c := range opt.Text {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		j, ok := idx[c]
		switch {
		case !ok:
			return nil, fmt.Errorf("%s: cannot read column %q as words: the header has [%s]", name, short(c), listNames(header))
		case j == ti || j == li:
			return nil, fmt.Errorf("%s: cannot read column %q as words: it is the %s column", name, c, roles[j])
		case roles[j] == RoleDropped:
			return nil, fmt.Errorf("%s: column %q is asked both to be left out and to be read as words: choose one", name, c)
		}
		asText[j] = true
	}
	return asText, nil
}

// leftOut lists the columns left out, for the message when no feature is
// left.
func leftOut(cols []ColumnInfo) string {
	var names []string
	for j, c := range cols {
		if c.Role == RoleDropped || c.Role == RoleRefused {
			names = append(names, ColumnLabel(c.Name, j))
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " (left out: " + strings.Join(names, ", ") + ")"
}

// fitRecord matches a record to the header when a trailing delimiter is
// on one side only: a record may end before unnamed last columns (it is
// given empty fields for them), or carry empty fields past the header's
// end, which are cut. ok is false for a record that is ragged otherwise.
func fitRecord(rec, header []string) (_ []string, ok bool) {
	if len(rec) > len(header) {
		for _, f := range rec[len(header):] {
			if strings.TrimSpace(f) != "" {
				return rec, false
			}
		}
		return rec[:len(header)], true
	}
	for _, h := range header[len(rec):] {
		if h != "" {
			return rec, false
		}
	}
	for len(rec) < len(header) {
		rec = append(rec, "")
	}
	return rec, true
}

// blankRow reports whether a record is blank: a line of only spaces, or a
// row whose fields are all empty (the ",,,," a spreadsheet writes for an
// empty row after the data). The readers skip it like an empty line. In a
// file of one column, a single empty field is a missing value instead.
func blankRow(rec, header []string) bool {
	if len(rec) == 1 && len(header) <= 1 {
		return false
	}
	return allBlank(rec)
}

// allBlank reports whether every field of a record is empty or spaces.
func allBlank(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

// fitRow is fitRecord for a data row of a reader at line: blank is set for
// a blank row (blankRow), which the readers skip, and a record that cannot
// be matched is a ragged-row error at its first missing or extra field.
func fitRow(rec, header []string, name string, line int) (_ []string, blank bool, err error) {
	if blankRow(rec, header) {
		return nil, true, nil
	}
	if fitted, ok := fitRecord(rec, header); ok {
		return fitted, false, nil
	}
	col := len(header) + 1
	if len(rec) < len(header) {
		col = len(rec) + 1
	}
	return nil, false, parseErr(name, line, col, ErrRaggedRow, "ragged row: %d fields, want %d (header has %d)", len(rec), len(header), len(header))
}

// ColumnLabel names column j (0-based) of a header for a message: its
// name, or "column N" for one the header leaves unnamed.
func ColumnLabel(name string, j int) string {
	if name == "" {
		return fmt.Sprintf("column %d", j+1)
	}
	return name
}

// tableReader returns a csv.Reader over text with the delimiter, a leading
// byte order mark skipped and ragged records allowed.
func tableReader(text []byte, delim rune) *csv.Reader {
	cr := newCSVReader(bytes.NewReader(text))
	cr.Comma = delim
	return cr
}

// quoteErr turns csv's error for a quote that is never closed into one that
// names the line where the quote opened; other errors are csvErr's.
func quoteErr(text []byte, name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrQuote) && pe.StartLine > 0 && pe.StartLine != pe.Line {
		return parseErr(name, pe.StartLine, quoteField(text, pe.StartLine), csv.ErrQuote,
			"a quote opened on line %d is never closed (the field runs to line %d); close it or remove it", pe.StartLine, pe.Line)
	}
	return csvErr(name, err)
}

// quoteField returns the 1-based field number of the first quote on a line.
func quoteField(text []byte, line int) int {
	lines := bytes.SplitN(text, []byte("\n"), line+1)
	if len(lines) < line {
		return 1
	}
	l := lines[line-1]
	q := bytes.IndexByte(l, '"')
	if q < 0 {
		return 1
	}
	d := SniffDelimiter(text)
	return bytes.Count(l[:q], []byte(string(d))) + 1
}

// labelTracker remembers the distinct labels and where the third one
// first appears.
type labelTracker struct {
	values []string
	seen   map[string]bool
	third  *ParseError
	allInt bool
	count  int
}

func (l *labelTracker) add(s string, line, col int, file string) {
	if l.seen == nil {
		l.seen, l.allInt = map[string]bool{}, true
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
	if len(l.values) <= 10 {
		l.values = append(l.values, strings.Clone(s))
	}
	if l.count == 3 {
		l.third = &ParseError{File: file, Line: line, Column: col}
	}
}

// info describes the labels; a few small integers read as regression get
// a note.
func (l *labelTracker) info(col string, kind Kind) LabelInfo {
	out := LabelInfo{Values: l.values, Distinct: l.count}
	if kind == Regression && l.allInt && l.count >= 3 && l.count <= 10 {
		out.Note = fmt.Sprintf("%s has %d distinct values (%s): read as regression", col, l.count, strings.Join(l.values, ", "))
		out.Third = l.third
	}
	return out
}
