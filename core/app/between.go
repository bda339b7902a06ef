package app

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/internal/linalg"
	"github.com/spmtl/spmtl/core/internal/words"
	"github.com/spmtl/spmtl/core/mtl"
)

// Between is a new task's level read from the averages of its rows
// (docs/algorithms.md §16): a task the model was not trained on is
// predicted with the shared predictor, and its intercept is moved by
// Intercept + Σ_j Weights_j (m_j − Center_j)/Scale_j, where m_j is the mean
// of feature Features[j] over the task's rows in the file predicted. It is
// fitted on the training tasks' levels (each task's mean residual of the
// shared predictor) against their own averages, and kept only when, fitted
// on folds of the tasks, it predicts the levels of the tasks each fold left
// out better than the shared predictor alone. A regression model with a
// shared predictor may have one; nil otherwise.
type Between struct {
	// Features are the numeric features (their indices among the model's)
	// whose task averages it reads: those that vary within a training task.
	Features []int `json:"features"`
	// Names are their columns' names.
	Names []string `json:"names"`
	// Center and Scale standardize the averages: their mean and standard
	// deviation over the training tasks.
	Center []float64 `json:"center"`
	Scale  []float64 `json:"scale"`
	// Intercept and Weights are the fit of the levels on the standardized
	// averages; Ridge its penalty on the weights.
	Intercept float64   `json:"intercept"`
	Weights   []float64 `json:"weights"`
	Ridge     float64   `json:"ridge"`
	// Tasks is how many training tasks it was fitted on; LeftOut and
	// Without are the root mean squared error of the level of a task it
	// did not see (weighted by its rows; its folds' fits, each with the
	// ridge its other tasks chose) with it and with the shared predictor
	// alone.
	Tasks   int     `json:"tasks"`
	LeftOut float64 `json:"leftOut"`
	Without float64 `json:"without"`
}

// betweenMinTasks is the fewest training tasks a relation between the
// tasks' levels and their averages is fitted on: with fewer, leaving one
// out says little (§16).
const betweenMinTasks = 10

// betweenFolds is how many folds of the training tasks score the fit
// with its choice of ridge (§16).
const betweenFolds = 10

// betweenRidges are the penalties tried, in units of the training rows'
// count: from a nearly free fit to nearly none (§16).
var betweenRidges = []float64{1e-4, 3.16e-4, 1e-3, 3.16e-3, 1e-2, 3.16e-2, 0.1, 0.316, 1, 3.16, 10, 31.6, 100}

// fitBetween fits a new task's level from its rows' averages (Between) on
// ds, a model's dense regression training rows read with enc, for the
// shared predictor (w0, b0); nil when no numeric feature varies within a
// task, there are fewer than betweenMinTasks tasks, or it predicts the
// levels of tasks it did not see no better than the shared predictor.
func fitBetween(ds *data.Dataset, enc *data.Encoding, w0 []float64, b0 float64) *Between {
	if ds == nil || enc == nil || ds.Sparse() || ds.Kind != data.Regression || len(w0) != ds.Features {
		return nil
	}
	bt := &Between{}
	numeric, names := enc.Numeric()
	varies := data.VaryWithin(ds)
	for k, j := range numeric {
		if j < ds.Features && varies[j] {
			bt.Features, bt.Names = append(bt.Features, j), append(bt.Names, names[k])
		}
	}
	p := len(bt.Features)
	// Each task's level (its mean residual of the shared predictor), its
	// rows, and its averages z.
	var level, rows []float64
	var Z [][]float64
	for i := range ds.Tasks {
		tk := &ds.Tasks[i]
		n := tk.Rows()
		if n == 0 || p == 0 {
			continue
		}
		var r float64
		for k := range n {
			r += tk.Y[k] - tk.Dot(k, w0) - b0
		}
		level, rows = append(level, r/float64(n)), append(rows, float64(n))
		Z = append(Z, taskMeans(tk, bt.Features))
	}
	T := len(level)
	if T < betweenMinTasks {
		return nil
	}
	// The averages standardized over the tasks; one that is the same for
	// every task tells nothing apart and is dropped.
	bt.Tasks = T
	col := make([]float64, T)
	q := 0
	for j := range p {
		for t := range T {
			col[t] = Z[t][j]
		}
		m, sd := stat.MeanStdDev(col, nil)
		if !(sd > 1e-12*(1+math.Abs(m))) {
			continue
		}
		for t := range T {
			Z[t][q] = (col[t] - m) / sd
		}
		bt.Features[q], bt.Names[q] = bt.Features[j], bt.Names[j]
		bt.Center, bt.Scale = append(bt.Center, m), append(bt.Scale, sd)
		q++
	}
	if q == 0 {
		return nil
	}
	bt.Features, bt.Names = bt.Features[:q], bt.Names[:q]
	for t := range T {
		Z[t] = Z[t][:q]
	}
	var N, without float64
	for t := range T {
		N += rows[t]
		without += rows[t] * level[t] * level[t]
	}
	in := make([]bool, T)
	for t := range in {
		in[t] = true
	}
	best, coef := chooseRidge(Z, level, rows, in)
	if best < 0 {
		return nil
	}
	// The whole procedure (the ridge chosen by leaving tasks out, then the
	// fit) is scored on tasks it never saw: betweenFolds folds of the
	// tasks, each predicted by the fit on the others with the ridge those
	// others choose. A score of the chosen ridge's own left-out errors
	// would leave out the choice among 13, which on a dozen tasks with
	// several averages kept fits that predicted new tasks 3 times worse.
	var outer float64
	folds := min(T, betweenFolds)
	for f := range folds {
		for t := range in {
			in[t] = t%folds != f
		}
		b, c := chooseRidge(Z, level, rows, in)
		if b < 0 {
			return nil
		}
		for t := f; t < T; t += folds {
			e := level[t] - c[0] - linalg.Dot(Z[t], c[1:])
			outer += rows[t] * e * e
		}
	}
	// Kept when a task it never saw has its level predicted better than
	// by the shared predictor alone (§16).
	if !(outer < without) {
		return nil
	}
	bt.Intercept, bt.Weights, bt.Ridge = coef[0], coef[1:], betweenRidges[best]*N
	bt.LeftOut, bt.Without = math.Sqrt(outer/N), math.Sqrt(without/N)
	return bt
}

