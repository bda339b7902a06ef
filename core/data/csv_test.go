package data

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestParseErrorFormat(t *testing.T) {
	e := &ParseError{File: "a.csv", Line: 3, Column: 4, Err: ErrRaggedRow}
	if got, want := e.Error(), "a.csv:3:4: ragged row"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	e.File = ""
	if got, want := e.Error(), "3:4: ragged row"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(e, ErrRaggedRow) {
		t.Error("Unwrap does not reach the sentinel")
	}
}

func TestReadCSVErrors(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		opt       CSVOptions
		line, col int
		msg       string
		sentinel  error
	}{
		{"ragged short", "task,y,x1,x2\na,1,2,3\na,0,1\n", CSVOptions{}, 3, 4, "ragged row: 3 fields, want 4 (header has 4)", ErrRaggedRow},
		{"ragged long", "task,y,x1\na,1,2,3\n", CSVOptions{}, 2, 4, "ragged row: 4 fields, want 3", ErrRaggedRow},
		{"non-numeric", "task,y,x1,x2\na,1,2,abc\n", CSVOptions{}, 2, 4, `non-numeric value "abc" in column x2`, ErrNotNumber},
		{"nan", "task,y,x1,x2\na,1,nan,3\n", CSVOptions{}, 2, 3, `NaN or Inf value "nan" in column x1`, ErrNotFinite},
		{"NaN", "task,y,x1,x2\na,1,2,NaN\n", CSVOptions{}, 2, 4, "NaN or Inf value", ErrNotFinite},
		{"inf", "task,y,x1\na,1,2\nb,0,-inf\n", CSVOptions{}, 3, 3, "NaN or Inf value", ErrNotFinite},
		{"overflow", "task,y,x1\na,1,1e400\n", CSVOptions{}, 2, 3, "NaN or Inf value", ErrNotFinite},
		{"nan label", "task,y,x1\na,NaN,1\n", CSVOptions{}, 2, 2, "NaN or Inf label", ErrNotFinite},
		{"missing label", "task,y,x1\na,1,1\na,,2\n", CSVOptions{}, 3, 2, "missing label", ErrMissingValue},
		{"missing value", "task,y,x1,x2\na,1,1,\n", CSVOptions{}, 2, 4, "missing value in column x2", ErrMissingValue},
		{"third class text", "task,y,x1\na,0,1\na,1,1\nb,2,1\nb,no,1\n", CSVOptions{}, 5, 2, "non-numeric label \"no\"", ErrLabels},
		{"third class", "task,y,x1\na,yes,1\nb,no,1\na,maybe,1\n", CSVOptions{}, 4, 2, `third class "maybe": labels seen so far are "yes" and "no"`, ErrLabels},
		{"third class forced", "task,y,x1\na,0,1\na,1,1\nb,2,1\n", CSVOptions{Kind: KindClassification}, 4, 2, `third class "2": labels seen so far are "0" and "1"`, ErrLabels},
		{"third class after text", "task,y,x1\na,no,1\na,1,1\nb,2,1\n", CSVOptions{}, 4, 2, `third class "2"`, ErrLabels},
		// A stray word among numbers is likely a missing value (SAS's ".",
		// a spreadsheet's "-"): each message says how to write it.
		{"a dot among numbers", "task,y,x1\na,0.5,1\na,1.5,1\nb,2.5,1\nb,.,1\n", CSVOptions{}, 5, 2, `non-numeric label "." in column y, but the labels before it take more than two values ("0.5", "1.5", ...): they are neither numbers nor two classes; if "." marks a missing label, write NA there instead`, ErrLabels},
		{"a dot first", "task,y,x1\na,.,1\na,1.5,1\nb,2.5,1\n", CSVOptions{}, 4, 2, `(labels are classes because "." is not a number); a classifier here learns two classes: if "." marks a missing label, write NA there instead`, ErrLabels},
		{"a dash among 0/1", "task,y,x1\na,0,1\na,1,1\nb,-,1\n", CSVOptions{}, 4, 2, `third class "-": labels seen so far are "0" and "1"; a classifier here learns two classes: if "-" marks a missing label, write NA there instead (rows missing a label can be left out); else merge`, ErrLabels},
		{"regression text label", "task,y,x1\na,1,1\na,high,1\n", CSVOptions{Kind: KindRegression}, 3, 2, `non-numeric label "high"`, ErrNotNumber},
		{"empty file", "", CSVOptions{}, 1, 1, "empty file", ErrEmptyFile},
		{"only BOM", "\xef\xbb\xbf", CSVOptions{}, 1, 1, "empty file", ErrEmptyFile},
		{"only blank lines", "\n\r\n\n", CSVOptions{}, 1, 1, "empty file", ErrEmptyFile},
		{"header only", "task,y,x1\n", CSVOptions{}, 1, 1, "no data rows", ErrNoRows},
		{"header and blank lines", "task,y,x1\r\n\r\n\r\n", CSVOptions{}, 1, 1, "no data rows", ErrNoRows},
		{"missing task column", "id,y,x1\na,1,2\n", CSVOptions{}, 1, 1, `no task column "task" in header (id, y, x1)`, ErrHeader},
		{"missing label column", "task,label,x1\na,1,2\n", CSVOptions{}, 1, 1, `no label column "y" in header (task, label, x1)`, ErrHeader},
		{"missing custom column", "task,y,x1\na,1,2\n", CSVOptions{TaskColumn: "school"}, 1, 1, `no task column "school"`, ErrHeader},
		// Copied from a web table: a zero-width space before the name. The
		// list quotes it, and the refusal says what it is.
		{"invisible character in the task's name", "\u200btask,y,x1\na,1,2\n", CSVOptions{}, 1, 1,
			`no task column "task" in header ("\u200btask", y, x1): the column "\u200btask" is task with an invisible character (U+200B) in its name; delete it from the file's header`, ErrHeader},
		{"invisible character in the label's name", "task,y\u2060,x1\na,1,2\n", CSVOptions{}, 1, 1,
			`no label column "y" in header (task, "y\u2060", x1): the column "y\u2060" is y with an invisible character (U+2060) in its name`, ErrHeader},
		{"duplicate column", "task,y,x1,x1\na,1,2,3\n", CSVOptions{}, 1, 4, `duplicate column name "x1" (also column 3)`, ErrHeader},
		{"unnamed column with values", "task,y,x1,\na,1,2,3\n", CSVOptions{}, 2, 4, `column 4 has values ("3") but no name in the header`, ErrHeader},
		{"no features", "task,y\na,1\n", CSVOptions{}, 1, 1, "no feature columns", ErrHeader},
		{"empty task", "task,y,x1\na,1,2\n ,1,2\n", CSVOptions{}, 3, 1, "empty task name in column task", ErrMissingValue},
		{"empty quoted task", "y,x1,task\n1,2,\"\"\n", CSVOptions{}, 2, 3, "empty task name", ErrMissingValue},
		{"custom columns", "x1,label,x2,group\n1,1,2,g\n1,0,zz,g\n", CSVOptions{TaskColumn: "group", LabelColumn: "label"}, 3, 3, `non-numeric value "zz" in column x2`, ErrNotNumber},
		{"after multi-line field", "task,y,x1\n\"a\nb\",1,abc\n", CSVOptions{}, 3, 3, `non-numeric value "abc"`, ErrNotNumber},
		{"after blank lines", "task,y,x1\n\na,1,2\n\n\na,1,x\n", CSVOptions{}, 6, 3, "non-numeric", ErrNotNumber},
		{"CRLF and BOM", "\xef\xbb\xbftask,y,x1\r\na,1,2\r\na,1\r\n", CSVOptions{}, 3, 3, "ragged row", ErrRaggedRow},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := ReadCSV(strings.NewReader(tc.in), "in.csv", tc.opt)
			if ds != nil {
				t.Errorf("got a dataset with the error")
			}
			wantParseErr(t, err, "in.csv", tc.line, tc.col, tc.msg, tc.sentinel)
		})
	}
}

