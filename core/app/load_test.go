package app

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/mtl"
)

// TestLoadPackedEqualsCSV: each bundled CSV, packed as the page's build
// packs it, loads to the same Data and summary as the CSV (school with its
// split file too), and a packed table refuses other columns.
func TestLoadPackedEqualsCSV(t *testing.T) {
	for _, c := range []struct{ data, splits string }{
		{"landmine/data.csv", ""}, {"cs/data.csv", ""}, {"school/data.csv", "school/splits.csv"},
	} {
		text, err := os.ReadFile("../../web/data/" + c.data)
		if err != nil {
			t.Fatal(err)
		}
		opt := LoadOptions{Name: c.data, DropRefused: true}
		if c.splits != "" {
			if opt.Splits, err = os.ReadFile("../../web/data/" + c.splits); err != nil {
				t.Fatal(err)
			}
		}
		want, err := Load(text, opt)
		if err != nil {
			t.Fatal(err)
		}
		packed, err := Pack(text, LoadOptions{Name: c.data})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Load(packed, opt)
		if err != nil {
			t.Fatalf("%s packed: %v", c.data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the packed table loads differently", c.data)
		}
		if !reflect.DeepEqual(got.Summary(), want.Summary()) {
			t.Errorf("%s: summary %+v, from the CSV %+v", c.data, got.Summary(), want.Summary())
		}
		if c.splits != "" && (got.Train == nil || got.Train.Rows() != want.Train.Rows()) {
			t.Errorf("%s: the split file was not applied", c.data)
		}
		for _, o := range []LoadOptions{{TaskColumn: "y"}, {LabelColumn: "x1"}, {Drop: []string{"x1"}}, {Format: "sparse"}} {
			o.Name = c.data
			if _, err := Load(packed, o); err == nil || !strings.Contains(err.Error(), c.data) {
				t.Errorf("%s: options %+v: %v", c.data, o, err)
			}
		}
	}
}

// TestLoadTextEncodings: a file in Windows-1252 (a spreadsheet's CSV on
// Western European Windows) or UTF-16 loads like its UTF-8 copy, and the
// summary names the encoding.
func TestLoadTextEncodings(t *testing.T) {
	const utf = "task;y;x\nÉcole;1;2\nÉcole;2;3\nZürich;1;4\nZürich;3;1\n"
	want, err := Load([]byte(utf), LoadOptions{Name: "m.csv"})
	if err != nil {
		t.Fatal(err)
	}
	latin := []byte(strings.NewReplacer("É", "\xC9", "ü", "\xFC").Replace(utf))
	u16 := []byte{0xFF, 0xFE}
	for _, r := range utf {
		u16 = append(u16, byte(r), byte(r>>8))
	}
	for _, tc := range []struct {
		name string
		text []byte
	}{{"Windows-1252", latin}, {"UTF-16", u16}} {
		got, err := Load(tc.text, LoadOptions{Name: "m.csv"})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if s := got.Summary(); s.TextEncoding != tc.name || !reflect.DeepEqual(got.All, want.All) {
			t.Errorf("%s: encoding %q, tasks %v", tc.name, s.TextEncoding, s.Tasks)
		}
	}
	if s := want.Summary(); s.TextEncoding != "" {
		t.Errorf("UTF-8 named %q", s.TextEncoding)
	}
	if h, d, err := Header([]byte("\xC9cole;y;x\n"), "m.csv"); err != nil || d != ';' || !reflect.DeepEqual(h, []string{"École", "y", "x"}) {
		t.Errorf("Header of a Windows-1252 file: %q, %q, %v", h, d, err)
	}
	// A file that is UTF-8 but for one Windows-1252 byte (two exports
	// pasted together) is refused at that byte, saying what to do.
	mixed := strings.Replace(utf, "Zürich;3", "Z\xFCrich;3", 1)
	_, err = Load([]byte(mixed), LoadOptions{Name: "m.csv"})
	if want := `m.csv:5:2: the byte 0xFC after "Z" is not UTF-8 text, though other characters of the file are (it mixes two text encodings): save the file as UTF-8 text`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("mixed encodings: %v, want %q", err, want)
	}
}

