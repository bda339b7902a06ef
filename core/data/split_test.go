package data

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestReadSplitFile(t *testing.T) {
	f, err := os.Open("testdata/splits.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := ReadSplitFile(f, "splits.csv", "split1")
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, false, true, false, true}; !reflect.DeepEqual(got, want) {
		t.Errorf("split1 = %v, want %v", got, want)
	}

	tests := []struct {
		in, column string
		want       []bool
	}{
		{"row,split1,split2\n0,train,test\n1,test,train\n", "split2", []bool{false, true}},
		{"row,split1,split2\n0,train,test\n1,test,train\n", "", []bool{true, false}},
		{"\xef\xbb\xbfsplit,row\r\n\" Train \",0\r\ntest,1", "", []bool{true, false}},
		{"fold\ntrain\n\ntest\n\n", "fold", []bool{true, false}},
		// Unnamed columns (a trailing delimiter, pandas' index) are never
		// the split column.
		{"row,split1,\n0,train,\n1,test,\n", "", []bool{true, false}},
		{"row,split1,\n0,train\n1,test\n", "split1", []bool{true, false}},
		{"row,split1\n0,train,\n1,test, \n", "", []bool{true, false}},
		{",split1\n0,test\n1,train\n", "", []bool{false, true}},
		// Rows of empty fields (a spreadsheet's empty rows) are blank;
		// lines may end with a lone CR.
		{"row,split1\r\n0,train\r\n1,test\r\n\r\n,\r\n", "", []bool{true, false}},
		{"row,split1\r0,train\r1,test\r", "", []bool{true, false}},
		// Written by a spreadsheet in a decimal-comma locale, or as tabs.
		{"row;split1;split2\n0;train;test\n1;test;train\n", "split2", []bool{false, true}},
		{"row\tsplit1\n0\ttest\n1\ttrain\n", "split1", []bool{false, true}},
	}
	for _, tc := range tests {
		got, err := ReadSplitFile(strings.NewReader(tc.in), "s.csv", tc.column)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ReadSplitFile(%q, %q) = %v, %v; want %v", tc.in, tc.column, got, err, tc.want)
		}
	}
}

func TestSplitColumns(t *testing.T) {
	got, err := SplitColumns(strings.NewReader("row,split1,,split2,\n0,train,,test,\n"), "s.csv")
	if err != nil || !reflect.DeepEqual(got, []string{"split1", "split2"}) {
		t.Errorf("SplitColumns = %q, %v; want the named columns [split1 split2]", got, err)
	}
	got, err = SplitColumns(strings.NewReader("row;a;b\n0;train;test\n"), "s.csv")
	if err != nil || !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("SplitColumns of a semicolon file = %q, %v", got, err)
	}
	got, err = SplitColumns(strings.NewReader("row,a,b\r0,train,test\r"), "s.csv")
	if err != nil || !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("SplitColumns with lines ending in CR = %q, %v", got, err)
	}
}

func TestReadSplitFileErrors(t *testing.T) {
	tests := []struct {
		name, in, column string
		line, col        int
		msg              string
		sentinel         error
	}{
		{"unknown value", "row,split1\n0,train\n1,validate\n", "split1", 3, 2, `unknown value "validate" in column split1: want train or test`, ErrSplit},
		{"missing value", "row,split1\n0,\n", "split1", 2, 2, "missing value in column split1", ErrMissingValue},
		{"missing column", "row,split1,split2\n0,train,test\n", "split3", 1, 1, `no split column "split3" in header (row, split1, split2)`, ErrHeader},
		{"only row column", "row\n0\n", "", 1, 1, "no split column", ErrHeader},
		{"out of order", "row,split1\n0,train\n2,test\n1,test\n", "split1", 3, 1, "row 2 out of order: want 1", ErrSplit},
		{"starts at 1", "row,split1\n1,train\n2,test\n", "split1", 2, 1, "the rows are numbered from 1: number them from 0 (the data file's first row is row 0), that is, subtract one from every row number", ErrSplit},
		{"starts at 2", "row,split1\n2,train\n", "split1", 2, 1, "row 2 out of order: want 0", ErrSplit},
		{"non-numeric row", "split1,row\ntrain,first\n", "split1", 2, 2, `non-numeric row number "first"`, ErrNotNumber},
		{"ragged", "row,split1\n0,train,x\n", "split1", 2, 3, "ragged row: 3 fields, want 2", ErrRaggedRow},
		{"empty", "", "split1", 1, 1, "empty file", ErrEmptyFile},
		{"header only", "row,split1\n", "split1", 1, 1, "no data rows", ErrNoRows},
		{"only an unnamed column besides row", "row,\n0,train\n", "", 1, 1, `no split column "other than row" in header (row, "")`, ErrHeader},
		{"a value past the header's end", "row,split1\n0,train,test\n", "split1", 2, 3, "ragged row: 3 fields, want 2", ErrRaggedRow},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadSplitFile(strings.NewReader(tc.in), "s.csv", tc.column)
			wantParseErr(t, err, "s.csv", tc.line, tc.col, tc.msg, tc.sentinel)
		})
	}
}

