package data

import (
	"bytes"
	"errors"
	"testing"
)

// checkRead is the property both fuzzers test: the reader returns either an
// error, positioned sensibly when it is a *ParseError, or a dataset that
// passes Validate and whose Source numbers the data rows 0..n-1 once each.
func checkRead(t *testing.T, ds *Dataset, err error) {
	t.Helper()
	if err != nil {
		if ds != nil {
			t.Fatalf("dataset returned with error %v", err)
		}
		var pe *ParseError
		if errors.As(err, &pe) && (pe.Line < 1 || pe.Column < 1 || pe.Err == nil) {
			t.Fatalf("bad position in %#v", pe)
		}
		return
	}
	if err := ds.Validate(); err != nil {
		t.Fatalf("dataset fails Validate: %v", err)
	}
	seen := make([]bool, ds.SourceRows)
	n := 0
	for _, tk := range ds.Tasks {
		for _, s := range tk.Source {
			if s < 0 || s >= len(seen) || seen[s] {
				t.Fatalf("task %q: bad or repeated source row %d of %d", tk.Name, s, len(seen))
			}
			seen[s] = true
			n++
		}
	}
	if n != ds.SourceRows || n != ds.Rows() {
		t.Fatalf("%d source rows, %d examples, SourceRows %d", n, ds.Rows(), ds.SourceRows)
	}
}

func FuzzReadCSV(f *testing.F) {
	f.Add([]byte("task,y,x1\na,0,1\nb,1,2\n"))
	// Lines above the header (aboveHeader), and a column with no name
	// but values (unnamedInstead).
	f.Add([]byte("# exported, v2\n# units\n\ntask,y,x1\na,0,1\nb,1,2\n"))
	f.Add([]byte("Exam results, 2026\r\ntask;y;x1\r\na;0;1\r\n"))
	f.Add([]byte("task,,x1\na,0,1\nb,,2\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, kind := range []KindChoice{KindAuto, KindRegression, KindClassification} {
			ds, err := ReadCSV(bytes.NewReader(in), "fuzz.csv", CSVOptions{Kind: kind})
			checkRead(t, ds, err)
		}
		ds, err := Read(bytes.NewReader(in), "fuzz", Options{})
		checkRead(t, ds, err)
	})
}

func FuzzReadSparse(f *testing.F) {
	f.Add([]byte("a 1 1:1 3:2\nb 0 2:1\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, kind := range []KindChoice{KindAuto, KindRegression, KindClassification} {
			ds, err := ReadSparse(bytes.NewReader(in), "fuzz.svm", SparseOptions{Kind: kind})
			checkRead(t, ds, err)
		}
		ds, err := ReadSparse(bytes.NewReader(in), "fuzz.svm", SparseOptions{Features: 3, Positive: "1"})
		checkRead(t, ds, err)
	})
}
