package data

import (
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadSparseErrors(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		opt       SparseOptions
		line, col int
		msg       string
		sentinel  error
	}{
		{"index out of order", "a 1 1:1 7:2 5:3\n", SparseOptions{}, 1, 13, "feature index 5 not greater than previous 7", ErrIndex},
		{"index repeated", "a 1 1:1\na 0 2:1 2:2\n", SparseOptions{}, 2, 9, "feature index 2 not greater than previous 2", ErrIndex},
		{"index 0", "a 1 0:1\n", SparseOptions{}, 1, 5, "feature index 0: indices are 1-based", ErrIndex},
		{"negative index", "a 1 -3:1\n", SparseOptions{}, 1, 5, "feature index -3: indices are 1-based", ErrIndex},
		{"huge index", "a 1 99999999999:1\n", SparseOptions{}, 1, 5, "feature index 99999999999 is beyond 2097152, the most features spmtl reads", ErrIndex},
		// A 60-byte file whose index would make the learners hold
		// gigabytes, or run out of memory at the largest int32.
		{"index far beyond the data", "a 1 1:1 999999999:1\na -1 1:1\nb 1 2:1\nb -1 1:1\n", SparseOptions{}, 1, 9, "feature index 999999999 is beyond 2097152, the most features spmtl reads (every task keeps a weight for each feature up to the largest index): number the features 1, 2, 3, ... without large gaps", ErrIndex},
		{"the largest int32", "a 1 1:1\nb 0 2147483647:1\n", SparseOptions{}, 2, 5, "feature index 2147483647 is beyond 2097152", ErrIndex},
		{"one beyond the bound", "a 1 2097153:1\n", SparseOptions{}, 1, 5, "feature index 2097153 is beyond 2097152", ErrIndex},
		{"index beyond Features", "a 1 1:1 11:1\n", SparseOptions{Features: 10}, 1, 9, "feature index 11 greater than the number of features 10", ErrIndex},
		{"bad token", "a 1 1:1 oops\n", SparseOptions{}, 1, 9, `bad token "oops": want index:value`, ErrToken},
		// libsvm's lines have no task: the label reads as the task and a
		// feature as the label (it was a "third class" of features).
		{"libsvm without tasks", "-1.683 1:0.5 2:0.3\n1.2 1:0.1\n", SparseOptions{}, 1, 8, `the second field "1:0.5" is a feature (index:value) where the label should be`, ErrToken},
		{"comma separated", "a,1,1:1\n", SparseOptions{}, 1, 8, "missing label", ErrMissingValue},
		{"non-numeric index", "a 1 x:1\n", SparseOptions{}, 1, 5, `non-numeric feature index "x"`, ErrNotNumber},
		{"empty index", "a 1 :1\n", SparseOptions{}, 1, 5, `non-numeric feature index ""`, ErrNotNumber},
		{"non-numeric value", "a 1 1:x\n", SparseOptions{}, 1, 5, `non-numeric value "x" for feature 1: correct the value, or delete the row`, ErrNotNumber},
		{"missing value", "a 1 1:\n", SparseOptions{}, 1, 5, "missing value for feature 1", ErrMissingValue},
		{"NaN value", "a 1 1:1\n\n\tb 0 2:NaN\n", SparseOptions{}, 3, 6, `NaN or Inf value "NaN" for feature 2`, ErrNotFinite},
		{"Inf value", "a 1 3:+Inf\n", SparseOptions{}, 1, 5, `infinite value "+Inf" for feature 3: give a finite number, or delete the row`, ErrNotFinite},
		{"decimal comma", "a 1 1:2\nb 0 1:2,5\n", SparseOptions{}, 2, 5, `non-numeric value "2,5" for feature 1: the sparse format writes a decimal point: 2.5`, ErrNotNumber},
		{"NaN label", "a nan 3:1\n", SparseOptions{}, 1, 3, "NaN or Inf label", ErrNotFinite},
		{"huge value", "a 1 1:1\nb 0 1:2 4:-1e200\n", SparseOptions{}, 2, 9, "value -1e+200 for feature 4 is beyond ±1e100, too large to train on: rescale the feature", ErrTooLarge},
		{"huge label", "a 1 1:1\nb 1e101 1:2\n", SparseOptions{}, 2, 3, "label 1e+101 is beyond ±1e100, too large to train on: rescale the labels", ErrTooLarge},
		{"missing label", "a 1 1:1\nb\n", SparseOptions{}, 2, 2, "missing label", ErrMissingValue},
		{"missing label before comment", "a # x\n", SparseOptions{}, 1, 3, "missing label", ErrMissingValue},
		{"third class", "a 0 1:1\na 1 1:1\na 2 1:1\n", SparseOptions{Kind: KindClassification}, 3, 3, `third class "2"`, ErrLabels},
		{"regression text label", "a good 1:1\n", SparseOptions{Kind: KindRegression}, 1, 3, `non-numeric label "good"`, ErrNotNumber},
		{"empty file", "", SparseOptions{}, 1, 1, "empty file", ErrEmptyFile},
		{"blank lines only", "\n  \r\n\t\n", SparseOptions{}, 1, 1, "empty file", ErrEmptyFile},
		{"comments only", "# nothing\n# here\n", SparseOptions{}, 1, 1, "no data rows", ErrNoRows},
		{"CRLF and BOM", "\xef\xbb\xbfa 1 1:1\r\na 0 2:1 1:1\r\n", SparseOptions{}, 2, 9, "not greater", ErrIndex},
		{"lines ending in CR", "a 1 1:1\ra 0 2:1\r\rb 1 3:1 2:1\r", SparseOptions{}, 4, 9, "not greater", ErrIndex},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := ReadSparse(strings.NewReader(tc.in), "in.svm", tc.opt)
			if ds != nil {
				t.Errorf("got a dataset with the error")
			}
			wantParseErr(t, err, "in.svm", tc.line, tc.col, tc.msg, tc.sentinel)
		})
	}
}

