package mtl_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
)

// dataPath finds a bundled data file: the app's copy in web/data, else the
// shared folder beside the repository.
func dataPath(tb testing.TB, name string) string {
	tb.Helper()
	for _, p := range []string{filepath.Join("..", "..", "web", "data", name), filepath.Join("..", "..", "..", "shared", "data", name)} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	tb.Skipf("data file %s not found", name)
	return ""
}

func readData(tb testing.TB, name string) *data.Dataset {
	tb.Helper()
	p := dataPath(tb, name)
	f, err := os.Open(p)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var ds *data.Dataset
	if filepath.Ext(p) == ".svm" {
		ds, err = data.ReadSparse(f, p, data.SparseOptions{})
	} else {
		ds, err = data.ReadCSV(f, p, data.CSVOptions{})
	}
	if err != nil {
		tb.Fatal(err)
	}
	return ds
}

// benchSets returns the training sets of the three benchmark problems:
// landmine with 80 stratified rows per task, school split 1, sentiment with
// 120 rows per task.
func benchSet(tb testing.TB, name string) (*data.Dataset, mtl.Loss) {
	tb.Helper()
	switch name {
	case "landmine":
		ds := readData(tb, "landmine/data.csv")
		tr, _, err := eval.SplitPerTask(ds, 80, true, 1)
		if err != nil {
			tb.Fatal(err)
		}
		return tr, mtl.Logistic
	case "school":
		ds := readData(tb, "school/data.csv")
		p := dataPath(tb, "school/splits.csv")
		f, err := os.Open(p)
		if err != nil {
			tb.Fatal(err)
		}
		defer f.Close()
		mask, err := data.ReadSplitFile(f, p, "split1")
		if err != nil {
			tb.Fatal(err)
		}
		tr, _, err := data.SplitByMask(ds, mask)
		if err != nil {
			tb.Fatal(err)
		}
		return tr, mtl.Squared
	case "sentiment":
		ds := readData(tb, "sentiment/data.svm")
		tr, _, err := eval.SplitPerTask(ds, 120, true, 1)
		if err != nil {
			tb.Fatal(err)
		}
		return tr, mtl.Squared
	}
	tb.Fatalf("unknown benchmark set %s", name)
	return nil, ""
}

// BenchmarkFit measures one full fit of each model, self-paced and not, on
// the three benchmark problems: data loading and the one-off per-task
// statistics (Prepare) are outside the timed loop. Sentiment runs 10 outer
// iterations.
func BenchmarkFit(b *testing.B) {
	for _, set := range []string{"landmine", "school", "sentiment"} {
		var ds *data.Dataset
		var loss mtl.Loss
		var p *mtl.Problem
		for _, model := range []string{"itl", "stl", "mmtl", "mtfl", "mtaso"} {
			for _, sp := range []bool{false, true} {
				if model == "itl" && sp || model == "stl" && sp {
					continue
				}
				name := model
				if sp {
					name = "sp" + model
				}
				b.Run(fmt.Sprintf("%s/%s", set, name), func(b *testing.B) {
					if p == nil {
						ds, loss = benchSet(b, set)
						var err error
						if p, err = mtl.Prepare(ds); err != nil {
							b.Fatal(err)
						}
					}
					cfg := mtl.Config{Model: model, SelfPaced: sp, Loss: loss, Rho: 0.1, Lambda0: 1, MaxIter: 10, TauTol: 1e-300, ObjTol: 1e-300}
					b.ReportAllocs()
					for i := 0; i < b.N; i++ {
						tr, err := mtl.NewTrainer(p, cfg)
						if err != nil {
							b.Fatal(err)
						}
						for !tr.Done() {
							if _, err := tr.Step(); err != nil {
								b.Fatal(err)
							}
						}
					}
				})
			}
		}
	}
}

// BenchmarkPrepare measures the one-off per-task statistics.
func BenchmarkPrepare(b *testing.B) {
	for _, set := range []string{"landmine", "school", "sentiment"} {
		b.Run(set, func(b *testing.B) {
			ds, _ := benchSet(b, set)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := mtl.Prepare(ds); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
