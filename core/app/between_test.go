package app

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/spmtl/spmtl/core/mtl"
)

// TestLeaveOneOutMatchesRefits: on the tasks in a fit (every task, or
// some), the ridge path's coefficients are the weighted ridge's normal
// equations' (by gonum), and its left-out errors, from one eigenbasis
// for every ridge, sum to the errors of the ridge refitted without each
// task, to rounding.
func TestLeaveOneOutMatchesRefits(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	const T, q = 15, 3
	Z := make([][]float64, T)
	level, rows := make([]float64, T), make([]float64, T)
	for i := range T {
		Z[i] = make([]float64, q)
		for j := range q {
			Z[i][j] = rng.NormFloat64()
		}
		level[i], rows[i] = rng.NormFloat64(), float64(1+rng.IntN(9))
	}
	// fit solves the normal equations of α + z·γ on the tasks keep.
	fit := func(keep func(int) bool, ridge float64) *mat.VecDense {
		A := mat.NewDense(q+1, q+1, nil)
		c := mat.NewVecDense(q+1, nil)
		for k := range T {
			if !keep(k) {
				continue
			}
			z := mat.NewVecDense(q+1, append([]float64{1}, Z[k]...))
			var zz mat.Dense
			zz.Outer(rows[k], z, z)
			A.Add(A, &zz)
			c.AddScaledVec(c, rows[k]*level[k], z)
		}
		for j := 1; j <= q; j++ {
			A.Set(j, j, A.At(j, j)+ridge)
		}
		var coef mat.VecDense
		if err := coef.SolveVec(A, c); err != nil {
			t.Fatal(err)
		}
		return &coef
	}
	all, some := make([]bool, T), make([]bool, T)
	for i := range T {
		all[i], some[i] = true, i%4 != 1
	}
	for _, in := range [][]bool{all, some} {
		rp := newRidgePath(Z, level, rows, in)
		for _, ridge := range []float64{1e-3, 1, 50} {
			whole := fit(func(k int) bool { return in[k] }, ridge)
			for j, v := range rp.coef(ridge) {
				if math.Abs(v-whole.AtVec(j)) > 1e-10*(1+math.Abs(v)) {
					t.Errorf("ridge %g: coefficient %d is %v, the normal equations' %v", ridge, j, v, whole.AtVec(j))
				}
			}
			var want float64
			for i := range T {
				if !in[i] {
					continue
				}
				coef := fit(func(k int) bool { return in[k] && k != i }, ridge)
				e := level[i] - mat.Dot(mat.NewVecDense(q+1, append([]float64{1}, Z[i]...)), coef)
				want += rows[i] * e * e
			}
			if got := rp.loo(level, rows, ridge); math.Abs(got-want) > 1e-10*(1+want) {
				t.Errorf("ridge %g: left-out loss %v, refitted %v", ridge, got, want)
			}
		}
	}
}

// betweenCSV writes T tasks whose feature x varies within each task around
// the task's own average a_t, and whose level is slope·a_t + u_t (u_t
// independent noise): y = x + slope·a_t + u_t + ε. A column z constant
// within each task stands for a task-level covariate.
func betweenCSV(T int, slope float64, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 9))
	var b strings.Builder
	b.WriteString("g,y,x,z\n")
	for t := range T {
		a := 2 * rng.NormFloat64()
		u := 0.3 * rng.NormFloat64()
		z := rng.NormFloat64()
		for range 3 + rng.IntN(8) {
			x := a + rng.NormFloat64()
			fmt.Fprintf(&b, "g%d,%.6f,%.6f,%.6f\n", t, x+slope*a+u+0.2*rng.NormFloat64(), x, z)
		}
	}
	return b.String()
}