func TestSplitByMask(t *testing.T) {
	in := "task,y,x\na,1,10\nb,2,20\na,3,30\nb,4,40\na,5,50\n"
	ds, err := ReadCSV(strings.NewReader(in), "d.csv", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mask := []bool{true, false, false, true, true}
	train, test, err := SplitByMask(ds, mask)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, ds *Dataset, names []string, ys [][]float64, src [][]int) {
		t.Helper()
		if got := taskNames(ds); !reflect.DeepEqual(got, names) {
			t.Errorf("%s tasks %q, want %q", what, got, names)
		}
		for k := range ds.Tasks {
			tk := &ds.Tasks[k]
			if !reflect.DeepEqual(tk.Y, ys[k]) || !reflect.DeepEqual(tk.Source, src[k]) {
				t.Errorf("%s task %s: y %v source %v, want %v %v", what, tk.Name, tk.Y, tk.Source, ys[k], src[k])
			}
			for i := range tk.Y {
				if x := tk.X.At(i, 0); x != 10*tk.Y[i] {
					t.Errorf("%s task %s row %d: x %v, want %v", what, tk.Name, i, x, 10*tk.Y[i])
				}
			}
		}
	}
	check("train", train, []string{"a", "b"}, [][]float64{{1, 5}, {4}}, [][]int{{0, 4}, {3}})
	check("test", test, []string{"a", "b"}, [][]float64{{3}, {2}}, [][]int{{2}, {1}})
	if err := train.Validate(); err != nil {
		t.Error(err)
	}
	if err := test.Validate(); err != nil {
		t.Error(err)
	}
	if train.Name != ds.Name || train.Features != 1 || train.SourceRows != 5 {
		t.Errorf("train header %q %d %d", train.Name, train.Features, train.SourceRows)
	}

	// A task on one side only stays in place, empty on the other.
	train, test, err = SplitByMask(ds, []bool{true, false, true, false, true})
	if err != nil {
		t.Fatal(err)
	}
	if train.Tasks[1].Rows() != 0 || test.Tasks[0].Rows() != 0 || train.Tasks[0].Rows() != 3 {
		t.Errorf("train rows %d %d, test rows %d %d", train.Tasks[0].Rows(), train.Tasks[1].Rows(), test.Tasks[0].Rows(), test.Tasks[1].Rows())
	}

	if _, _, err := SplitByMask(ds, mask[:4]); err == nil || !strings.Contains(err.Error(), "the mask has 4 rows, the data file has 5") {
		t.Errorf("short mask: got %v", err)
	}
	if _, _, err := SplitByMask(nil, mask); err == nil {
		t.Error("nil dataset accepted")
	}
}

func TestSplitByMaskWithoutSource(t *testing.T) {
	// Hand-built tasks without Source are taken as consecutive file rows.
	in := "a 1 1:1\na 2 1:2\nb 3 2:3\n"
	ds, err := ReadSparse(strings.NewReader(in), "d.svm", SparseOptions{Kind: KindRegression})
	if err != nil {
		t.Fatal(err)
	}
	for k := range ds.Tasks {
		ds.Tasks[k].Source = nil
	}
	ds.SourceRows = 0
	train, test, err := SplitByMask(ds, []bool{false, true, true})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(train.Tasks[0].Y, []float64{2}) || !reflect.DeepEqual(train.Tasks[1].Y, []float64{3}) || !reflect.DeepEqual(test.Tasks[0].Y, []float64{1}) {
		t.Errorf("train %v %v test %v", train.Tasks[0].Y, train.Tasks[1].Y, test.Tasks[0].Y)
	}
	if got := train.Tasks[1].S; got.Rows != 1 || !reflect.DeepEqual(got.Indices, []int{1}) || !reflect.DeepEqual(got.Values, []float64{3}) {
		t.Errorf("train task b: %+v", got)
	}
	if _, _, err := SplitByMask(ds, []bool{true, true}); err == nil || !strings.Contains(err.Error(), "outside the mask") {
		t.Errorf("short mask without SourceRows: got %v", err)
	}
	ds.Tasks[0].Source = []int{0}
	if _, _, err := SplitByMask(ds, []bool{true, true, true}); err == nil || !strings.Contains(err.Error(), "source rows") {
		t.Errorf("bad Source length: got %v", err)
	}
}

func TestSubsetCarriesSource(t *testing.T) {
	ds, err := ReadCSV(strings.NewReader("task,y,x\na,1,1\nb,2,2\na,3,3\n"), "d.csv", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sub := ds.Tasks[0].Subset([]int{1, 0})
	if !reflect.DeepEqual(sub.Source, []int{2, 0}) || !reflect.DeepEqual(sub.Y, []float64{3, 1}) {
		t.Errorf("subset source %v y %v", sub.Source, sub.Y)
	}
	if empty := ds.Tasks[0].Subset(nil); empty.Rows() != 0 || empty.X != nil || len(empty.Source) != 0 {
		t.Errorf("empty subset %+v", empty)
	}
	ds.Tasks[0].Source = ds.Tasks[0].Source[:1]
	if err := ds.Validate(); err == nil {
		t.Error("Validate accepted a short Source")
	}
}
