package app

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
)

// TestTuneResultJSON: a failed grid point (NaN) travels as null and comes
// back as NaN, the worst score — never as 0, which for RMSE would be best.
func TestTuneResultJSON(t *testing.T) {
	res := TuneResult{Metric: "rmse", Rho: []float64{0.1, 1}, Scores: [][]float64{{math.NaN()}, {0.7}}}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back TuneResult
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(back.Scores[0][0]) || back.Scores[1][0] != 0.7 {
		t.Fatalf("scores %v from %s", back.Scores, b)
	}
}

// tuneCSV writes a CSV of tasks × rows with three features; label gives
// row i of task t its label.
func tuneCSV(tasks, rows int, label func(t, i int) string) []byte {
	var sb strings.Builder
	sb.WriteString("task,y,x1,x2,x3\n")
	for t := 0; t < tasks; t++ {
		for i := 0; i < rows; i++ {
			fmt.Fprintf(&sb, "t%d,%s,%d,%d,%d\n", t+1, label(t, i), (i*3+t)%7-3, (i*5+2*t)%9-4, (i*7+3*t)%11-5)
		}
	}
	return []byte(sb.String())
}

// TestScoreSaysWhy: a grid point that cannot be scored has no score,
// and its failure names the first fold that failed and why (the page and
// the command line show it when no point was scored); a point that scores
// has none. Held-out rows are pooled, so tasks of one class each no
// longer leave a point unscored (a per-task AUC was undefined there).
func TestScoreSaysWhy(t *testing.T) {
	number := func(t, i int) string { return fmt.Sprintf("%.3f", 0.3*float64(t)+0.1*float64((i*13+t*7)%11-5)) }
	// Every task but the first has a single class (a file where every task
	// has one is refused when read: TestLoadRefusesOneLabel).
	oneClass := func(t, i int) string {
		if t == 0 {
			return []string{"1", "0"}[i%2]
		}
		return []string{"1", "0"}[t%2]
	}
	selfPaced := mtl.Config{Model: "mtfl", SelfPaced: true, Rho: 0.1, AutoLambda0: 1, Seed: 1}
	for _, c := range []struct {
		name        string
		text        []byte
		cfg         mtl.Config
		want        string // in the error; "" for a point that scores
		wantScoreOK bool
	}{
		{"scored", tuneCSV(3, 12, number), selfPaced, "", true},
		{"hard rule, lambda0 auto", tuneCSV(3, 12, number), mtl.Config{Model: "mtfl", SelfPaced: true, Tau: mtl.Hard, Rho: 0.1, AutoLambda0: 1, Seed: 1},
			"fold 1 of 3: new trainer: lambda0 auto applies to the softmax rule", false},
		// Refused by TuneFolds before any point (TestTuneRefusesUntestableUpFront).
		{"two rows per task", tuneCSV(3, 2, number), selfPaced, "tune two rows per task.csv: every task has fewer than 3 rows", false},
		{"one class in most tasks", tuneCSV(4, 9, oneClass), mtl.Config{Model: "mtfl", Rho: 0.1, Seed: 1}, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := Load(c.text, LoadOptions{Name: c.name + ".csv", TaskColumn: "task", LabelColumn: "y"})
			if err != nil {
				t.Fatal(err)
			}
			folds, err := NewTuneFoldSet(d, 3, 1, false)
			if err != nil {
				if !c.wantScoreOK && strings.Contains(err.Error(), c.want) {
					return
				}
				t.Fatal(err)
			}
			cfg := c.cfg.Defaults(d.All.Kind == data.Classification)
			r := folds.Score(cfg)
			v := r.Scores.Of(r.Scores.Metric)
			switch {
			case c.wantScoreOK && (r.Failure != "" || !v.OK() || r.Losses == nil):
				t.Errorf("score %v, failure %q; want a score", v, r.Failure)
			case !c.wantScoreOK && (r.Failure == "" || r.Losses != nil || !strings.Contains(r.Failure, c.want)):
				t.Errorf("score %v, failure %q; want none and a failure with %q", v, r.Failure, c.want)
			}
		})
	}
}

// TestTuneRefusesAGridWithNoScore: when no grid point can be scored (here
// more folds than any task has rows, refused before any fit) Tune fails
// with the reason instead of
// "choosing" the grid's first point, which the command line would then fit
// and save as if cross-validation had chosen it.
func TestTuneRefusesAGridWithNoScore(t *testing.T) {
	number := func(t, i int) string { return fmt.Sprintf("%.3f", 0.3*float64(t)+0.1*float64((i*13+t*7)%11-5)) }
	d, err := Load(tuneCSV(3, 6, number), LoadOptions{Name: "six.csv", TaskColumn: "task", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		folds int
		want  string
	}{{7, "7-fold cross-validation needs tasks of 7 rows or more"}, {3, ""}} {
		res, err := Tune(context.Background(), d, TuneOptions{Config: mtl.Config{Model: "mmtl"}, Folds: c.folds}, nil)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%d folds: %v", c.folds, err)
		case c.want == "" && math.IsNaN(res.Scores[res.Best[0]][res.Best[1]]):
			t.Errorf("%d folds: chose a point without a score", c.folds)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "fewer than 7 rows")):
			t.Errorf("%d folds: error %v, want %q and why", c.folds, err, c.want)
		}
	}
}