// chooseRidge fits level ≈ α + Z·γ on the tasks in with each of
// betweenRidges (times their rows) and returns the one whose tasks, each
// left out in turn, are predicted best, and its coefficients (α, γ...);
// -1 when none can be fitted.
func chooseRidge(Z [][]float64, level, rows []float64, in []bool) (best int, coef []float64) {
	rp := newRidgePath(Z, level, rows, in)
	best, bestLoss := -1, math.Inf(1)
	for i, ridge := range betweenRidges {
		if loss := rp.loo(level, rows, ridge*rp.n); loss < bestLoss {
			best, bestLoss = i, loss
		}
	}
	if best < 0 {
		return -1, nil
	}
	return best, rp.coef(betweenRidges[best] * rp.n)
}

// ridgePath is what the weighted ridge fits of level ≈ α + Z·γ on the
// tasks in (weights rows, penalty on γ only) share whatever the ridge: the
// weighted means of the averages and levels (the unpenalized α takes
// them), and the centred averages' weighted Gram matrix G = UΛUᵀ in its
// eigenbasis. Then a ridge's fit, each task's leverage and its left-out
// error cost O(q) per task instead of a q×q factorization and solves:
// with z̃ = Uᵀ(z − z̄), a fitted level is r̄ + Σ_k z̃_k a_k/(Λ_k + λ)
// (a = Uᵀg) and a leverage n_t (1/n + Σ_k z̃_k²/(Λ_k + λ)).
type ridgePath struct {
	n    float64   // the rows of the tasks in
	zbar []float64 // the averages' weighted means
	rbar float64   // the levels' weighted mean
	vals []float64 // Λ
	vecs []float64 // U, q×q row-major, eigenvectors as columns
	proj [][]float64
	a    []float64
	in   []bool
}