func TestReadSparseOtherErrors(t *testing.T) {
	if _, err := ReadSparse(strings.NewReader("a 1\nb 0\n"), "e.svm", SparseOptions{}); err == nil || !strings.Contains(err.Error(), "no features") {
		t.Errorf("rows without features: got %v", err)
	}
	if _, err := ReadSparse(strings.NewReader("a 1 1:1\n"), "e.svm", SparseOptions{Features: -1}); err == nil {
		t.Error("negative Features accepted")
	}
	if _, err := ReadSparse(strings.NewReader("a 1 1:1\n"), "e.svm", SparseOptions{Features: MaxFeatures + 1}); err == nil {
		t.Errorf("Features %d accepted", MaxFeatures+1)
	}
	if ds, err := ReadSparse(strings.NewReader("a 1 1:1\nb 0 2097152:1\n"), "e.svm", SparseOptions{}); err != nil || ds.Features != MaxFeatures {
		t.Errorf("index %d: %v", MaxFeatures, err)
	}
	defer func(n int) { maxLineBytes = n }(maxLineBytes)
	maxLineBytes = 4 << 20
	long := "a 1 " + strings.Repeat("1", maxLineBytes+1)
	_, err := ReadSparse(strings.NewReader(long), "long.svm", SparseOptions{})
	wantParseErr(t, err, "long.svm", 1, 1, "line longer than", nil)
}