// TestReadCSVSyntaxError: encoding/csv's errors about quotes are placed
// at their field, not their byte, and say what to do; a file whose columns
// are separated by spaces (R's write.table) is told so.
func TestReadCSVSyntaxError(t *testing.T) {
	for _, tc := range []struct {
		name, in  string
		line, col int
		msg       string
	}{
		{"a quote inside a field", "task,y,x1\na,1,2\"x\"\n", 2, 3, `a quote (") inside a field that does not start with one`},
		{"text after a closing quote", "task,y,x1\na,1,\"2\"x\n", 2, 3, "text after a field's closing quote"},
		{"separated by spaces", "\"task\" \"y\" \"x1\"\n\"a\" 1 2\n", 1, 1, "the columns are separated by spaces"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(tc.in), "q.csv", CSVOptions{})
			wantParseErr(t, err, "q.csv", tc.line, tc.col, tc.msg, nil)
		})
	}
}

func TestReadCSVOptionErrors(t *testing.T) {
	in := "task,y,x1\na,spam,1\na,ham,2\n"
	if _, err := ReadCSV(strings.NewReader(in), "o.csv", CSVOptions{Positive: "eggs"}); err == nil || !strings.Contains(err.Error(), `positive class "eggs" is not one of the labels "spam" and "ham"`) {
		t.Errorf("unknown positive class: got %v", err)
	}
	if _, err := ReadCSV(strings.NewReader(in), "o.csv", CSVOptions{TaskColumn: "y"}); err == nil || !strings.Contains(err.Error(), "both") {
		t.Errorf("same task and label column: got %v", err)
	}
}

