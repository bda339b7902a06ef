package app

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/mtl"
)

// wideSparse is the file: tasks tasks of two rows each in the
// sparse format, one of them with a value at feature 2,097,152.
func wideSparse(tasks int) string {
	var b strings.Builder
	for t := 0; t < tasks; t++ {
		fmt.Fprintf(&b, "t%d %d 1:%d 3:1\n", t, t%2, t%7)
		fmt.Fprintf(&b, "t%d %d 2:1 2097152:0.5\n", t, (t+1)%2)
	}
	return b.String()
}

// TestNewRunRefusesOverBudget: a run whose estimated memory is over the
// budget is refused before it allocates, with the numbers and the remedy;
// a raised budget or none lets a small one train.
func TestNewRunRefusesOverBudget(t *testing.T) {
	wide, err := Load([]byte(wideSparse(500)), LoadOptions{Name: "wide.svm"})
	if err != nil {
		t.Fatal(err)
	}
	small, err := Load([]byte(wideSparse(3)), LoadOptions{Name: "small.svm"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		d      *Data
		memory int64
		want   []string // nil: trains
	}{
		{"issue file", wide, 0, []string{"train: this fit needs about ", "(500 tasks × 2,097,152 features, dense weights); the learner's budget is 1 GB. Remedy: "}},
		{"small budget", small, 1000, []string{"the learner's budget is 1 kB"}},
		{"no limit", small, -1, nil},
		{"default", small, 0, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewRun(c.d, TrainOptions{Config: mtl.Config{Model: "mtfl", SelfPaced: true}, Memory: c.memory})
			if c.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("not refused")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("refusal %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestTuneRefusesOverBudget: a tuning of the file is refused
// before any fit when it names a model (a fold's fit would have killed the
// page's learner), and a search over every model leaves out each model
// that does not fit, and is refused, saying why, when none is left; a
// small file tunes as before.
func TestTuneRefusesOverBudget(t *testing.T) {
	wide, err := Load([]byte(wideSparse(500)), LoadOptions{Name: "wide.svm"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewTuneSearch(wide, TuneOptions{Config: mtl.Config{Model: "mtfl"}})
	if err == nil || !strings.Contains(err.Error(), "tune: this fit needs about ") || !strings.Contains(err.Error(), "Remedy: ") {
		t.Errorf("tuning MTFL on the issue's file: %v", err)
	}
	_, err = NewTuneSearch(wide, TuneOptions{})
	if err == nil || !strings.Contains(err.Error(), "tune: no model can be tuned on this data: ") || !strings.Contains(err.Error(), "the learner's budget is 1 GB") {
		t.Errorf("a search over every model on the issue's file: %v", err)
	}
	small, err := Load([]byte(wideSparse(3)), LoadOptions{Name: "small.svm"})
	if err != nil {
		t.Fatal(err)
	}
	// (Two rows a task: two folds, so that each fold tests a row of each.)
	if s, err := NewTuneSearch(small, TuneOptions{Folds: 2}); err != nil || len(s.fams) == 0 {
		t.Errorf("a small file: %v", err)
	}
}

// TestTuneRefusesRowLossesOverBudget: every scored point keeps a loss per
// held-out row (for the paired comparisons); a search whose points' losses
// and rows would not fit the budget is refused before it fits anything,
// saying that the rows are what costs, and a budget that holds them lets
// it start.
func TestTuneRefusesRowLossesOverBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("g,y,x\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "t%d,%d,%d\n", i%20, i%7, i%11)
	}
	d, err := Load([]byte(b.String()), LoadOptions{Name: "long.csv", TaskColumn: "g", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	rows := mtl.Estimate(mtl.ShapeOf(d.All), mtl.NoExtra, mtl.EstimateRuns).Bytes
	_, err = NewTuneSearch(d, TuneOptions{Memory: rows + 10*3000*8})
	if err == nil || !strings.Contains(err.Error(), "keep a held-out loss for every one of the 3,000 rows") || !strings.Contains(err.Error(), "-memory") {
		t.Errorf("a budget below the points' row losses: %v", err)
	}
	if _, err := NewTuneSearch(d, TuneOptions{Memory: rows + 1000*3000*8}); err != nil {
		t.Errorf("a budget that holds the row losses: %v", err)
	}
}