// TestLoadRefusesWorkbooks: the intake names a workbook given by mistake
// whatever format it would have guessed, and the Windows-1252 fallback
// does not turn a binary file into text.
func TestLoadRefusesWorkbooks(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"book.xlsx", "PK\x03\x04\x14\x00\x06\x00\x08\x00", "book.xlsx: not a text file: it is a zip archive, such as an Excel workbook (.xlsx)"},
		{"doc.pdf", "%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj", "doc.pdf: not a text file: it is a PDF document"},
		{"a.svm", "PAR1 1 1:2\n", "a.svm: not a text file: it is a Parquet file"},
	} {
		_, err := Load([]byte(tc.text), LoadOptions{Name: tc.name})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestLoadSplitFileErrors: an error about a split file names the split
// file (not the data file), once, with what is wrong and what to do.
func TestLoadSplitFileErrors(t *testing.T) {
	const text = "task,y,x\na,1,2\na,2,3\nb,3,4\nb,4,5\n"
	for _, tc := range []struct {
		name, splits, splitName, want string
	}{
		{"position", "row,split1\n0,train\n1,validation\n2,train\n3,test\n", "s.csv", `s.csv:3:2: unknown value "validation" in column split1: want train or test`},
		{"position, unnamed", "row,split1\n0,train\n1,validation\n2,train\n3,test\n", "", `m.csv's split file:3:2: unknown value "validation"`},
		{"row count", "row,split1\n0,train\n1,test\n2,train\n", "s.csv", "s.csv has 3 rows, m.csv has 4 data rows: a split file has one row per data row, in the data file's order"},
		{"a task without training rows", "row,split1\n0,train\n1,test\n2,test\n3,test\n", "s.csv", `s.csv puts every row of task "b" in the test set; a task needs at least one training row: mark one of its rows train`},
		{"no training rows", "split1\ntest\ntest\ntest\ntest\n", "s.csv", "s.csv puts every row in the test set, which leaves nothing to train on"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load([]byte(text), LoadOptions{Name: "m.csv", Splits: []byte(tc.splits), SplitColumn: "split1", SplitName: tc.splitName})
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestLoadOmitMissing: with OmitMissing the rows missing a value are left
// out, the summary says so, and a split file (one row per data row of the
// file, the rows left out included) still marks each row read by its
// place in the file; without it the file is refused, offering to leave
// them out.
func TestLoadOmitMissing(t *testing.T) {
	const text = "task,y,x\na,1,2\na,NA,3\na,2,4\nb,3,\nb,4,5\nb,5,6\n"
	const splits = "split1\ntrain\ntrain\ntest\ntrain\ntrain\ntest\n"
	_, err := Load([]byte(text), LoadOptions{Name: "m.csv"})
	if err == nil || !data.RemedyOf(err).Omit {
		t.Fatalf("without OmitMissing: error %v, want a refusal offering to leave the rows out", err)
	}
	d, err := Load([]byte(text), LoadOptions{Name: "m.csv", OmitMissing: true, Splits: []byte(splits), SplitColumn: "split1"})
	if err != nil {
		t.Fatal(err)
	}
	sum := d.Summary()
	if want := "2 of the 6 rows were left out for a missing value (y: 1, x: 1), at lines 3, 5"; sum.MissingNote != want || sum.Rows != 4 {
		t.Errorf("%d rows, note %q\nwant 4 rows, %q", sum.Rows, sum.MissingNote, want)
	}
	// Rows 0 and 4 train, 2 and 5 test (1 and 3 are left out).
	for _, tc := range []struct {
		ds   *data.Dataset
		want [][]int
	}{{d.Train, [][]int{{0}, {4}}}, {d.Test, [][]int{{2}, {5}}}} {
		for i, tk := range tc.ds.Tasks {
			if !reflect.DeepEqual(tk.Source, tc.want[i]) {
				t.Errorf("task %s: rows %v, want %v", tk.Name, tk.Source, tc.want[i])
			}
		}
	}
}

// TestLoadRefusesOneLabel: a label column with one value in every row, or
// one value within every task of several rows, is refused for training,
// naming the column (and the value), and the remedy (choose another label
// column) travels with the error; predict reads
// such rows (it reads no labels), and two values are fine.
func TestLoadRefusesOneLabel(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		opt        LoadOptions
		want       string
		choose     bool
	}{
		{"one class", "task,y,x\na,yes,1\na,yes,2\nb,yes,3\n", LoadOptions{}, "m.csv: label y has one value (yes) in every row: there is nothing to learn; choose another label column", true},
		{"one number", "school,score,x\nS1,3.2,1\nS1,3.20,2\nS2,3.2,3\n", LoadOptions{TaskColumn: "school", LabelColumn: "score"}, "m.csv: label score has one value (3.2) in every row", true},
		{"one number, as written", "task,y,x\na,-1,1\nb,-1,2\n", LoadOptions{}, "m.csv: label y has one value (-1) in every row", true},
		{"sparse", "a 1 1:1\nb 1 2:1\n", LoadOptions{}, "m.csv: the label is 1 in every row: there is nothing to learn; give a file whose labels differ", false},
		{"one class within each task", "task,y,x\na,yes,1\na,yes,2\nb,no,3\nb,no,4\n", LoadOptions{},
			"m.csv: label y has one value within every task (task) while the rows' features vary: it describes the tasks, not their rows, so there is nothing to learn within a task", true},
		{"one number within each task", "g,m,x\nS1,3.2,1\nS1,3.2,2\nS2,4,3\nS2,4,4\nS3,5,1\n", LoadOptions{TaskColumn: "g", LabelColumn: "m"},
			"m.csv: label m has one value within every task (g)", true},
		{"varies within one task", "task,y,x\na,yes,1\na,no,2\nb,no,3\nb,no,4\n", LoadOptions{}, "", false},
		{"rows copies within each task", "task,y,x\na,1,5\na,1,5\nb,2,5\nb,2,5\n", LoadOptions{}, "", false},
		{"two values", "task,y,x\na,yes,1\nb,no,2\n", LoadOptions{}, "", false},
		{"regression", "task,y,x\na,1,1\nb,1,2\nb,1.5,3\n", LoadOptions{}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opt.Name = "m.csv"
			_, err := Load([]byte(tc.text), tc.opt)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if got := data.RemedyOf(err).Choose == data.RoleLabel; got != tc.choose {
				t.Errorf("remedy %+v", data.RemedyOf(err))
			}
		})
	}
	// Predict reads rows whatever their labels.
	d, err := Load([]byte("task,y,x\na,1,1\na,2,2\nb,3,3\n"), LoadOptions{Name: "m.csv"})
	if err != nil {
		t.Fatal(err)
	}
	m := &ModelFile{Format: ModelFormat, Version: ModelVersion, Kind: "regression", Encoding: d.Encoding, Tasks: []string{"a", "b"}, W: [][]float64{{1}, {1}}, B: []float64{0, 0}}
	if _, err := Predict(m, []byte("task,y,x\na,7,1\nb,7,2\n"), "new.csv"); err != nil {
		t.Errorf("predict rows of one label: %v", err)
	}
}

// TestFeatureTextCounts: the summary's sentence about the features counts
// in words that agree with the number, its thousands grouped as the
// page's summary groups them ("5000 features" beside "5,000").
func TestFeatureTextCounts(t *testing.T) {
	var wide strings.Builder
	wide.WriteString("task,y")
	for j := 0; j < 1200; j++ {
		fmt.Fprintf(&wide, ",x%d", j)
	}
	wide.WriteString("\n")
	for _, row := range []string{"a,1", "b,0"} {
		wide.WriteString(row + strings.Repeat(",1.5", 1199) + ",2\n")
	}
	for _, tc := range []struct{ text, want string }{
		{"task,y,hours\na,1,2\nb,0,3\n", "1 feature from 1 column: hours"},
		{"task,y,sex\na,1,M\nb,0,F\n", "2 features from 1 column: sex one-hot (2)"},
		{"task,y,x1,x2\na,1,2,3\nb,0,3,4\n", "2 features from 2 columns: x1, x2"},
		{wide.String(), "1,200 features from 1,200 columns: x0, x1"},
	} {
		d, err := Load([]byte(tc.text), LoadOptions{Name: "m.csv"})
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Summary().FeatureText; !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestLoadPackedNamesAsTheCSV: a packed table takes the column names the
// CSV takes, spaces around them included (found by FuzzLoad), and a column
// named twice to leave out.
func TestLoadPackedNamesAsTheCSV(t *testing.T) {
	text := []byte("task,y,x1,c\na,1,2,u\nb,2,3,v\n")
	for _, opt := range []LoadOptions{{LabelColumn: " y"}, {TaskColumn: "task ", LabelColumn: "\ty"}, {Drop: []string{"c", " c"}}} {
		opt.Name = "t.csv"
		want, err := Load(text, opt)
		if err != nil {
			t.Fatalf("CSV with %+v: %v", opt, err)
		}
		packed, err := Pack(text, opt)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Load(packed, opt)
		if err != nil || !reflect.DeepEqual(got.All, want.All) {
			t.Errorf("packed with %+v: %v", opt, err)
		}
	}
}

// TestLoadText: LoadOptions.Text reads a column as words through the one
// intake, the packed table keeps it (and refuses another choice), the
// sparse format has no columns to name, and the summary flags an id column
// without leaving it out.
func TestLoadText(t *testing.T) {
	var b strings.Builder
	b.WriteString("task,y,student,visits\n")
	for i := 0; i < 12; i++ {
		v := []string{"0", "1", "2", "3+"}[i%4]
		b.WriteString(strings.Join([]string{[]string{"a", "b"}[i%2], []string{"1.5", "2", "0"}[i%3], strconv.Itoa(i + 1), v}, ",") + "\n")
	}
	text := []byte(b.String())
	words := LoadOptions{Name: "v.csv", Text: []string{"visits"}}
	packed, err := Pack(text, words)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		text []byte
		opt  LoadOptions
		err  string
		feat string // the summary's feature text
		id   string // the summary's id note
	}{
		{"read as a category unasked", text, LoadOptions{Name: "v.csv"}, "", "5 features from 2 columns: student, visits one-hot (4)", "student holds a different whole number in every row"},
		{"read as words", text, words, "", "5 features from 2 columns: student, visits one-hot (4)", "student holds a different whole number in every row"},
		{"packed", packed, words, "", "5 features from 2 columns: student, visits one-hot (4)", "student holds a different whole number in every row"},
		{"packed, nothing asked: as packed", packed, LoadOptions{Name: "v.csv"}, "", "5 features from 2 columns: student, visits one-hot (4)", "student holds a different whole number in every row"},
		{"packed, asked otherwise", packed, LoadOptions{Name: "v.csv", Drop: []string{"student"}}, `v.csv: a packed table was read with task column "task", label column "y", no column left out and visits read as words; load the CSV itself to choose others`, "", ""},
		{"id left out", text, LoadOptions{Name: "v.csv", Text: []string{"visits"}, Drop: []string{"student"}}, "", "4 features from 1 column: visits one-hot (4); left out: student", ""},
		{"sparse", []byte("a 1 1:1\nb 2 2:1\n"), LoadOptions{Name: "s.svm", Text: []string{"x"}}, "s.svm: the sparse format has no named columns to read as words", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Load(tc.text, tc.opt)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s := d.Summary()
			if s.FeatureText != tc.feat || !strings.HasPrefix(s.IDNote, tc.id) || (tc.id == "") != (s.IDNote == "") {
				t.Errorf("features %q, id note %q; want %q, %q", s.FeatureText, s.IDNote, tc.feat, tc.id)
			}
			if tc.id != "" && !reflect.DeepEqual(s.IDColumns, []string{"student"}) {
				t.Errorf("id columns %q", s.IDColumns)
			}
		})
	}
}

// TestTaskNote: a task column that makes nearly a task per row, or one
// task of every row, is said to be likely the wrong one; a grouped file's
// is not.
func TestTaskNote(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("task,y,x1,site,pair\n")
	for i := 0; i < 40; i++ {
		// pair: 16 pairs of rows (0-31), then 8 rows alone.
		pair := i / 2
		if i >= 32 {
			pair = i - 16
		}
		fmt.Fprintf(&sb, "t%d,%d,%.3f,s1,p%d\n", i%4, i%5, float64(i)/7, pair)
	}
	for _, c := range []struct {
		task string
		want string
	}{{"task", ""}, {"x1", "the task column x1 makes 40 tasks of 40 rows: most rows are a task of their own"},
		{"site", "the task column site holds one task: learning tasks together, and the pace, need two or more"},
		// Pairs and single rows: the column may be right (matched pairs), and
		// the note does not say that most rows are alone.
		{"pair", "the task column pair makes 24 tasks of 40 rows: the tasks have fewer than two rows on average (8 of one row)"}} {
		d, err := Load([]byte(sb.String()), LoadOptions{Name: "g.csv", TaskColumn: c.task, LabelColumn: "y"})
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Summary().TaskNote; (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("task column %s: note %q, want %q", c.task, got, c.want)
		}
	}
}

// TestThinText: the tasks scored on one or two test rows are named, with
// their counts; a run whose tasks all have more names none.
func TestThinText(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("task,y,x\n")
	for _, tk := range []struct {
		name string
		rows int
	}{{"s1", 30}, {"s2", 3}, {"s3", 40}, {"s4", 2}} {
		for i := 0; i < tk.rows; i++ {
			fmt.Fprintf(&sb, "%s,%d.5,%d\n", tk.name, (i*7)%5, i%4)
		}
	}
	d, err := Load([]byte(sb.String()), LoadOptions{Name: "thin.csv"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRun(d, TrainOptions{Train: 0.75, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.ThinText(nil), "2 tasks are tested on fewer than 3 rows: s2 (1), s4 (1); their scores are noisy"; !strings.HasPrefix(got, want) {
		t.Errorf("ThinText %q, want it to start %q", got, want)
	}
	r, err = NewRun(d, TrainOptions{Train: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// One training row a task: s2 tests on 2 rows, s4 on 1, the others on many.
	if got, want := r.ThinText(nil), "2 tasks are tested on fewer than 3 rows: s2 (2), s4 (1);"; !strings.HasPrefix(got, want) {
		t.Errorf("one training row a task: ThinText %q, want it to start %q", got, want)
	}
	big, err := Load([]byte("task,y,x\n"+strings.Repeat("a,1.5,1\na,2.5,2\nb,0.5,3\nb,3.5,1\n", 10)), LoadOptions{Name: "big.csv"})
	if err != nil {
		t.Fatal(err)
	}
	if r, err = NewRun(big, TrainOptions{Train: 0.75, Seed: 1}); err != nil || r.ThinText(nil) != "" {
		t.Errorf("tasks of 20 rows: ThinText %q (%v)", r.ThinText(nil), err)
	}
}

// TestIdleText: a run of MTASO whose subspace holds every feature says so
// and what to give instead; one of a smaller h, and another method, say
// nothing.
func TestIdleText(t *testing.T) {
	d, err := Load([]byte("task,y,x1,x2\n"+strings.Repeat("a,1.5,1,2\na,2.5,2,0\nb,0.5,3,1\nb,3.5,1,1\n", 4)), LoadOptions{Name: "two.csv"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		model string
		h     int
		want  string
	}{
		{"mtaso", 5, "MTASO: its shared subspace of h = 5 dimensions would hold all 2 features, where it shares nothing; give h below 2 to share a subspace"},
		{"mtaso", 2, "MTASO: its shared subspace of h = 2 dimensions would hold all 2 features, where it shares nothing; give h below 2 to share a subspace"},
		{"mtaso", 1, ""},
		{"mtfl", 5, ""},
	} {
		r, err := NewRun(d, TrainOptions{Config: mtl.Config{Model: tc.model, H: tc.h}, Train: 0.75, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.IdleText(); got != tc.want {
			t.Errorf("%s, h %d: %q, want %q", tc.model, tc.h, got, tc.want)
		}
	}
}

// TestLevelNote: a column of whole numbers and an open level read as a
// category unasked is named, with its values; one read as words on request
// is not (the visitor asked).
func TestLevelNote(t *testing.T) {
	const text = "task,y,kids,x\na,1,0,1\na,2,3+,2\nb,3,1,3\nb,4,2,4\n"
	d, err := Load([]byte(text), LoadOptions{Name: "m.csv"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.Summary().LevelNote, "kids holds whole numbers and 3+: it is read as a category, one indicator per value (0, 3+, 1, 2)"; got != want {
		t.Errorf("LevelNote %q, want %q", got, want)
	}
	d, err = Load([]byte(text), LoadOptions{Name: "m.csv", Text: []string{"kids"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Summary().LevelNote; got != "" {
		t.Errorf("read as words on request: LevelNote %q", got)
	}
}

// TestEmptyCategoryNote: a column of words with empty or NA cells reads
// them as a category of their own, and the notes say so (R would make
// them missing); a column without any says nothing.
func TestEmptyCategoryNote(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"NA and empty", "task,y,type,x\na,1,u,1\na,2,NA,2\nb,3,,3\nb,4,v,4\n", "type has empty or NA cells: read as a category of their own, not as missing values"},
		{"none", "task,y,type,x\na,1,u,1\na,2,u,2\nb,3,v,3\nb,4,v,4\n", ""},
		// Columns with the same gaps are named once (hunt hF's mccurdy:
		// ten columns, ten sentences).
		{"three columns", "task,y,type,kind,form,x\na,1,u,p,r,1\na,2,NA,,,2\nb,3,,q,s,3\nb,4,v,p,r,4\n", "type, kind and form have empty or NA cells: read as a category of their own, not as missing values"},
	} {
		d, err := Load([]byte(tc.text), LoadOptions{Name: "m.csv"})
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Summary().LevelNote; got != tc.want {
			t.Errorf("%s: LevelNote %q, want %q", tc.name, got, tc.want)
		}
		if tc.want == "" {
			continue
		}
		// The NA cell and the empty one are the same category, (empty):
		// "NA" once matched no level and had every indicator 0.
		j := slices.Index(d.All.FeatureNames, "type=(empty)")
		if j < 0 {
			t.Fatalf("%s: no type=(empty) feature in %q", tc.name, d.All.FeatureNames)
		}
		if na, empty := d.All.Tasks[0].X.At(1, j), d.All.Tasks[1].X.At(0, j); na == 0 || na != empty {
			t.Errorf("%s: the (empty) indicator is %v for NA and %v for an empty cell, want the same, not 0", tc.name, na, empty)
		}
	}
}

// TestCodesNote: the columns of codes in quotes read as categories are
// named in one sentence with their values, and one with too many values
// to encode is named as ids are, to be left out.
func TestCodesNote(t *testing.T) {
	var b strings.Builder
	b.WriteString("\"g\",\"y\",\"diet\",\"student\",\"x\",\"site\"\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "%q,%d,%q,%q,%d,%q\n", fmt.Sprint(i%4), i, fmt.Sprint(1+i%3), fmt.Sprint(1000+i%55), i%7, fmt.Sprint(3-i%3))
	}
	d, err := Load([]byte(b.String()), LoadOptions{Name: "r.csv", TaskColumn: "g"})
	if err != nil {
		t.Fatal(err)
	}
	sum := d.Summary()
	// One sentence for both columns, their values in number order (site's
	// appear as 3, 2, 1).
	if want := "diet (1, 2, 3) and site (1, 2, 3) hold numbers written in quotes, as R writes a factor's codes: they are read as categories, one indicator per value; write them without quotes to read them as numbers"; sum.LevelNote != want {
		t.Errorf("LevelNote %q, want %q", sum.LevelNote, want)
	}
	if !strings.Contains(sum.IDNote, "student holds numbers written in quotes, as R writes a factor's codes, with too many distinct values to read as a category") || !slices.Equal(sum.IDColumns, []string{"student"}) {
		t.Errorf("IDNote %q, IDColumns %q: want student named as codes to leave out", sum.IDNote, sum.IDColumns)
	}
}

// TestLeakNote: a column of words each of whose values is seen with one
// class only fixes a classifier's label, and the summary warns of it; a
// value seen with both classes, a column of one value, a regression and a
// file of a few rows do not.
func TestLeakNote(t *testing.T) {
	file := func(rows int, resp func(i int) string, y func(i int) string) string {
		var b strings.Builder
		b.WriteString("id,r2,resp,x\n")
		for i := 0; i < rows; i++ {
			fmt.Fprintf(&b, "p%d,%s,%s,%d\n", i%5, y(i), resp(i), i%7)
		}
		return b.String()
	}
	words := []string{"no", "perhaps", "yes"}
	resp := func(i int) string { return words[i%3] }
	derived := func(i int) string { return map[bool]string{true: "N", false: "Y"}[i%3 == 0] }
	for _, tc := range []struct {
		name, text string
		want       string
	}{
		{"derived", file(30, resp, derived), "resp fixes the label: each of its values is seen with one class only (no: N; perhaps: Y; yes: Y), so a model reads the label off it and scores as perfect; if resp is the label in other words, leave it out"},
		{"one value seen with both", file(30, resp, func(i int) string { return map[bool]string{true: "N", false: "Y"}[i%3 == 0 && i != 3] }), ""},
		{"a column of one value", file(30, func(int) string { return "no" }, derived), ""},
		{"a regression", file(30, resp, func(i int) string { return fmt.Sprint(i%3) + ".5" }), ""},
		{"a few rows", file(12, resp, derived), ""},
	} {
		d, err := Load([]byte(tc.text), LoadOptions{Name: "v.csv", TaskColumn: "id", LabelColumn: "r2"})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sum := d.Summary()
		if sum.LeakNote != tc.want || (tc.want != "") != slices.Equal(sum.LeakColumns, []string{"resp"}) {
			t.Errorf("%s: LeakNote %q, columns %q; want %q", tc.name, sum.LeakNote, sum.LeakColumns, tc.want)
		}
	}
}

// TestDatesNote: a column of a few dates, read as a category, is named in
// the notes with what that loses and how to keep it.
func TestDatesNote(t *testing.T) {
	var b strings.Builder
	b.WriteString("g,y,born,x\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "t%d,%d,2024-0%d-1%d,%d\n", i%4, i, 1+i%3, i%5, (i*3)%7)
	}
	d, err := Load([]byte(b.String()), LoadOptions{Name: "d.csv", TaskColumn: "g"})
	if err != nil {
		t.Fatal(err)
	}
	if note := d.Summary().LevelNote; !strings.Contains(note, "born looks like dates: it is read as a category, one indicator per date, which keeps neither their order nor how far apart they are") {
		t.Errorf("LevelNote %q: want born named as dates", note)
	}
}

// TestSeparatingColumn: a numeric column that separates a classifier's two
// classes exactly (a copy of the 0/1 label, or the score the label was cut
// from) is named in the leak note; one that overlaps them, or a class of a
// few rows (which any column's extreme separates), is not.
func TestSeparatingColumn(t *testing.T) {
	file := func(rows int, passed func(i int, score float64) string) string {
		var b strings.Builder
		b.WriteString("g,passed,score,x\n")
		for i := 0; i < rows; i++ {
			score := float64((i*37)%41) - 20.5
			fmt.Fprintf(&b, "s%d,%s,%g,%d\n", i%4, passed(i, score), score, (i*7)%5)
		}
		return b.String()
	}
	cut := func(_ int, s float64) string { return map[bool]string{true: "yes", false: "no"}[s > 3] }
	for _, tc := range []struct {
		name, text, want, origin string
	}{
		{"cut from the score", file(40, cut), "score separates the classes exactly: every yes row has score ≥ 3.5 and every no row ≤ 2.5", ""},
		// The features centred at their means: the message still gives the
		// file's numbers.
		{"origin at the means", file(40, cut), "score separates the classes exactly: every yes row has score ≥ 3.5 and every no row ≤ 2.5", "means"},
		{"the other way round", file(40, func(_ int, s float64) string { return map[bool]string{true: "yes", false: "no"}[s < -3] }), "score separates the classes exactly: every no row has score ≥ -2.5 and every yes row ≤ -3.5", ""},
		{"overlapping", file(40, func(i int, s float64) string { return cut(i, s+float64(i%3)*4) }), "", ""},
		{"a class of four rows", file(40, func(_ int, s float64) string { return map[bool]string{true: "yes", false: "no"}[s > 16] }), "", ""},
	} {
		d, err := Load([]byte(tc.text), LoadOptions{Name: "p.csv", TaskColumn: "g", LabelColumn: "passed", Origin: tc.origin})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sum := d.Summary()
		if !strings.HasPrefix(sum.LeakNote, tc.want) || (tc.want == "") != (sum.LeakNote == "") || (tc.want != "") != slices.Equal(sum.LeakColumns, []string{"score"}) {
			t.Errorf("%s: LeakNote %q, columns %q; want %q", tc.name, sum.LeakNote, sum.LeakColumns, tc.want)
		}
	}
}

// TestNearTaskNames: task names that differ only in letter case, leading
// zeros or a trailing ".0" are named in the task note; distinct names are
// not.
func TestNearTaskNames(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"7", "007", "8"}, `"7" and "007" are separate tasks`},
		{[]string{"g1", "G1", "g2"}, `"g1" and "G1" are separate tasks`},
		{[]string{"1", "2", "1.0", "2.0", "3", "3.0", "4", "4.0"}, `"1" and "1.0", "2" and "2.0", "3" and "3.0" (and 1 more) are separate tasks`},
		{[]string{"a", "b", "10", "100", "1.5", "15"}, ""},
	} {
		var b strings.Builder
		b.WriteString("g,y,x\n")
		for i := 0; i < 4*len(tc.names); i++ {
			fmt.Fprintf(&b, "%s,%d,%d\n", tc.names[i%len(tc.names)], i%5, i%3)
		}
		d, err := Load([]byte(b.String()), LoadOptions{Name: "n.csv", TaskColumn: "g"})
		if err != nil {
			t.Fatal(err)
		}
		note := d.Summary().TaskNote
		if tc.want == "" && note != "" || tc.want != "" && !strings.Contains(note, tc.want) {
			t.Errorf("%q: TaskNote %q, want %q", tc.names, note, tc.want)
		}
	}
}

// BenchmarkLoadBundled reads a bundled data set's packed table and makes
// its summary, as the page's first load does (the summary's notes read
// every row: docs/bench.md, "Twentieth round").
func BenchmarkLoadBundled(b *testing.B) {
	for _, name := range []string{"landmine", "school"} {
		text, err := os.ReadFile("../../web/data/" + name + "/data.csv")
		if err != nil {
			b.Fatal(err)
		}
		packed, err := Pack(text, LoadOptions{Name: name, Bundled: true})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d, err := Load(packed, LoadOptions{Name: name, Bundled: true})
				if err != nil {
					b.Fatal(err)
				}
				d.Summary()
			}
		})
	}
}

// TestPackRefusesWhatIsNoCSV: pack packs a CSV; a sparse text was refused
// as a CSV with one column ("save the file with commas"), and a packed
// table is one already.
func TestPackRefusesWhatIsNoCSV(t *testing.T) {
	packed, err := Pack([]byte("task,y,x\na,1,2\nb,2,3\n"), LoadOptions{Name: "t.csv"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in   []byte
		want string
	}{
		{[]byte("a 1 1:2\nb 0 2:1\n"), "s.txt: the file is in the sparse format (task label index:value), which is read as it is: pack packs a CSV"},
		{packed, "s.txt: the file is a packed table already"},
	} {
		if _, err := Pack(tc.in, LoadOptions{Name: "s.txt"}); err == nil || err.Error() != tc.want {
			t.Errorf("pack: %v, want %q", err, tc.want)
		}
	}
}

// TestSeparatingFeatureOfASparseFile: a sparse classifier file's feature
// that separates the classes exactly (a feature a line leaves out being 0)
// is warned of, with no column to leave out by name; one that overlaps,
// or is absent from some rows of both classes, is not.
func TestSeparatingFeatureOfASparseFile(t *testing.T) {
	file := func(line func(i int, pos bool) string) string {
		var b strings.Builder
		for i := 0; i < 40; i++ {
			pos := i%3 != 0
			y := map[bool]string{true: "1", false: "0"}[pos]
			fmt.Fprintf(&b, "g%d %s %s\n", i%4, y, line(i, pos))
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, text, want string
	}{
		{"separating", file(func(i int, pos bool) string {
			if pos {
				return fmt.Sprintf("1:0.5 2:%d", 1+i%5)
			}
			return "1:0.5"
		}), "feature 2 separates the classes exactly: every 1 row has it ≥ 1 and every 0 row ≤ 0"},
		{"overlapping", file(func(i int, pos bool) string { return fmt.Sprintf("1:%d 2:%d", i%5, 1+i%2) }), ""},
		{"absent from rows of both classes", file(func(i int, pos bool) string {
			if i%5 == 0 {
				return "1:1"
			}
			return fmt.Sprintf("1:1 2:%d", map[bool]int{true: 3, false: 1}[pos])
		}), ""},
	} {
		d, err := Load([]byte(tc.text), LoadOptions{Name: "s.svm"})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sum := d.Summary()
		if !strings.HasPrefix(sum.LeakNote, tc.want) || (tc.want == "") != (sum.LeakNote == "") || sum.LeakColumns != nil {
			t.Errorf("%s: LeakNote %q, columns %q; want %q", tc.name, sum.LeakNote, sum.LeakColumns, tc.want)
		}
	}
}

// TestThinTextGroupsItsCounts: a count of tasks in the note is grouped as
// the page's sentences group theirs ("2,500 tasks", not "2500 tasks").
func TestThinTextGroupsItsCounts(t *testing.T) {
	r := &Run{Test: &data.Dataset{Tasks: make([]data.Task, 2500)}}
	for i := range r.Test.Tasks {
		r.Test.Tasks[i] = data.Task{Name: fmt.Sprint("t", i), Y: []float64{1}}
	}
	got := r.ThinText(nil)
	if !strings.HasPrefix(got, "2,500 tasks are tested on fewer than 3 rows: t0 (1),") || !strings.Contains(got, "and 2,494 more") {
		t.Errorf("ThinText %q", got)
	}
}