// TestTuneRefusesUntestableUpFront: a file whose tasks are all too small
// for a fold to test on is refused before any fit, saying why.
func TestTuneRefusesUntestableUpFront(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("task,y,x1\n")
	for k := 0; k < 200; k++ {
		fmt.Fprintf(&sb, "t%d,%d,%d\n", k, k%7, k%5)
	}
	d, err := Load([]byte(sb.String()), LoadOptions{Name: "one.csv"})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	_, err = Tune(context.Background(), d, TuneOptions{Seed: 1}, func(int, int) { calls++ })
	if err == nil || !strings.Contains(err.Error(), "3-fold cross-validation needs tasks of 3 rows or more") || calls != 0 {
		t.Errorf("error %v after %d progress calls", err, calls)
	}
}

// TestShapeRefusalsNameTheFile: a file whose tasks are too small to test
// is refused by name, on the command line as on the page, for tuning as
// for a run with a split (a hostile file of three one-row groups printed
// "tune: every task has ..." with no file).
func TestShapeRefusalsNameTheFile(t *testing.T) {
	number := func(t, i int) string { return fmt.Sprintf("%.1f", float64(t+i)) }
	d, err := Load(tuneCSV(3, 1, number), LoadOptions{Name: "three1.csv", TaskColumn: "task", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewTuneFoldSet(d, 3, 1, false); err == nil || !strings.HasPrefix(err.Error(), "tune three1.csv: every task has fewer than 3 rows") {
		t.Errorf("tune: %v", err)
	}
	if _, err := NewRun(d, TrainOptions{Config: mtl.Config{Model: "stl"}}); err == nil || !strings.HasPrefix(err.Error(), "train three1.csv: split: no task has enough rows for a test set") {
		t.Errorf("train: %v", err)
	}
}

// TestConstantCV: one value for every row, scored on the search's folds:
// labels of 4, 5 and 6, a third each, score about √(2/3) (RMSE: two rows
// in three are 1 from the mean of 5, give or take the folds' draws); a classifier whose
// folds' training rows hold half of each class scores log 2; a metric other than
// RMSE and log-loss has no such score.
func TestConstantCV(t *testing.T) {
	var same, half strings.Builder
	same.WriteString("task,y,x\n")
	half.WriteString("task,y,x\n")
	for k := 0; k < 4; k++ {
		for i := 0; i < 6; i++ {
			fmt.Fprintf(&same, "t%d,%d,%d\n", k, 4+i%3, i)
			fmt.Fprintf(&half, "t%d,%d,%d\n", k, i%2, i)
		}
	}
	load := func(text string) *Data {
		d, err := Load([]byte(text), LoadOptions{Name: "c.csv"})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	opt := TuneOptions{Folds: 3, Seed: 1}
	if d := load(same.String()); d.All.Kind != data.Regression {
		t.Fatal("labels of 4, 5 and 6 not read as a regression")
	} else if c, _, ok := constantCV(d, opt, eval.RMSEMetric); !ok || c.Value < 0.75 || c.Value > 1 || c.N != 24 {
		t.Errorf("labels of 4, 5 and 6: %+v (ok %v), want RMSE near 0.816 over 24 rows", c, ok)
	}
	d := load(half.String())
	c, what, ok := constantCV(d, opt, eval.LogLossMetric)
	if !ok || math.Abs(c.Value-math.Ln2) > 1e-12 || !strings.Contains(what, `share of "1"`) {
		t.Errorf("half of each class: %+v %q (ok %v), want log 2", c, what, ok)
	}
	if _, _, ok := constantCV(d, opt, eval.BrierMetric); ok {
		t.Error("a Brier score has a constant's CV here; want none")
	}
}

// TestTuneSTLOverRhoAlone: STL, one pooled predictor, is searched over ρ
// alone, at κ = 0, where the others search the shared intercept's κ too:
// its fits at any κ are the same (κ pulls the tasks' intercepts towards
// their mean, and STL has none), so the points at other κ were fits that
// could not differ, and its table printed a κ it did not use.
func TestTuneSTLOverRhoAlone(t *testing.T) {
	d, err := Load([]byte(slopeCSV(4, 40, -2.5)), LoadOptions{Name: "own.csv", TaskColumn: "g", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Tune(context.Background(), d, TuneOptions{Seed: 1, Config: mtl.Config{Model: ""}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Intercept) < 2 {
		t.Fatalf("the search tried κ %v: want a grid, to see STL left out of it", res.Intercept)
	}
	for _, m := range res.Models {
		switch {
		case m.Key == "stl" && (m.Config.Intercept != 0 || m.Points > len(TuneRho)+6):
			t.Errorf("STL: κ %g over %d points, want 0 and ρ alone", m.Config.Intercept, m.Points)
		case m.Key == "itl" && m.Points <= len(TuneRho)+6:
			t.Errorf("ITL: %d points, want κ searched too", m.Points)
		}
	}
}
