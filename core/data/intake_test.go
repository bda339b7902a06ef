package data

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

func TestDetect(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"task,y,x1\na,1,2\n", "csv"},
		{"\xef\xbb\xbftask,y,x1\n", "csv"},
		{"a 1 3:0.5 7:1\n", "sparse"},
		{"\n# comment, with a comma\n\ta\t-1\t3:0.5\n", "sparse"},
		{"a 1\n", "sparse"},
		{"task\n", "csv"},
		{"a b c\n", "csv"},
		{"", "csv"},
		{"a 1 3:0.5 7:1,2\n", "csv"},
		{"ward;dose mg;outcome\na;1,5;2\n", "csv"}, // a space in a semicolon header: two fields
		{"ward;dose mg 3:x\n", "csv"},
		// Lines that end with a lone CR: the first line decides.
		{"task\ty\tx\ra\t1\t3:0.5\r", "csv"},
		{"# a, b\ra 1 3:0.5\rb 0 1:1\r", "sparse"},
		// A comment at the end of the first line, with a comma in it.
		{"a 1 1:1 # a note, with a comma\n", "sparse"},
		{"a 1 1:1#2,3\n", "csv"}, // not a comment: no space before the #
		// A tab-separated header with a colon in a name.
		{"g\ty\tdose:mg\na\t1\t2\n", "csv"},
	}
	for _, tc := range tests {
		if got := Detect([]byte(tc.in)); got != tc.want {
			t.Errorf("Detect(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRead(t *testing.T) {
	csvIn := "g,label,x\nA,0,1\nA,1,2\n"
	ds, err := Read(strings.NewReader(csvIn), "a.csv", Options{TaskColumn: "g", LabelColumn: "label"})
	if err != nil || ds.Sparse() || ds.Rows() != 2 || ds.Kind != Classification {
		t.Errorf("detected csv: %v, %+v", err, ds)
	}
	ds, err = Read(strings.NewReader("a 1 2:1\nb 3 1:1\nb 2\n"), "a.svm", Options{Features: 5})
	if err != nil || !ds.Sparse() || ds.Features != 5 || ds.Kind != Regression {
		t.Errorf("detected sparse: %v, %+v", err, ds)
	}
	ds, err = Read(strings.NewReader("a 1 2:1\n"), "a.svm", Options{Format: "Sparse", Kind: KindClassification})
	if err != nil || !ds.Sparse() || ds.Kind != Classification {
		t.Errorf("explicit sparse: %v, %+v", err, ds)
	}
	if _, err := Read(strings.NewReader(csvIn), "a.arff", Options{Format: "arff"}); err == nil || !strings.Contains(err.Error(), "unknown format") {
		t.Errorf("unknown format: got %v", err)
	}
	// A read error is reported, with the file name.
	_, err = Read(iotest.ErrReader(iotest.ErrTimeout), "broken.csv", Options{})
	if err == nil || !strings.Contains(err.Error(), "broken.csv") || !strings.Contains(err.Error(), "timeout") {
		t.Errorf("read error: got %v", err)
	}
	_, err = Read(iotest.ErrReader(iotest.ErrTimeout), "broken.svm", Options{Format: "sparse"})
	if err == nil || !strings.Contains(err.Error(), "broken.svm") || !strings.Contains(err.Error(), "timeout") {
		t.Errorf("sparse read error: got %v", err)
	}
}

// TestLoadHeader: a CSV's header and delimiter as the intake reads them
// (a "sep=" line, an unnamed column, lines ending in CR), none for the sparse
// format; a packed table gives the header of the CSV it holds.
func TestLoadHeader(t *testing.T) {
	h, d, err := LoadHeader([]byte("group;\"y, the label\";x1\na;1;2\n"), "m.csv")
	if err != nil || d != ';' || !reflect.DeepEqual(h, []string{"group", "y, the label", "x1"}) {
		t.Errorf("header %q, delimiter %q, %v", h, d, err)
	}
	if h, d, err := LoadHeader([]byte("sep=;\ngroup;y;x1,x2\n"), "m.csv"); err != nil || d != ';' || !reflect.DeepEqual(h, []string{"group", "y", "x1,x2"}) {
		t.Errorf("sep= line: header %q, delimiter %q, %v", h, d, err)
	}
	if h, _, err := LoadHeader([]byte("task,y,x,\na,1,2,\n"), "m.csv"); err != nil || !reflect.DeepEqual(h, []string{"task", "y", "x", ""}) {
		t.Errorf("unnamed column: header %q, %v", h, err)
	}
	if h, d, err := LoadHeader([]byte("group;y;x1\ra;1;2\r"), "m.csv"); err != nil || d != ';' || !reflect.DeepEqual(h, []string{"group", "y", "x1"}) {
		t.Errorf("lines ending in CR: header %q, delimiter %q, %v", h, d, err)
	}
	if h, _, err := LoadHeader([]byte("t 1 3:0.5\n"), "m.svm"); h != nil || err != nil {
		t.Errorf("sparse: %q, %v", h, err)
	}
	tab, err := ReadTable([]byte("g;y;x1\na;1;2\nb;2;3\n"), "p.csv", TableOptions{TaskColumn: "g"})
	if err != nil {
		t.Fatal(err)
	}
	packed, err := PackTable(tab)
	if err != nil {
		t.Fatal(err)
	}
	if h, d, err := LoadHeader(packed, "p.packed"); err != nil || d != ';' || !reflect.DeepEqual(h, []string{"g", "y", "x1"}) {
		t.Errorf("packed: header %q, delimiter %q, %v", h, d, err)
	}
	if _, _, err := LoadHeader([]byte("PK\x03\x04"), "m.xlsx"); err == nil || !strings.Contains(err.Error(), "m.xlsx: not a text file: it is a zip archive") {
		t.Errorf("a zip: %v", err)
	}
}

// TestLoad: the one entry reads every format of the table of formats,
// detected or named, decoding a text first (its encoding told), and refuses
// a format it does not have by listing those it has.
func TestLoad(t *testing.T) {
	const csvText = "task;y;x1\na;1;2,5\nb;0;3\n"
	tab, err := ReadTable([]byte(csvText), "m.csv", TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	packed, err := PackTable(tab)
	if err != nil {
		t.Fatal(err)
	}
	u16 := []byte{0xFF, 0xFE}
	for _, r := range csvText {
		u16 = append(u16, byte(r), byte(r>>8))
	}
	for _, tc := range []struct {
		name   string
		in     []byte
		opt    Options
		format string // the encoding's format, or the error's text
		enc    string // the text encoding
		rows   int
	}{
		{"csv", []byte(csvText), Options{}, "csv", UTF8, 2},
		{"csv, named", []byte(csvText), Options{Format: " CSV "}, "csv", UTF8, 2},
		{"utf-16 csv", u16, Options{}, "csv", UTF16, 2},
		{"windows-1252 csv", []byte("task;y;x1\n\xC9cole;1;2\nb;0;3\n"), Options{}, "csv", Windows1252, 2},
		{"sparse", []byte("a 1 2:1\nb -1 1:1\nb 1\n"), Options{}, "sparse", UTF8, 3},
		{"sparse, features", []byte("a 1 2:1\n"), Options{Features: 9}, "sparse", UTF8, 1},
		{"packed", packed, Options{}, "csv", UTF8, 2},
		{"packed, named", packed, Options{Format: "packed"}, "csv", UTF8, 2},
		{"packed as sparse", packed, Options{Format: "sparse"}, `m.packed: a packed table is a CSV, not "sparse"`, "", 0},
		{"unknown", []byte(csvText), Options{Format: "arff"}, `m.packed: unknown format "arff": want csv or sparse`, "", 0},
		{"a CSV named packed", []byte(csvText), Options{Format: "packed"}, `m.packed: not a packed table (spmtl pack writes one from a CSV): leave the format unset`, "", 0},
		{"sparse, a column left out", []byte("a 1 2:1\n"), Options{Drop: []string{"x"}}, "m.packed: the sparse format has no named columns to leave out", "", 0},
		{"sparse, a task column", []byte("a 1 2:1\n"), Options{TaskColumn: "g"}, `m.packed: the sparse format has no named columns: each line's first field is its task, so there is no task column "g" to read`, "", 0},
		{"sparse, a label column", []byte("a 1 2:1\n"), Options{LabelColumn: "score"}, `m.packed: the sparse format has no named columns: each line's second field is its label, so there is no label column "score"`, "", 0},
		{"sparse, the default columns", []byte("a 1 2:1\n"), Options{TaskColumn: "task", LabelColumn: "y"}, "sparse", UTF8, 1},
		{"not text", []byte("%PDF-1.7\n"), Options{}, "m.packed: not a text file: it is a PDF document", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Load(tc.in, "m.packed", tc.opt)
			if tc.rows == 0 {
				if err == nil || !strings.HasPrefix(err.Error(), tc.format) {
					t.Fatalf("error %v, want %q", err, tc.format)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tab.Encoding.Format != tc.format || tab.TextEncoding != tc.enc || tab.Data.Rows() != tc.rows || tab.Data.Validate() != nil {
				t.Errorf("format %q, text encoding %q, %d rows; want %q, %q, %d", tab.Encoding.Format, tab.TextEncoding, tab.Data.Rows(), tc.format, tc.enc, tc.rows)
			}
			if (tab.Header == nil) != (tc.format == "sparse") {
				t.Errorf("header %q for the %s format", tab.Header, tc.format)
			}
		})
	}
	if got := FormatNames(); !slices.Equal(got, []string{"packed", "sparse", "csv"}) {
		t.Errorf("formats %q", got)
	}
}

// TestLoadNewRows: the entry for prediction reads new rows in the format
// the model's encoding names, keeping each row's fields, and refuses a task
// the model does not know.
func TestLoadNewRows(t *testing.T) {
	train, err := Load([]byte("g,y,c,x\na,1,u,2\nb,0,v,3\n"), "t.csv", Options{TaskColumn: "g"})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := LoadNewRows([]byte("x;c;g\n4;v;b\n5;w;a\n"), "n.csv", train.Encoding, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tab.Rows, [][]string{{"4", "v", "b"}, {"5", "w", "a"}}) || !reflect.DeepEqual(tab.Data.Tasks[0].X.RawRowView(0), []float64{0, 1, 4}) || len(tab.Warnings) != 1 {
		t.Errorf("rows %q, b's x %v, warnings %q", tab.Rows, tab.Data.Tasks[0].X.RawRowView(0), tab.Warnings)
	}
	for _, c := range []struct {
		models []string
		which  string
	}{
		{nil, "one that predicts a new task from what the tasks share"},
		{[]string{"STL", "MMTL"}, "STL and MMTL, which predict a new task from what the tasks share"},
	} {
		_, err = LoadNewRowsWith([]byte("x,c,g\n4,v,z\n5,u,a\n"), "n.csv", train.Encoding, NewRowsOptions{Tasks: []string{"a", "b"}, NewTaskModels: c.models})
		if err == nil || err.Error() != `n.csv:2:3: task "z" is not one the model was trained on (it knows a, b); 1 of the 2 rows is of a task it was not trained on, and the model has no predictor for a new task: use a model that has one (`+c.which+`; a search for new tasks chooses among them: tune -new-tasks, or on the page Tune for tasks not in this file), or predict only the rows of the tasks it knows` || !RemedyOf(err).Skip {
			t.Errorf("unknown task, models %q: %v", c.models, err)
		}
	}
	// Every row of a new task (hunt hF's cml: 125 rows of 13 new centres):
	// the refusal counts them, and leaving them out, which would predict
	// nothing, is not offered.
	_, err = LoadNewRowsWith([]byte("x,c,g\n4,v,z\n5,u,y\n6,v,z\n"), "n.csv", train.Encoding, NewRowsOptions{Tasks: []string{"a", "b"}})
	if err == nil || !strings.Contains(err.Error(), "(it knows a, b); 3 of the 3 rows are of 2 tasks it was not trained on (z, y), and") ||
		!strings.HasSuffix(err.Error(), "or predict only the rows of the tasks it knows, of which this file has none") || RemedyOf(err).Skip {
		t.Errorf("every row of a new task: %v (remedy %+v)", err, RemedyOf(err))
	}
	// SkipUnknown: the rows of tasks the model does not know keep their
	// place in Rows, out of Data, and Skipped says which.
	tab, err = LoadNewRowsWith([]byte("x,c,g\n4,v,z\n5,u,a\n6,v,y\n7,u,z\n"), "n.csv", train.Encoding, NewRowsOptions{Tasks: []string{"a", "b"}, SkipUnknown: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 4 || tab.Data.Rows() != 1 || tab.Data.Tasks[0].Source[0] != 1 {
		t.Errorf("skipped: %d rows kept, %d in the data (sources %v)", len(tab.Rows), tab.Data.Rows(), tab.Data.Tasks[0].Source)
	}
	if got, want := tab.Skipped.NoPrediction(), "3 of the 4 rows are of 2 tasks the model was not trained on and cannot predict (z, y): they have no prediction, at lines 2, 4, 5"; got != want {
		t.Errorf("skipped: %q, want %q", got, want)
	}
	// Past the first few tasks named, the others are counted (hunt hF's
	// cml: 5 of 13 new centres were named, with no word of the 8 more).
	many := "x,c,g\n"
	for i := 1; i <= 8; i++ {
		many += fmt.Sprintf("%d,v,n%d\n", i, i)
	}
	tab, err = LoadNewRowsWith([]byte(many), "n.csv", train.Encoding, NewRowsOptions{Tasks: []string{"a", "b"}, SkipUnknown: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tab.Skipped.NoPrediction(), "8 of the 8 rows are of 8 tasks the model was not trained on and cannot predict (n1, n2, n3, n4, n5 and 3 more)"; !strings.HasPrefix(got, want) {
		t.Errorf("eight new tasks: %q, want it to start %q", got, want)
	}
	// Every row left out (here a task the model does not know, and a
	// missing value): no refusal, each row keeps its place with no
	// prediction, and the notes say why.
	tab, err = LoadNewRowsWith([]byte("x,c,g\n4,v,z\nNA,u,a\n"), "n.csv", train.Encoding, NewRowsOptions{Tasks: []string{"a", "b"}, SkipUnknown: true, OmitMissing: true})
	if err != nil {
		t.Fatalf("every new row left out: %v", err)
	}
	if len(tab.Rows) != 2 || tab.Data.Rows() != 0 || tab.Skipped.Rows != 1 || tab.Omitted.Rows != 1 {
		t.Errorf("every new row left out: %d rows kept, %d in the data, skipped %+v, omitted %+v", len(tab.Rows), tab.Data.Rows(), tab.Skipped, tab.Omitted)
	}
	sparse := &Encoding{Format: "sparse", Features: 3}
	tab, err = LoadNewRows([]byte("b 0 3:1\na 1 1:2\n"), "n.svm", sparse, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tab.Header, []string{"line", "task"}) || !reflect.DeepEqual(tab.Rows, [][]string{{"1", "b"}, {"2", "a"}}) || tab.Data.Features != 3 {
		t.Errorf("sparse: header %q, rows %q, %d features", tab.Header, tab.Rows, tab.Data.Features)
	}
	// A sparse file's labels score its predictions where they read as a
	// label (a class as written or as the same number); a placeholder, a
	// third value or a missing one leaves its row unscored, not refused.
	for _, tc := range []struct {
		classes []string
		in      string
		want    []float64
	}{
		{[]string{"0", "1"}, "b 1 3:1\na ? 1:2\na 2 1:1\nb 0.0 2:1\n", []float64{1, math.NaN(), math.NaN(), -1}},
		{nil, "a 2.5 1:1\n# a comment\nb NA 2:1\nb x 1:1\n", []float64{2.5, math.NaN(), math.NaN()}},
	} {
		tab, err := LoadNewRowsWith([]byte(tc.in), "n.svm", sparse, NewRowsOptions{Classes: tc.classes})
		if err != nil {
			t.Fatalf("sparse labels %q: %v", tc.in, err)
		}
		if len(tab.Truth) != len(tc.want) {
			t.Fatalf("sparse labels %q: truth %v, want %v", tc.in, tab.Truth, tc.want)
		}
		for i, w := range tc.want {
			if g := tab.Truth[i]; g != w && !(math.IsNaN(g) && math.IsNaN(w)) {
				t.Errorf("sparse labels %q: truth %v, want %v", tc.in, tab.Truth, tc.want)
				break
			}
		}
	}
	// A file in the other format: said first, then what its reader met.
	if _, err := LoadNewRows([]byte("a 0 1:1 3:1\n"), "n.svm", train.Encoding, nil); err == nil || !strings.HasPrefix(err.Error(), "predict n.svm: the file looks like the sparse format (task label index:value ...), but the model was trained on a CSV: give it a CSV with the model's columns (g, c, x)") {
		t.Errorf("a sparse file for a CSV's model: %v", err)
	}
	if _, err := LoadNewRows([]byte("task,y,x\na,1,2\n"), "n.csv", sparse, nil); err == nil || !strings.HasPrefix(err.Error(), "predict n.csv: the file looks like a CSV, but the model was trained on the sparse format (task label index:value ...): give it lines of task label index:value") {
		t.Errorf("a CSV for a sparse file's model: %v", err)
	}
	// A feature index above the model's is not read (the model has no
	// weight for it), as a CSV's extra column is not, and a warning says so.
	tab, err = LoadNewRows([]byte("a 0 1:1 4:1 9:2\nb 0 2:1\n"), "n.svm", sparse, nil)
	if err != nil {
		t.Fatal(err)
	}
	if x := tab.Data.Tasks[0].S; x.Cols != 3 || len(x.Indices) != 1 || len(tab.Warnings) != 1 || !strings.HasPrefix(tab.Warnings[0], "1 of the 2 rows has a feature index above the model's 3 (up to 9)") {
		t.Errorf("an index above the model's: %d columns, indices %v, warnings %q", x.Cols, x.Indices, tab.Warnings)
	}
	// The sparse format's rows of an unknown task, left out as the CSV's
	// are: each keeps its place (its row number and task) with no
	// prediction, at its line.
	tab, err = LoadNewRowsWith([]byte("b 0 3:1\nz 1 1:2\n# a comment\na 1 1:2\nz 0 2:1\n"), "n.svm", sparse, NewRowsOptions{Tasks: []string{"a", "b"}, SkipUnknown: true})
	if err != nil {
		t.Fatal(err)
	}
	// Each row is written back with its line (the comment is line 3).
	if !reflect.DeepEqual(tab.Rows, [][]string{{"1", "b"}, {"2", "z"}, {"4", "a"}, {"5", "z"}}) || tab.Data.Rows() != 2 || tab.Data.Tasks[1].Source[0] != 2 {
		t.Errorf("sparse, skipped: rows %q, %d in the data", tab.Rows, tab.Data.Rows())
	}
	if got, want := tab.Skipped.NoPrediction(), "2 of the 4 rows are of a task the model was not trained on and cannot predict (z): they have no prediction, at lines 2, 5"; got != want {
		t.Errorf("sparse, skipped: %q, want %q", got, want)
	}
	if _, err := LoadNewRowsWith([]byte("z 1 1:2\na 0 1:1\n"), "n.svm", sparse, NewRowsOptions{Tasks: []string{"a"}}); !RemedyOf(err).Skip {
		t.Errorf("sparse, unknown task: %v has no remedy to leave the row out", err)
	}
	// Every row of a new task: counted, and leaving them out, which would
	// predict nothing, not offered (as a CSV's refusal).
	if _, err := LoadNewRowsWith([]byte("z 1 1:2\ny 0 1:1\nz 0 2:1\n"), "n.svm", sparse, NewRowsOptions{Tasks: []string{"a"}}); err == nil || RemedyOf(err).Skip ||
		!strings.HasPrefix(err.Error(), `n.svm:1:1: task "z" is not one the model was trained on (it knows a); 3 of the 3 rows are of 2 tasks it was not trained on (z, y), and`) {
		t.Errorf("sparse, every row of a new task: %v (remedy %+v)", err, RemedyOf(err))
	}
	for _, tc := range []struct {
		in   string
		enc  *Encoding
		want string
	}{
		{"a 0 1:1\n# a comment\nc 0 3:1\n", sparse, `n.svm:3:1: task "c" is not one the model was trained on (it knows a, b); 1 of the 2 rows is of a task it was not trained on, and the model has no predictor for a new task`},
		{"a 0 3:1\n", &Encoding{Format: "generated", Features: 3}, "predict n.svm: the model was trained on generated data and has no file encoding to read new rows with"},
	} {
		if _, err := LoadNewRows([]byte(tc.in), "n.svm", tc.enc, []string{"a", "b"}); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}

// TestLongNames: a column's or a task's name longer than MaxNameBytes is
// refused where it is, in every format and by LoadHeader, which would
// otherwise hand a page the whole "name" for a menu; MaxNameBytes itself
// reads.
func TestLongNames(t *testing.T) {
	long, limit := strings.Repeat("n", MaxNameBytes+1), strings.Repeat("n", MaxNameBytes)
	tab, err := ReadTable([]byte("task,y,x\na,1,2\nb,2,3\n"), "p.csv", TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tab.Data.Tasks[1].Name = long
	packedTask, err := PackTable(tab)
	if err != nil {
		t.Fatal(err)
	}
	tab.Data.Tasks[1].Name, tab.Header[2] = "b", long
	packedColumn, err := PackTable(tab)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, in, want string
	}{
		{"column", "task,y," + long + "\na,1,2\n", "m.csv:1:3: the name of column 3 is 4097 bytes long, more than the 4096 a name may have: the first line names the columns"},
		{"task", "task,y,x\na,1,2\n" + long + ",2,3\n", "m.csv:3:1: the task name in column task is 4097 bytes long, more than the 4096 a name may have: shorten it"},
		{"sparse task", "a 1 1:1\n " + long + " 2 1:1\n", "m.csv:2:2: the task name is 4097 bytes long, more than the 4096 a name may have: shorten it"},
		{"packed task", string(packedTask), "m.csv: not a readable packed table: description: a task name is 4097 bytes long"},
		{"packed column", string(packedColumn), "m.csv: not a readable packed table: description: the name of column 3 is 4097 bytes long"},
		{"at the bound", "task,y," + limit + "\n" + limit + ",1,2\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load([]byte(tc.in), "m.csv", Options{})
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if strings.HasPrefix(tc.name, "column") || strings.HasPrefix(tc.name, "packed") {
				if _, _, err := LoadHeader([]byte(tc.in), "m.csv"); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
					t.Errorf("header: %v, want %q", err, tc.want)
				}
			}
		})
	}
}

// TestNoLineBreak: a 50 MB file without a line break or a delimiter is
// refused with the message it had before names were bounded, and the header
// LoadHeader would give a page is refused too, so that no front end is
// handed the whole text as a column's name. (Natively each takes about
// 0.15 s of CPU; no time is asserted.)
func TestNoLineBreak(t *testing.T) {
	const size = 50 << 20
	for _, tc := range []struct {
		name       string
		in         []byte
		load, head string
	}{
		{"one word", bytes.Repeat([]byte("a"), size),
			`big.csv:1:1: the header has a single column "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...": the file has no comma, semicolon or tab`,
			"big.csv:1:1: the name of column 1 is 52428800 bytes long, more than the 4096 a name may have"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Load(tc.in, "big.csv", Options{}); err == nil || !strings.HasPrefix(err.Error(), tc.load) {
				t.Errorf("load: %.300v, want %q", err, tc.load)
			}
			if h, _, err := LoadHeader(tc.in, "big.csv"); err == nil || !strings.HasPrefix(err.Error(), tc.head) {
				t.Errorf("header: %d names, %.300v, want %q", len(h), err, tc.head)
			}
		})
	}
}
