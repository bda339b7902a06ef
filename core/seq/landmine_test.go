package seq_test

import (
	"context"
	"math"
	"os"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/seq"
)

// landmineFiles are the places the landmine data (19 tasks, columns
// task,y,x1..x9, y in {0,1}) is looked for: the copy shipped with the page,
// then the shared one.
var landmineFiles = []string{"../../web/data/landmine/data.csv", "/work/shared/data/landmine/data.csv"}

// landmine returns the landmine data split into 80 stratified training rows
// per task (seed 1) and the rest for test, or skips when the file is absent.
func landmine(tb testing.TB) (train, test *data.Dataset) {
	tb.Helper()
	var f *os.File
	var err error
	for _, name := range landmineFiles {
		if f, err = os.Open(name); err == nil {
			break
		}
	}
	if err != nil {
		tb.Skipf("landmine data not available: %v", err)
	}
	defer f.Close()
	ds, err := data.ReadCSV(f, "landmine", data.CSVOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	train, test, err = eval.SplitPerTask(ds, 80, true, 1)
	if err != nil {
		tb.Fatal(err)
	}
	return train, test
}

// learner builds CL (rule "cl") or ELLA with the given selection rule.
func learner(tb testing.TB, rule string, train *data.Dataset) mtl.Learner {
	tb.Helper()
	var l mtl.Learner
	var err error
	if rule == "cl" {
		var p *mtl.Problem
		if p, err = mtl.Prepare(train); err == nil {
			l, err = seq.NewCL(p, seq.CLConfig{})
		}
	} else {
		l, err = seq.NewELLA(train, seq.ELLAConfig{Select: rule, Seed: 1})
	}
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

// TestLandmineAUC runs CL and every ELLA rule on landmine and checks that
// each learns a useful model (the paper reports test AUCs of 0.7–0.8).
func TestLandmineAUC(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	train, test := landmine(t)
	for _, rule := range []string{"cl", seq.SelectRandom, seq.SelectInfoMax, seq.SelectDiversity, seq.SelectDiversityPP} {
		t.Run(rule, func(t *testing.T) {
			l := learner(t, rule, train)
			last, err := mtl.Run(context.Background(), l)
			if err != nil {
				t.Fatal(err)
			}
			if len(last.Seq.Order) != len(train.Tasks) {
				t.Fatalf("learned %d of %d tasks", len(last.Seq.Order), len(train.Tasks))
			}
			preds, err := l.Model().PredictDataset(test)
			if err != nil {
				t.Fatal(err)
			}
			_, auc := eval.Score(train.Kind, preds, test)
			t.Logf("%s: mean test AUC %.4f", rule, auc)
			if math.IsNaN(auc) || auc < 0.65 {
				t.Errorf("%s: mean test AUC %v, want at least 0.65", rule, auc)
			}
		})
	}
}

// BenchmarkCLLandmine times a whole CL run on landmine (19 tasks, 80
// training rows each).
func BenchmarkCLLandmine(b *testing.B) {
	train, _ := landmine(b)
	for b.Loop() {
		if _, err := mtl.Run(context.Background(), learner(b, "cl", train)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkELLALandmine times a whole ELLA run on landmine per selection
// rule, single-task fits included.
func BenchmarkELLALandmine(b *testing.B) {
	train, _ := landmine(b)
	for _, rule := range []string{seq.SelectRandom, seq.SelectInfoMax, seq.SelectDiversity, seq.SelectDiversityPP} {
		b.Run(rule, func(b *testing.B) {
			for b.Loop() {
				if _, err := mtl.Run(context.Background(), learner(b, rule, train)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