// TestBetweenReadsTheTasksAverages: on tasks whose level follows their
// average x, MMTL's model file reads a new task's level from its rows'
// average x (a new task whose rows average 3 is predicted about 3·slope
// higher than the shared predictor alone would), and not from z, which is
// constant within every task; on tasks whose level does not follow it, the
// model has none and predicts as before; a classifier has none.
func TestBetweenReadsTheTasksAverages(t *testing.T) {
	opt := LoadOptions{Name: "train.csv", TaskColumn: "g", LabelColumn: "y"}
	cfg := mtl.Config{Model: "mmtl-joint", Rho: 1, Intercept: 1}
	m := trainModel(t, betweenCSV(60, 2, 1), opt, cfg)
	b := m.Between
	if b == nil {
		t.Fatal("no reading of a new task's averages where the tasks' levels follow them")
	}
	if len(b.Names) != 1 || b.Names[0] != "x" || !(b.LeftOut < b.Without/2) {
		t.Errorf("between reads %v, a left-out task's level off by %.3g against %.3g without", b.Names, b.LeftOut, b.Without)
	}
	rows := "g,x,z\nnew,2,0\nnew,4,0\ng0,3,0\n"
	p, err := Predict(m, []byte(rows), "new.csv")
	if err != nil {
		t.Fatal(err)
	}
	alone := copyModel(t, m)
	alone.Between = nil
	q, err := Predict(alone, []byte(rows), "new.csv")
	if err != nil {
		t.Fatal(err)
	}
	// The new task's rows are y = x + 2·3 + u, 9 on average give or take
	// its level's noise (0.3); the shared predictor alone misses that by
	// more than 2. Its level moves, not its slope (the shared one, which
	// shrunk intercepts leave between the within slope 1 and the between
	// one 3); the known task's prediction does not move.
	mean, was := (p.Values[0]+p.Values[1])/2, (q.Values[0]+q.Values[1])/2
	if math.Abs(mean-9) > 0.75 || math.Abs(was-9) < 2 || math.Abs((p.Values[1]-p.Values[0])-(q.Values[1]-q.Values[0])) > 1e-9 {
		t.Errorf("the new task's rows are predicted %v and %v, want 9 on average (without the averages: %v and %v)", p.Values[0], p.Values[1], q.Values[0], q.Values[1])
	}
	if p.Values[2] != q.Values[2] {
		t.Errorf("the known task's prediction moved: %v, was %v", p.Values[2], q.Values[2])
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "predicted with the shared mean predictor and the tasks' mean intercept, moved by the averages of its rows' x (fitted on the 60 training tasks' levels; on tasks the fit did not see, a level is off by") {
		t.Errorf("warnings %q", p.Warnings)
	}
	// A new task whose average lies far from the training tasks' is
	// predicted, and said to be extrapolated.
	far, err := Predict(m, []byte("g,x,z\nfar,40,0\nfar,42,0\nnear,3,0\n"), "far.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(far.Warnings) != 1 || !strings.Contains(far.Warnings[0], "; the averages of 1 new task lie more than 4 standard deviations of the training tasks' averages from theirs") ||
		!strings.Contains(far.Warnings[0], `: "far" (x, `) || strings.Contains(far.Warnings[0], `"near" (x`) {
		t.Errorf("warnings %q", far.Warnings)
	}
	// The reading survives the model file.
	if c := copyModel(t, m); c.Between == nil || c.Between.Weights[0] != b.Weights[0] {
		t.Errorf("the model file's copy reads %+v", c.Between)
	}

	if m := trainModel(t, betweenCSV(60, 0, 2), opt, cfg); m.Between != nil {
		t.Errorf("levels that do not follow the averages: the model reads them (%+v)", *m.Between)
	}
	if m := trainModel(t, betweenCSV(8, 2, 3), opt, cfg); m.Between != nil {
		t.Errorf("8 tasks: the model reads their averages (%+v), want none under %d tasks", *m.Between, betweenMinTasks)
	}
}

// noiseCSV writes T tasks whose level does not follow their averages
// (y = x + u: the within and between slopes of x are both 1), with k more
// columns that vary within each task around a task's own average and
// have nothing to do with y.
func noiseCSV(T, k int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 9))
	var b strings.Builder
	b.WriteString("g,y,x")
	for j := range k {
		fmt.Fprintf(&b, ",n%d", j)
	}
	b.WriteString("\n")
	for t := range T {
		a, u := 2*rng.NormFloat64(), 0.3*rng.NormFloat64()
		mu := make([]float64, k)
		for j := range mu {
			mu[j] = rng.NormFloat64()
		}
		for range 3 + rng.IntN(8) {
			x := a + rng.NormFloat64()
			fmt.Fprintf(&b, "g%d,%.6f,%.6f", t, x+u+0.2*rng.NormFloat64(), x)
			for j := range mu {
				fmt.Fprintf(&b, ",%.4f", mu[j]+rng.NormFloat64())
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// TestBetweenIgnoresNoiseAverages: twelve tasks with eight averages that
// say nothing of their levels. Scored by the chosen ridge's own left-out
// errors, these three draws kept a fit (40 new tasks predicted 3.1, 1.7
// and 2.1 times worse than without it); scored on folds of tasks
// the whole choice never saw, none is kept (§16).
func TestBetweenIgnoresNoiseAverages(t *testing.T) {
	opt := LoadOptions{Name: "train.csv", TaskColumn: "g", LabelColumn: "y"}
	for _, seed := range []uint64{309, 311, 336} {
		if m := trainModel(t, noiseCSV(12, 8, seed), opt, mtl.Config{Model: "mmtl-joint", Rho: 1, Intercept: 1}); m.Between != nil {
			t.Errorf("seed %d: the model reads %v, which say nothing of the levels", seed, m.Between.Names)
		}
	}
}

// TestBetweenCheck: a model file whose reading of the averages is damaged
// is refused, naming what is wrong.
func TestBetweenCheck(t *testing.T) {
	opt := LoadOptions{Name: "train.csv", TaskColumn: "g", LabelColumn: "y"}
	m := trainModel(t, betweenCSV(60, 2, 1), opt, mtl.Config{Model: "mmtl-joint", Rho: 1, Intercept: 1})
	if m.Between == nil {
		t.Fatal("no reading of the averages to damage")
	}
	for _, tc := range []struct {
		name string
		edit func(b *Between)
		want string
	}{
		{"a weight short", func(b *Between) { b.Weights = nil }, "between: 1 features, 1 names, 1 centres, 1 scales and 0 weights"},
		{"a feature out of range", func(b *Between) { b.Features[0] = 9 }, "between: feature 9, want 0 to 1"},
		{"a zero scale", func(b *Between) { b.Scale[0] = 0 }, "between: x's centre, scale and weight are"},
		{"an infinite weight", func(b *Between) { b.Weights[0] = math.Inf(1) }, "and +Inf, want finite numbers"},
		{"a NaN intercept", func(b *Between) { b.Intercept = math.NaN() }, "between.intercept"},
	} {
		c := copyModel(t, m)
		tc.edit(c.Between)
		if err := c.Check("m.json"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	c := copyModel(t, m)
	c.Kind, c.Positive, c.Negative = "classification", "1", "0"
	if err := c.Check("m.json"); err == nil || !strings.Contains(err.Error(), "between: a classification model has none") {
		t.Errorf("a classifier with a reading of the averages: %v", err)
	}
}

// TestNewTaskScoreSaysWhenAConstantDoesBetter: a model whose predictor for
// new tasks scores its own training rows worse than their mean label says
// so when it predicts a new task (and in its notes), and one that scores
// them better says nothing; known tasks alone take no such word.
func TestNewTaskScoreSaysWhenAConstantDoesBetter(t *testing.T) {
	d, err := Load([]byte("g,y,x\na,1,0\na,2,1\nb,5,0\nb,6,1\nc,3,0\nc,4,1\n"), LoadOptions{Name: "train.csv", TaskColumn: "g", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		slope float64 // the shared predictor's weight on x (standardized)
		worse bool
	}{{"a slope near the tasks'", 0.5, false}, {"a wild slope", 40, true}} {
		t.Run(tc.name, func(t *testing.T) {
			m := &ModelFile{Format: ModelFormat, Version: ModelVersion, Method: "mmtl-joint", Name: "MMTL", Kind: "regression", Encoding: d.Encoding,
				Tasks: []string{"a", "b", "c"}, W: [][]float64{{0.5}, {0.5}, {0.5}}, B: []float64{1, 5, 3}, Theta: &mtl.Theta{Kind: "mmtl", Mean: []float64{tc.slope}}}
			shared, _ := m.NewTaskPredictor()
			m.NewTaskScore = newTaskScore(d.All, shared, nil, false)
			if m.NewTaskScore == nil || m.NewTaskScore.Metric != "rmse" || (m.NewTaskScore.Shared > m.NewTaskScore.Constant) != tc.worse {
				t.Fatalf("new-task score %+v", m.NewTaskScore)
			}
			const said = "on the rows it was trained on, the predictor for a new task scores RMSE"
			p, err := Predict(m, []byte("g,x\nnew,0\nnew,1\n"), "new.csv")
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.ContainsFunc(p.Warnings, func(w string) bool { return strings.HasPrefix(w, said) }); got != tc.worse {
				t.Errorf("warnings %q", p.Warnings)
			}
			if got := strings.Contains(m.NewTasksNote(), "worse than their mean label would"); got != tc.worse {
				t.Errorf("the model's note %q", m.NewTasksNote())
			}
			known, err := Predict(m, []byte("g,x\na,0\n"), "known.csv")
			if err != nil || len(known.Warnings) != 0 {
				t.Errorf("known tasks only: %v, warnings %q", err, known.Warnings)
			}
		})
	}
	// A trained model's score survives its file, and a damaged one is
	// refused.
	m := trainModel(t, betweenCSV(60, 2, 1), LoadOptions{Name: "train.csv", TaskColumn: "g", LabelColumn: "y"}, mtl.Config{Model: "mmtl-joint", Rho: 1, Intercept: 1})
	c := copyModel(t, m)
	if c.NewTaskScore == nil || *c.NewTaskScore != *m.NewTaskScore || c.Check("m.json") != nil {
		t.Fatalf("the trained model's new-task score %+v, its copy's %+v", m.NewTaskScore, c.NewTaskScore)
	}
	c.NewTaskScore.Metric = "auc"
	if err := c.Check("m.json"); err == nil || !strings.Contains(err.Error(), "newTaskScore: auc") {
		t.Errorf("a damaged new-task score: %v", err)
	}
}

// TestPredictOneRowHasNoConstant: a file of one labelled row is scored,
// but not against one value for every row, which would be its own label.
func TestPredictOneRowHasNoConstant(t *testing.T) {
	m := trainModel(t, betweenCSV(12, 0, 4), LoadOptions{Name: "train.csv", TaskColumn: "g", LabelColumn: "y"}, mtl.Config{Model: "mmtl-joint", Rho: 1, Intercept: 1})
	for _, tc := range []struct {
		rows     string
		constant bool
	}{{"g0,3,1,0\n", false}, {"g0,3,1,0\ng1,2,0,0\n", true}} {
		p, err := Predict(m, []byte("g,y,x,z\n"+tc.rows), "one.csv")
		if err != nil {
			t.Fatal(err)
		}
		if p.Score == nil || strings.Contains(p.Score.Text, "would score") != tc.constant || math.IsNaN(p.Score.Constant) == tc.constant {
			t.Errorf("%q: score %+v", tc.rows, p.Score)
		}
	}
}