func TestReadSparseGood(t *testing.T) {
	in := "t1 1 2:0.5 4:-1\nt2 0 1:2\n\nt1 0\n# comment\nt2 1 3:1e-2 4:4 # note\n"
	ds, err := ReadSparse(strings.NewReader(in), "s.svm", SparseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	if !ds.Sparse() || ds.Features != 4 || ds.Kind != Classification || ds.Positive != "1" || ds.Negative != "0" || ds.SourceRows != 4 {
		t.Errorf("sparse %v features %d kind %v %q/%q rows %d", ds.Sparse(), ds.Features, ds.Kind, ds.Positive, ds.Negative, ds.SourceRows)
	}
	want := []Task{
		{Name: "t1", Y: []float64{1, -1}, Source: []int{0, 2},
			S: &CSR{Rows: 2, Cols: 4, Indptr: []int{0, 2, 2}, Indices: []int{1, 3}, Values: []float64{0.5, -1}}},
		{Name: "t2", Y: []float64{-1, 1}, Source: []int{1, 3},
			S: &CSR{Rows: 2, Cols: 4, Indptr: []int{0, 1, 3}, Indices: []int{0, 2, 3}, Values: []float64{2, 0.01, 4}}},
	}
	if !reflect.DeepEqual(ds.Tasks, want) {
		for k := range ds.Tasks {
			t.Errorf("task %d: %+v %+v", k, ds.Tasks[k], *ds.Tasks[k].S)
		}
	}

	// Lines that end with a lone CR (old Mac) or CRLF read the same, also
	// when a read ends between the CR and the LF.
	for _, nl := range []string{"\r", "\r\n"} {
		for _, r := range []io.Reader{strings.NewReader(strings.ReplaceAll(in, "\n", nl)), iotest.OneByteReader(strings.NewReader(strings.ReplaceAll(in, "\n", nl)))} {
			got, err := ReadSparse(r, "s.svm", SparseOptions{})
			if err != nil || !reflect.DeepEqual(got, ds) {
				t.Errorf("line ends %q: %v, %+v", nl, err, got)
			}
		}
	}

	// The Features option widens the matrices; forced regression keeps
	// the labels.
	ds, err = ReadSparse(strings.NewReader(in), "s.svm", SparseOptions{Features: 10, Kind: KindRegression})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Features != 10 || ds.Tasks[0].S.Cols != 10 || ds.Kind != Regression || !reflect.DeepEqual(ds.Tasks[0].Y, []float64{1, 0}) {
		t.Errorf("features %d cols %d kind %v y %v", ds.Features, ds.Tasks[0].S.Cols, ds.Kind, ds.Tasks[0].Y)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestReadSparseFixture(t *testing.T) {
	f, err := os.Open("testdata/small.svm")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ds, err := ReadSparse(f, "small.svm", SparseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	if got, want := taskNames(ds), []string{"t1", "t2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("tasks %q, want %q", got, want)
	}
	if ds.Positive != "+1" || ds.Negative != "-1" || ds.Features != 3 || ds.Rows() != 4 {
		t.Errorf("%q/%q features %d rows %d", ds.Positive, ds.Negative, ds.Features, ds.Rows())
	}
	if got, want := ds.Tasks[1].Y, []float64{-1, 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("t2 labels %v, want %v", got, want)
	}
	if got, want := ds.Tasks[1].Source, []int{1, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("t2 source %v, want %v", got, want)
	}
	if got := ds.Tasks[0].Dot(0, []float64{1, 1, 1}); got != -1.5 {
		t.Errorf("t1 row 0 · 1 = %v, want -1.5", got)
	}
}

// TestSparseOmitMissing: a sparse row missing its label or a feature's
// value (empty, NA, ?, NaN) is refused at its line with leaving such rows
// out as the remedy, and with OmitMissing is left out, counted by what it
// misses, as a CSV's is; a task whose every row is left out is not in the
// data, and a file of nothing else is refused. New rows left out keep
// their place, with no prediction.
func TestSparseOmitMissing(t *testing.T) {
	text := "a 1 1:2 2:3\na NA 1:1\nb 2 1:1 2:\nb 3 1:4\n# note\nc ? 2:1\nb 1 2:NaN\na 0 1:? 2:1\n"
	for _, tc := range []struct{ in, want string }{
		{"a 1 1:2\na NA 1:1\n", `s.svm:2:3: missing label ("NA")`},
		{"a 1 1:2\na 2 1:\n", `s.svm:2:5: missing value for feature 1 in token "1:"`},
		{"a 1 1:2\na 2 1:?\n", `s.svm:2:5: missing value ("?") for feature 1 in token "1:?"`},
		{"a 1 1:2\na 2 1:NaN\n", `s.svm:2:5: NaN or Inf value "NaN" for feature 1`},
	} {
		_, err := Load([]byte(tc.in), "s.svm", Options{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !RemedyOf(err).Omit {
			t.Errorf("%q: %v (remedy %+v), want %q and leaving the rows out", tc.in, err, RemedyOf(err), tc.want)
		}
	}
	// The refusal counts every row that misses a value, as a CSV's does;
	// when no row is whole, leaving them out is not offered.
	for _, tc := range []struct {
		in, want string
		omit     bool
	}{
		{text, `s.svm:2:3: missing label ("NA"): 5 of the 7 rows have a missing value (label: 2, feature 2: 2, feature 1: 1); leave those rows out, or fill the values in`, true},
		{"a 1 1:2\na 2 1:NaN\nb 1 1:1\n", `s.svm:2:5: NaN or Inf value "NaN" for feature 1: 1 of the 3 rows has a missing value (feature 1: 1); leave those rows out, or fill the values in`, true},
		{"a NA 1:1\nb 1 1:\n", `s.svm:1:3: missing label ("NA"): 2 of the 2 rows have a missing value (label: 1, feature 1: 1); fill some in`, false},
		// A later problem of another kind: the first one in the file is named.
		{"a 1 1:1\nb 2 1:?\nc 1 1:x\n", `s.svm:2:5: missing value ("?") for feature 1 in token "1:?"`, true},
	} {
		_, err := Load([]byte(tc.in), "s.svm", Options{})
		if err == nil || err.Error() != tc.want || RemedyOf(err).Omit != tc.omit || !errors.Is(err, ErrMissingValue) && !errors.Is(err, ErrNotFinite) {
			t.Errorf("%q: %v (remedy %+v)\nwant %s (leaving the rows out offered: %v)", tc.in, err, RemedyOf(err), tc.want, tc.omit)
		}
	}
	tab, err := Load([]byte(text), "s.svm", Options{OmitMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	o := tab.Omitted
	if got, want := o.Text(), `5 of the 7 rows were left out for a missing value (label: 2, "feature 2": 2, "feature 1": 1), at lines 2, 3, 6, 7, 8; task c had no other rows and is not in the data`; got != want {
		t.Errorf("omitted: %q\nwant      %q", got, want)
	}
	if ds := tab.Data; ds.Rows() != 2 || len(ds.Tasks) != 2 || ds.Tasks[0].Source[0] != 0 || ds.Tasks[1].Source[0] != 3 || ds.SourceRows != 7 {
		t.Errorf("kept %d rows of %d tasks (sources %v, %v of %d rows)", ds.Rows(), len(ds.Tasks), ds.Tasks[0].Source, ds.Tasks[1].Source, ds.SourceRows)
	}
	if _, err := Load([]byte("a NA 1:1\nb 1 1:\n"), "s.svm", Options{OmitMissing: true}); err == nil || !strings.Contains(err.Error(), "no data rows left: every one of the 2 rows has a missing value") {
		t.Errorf("every row left out: %v", err)
	}
	enc := &Encoding{Format: "sparse", Features: 2}
	nt, err := LoadNewRowsWith([]byte("a ? 1:1 2:\nb 0 2:1\n"), "n.svm", enc, NewRowsOptions{OmitMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(nt.Rows, [][]string{{"1", "a"}, {"2", "b"}}) || nt.Data.Rows() != 1 || nt.Omitted.Rows != 1 {
		t.Errorf("new rows: %q, %d in the data, omitted %+v", nt.Rows, nt.Data.Rows(), nt.Omitted)
	}
}