// newRidgePath prepares the fits on the tasks in (every task's projection
// is kept, for the tasks left out too).
func newRidgePath(Z [][]float64, level, rows []float64, in []bool) *ridgePath {
	q := len(Z[0])
	rp := &ridgePath{zbar: make([]float64, q), in: in, a: make([]float64, q)}
	for t, z := range Z {
		if in[t] {
			rp.n += rows[t]
			rp.rbar += rows[t] * level[t]
			linalg.Axpy(rp.zbar, rows[t], z)
		}
	}
	rp.rbar /= rp.n
	for j := range rp.zbar {
		rp.zbar[j] /= rp.n
	}
	G := make([]float64, q*q)
	g := make([]float64, q)
	c := make([]float64, q)
	for t, z := range Z {
		if !in[t] {
			continue
		}
		for j := range c {
			c[j] = z[j] - rp.zbar[j]
		}
		for a := range q {
			g[a] += rows[t] * c[a] * (level[t] - rp.rbar)
			for b := a; b < q; b++ {
				G[a*q+b] += rows[t] * c[a] * c[b]
			}
		}
	}
	rp.vals, rp.vecs = linalg.SymEigen(G, q)
	for k := range rp.vals {
		rp.vals[k] = max(rp.vals[k], 0) // rounding below a zero eigenvalue
	}
	rp.proj = make([][]float64, len(Z))
	for t, z := range Z {
		for j := range c {
			c[j] = z[j] - rp.zbar[j]
		}
		rp.proj[t] = make([]float64, q)
		for j, cj := range c {
			linalg.Axpy(rp.proj[t], cj, rp.vecs[j*q:(j+1)*q]) // z̃ = Uᵀc, by U's rows
		}
	}
	for j, gj := range g {
		linalg.Axpy(rp.a, gj, rp.vecs[j*q:(j+1)*q])
	}
	return rp
}

// loo returns the tasks' weighted squared errors, summed, when each task
// in is left out of the fit at ridge (e/(1 − h), exact for a weighted
// ridge); +Inf when a task's leverage leaves it nothing to be predicted
// from.
func (rp *ridgePath) loo(level, rows []float64, ridge float64) float64 {
	var loss float64
	for t, zt := range rp.proj {
		if !rp.in[t] {
			continue
		}
		fit, lev := rp.rbar, 1/rp.n
		for k, v := range zt {
			d := rp.vals[k] + ridge
			fit += v * rp.a[k] / d
			lev += v * v / d
		}
		lev *= rows[t]
		if !(lev < 1-1e-9) {
			return math.Inf(1)
		}
		e := (level[t] - fit) / (1 - lev)
		loss += rows[t] * e * e
	}
	return loss
}

// coef returns the fit at ridge as (α, γ...), for level ≈ α + z·γ.
func (rp *ridgePath) coef(ridge float64) []float64 {
	q := len(rp.a)
	coef := make([]float64, q+1)
	for k := range q {
		// γ = U diag(1/(Λ + λ)) a, by U's rows
		s := rp.a[k] / (rp.vals[k] + ridge)
		for j := range q {
			coef[1+j] += rp.vecs[j*q+k] * s
		}
	}
	coef[0] = rp.rbar - linalg.Dot(rp.zbar, coef[1:])
	return coef
}

// adjust returns how much the level of a new task with rows tk moves
// (Intercept + Weights·z, z its standardized averages), and the largest
// |z| with its average's index: how far out of the training tasks' range
// that move extrapolates.
func (b *Between) adjust(tk *data.Task) (v, far float64, at int) {
	m := taskMeans(tk, b.Features)
	v = b.Intercept
	for j, w := range b.Weights {
		z := (m[j] - b.Center[j]) / b.Scale[j]
		v += w * z
		if math.Abs(z) > far {
			far, at = math.Abs(z), j
		}
	}
	return v, far, at
}

// betweenFar is how many standard deviations of the training tasks'
// averages a new task's may lie from theirs before predict says its level
// is extrapolated (§16).
const betweenFar = 4

// describe says how the model moves a new task's intercept, for
// predict's, inspect's and a saved model's words.
func (b *Between) describe() string {
	return fmt.Sprintf("moved by the averages of its rows' %s (fitted on the %d training tasks' levels; on tasks the fit did not see, a level is off by %s with them against %s without)",
		words.List(b.Names), b.Tasks, digits(b.LeftOut, 3), digits(b.Without, 3))
}

// NewTaskScore is how the predictor of a task the model was not trained
// on (NewTaskPredictor, moved by Between's reading of the task's own
// averages when the model has one) scores the training rows themselves,
// beside one value for every row (the mean label, the positive class's
// share): a predictor that places the training tasks worse than a
// constant does is not one to trust on new tasks (§16).
type NewTaskScore struct {
	Metric   eval.Metric `json:"metric"`
	Shared   float64     `json:"shared"`
	Constant float64     `json:"constant"`
}

