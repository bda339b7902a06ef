package app

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/internal/linalg"
	"github.com/spmtl/spmtl/core/internal/words"
)

// Between is a new task's level read from the averages of its rows
// (docs/algorithms.md §16): a task the model was not trained on is
// predicted with the shared predictor, and its intercept is moved by
// Intercept + Σ_j Weights_j (m_j − Center_j)/Scale_j, where m_j is the mean
// of feature Features[j] over the task's rows in the file predicted. It is
// fitted on the training tasks' levels (each task's mean residual of the
// shared predictor) against their own averages, and kept only when leaving
// each training task out says it predicts a left-out task's level better
// than the shared predictor alone. A regression model with a shared
// predictor may have one; nil otherwise.
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
	for k, j := range numeric {
		if j < ds.Features && variesWithin(ds, j) {
			bt.Features, bt.Names = append(bt.Features, j), append(bt.Names, names[k])
		}
	}
	p := len(bt.Features) + 1
	// Each task's level (its mean residual of the shared predictor), its
	// rows, and z = (1, its averages).
	var level, rows []float64
	var Z [][]float64
	for i := range ds.Tasks {
		tk := &ds.Tasks[i]
		n := tk.Rows()
		if n == 0 || p == 1 {
			continue
		}
		var r float64
		for k := range n {
			r += tk.Y[k] - tk.Dot(k, w0) - b0
		}
		level, rows = append(level, r/float64(n)), append(rows, float64(n))
		Z = append(Z, append([]float64{1}, taskMeans(tk, bt.Features)...))
	}
	T := len(level)
	if T < betweenMinTasks {
		return nil
	}
	// The averages standardized over the tasks; one that is the same for
	// every task tells nothing apart and is dropped.
	bt.Tasks = T
	col := make([]float64, T)
	q := 1
	for j := 1; j < p; j++ {
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
		bt.Features[q-1], bt.Names[q-1] = bt.Features[j-1], bt.Names[j-1]
		bt.Center, bt.Scale = append(bt.Center, m), append(bt.Scale, sd)
		q++
	}
	if q == 1 {
		return nil
	}
	bt.Features, bt.Names = bt.Features[:q-1], bt.Names[:q-1]
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
		for t := f; t < T; t += folds {
			if b < 0 {
				return nil
			}
			e := level[t] - linalg.Dot(Z[t], c)
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

// chooseRidge fits level ≈ Z·coef on the tasks in with each of
// betweenRidges (times their rows) and returns the one whose tasks, each
// left out in turn, are predicted best, and its coefficients; -1 when
// none can be fitted.
func chooseRidge(Z [][]float64, level, rows []float64, in []bool) (best int, coef []float64) {
	var n float64
	for t, ok := range in {
		if ok {
			n += rows[t]
		}
	}
	best, bestLoss := -1, math.Inf(1)
	for i, ridge := range betweenRidges {
		c, loss, ok := leaveOneOut(Z, level, rows, in, ridge*n)
		if ok && loss < bestLoss {
			best, bestLoss, coef = i, loss, c
		}
	}
	return best, coef
}

// leaveOneOut fits level ≈ Z·coef on the tasks in by ridge (penalty
// ridge on every coefficient but the first; weights rows) and returns the
// coefficients and the tasks' weighted squared errors summed when each is
// left out of the fit, from the fit on them all (e/(1 − h), exact for a
// weighted ridge); ok is false when a task's leverage leaves it nothing to
// be predicted from. The systems are (averages + 1)² and solved with
// core/internal/linalg, which the solvers link already: gonum's Cholesky
// would add its LAPACK routines to the page's learner (80 KB gzipped,
// measured).
func leaveOneOut(Z [][]float64, level, rows []float64, in []bool, ridge float64) (coef []float64, loss float64, ok bool) {
	p := len(Z[0])
	A := make([]float64, p*p)
	coef = make([]float64, p)
	for t, z := range Z {
		if !in[t] {
			continue
		}
		for a := range p {
			coef[a] += rows[t] * z[a] * level[t]
			for b := 0; b <= a; b++ {
				A[a*p+b] += rows[t] * z[a] * z[b]
			}
		}
	}
	for a := 1; a < p; a++ {
		A[a*p+a] += ridge
	}
	if !linalg.Cholesky(A, p) {
		return nil, 0, false
	}
	linalg.CholSolve(A, p, coef)
	y := make([]float64, p)
	for t, z := range Z {
		if !in[t] {
			continue
		}
		copy(y, z)
		lev := rows[t] * linalg.LowerNormSq(A, p, y)
		if !(lev < 1-1e-9) {
			return nil, 0, false
		}
		e := (level[t] - linalg.Dot(z, coef)) / (1 - lev)
		loss += rows[t] * e * e
	}
	return coef, loss, true
}

// adjust returns how much the level of a new task with rows tk moves
// (Intercept + Weights·z, z its standardized averages).
func (b *Between) adjust(tk *data.Task) float64 {
	m := taskMeans(tk, b.Features)
	v := b.Intercept
	for j, w := range b.Weights {
		v += w * (m[j] - b.Center[j]) / b.Scale[j]
	}
	return v
}

// describe says how the model moves a new task's intercept, for
// predict's, inspect's and a saved model's words.
func (b *Between) describe() string {
	return fmt.Sprintf("moved by the averages of its rows' %s (fitted on the %d training tasks' levels; on tasks the fit did not see, a level is off by %s with them against %s without)",
		words.List(b.Names), b.Tasks, digits(b.LeftOut, 3), digits(b.Without, 3))
}

// NewTasksNote says, in a sentence, how the model predicts a task it was
// not trained on when it reads the task's averages (Between), for inspect
// and the line a saved model's command prints; "" otherwise.
func (m *ModelFile) NewTasksNote() string {
	if m.Between == nil {
		return ""
	}
	_, from := m.NewTaskPredictor()
	return "A task the model was not trained on is predicted with " + from + ", " + m.Between.describe() + "."
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

// variesWithin reports whether feature j differs between two rows of one
// task of ds.
func variesWithin(ds *data.Dataset, j int) bool {
	for i := range ds.Tasks {
		tk := &ds.Tasks[i]
		for k := 1; k < tk.Rows(); k++ {
			if tk.X.RawRowView(k)[j] != tk.X.RawRowView(0)[j] {
				return true
			}
		}
	}
	return false
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
