package data

import (
	"bytes"
	"testing"
)

// The shared data sets of the project, read when they are present.

func TestRealLandmine(t *testing.T) {
	ds, err := ReadCSV(openShared(t, "landmine/data.csv"), "landmine/data.csv", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	pos := 0
	for _, tk := range ds.Tasks {
		for _, y := range tk.Y {
			if y == 1 {
				pos++
			}
		}
	}
	if len(ds.Tasks) != 19 || ds.Rows() != 9674 || ds.Features != 9 || ds.Kind != Classification || pos != 585 {
		t.Errorf("landmine: %d tasks, %d rows, %d features, %v, %d positives; want 19, 9674, 9, classification, 585",
			len(ds.Tasks), ds.Rows(), ds.Features, ds.Kind, pos)
	}
	if ds.Positive != "1" || ds.Negative != "0" || ds.Tasks[0].Name != "field01" || ds.Tasks[10].Name != "field16" {
		t.Errorf("landmine: classes %q/%q, tasks %q, %q", ds.Positive, ds.Negative, ds.Tasks[0].Name, ds.Tasks[10].Name)
	}
	if ds.Tasks[0].Rows() != 690 || ds.Tasks[0].X.At(0, 0) != 1.368307903528228 {
		t.Errorf("landmine field01: %d rows, x[0][0] = %v", ds.Tasks[0].Rows(), ds.Tasks[0].X.At(0, 0))
	}
}

func TestRealSchoolAndSplit(t *testing.T) {
	ds, err := Read(openShared(t, "school/data.csv"), "school/data.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(ds.Tasks) != 139 || ds.Rows() != 15362 || ds.Features != 27 || ds.Kind != Regression || ds.SourceRows != 15362 {
		t.Errorf("school: %d tasks, %d rows, %d features, %v; want 139, 15362, 27, regression",
			len(ds.Tasks), ds.Rows(), ds.Features, ds.Kind)
	}
	mask, err := ReadSplitFile(openShared(t, "school/splits.csv"), "school/splits.csv", "split1")
	if err != nil {
		t.Fatal(err)
	}
	ntrain := 0
	for _, tr := range mask {
		if tr {
			ntrain++
		}
	}
	if len(mask) != 15362 || ntrain != 11472 {
		t.Errorf("school split1: %d rows, %d train; want 15362, 11472", len(mask), ntrain)
	}
	train, test, err := SplitByMask(ds, mask)
	if err != nil {
		t.Fatal(err)
	}
	if train.Rows() != 11472 || test.Rows() != 3890 || len(train.Tasks) != 139 {
		t.Errorf("school split1: %d train, %d test rows, %d tasks", train.Rows(), test.Rows(), len(train.Tasks))
	}
	if err := train.Validate(); err != nil {
		t.Error(err)
	}
	if err := test.Validate(); err != nil {
		t.Error(err)
	}
}

func TestRealComputerSurvey(t *testing.T) {
	ds, err := ReadCSV(openShared(t, "cs/data.csv"), "cs/data.csv", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Tasks) != 190 || ds.Rows() != 3800 || ds.Features != 13 || ds.Kind != Regression {
		t.Errorf("cs: %d tasks, %d rows, %d features, %v", len(ds.Tasks), ds.Rows(), ds.Features, ds.Kind)
	}
	mask, err := ReadSplitFile(openShared(t, "cs/splits.csv"), "cs/splits.csv", "")
	if err != nil {
		t.Fatal(err)
	}
	train, test, err := SplitByMask(ds, mask)
	if err != nil {
		t.Fatal(err)
	}
	if train.Rows() != 3040 || test.Rows() != 760 {
		t.Errorf("cs split1: %d train, %d test; want 3040, 760", train.Rows(), test.Rows())
	}
}

func TestRealSentiment(t *testing.T) {
	b := readShared(t, "sentiment/data.svm")
	if Detect(b[:4096]) != "sparse" {
		t.Error("sentiment not detected as sparse")
	}
	ds, err := ReadSparse(bytes.NewReader(b), "sentiment/data.svm", SparseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	nnz := 0
	for _, tk := range ds.Tasks {
		nnz += len(tk.S.Values)
		if tk.Rows() != 480 {
			t.Errorf("sentiment task %s: %d rows, want 480", tk.Name, tk.Rows())
		}
	}
	if len(ds.Tasks) != 8 || ds.Rows() != 3840 || ds.Features != 37662 || nnz != 612338 || ds.Kind != Classification {
		t.Errorf("sentiment: %d tasks, %d rows, %d features, %d nonzeros, %v; want 8, 3840, 37662, 612338, classification",
			len(ds.Tasks), ds.Rows(), ds.Features, nnz, ds.Kind)
	}
	if ds.Tasks[0].Name != "books_r5" || ds.Tasks[7].Name != "kitchen_r1" {
		t.Errorf("sentiment task order: %q ... %q", ds.Tasks[0].Name, ds.Tasks[7].Name)
	}
}

func BenchmarkReadSparseSentiment(b *testing.B) {
	in := readShared(b, "sentiment/data.svm")
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadSparse(bytes.NewReader(in), "data.svm", SparseOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadCSVLandmine(b *testing.B) {
	in := readShared(b, "landmine/data.csv")
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadCSV(bytes.NewReader(in), "data.csv", CSVOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadPackedLandmine reads landmine's packed table, as the page
// does for a bundled data set.
func BenchmarkReadPackedLandmine(b *testing.B) {
	tab, err := ReadTable(readShared(b, "landmine/data.csv"), "data.csv", TableOptions{})
	if err != nil {
		b.Fatal(err)
	}
	packed, err := PackTable(tab)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(packed)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadPacked(packed, "data.packed"); err != nil {
			b.Fatal(err)
		}
	}
}