// newTaskScore scores the new-task predictor (shared, moved by b) on ds,
// the model's training rows; nil when either score is undefined.
func newTaskScore(ds *data.Dataset, shared *mtl.Model, b *Between, logistic bool) *NewTaskScore {
	var held eval.Held
	for i := range ds.Tasks {
		tk := &ds.Tasks[i]
		level := shared.B[0]
		if b != nil {
			adj, _, _ := b.adjust(tk)
			level += adj
		}
		for k := range tk.Rows() {
			held.Margin, held.Y = append(held.Margin, tk.Dot(k, shared.W[0])+level), append(held.Y, tk.Y[k])
		}
	}
	if len(held.Y) == 0 {
		return nil
	}
	s := eval.Pooled(ds.Kind, logistic, held.Margin, held.Y)
	v, c := s.Of(s.Metric).Value, constantScore(ds.Kind, logistic, s.Metric, held.Y)
	if math.IsNaN(v) || math.IsInf(v, 0) || math.IsNaN(c) {
		return nil
	}
	return &NewTaskScore{Metric: s.Metric, Shared: v, Constant: c}
}

// check refuses a damaged NewTaskScore.
func (s *NewTaskScore) check() error {
	switch {
	case s.Metric != eval.RMSEMetric && s.Metric != eval.LogLossMetric && s.Metric != eval.BrierMetric:
		return fmt.Errorf("newTaskScore: %s is not a metric of rows, want rmse, logloss or brier", s.Metric)
	case !(s.Shared >= 0) || !(s.Constant >= 0) || math.IsInf(s.Shared+s.Constant, 0):
		return fmt.Errorf("newTaskScore: %s %v against %v, want two finite numbers, 0 or more", s.Metric, s.Shared, s.Constant)
	}
	return nil
}

// worse says, when the new-task predictor scores its own training rows
// worse than a constant, so and what to do; "" otherwise.
func (s *NewTaskScore) worse(kind string) string {
	if s == nil || !(s.Shared > s.Constant) {
		return ""
	}
	constant := "their mean label"
	if kind == data.Classification.String() {
		constant = "their share of the positive class as every row's probability"
	}
	return fmt.Sprintf("on the rows it was trained on, the predictor for a new task scores %s %s, worse than %s would (%s): its predictions for new tasks may be worse than one value for all; a model whose tasks share more (a larger rho in tune's table) may place a new task better",
		s.Metric.Name(), digits(s.Shared, 4), constant, digits(s.Constant, 4))
}

// NewTasksNote says, in sentences, how the model predicts a task it was
// not trained on when it reads the task's averages (Between), and when that
// predictor scores its own training rows worse than a constant
// (NewTaskScore), for inspect and the lines a saved model's command
// prints; "" when there is nothing of either to say.
func (m *ModelFile) NewTasksNote() string {
	var out []string
	if m.Between != nil {
		_, from := m.NewTaskPredictor()
		out = append(out, "A task the model was not trained on is predicted with "+from+", "+m.Between.describe()+".")
	}
	if w := m.NewTaskScore.worse(m.Kind); w != "" {
		out = append(out, strings.ToUpper(w[:1])+w[1:]+".")
	}
	return strings.Join(out, " ")
}

// check refuses a damaged Between of a model with features features.
func (b *Between) check(features int) error {
	n := len(b.Features)
	if n == 0 || len(b.Names) != n || len(b.Center) != n || len(b.Scale) != n || len(b.Weights) != n {
		return fmt.Errorf("between: %d features, %d names, %d centres, %d scales and %d weights, want as many of each (at least one)", n, len(b.Names), len(b.Center), len(b.Scale), len(b.Weights))
	}
	for k, j := range b.Features {
		switch {
		case j < 0 || j >= features:
			return fmt.Errorf("between: feature %d, want 0 to %d", j, features-1)
		case !(b.Scale[k] > 0) || math.IsInf(b.Scale[k], 0) || math.IsNaN(b.Center[k]+b.Weights[k]) || math.IsInf(b.Center[k]+b.Weights[k], 0):
			return fmt.Errorf("between: %s's centre, scale and weight are %v, %v and %v, want finite numbers and a scale above 0", b.Names[k], b.Center[k], b.Scale[k], b.Weights[k])
		}
	}
	return finite("between.intercept", []float64{b.Intercept})
}

// taskMeans returns the means of the features feats over tk's rows.
func taskMeans(tk *data.Task, feats []int) []float64 {
	m := make([]float64, len(feats))
	n := tk.Rows()
	for k := range n {
		row := tk.X.RawRowView(k)
		for j, f := range feats {
			m[j] += row[f]
		}
	}
	for j := range m {
		m[j] /= float64(max(n, 1))
	}
	return m
}