func TestReadCSVGood(t *testing.T) {
	type task struct {
		name   string
		y      []float64
		x      [][]float64
		source []int
	}
	tests := []struct {
		name     string
		in       string
		opt      CSVOptions
		kind     Kind
		pos, neg string
		features []string
		tasks    []task
	}{
		{
			name: "basic 0/1, no trailing newline", in: "task,y,x1,x2\na,0,1,2\na,1,3,4\nb,1,5,6",
			kind: Classification, pos: "1", neg: "0", features: []string{"x1", "x2"},
			tasks: []task{{"a", []float64{-1, 1}, [][]float64{{1, 2}, {3, 4}}, []int{0, 1}}, {"b", []float64{1}, [][]float64{{5, 6}}, []int{2}}},
		},
		{
			name: "-1/+1 and trailing blank lines", in: "task,y,x1\na,+1,1\na,-1,2\n\n\n",
			kind: Classification, pos: "+1", neg: "-1", features: []string{"x1"},
			tasks: []task{{"a", []float64{1, -1}, [][]float64{{1}, {2}}, []int{0, 1}}},
		},
		{
			name: "two other numbers: larger positive, 1.0 equals 1", in: "task,y,x1\na,3,1\na,1,2\nb,1.0,3\n",
			kind: Classification, pos: "3", neg: "1", features: []string{"x1"},
			tasks: []task{{"a", []float64{1, -1}, [][]float64{{1}, {2}}, []int{0, 1}}, {"b", []float64{-1}, [][]float64{{3}}, []int{2}}},
		},
		{
			name: "strings: yes looks positive", in: "task,y,x1\na,yes,1\na,no,2\n",
			kind: Classification, pos: "yes", neg: "no", features: []string{"x1"},
			tasks: []task{{"a", []float64{1, -1}, [][]float64{{1}, {2}}, []int{0, 1}}},
		},
		{
			name: "strings: negative-looking other", in: "task,y,x1\na,neg,1\na,spam,2\n",
			kind: Classification, pos: "spam", neg: "neg", features: []string{"x1"},
			tasks: []task{{"a", []float64{-1, 1}, [][]float64{{1}, {2}}, []int{0, 1}}},
		},
		{
			name: "strings: last in sorted order", in: "task,y,x1\na,spam,1\na,ham,2\n",
			kind: Classification, pos: "spam", neg: "ham", features: []string{"x1"},
			tasks: []task{{"a", []float64{1, -1}, [][]float64{{1}, {2}}, []int{0, 1}}},
		},
		{
			name: "strings: Positive option", in: "task,y,x1\na,spam,1\na,ham,2\n", opt: CSVOptions{Positive: "ham"},
			kind: Classification, pos: "ham", neg: "spam", features: []string{"x1"},
			tasks: []task{{"a", []float64{-1, 1}, [][]float64{{1}, {2}}, []int{0, 1}}},
		},
		{
			name: "numbers: Positive option by value", in: "task,y,x1\na,0,1\na,1,2\n", opt: CSVOptions{Positive: "0.0"},
			kind: Classification, pos: "0", neg: "1", features: []string{"x1"},
			tasks: []task{{"a", []float64{1, -1}, [][]float64{{1}, {2}}, []int{0, 1}}},
		},
		{
			name: "single class per task", in: "task,y,x1\na,1,1\nb,0,2\n",
			kind: Classification, pos: "1", neg: "0", features: []string{"x1"},
			tasks: []task{{"a", []float64{1}, [][]float64{{1}}, []int{0}}, {"b", []float64{-1}, [][]float64{{2}}, []int{1}}},
		},
		{
			name: "single text class in the file", in: "task,y,x1\na,ok,1\n",
			kind: Classification, pos: "", neg: "ok", features: []string{"x1"},
			tasks: []task{{"a", []float64{-1}, [][]float64{{1}}, []int{0}}},
		},
		{
			name: "regression detected", in: "task,y,x1\na,0,1\na,1,2\nb,2.5,3\n",
			kind: Regression, features: []string{"x1"},
			tasks: []task{{"a", []float64{0, 1}, [][]float64{{1}, {2}}, []int{0, 1}}, {"b", []float64{2.5}, [][]float64{{3}}, []int{2}}},
		},
		{
			name: "single number is regression", in: "task,y,x1\na,4,1\n",
			kind: Regression, features: []string{"x1"},
			tasks: []task{{"a", []float64{4}, [][]float64{{1}}, []int{0}}},
		},
		{
			name: "forced regression with two values", in: "task,y,x1\na,0,1\na,1,2\n", opt: CSVOptions{Kind: KindRegression},
			kind: Regression, features: []string{"x1"},
			tasks: []task{{"a", []float64{0, 1}, [][]float64{{1}, {2}}, []int{0, 1}}},
		},
		{
			name: "forced classification of a single number", in: "task,y,x1\na,1,1\n", opt: CSVOptions{Kind: KindClassification},
			kind: Classification, pos: "1", features: []string{"x1"},
			tasks: []task{{"a", []float64{1}, [][]float64{{1}}, []int{0}}},
		},
		{
			name: "unusual positions, custom names, non-contiguous tasks",
			in:   "f1,score,f2,group\n1,10,2,g2\n3,20,4,g1\n5,30,6,g2\n7,40,8,g1\n",
			opt:  CSVOptions{TaskColumn: "group", LabelColumn: "score"},
			kind: Regression, features: []string{"f1", "f2"},
			tasks: []task{
				{"g2", []float64{10, 30}, [][]float64{{1, 2}, {5, 6}}, []int{0, 2}},
				{"g1", []float64{20, 40}, [][]float64{{3, 4}, {7, 8}}, []int{1, 3}},
			},
		},
		{
			name: "quotes, spaces, CRLF, BOM, multi-line field",
			in:   "\xef\xbb\xbf\"task\", \"y\",x\r\n\"a\r\nb\", 1.5 ,\"2\"\r\n  c ,2,3\r\n\"a\r\nb\",3,4",
			kind: Regression, features: []string{"x"},
			tasks: []task{{"a\nb", []float64{1.5, 3}, [][]float64{{2}, {4}}, []int{0, 2}}, {"c", []float64{2}, [][]float64{{3}}, []int{1}}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := ReadCSV(strings.NewReader(tc.in), "good.csv", tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if err := ds.Validate(); err != nil {
				t.Fatal(err)
			}
			if ds.Name != "good.csv" || ds.Kind != tc.kind || ds.Positive != tc.pos || ds.Negative != tc.neg {
				t.Errorf("name %q kind %v positive %q negative %q, want good.csv %v %q %q", ds.Name, ds.Kind, ds.Positive, ds.Negative, tc.kind, tc.pos, tc.neg)
			}
			if !reflect.DeepEqual(ds.FeatureNames, tc.features) || ds.Features != len(tc.features) {
				t.Errorf("features %d %q, want %q", ds.Features, ds.FeatureNames, tc.features)
			}
			if len(ds.Tasks) != len(tc.tasks) {
				t.Fatalf("tasks %q, want %d", taskNames(ds), len(tc.tasks))
			}
			n := 0
			for k, want := range tc.tasks {
				got := &ds.Tasks[k]
				n += got.Rows()
				if got.Name != want.name || !reflect.DeepEqual(got.Y, want.y) || !reflect.DeepEqual(denseRows(got), want.x) || !reflect.DeepEqual(got.Source, want.source) {
					t.Errorf("task %d: got %q y=%v x=%v source=%v, want %q y=%v x=%v source=%v",
						k, got.Name, got.Y, denseRows(got), got.Source, want.name, want.y, want.x, want.source)
				}
			}
			if ds.SourceRows != n {
				t.Errorf("SourceRows %d, want %d", ds.SourceRows, n)
			}
		})
	}
}

func TestReadCSVFixture(t *testing.T) {
	f, err := os.Open("testdata/quoted_crlf_bom.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ds, err := ReadCSV(f, "quoted_crlf_bom.csv", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	if got, want := taskNames(ds), []string{"north", `south "B"`}; !reflect.DeepEqual(got, want) {
		t.Errorf("tasks %q, want %q", got, want)
	}
	if got, want := ds.FeatureNames, []string{"height, cm", "x2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("features %q, want %q", got, want)
	}
	if ds.Kind != Classification || ds.Positive != "yes" || ds.Negative != "no" {
		t.Errorf("kind %v %q/%q, want classification yes/no", ds.Kind, ds.Positive, ds.Negative)
	}
	if got, want := denseRows(&ds.Tasks[0]), [][]float64{{1.5, 2}, {2.5, 0}}; !reflect.DeepEqual(got, want) {
		t.Errorf("north rows %v, want %v", got, want)
	}
	if got, want := denseRows(&ds.Tasks[1]), [][]float64{{-3, 40}}; !reflect.DeepEqual(got, want) {
		t.Errorf("south rows %v, want %v", got, want)
	}
	if got, want := ds.Tasks[0].Source, []int{0, 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("north source %v, want %v", got, want)
	}
}
