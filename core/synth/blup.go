package synth

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/spmtl/spmtl/core/data"
	"gonum.org/v1/gonum/mat"
)

// Variances are the variance components of the linear mixed model of
// Grouped, taken as known by GLS and BLUP: the random effects of a group are
// (b_j, u_j) ~ N(0, G) with G = diag(Intercept, Slopes...), and the residual
// variance is Noise.
type Variances struct {
	Intercept float64   // σb², the variance of the random intercepts
	Slopes    []float64 // σu² of each feature's random slope; nil for none
	Noise     float64   // σ², the residual variance (must be positive)
}

// Variances returns the variance components r was drawn with. For binary
// data Noise is 0, and the result is not fit for GLS or BLUP.
func (r *GroupedResult) Variances() Variances {
	v := Variances{Intercept: r.SigmaB * r.SigmaB, Slopes: make([]float64, len(r.SigmaU)), Noise: r.Noise * r.Noise}
	for k, s := range r.SigmaU {
		v.Slopes[k] = s * s
	}
	return v
}

// g returns the diagonal of G for d features.
func (v Variances) g(d int) ([]float64, error) {
	if v.Slopes != nil && len(v.Slopes) != d {
		return nil, fmt.Errorf("%d slope variances for %d features", len(v.Slopes), d)
	}
	if !(v.Noise > 0) || math.IsInf(v.Noise, 0) {
		return nil, fmt.Errorf("residual variance %g: want a positive number", v.Noise)
	}
	g := make([]float64, d+1)
	g[0] = v.Intercept
	copy(g[1:], v.Slopes)
	for _, s := range g {
		if s < 0 || math.IsNaN(s) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("variance %g: want a finite number ≥ 0", s)
		}
	}
	return g, nil
}

// MixedFit is a fitted linear mixed model with the same design for the
// fixed and the random effects, Z = [1, x]: coefficients are the intercept
// followed by the d slopes. Group j predicts a row x as
// (1, x)ᵀ(Fixed + Random[j]).
type MixedFit struct {
	Fixed  []float64   // fixed effects (β0, β)
	Random [][]float64 // each task's predicted random effects (b̂_j, û_j)
}

// groupSys is what GLS and BLUP need of one group: Z_j = [1, X_j], its
// labels, and V_j⁻¹Z_j.
type groupSys struct {
	z, viz *mat.Dense
	y      *mat.VecDense
}

// systems builds each training task's V_j = Z_j G Z_jᵀ + σ²I, factors it
// (Cholesky) and solves for V_j⁻¹Z_j. A task without rows gets a nil z.
func systems(train *data.Dataset, v Variances) ([]groupSys, []float64, error) {
	if train.Sparse() {
		return nil, nil, errors.New("sparse data: want dense tasks")
	}
	g, err := v.g(train.Features)
	if err != nil {
		return nil, nil, err
	}
	p := train.Features + 1
	out := make([]groupSys, len(train.Tasks))
	for ti := range train.Tasks {
		t := &train.Tasks[ti]
		n := t.Rows()
		if n == 0 {
			continue
		}
		z := design(t)
		zg := mat.NewDense(n, p, nil) // Z_j G
		zg.Apply(func(_, k int, x float64) float64 { return x * g[k] }, z)
		vj := mat.NewSymDense(n, nil)
		for a := 0; a < n; a++ {
			for b := a; b < n; b++ {
				s := mat.Dot(zg.RowView(a), z.RowView(b))
				if a == b {
					s += v.Noise
				}
				vj.SetSym(a, b, s)
			}
		}
		var ch mat.Cholesky
		if !ch.Factorize(vj) {
			return nil, nil, fmt.Errorf("task %q: its covariance is not positive definite", t.Name)
		}
		var viz mat.Dense
		if err := ch.SolveTo(&viz, z); err != nil {
			return nil, nil, fmt.Errorf("task %q: %w", t.Name, err)
		}
		out[ti] = groupSys{z: z, viz: &viz, y: mat.NewVecDense(n, append([]float64(nil), t.Y...))}
	}
	return out, g, nil
}

// design returns [1, X] for the rows of t.
func design(t *data.Task) *mat.Dense {
	n, d := t.Rows(), 0
	if t.X != nil {
		_, d = t.X.Dims()
	}
	z := mat.NewDense(n, d+1, nil)
	for i := 0; i < n; i++ {
		row := z.RawRowView(i)
		row[0] = 1
		copy(row[1:], t.X.RawRowView(i))
	}
	return z
}

// GLSBLUP fits the linear mixed model of Grouped to train with the variance
// components v known: the fixed effects by generalized least squares over
// all groups,
//
//	β̂ = (Σ_j Z_jᵀV_j⁻¹Z_j)⁻¹ Σ_j Z_jᵀV_j⁻¹y_j,   V_j = Z_j G Z_jᵀ + σ²I,
//
// and each group's random effects by their best linear unbiased predictor
// given β̂ (see BLUP). A task without training rows predicts zero random
// effects.
func GLSBLUP(train *data.Dataset, v Variances) (*MixedFit, error) {
	sys, g, err := systems(train, v)
	if err != nil {
		return nil, fmt.Errorf("gls: %w", err)
	}
	p := train.Features + 1
	a := mat.NewSymDense(p, nil)
	c := mat.NewVecDense(p, nil)
	var rows int
	for _, s := range sys {
		if s.z == nil {
			continue
		}
		rows += s.z.RawMatrix().Rows
		var m mat.Dense
		m.Mul(s.z.T(), s.viz) // Z_jᵀV_j⁻¹Z_j, symmetric
		for i := 0; i < p; i++ {
			for k := i; k < p; k++ {
				a.SetSym(i, k, a.At(i, k)+(m.At(i, k)+m.At(k, i))/2)
			}
		}
		var cj mat.VecDense
		cj.MulVec(s.viz.T(), s.y) // (V_j⁻¹Z_j)ᵀy_j = Z_jᵀV_j⁻¹y_j
		c.AddVec(c, &cj)
	}
	if rows < p {
		return nil, fmt.Errorf("gls: %d training rows for %d fixed effects", rows, p)
	}
	var ch mat.Cholesky
	if !ch.Factorize(a) {
		return nil, errors.New("gls: the fixed effects are not identified (collinear features?)")
	}
	var beta mat.VecDense
	if err := ch.SolveVecTo(&beta, c); err != nil {
		return nil, fmt.Errorf("gls: %w", err)
	}
	fixed := append([]float64(nil), beta.RawVector().Data...)
	return &MixedFit{Fixed: fixed, Random: predictRandom(sys, g, fixed)}, nil
}

// BLUP returns the best linear unbiased predictors of each training task's
// random effects given the fixed effects fixed (intercept then slopes) and
// the variance components v,
//
//	(b̂_j, û_j) = G Z_jᵀ V_j⁻¹ (y_j − Z_j β),
//
// with the fixed effects carried into the MixedFit. With the true fixed
// effects this is the oracle of ReferenceRMSE.
func BLUP(train *data.Dataset, fixed []float64, v Variances) (*MixedFit, error) {
	if len(fixed) != train.Features+1 {
		return nil, fmt.Errorf("blup: %d fixed effects for %d features, want %d", len(fixed), train.Features, train.Features+1)
	}
	sys, g, err := systems(train, v)
	if err != nil {
		return nil, fmt.Errorf("blup: %w", err)
	}
	fixed = append([]float64(nil), fixed...)
	return &MixedFit{Fixed: fixed, Random: predictRandom(sys, g, fixed)}, nil
}

// predictRandom computes G (V_j⁻¹Z_j)ᵀ (y_j − Z_j β) for every group.
func predictRandom(sys []groupSys, g, fixed []float64) [][]float64 {
	beta := mat.NewVecDense(len(fixed), fixed)
	out := make([][]float64, len(sys))
	for j, s := range sys {
		out[j] = make([]float64, len(g))
		if s.z == nil {
			continue
		}
		var r mat.VecDense
		r.MulVec(s.z, beta)
		r.SubVec(s.y, &r)
		var u mat.VecDense
		u.MulVec(s.viz.T(), &r)
		for k := range out[j] {
			out[j][k] = g[k] * u.AtVec(k)
		}
	}
	return out
}

// Predict returns the predictions of every row of ds, per task: task j is
// predicted with the fixed effects plus the random effects of task j of the
// training set (ds's tasks in the same order, as Grouped makes them).
func (f *MixedFit) Predict(ds *data.Dataset) ([][]float64, error) {
	if len(ds.Tasks) != len(f.Random) {
		return nil, fmt.Errorf("predict: %d tasks, the fit has %d", len(ds.Tasks), len(f.Random))
	}
	out := make([][]float64, len(ds.Tasks))
	for j := range ds.Tasks {
		w := make([]float64, len(f.Fixed))
		for k := range w {
			w[k] = f.Fixed[k] + f.Random[j][k]
		}
		p, err := linear(w, &ds.Tasks[j], ds.Features)
		if err != nil {
			return nil, fmt.Errorf("predict: %w", err)
		}
		out[j] = p
	}
	return out, nil
}

// linear returns w[0] + xᵀw[1:] for every row of t.
func linear(w []float64, t *data.Task, d int) ([]float64, error) {
	if len(w) != d+1 {
		return nil, fmt.Errorf("%d coefficients for %d features, want %d", len(w), d, d+1)
	}
	out := make([]float64, t.Rows())
	for i := range out {
		out[i] = w[0] + t.Dot(i, w[1:])
	}
	return out, nil
}

// PredictPooled returns the predictions of one set of coefficients
// (intercept then slopes, as PooledOLS and PooledLogistic return them) for
// every row of ds, per task: linear scores w0 + xᵀw.
func PredictPooled(w []float64, ds *data.Dataset) ([][]float64, error) {
	out := make([][]float64, len(ds.Tasks))
	for j := range ds.Tasks {
		p, err := linear(w, &ds.Tasks[j], ds.Features)
		if err != nil {
			return nil, fmt.Errorf("predict: %w", err)
		}
		out[j] = p
	}
	return out, nil
}

// PooledOLS fits one least-squares regression with an intercept to the rows
// of every task of train, ignoring the groups. It returns the intercept
// followed by the d slopes.
func PooledOLS(train *data.Dataset) ([]float64, error) {
	p := train.Features + 1
	a := mat.NewSymDense(p, nil)
	c := make([]float64, p)
	rows := 0
	for ti := range train.Tasks {
		t := &train.Tasks[ti]
		if t.Rows() == 0 {
			continue
		}
		if t.X == nil {
			return nil, errors.New("pooled regression: sparse data: want dense tasks")
		}
		z := design(t)
		for i := 0; i < t.Rows(); i++ {
			row := z.RawRowView(i)
			for k := range row {
				c[k] += row[k] * t.Y[i]
				for l := k; l < p; l++ {
					a.SetSym(k, l, a.At(k, l)+row[k]*row[l])
				}
			}
			rows++
		}
	}
	if rows < p {
		return nil, fmt.Errorf("pooled regression: %d rows for %d coefficients", rows, p)
	}
	var ch mat.Cholesky
	if !ch.Factorize(a) {
		return nil, errors.New("pooled regression: the coefficients are not identified (collinear features?)")
	}
	var w mat.VecDense
	if err := ch.SolveVecTo(&w, mat.NewVecDense(p, c)); err != nil {
		return nil, fmt.Errorf("pooled regression: %w", err)
	}
	return append([]float64(nil), w.RawVector().Data...), nil
}

// PooledLogistic fits one logistic regression with an intercept (by
// Newton's method, unpenalized) to the rows of every task of a
// classification data set (labels ±1), ignoring the groups. It returns the
// intercept followed by the d slopes. It fails when the classes are
// separable, since the fit then has no finite optimum.
func PooledLogistic(train *data.Dataset) ([]float64, error) {
	p := train.Features + 1
	var zs []*mat.Dense
	var ys [][]float64
	for ti := range train.Tasks {
		t := &train.Tasks[ti]
		if t.Rows() == 0 {
			continue
		}
		if t.X == nil {
			return nil, errors.New("pooled logistic regression: sparse data: want dense tasks")
		}
		zs, ys = append(zs, design(t)), append(ys, t.Y)
	}
	w := make([]float64, p)
	for iter := 0; iter < 100; iter++ {
		h := mat.NewSymDense(p, nil)
		grad := make([]float64, p)
		for j, z := range zs {
			for i, y := range ys[j] {
				row := z.RawRowView(i)
				pr := logistic(dotVec(row, w))
				t := 0.0
				if y > 0 {
					t = 1
				}
				wt := pr * (1 - pr)
				for k := range row {
					grad[k] += (t - pr) * row[k]
					for l := k; l < p; l++ {
						h.SetSym(k, l, h.At(k, l)+wt*row[k]*row[l])
					}
				}
			}
		}
		var ch mat.Cholesky
		if !ch.Factorize(h) {
			return nil, errors.New("pooled logistic regression: singular Hessian (separable classes or collinear features?)")
		}
		var step mat.VecDense
		if err := ch.SolveVecTo(&step, mat.NewVecDense(p, grad)); err != nil {
			return nil, fmt.Errorf("pooled logistic regression: %w", err)
		}
		var size float64
		for k := range w {
			w[k] += step.AtVec(k)
			size = math.Max(size, math.Abs(step.AtVec(k)))
		}
		if size < 1e-10 {
			return w, nil
		}
	}
	return nil, errors.New("pooled logistic regression: Newton's method did not converge in 100 steps (separable classes?)")
}

func dotVec(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// RegressionReference holds the held-out pooled RMSE (over all held-out
// rows of all groups) of the reference predictors of a regression data set
// from Grouped.
type RegressionReference struct {
	// GLSBLUP is GLS fixed effects with BLUP random effects, from the
	// known variance components (GLSBLUP).
	GLSBLUP float64
	// Pooled is one least-squares regression for all groups (PooledOLS).
	Pooled float64
	// Oracle is the true fixed effects with BLUP random effects (BLUP).
	Oracle float64
	// Truth is the true mean η of every row: its RMSE estimates the noise
	// σ, which no predictor beats on average.
	Truth float64
	// Rows is the number of held-out rows scored.
	Rows int
}

// ReferenceRMSE fits the reference predictors to r.Train with the true
// variance components and scores them on r.Test.
func (r *GroupedResult) ReferenceRMSE() (RegressionReference, error) {
	var ref RegressionReference
	if r.Binary {
		return ref, errors.New("reference RMSE: the data are binary; see ReferenceBinary")
	}
	ys := flat(labels(r.Test))
	ref.Rows = len(ys)
	if ref.Rows == 0 {
		return ref, errors.New("reference RMSE: no held-out rows (groups of fewer than 4 rows)")
	}
	v := r.Variances()
	fit, err := GLSBLUP(r.Train, v)
	if err != nil {
		return ref, fmt.Errorf("reference RMSE: %w", err)
	}
	oracle, err := BLUP(r.Train, append([]float64{r.Intercept}, r.Beta...), v)
	if err != nil {
		return ref, fmt.Errorf("reference RMSE: %w", err)
	}
	ols, err := PooledOLS(r.Train)
	if err != nil {
		return ref, fmt.Errorf("reference RMSE: %w", err)
	}
	for _, c := range []struct {
		dst  *float64
		pred func() ([][]float64, error)
	}{
		{&ref.GLSBLUP, func() ([][]float64, error) { return fit.Predict(r.Test) }},
		{&ref.Oracle, func() ([][]float64, error) { return oracle.Predict(r.Test) }},
		{&ref.Pooled, func() ([][]float64, error) { return PredictPooled(ols, r.Test) }},
		{&ref.Truth, func() ([][]float64, error) { return r.TestEta, nil }},
	} {
		p, err := c.pred()
		if err != nil {
			return ref, fmt.Errorf("reference RMSE: %w", err)
		}
		*c.dst = rmse(flat(p), ys)
	}
	return ref, nil
}

// ProbabilityScores are the pooled scores of predicted probabilities of
// the positive class against labels ±1.
type ProbabilityScores struct {
	// LogLoss is the mean negative log-likelihood, in nats, of the labels
	// (probabilities clipped to [1e-15, 1−1e-15]).
	LogLoss float64
	// Brier is the mean squared difference between the probability and
	// the label coded 1/0.
	Brier float64
	// AUC is the area under the ROC curve (NaN for a single class).
	AUC float64
}

// ScoreProbabilities scores the probabilities p of the positive class
// against the labels y (±1).
func ScoreProbabilities(p, y []float64) (ProbabilityScores, error) {
	var s ProbabilityScores
	if len(p) != len(y) {
		return s, fmt.Errorf("score: %d probabilities for %d labels", len(p), len(y))
	}
	if len(y) == 0 {
		return s, errors.New("score: no rows")
	}
	const eps = 1e-15
	for i, pr := range p {
		if !(pr >= 0 && pr <= 1) {
			return s, fmt.Errorf("score: probability %g of row %d is outside [0, 1]", pr, i)
		}
		q := min(max(pr, eps), 1-eps)
		t := 0.0
		if y[i] > 0 {
			t = 1
			s.LogLoss -= math.Log(q)
		} else {
			s.LogLoss -= math.Log(1 - q)
		}
		s.Brier += (pr - t) * (pr - t)
	}
	n := float64(len(y))
	s.LogLoss /= n
	s.Brier /= n
	s.AUC = auc(p, y)
	return s, nil
}

// BinaryReference holds the pooled held-out scores of the reference
// predictors of a binary data set from Grouped.
type BinaryReference struct {
	// Oracle predicts every held-out row with its true probability
	// logistic(η).
	Oracle ProbabilityScores
	// Pooled is one logistic regression for all groups (PooledLogistic).
	Pooled ProbabilityScores
	// Rows is the number of held-out rows scored.
	Rows int
}

// ReferenceBinary scores the true-probability oracle and a pooled logistic
// regression fit to r.Train on the held-out rows r.Test.
func (r *GroupedResult) ReferenceBinary() (BinaryReference, error) {
	var ref BinaryReference
	if !r.Binary {
		return ref, errors.New("reference scores: the data are not binary; see ReferenceRMSE")
	}
	ys := flat(labels(r.Test))
	ref.Rows = len(ys)
	if ref.Rows == 0 {
		return ref, errors.New("reference scores: no held-out rows (groups of fewer than 4 rows)")
	}
	eta := flat(r.TestEta)
	p := make([]float64, len(eta))
	for i, e := range eta {
		p[i] = logistic(e)
	}
	var err error
	if ref.Oracle, err = ScoreProbabilities(p, ys); err != nil {
		return ref, fmt.Errorf("oracle: %w", err)
	}
	w, err := PooledLogistic(r.Train)
	if err != nil {
		return ref, fmt.Errorf("reference scores: %w", err)
	}
	scores, err := PredictPooled(w, r.Test)
	if err != nil {
		return ref, fmt.Errorf("reference scores: %w", err)
	}
	p = flat(scores)
	for i, s := range p {
		p[i] = logistic(s)
	}
	if ref.Pooled, err = ScoreProbabilities(p, ys); err != nil {
		return ref, fmt.Errorf("pooled logistic regression: %w", err)
	}
	return ref, nil
}

// rmse is the root mean squared difference of pred and y (same lengths,
// not empty).
func rmse(pred, y []float64) float64 {
	var s float64
	for i, v := range y {
		s += (pred[i] - v) * (pred[i] - v)
	}
	return math.Sqrt(s / float64(len(y)))
}

// auc is the area under the ROC curve of scores for labels ±1, computed as
// the Mann-Whitney statistic: the chance that a positive row outscores a
// negative one, a tie counting one half. It is NaN for a single class.
// (It agrees with eval.AUC, which this package cannot import: eval's tests
// import synth.)
func auc(scores, y []float64) float64 {
	order := make([]int, len(y))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		switch {
		case scores[a] < scores[b]:
			return -1
		case scores[a] > scores[b]:
			return 1
		}
		return 0
	})
	var posRanks, pos float64
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && scores[order[hi]] == scores[order[lo]] {
			hi++
		}
		// Rows lo..hi-1 tie: each takes the mean of ranks lo+1..hi.
		rank := float64(lo+1+hi) / 2
		for _, i := range order[lo:hi] {
			if y[i] > 0 {
				posRanks += rank
				pos++
			}
		}
		lo = hi
	}
	neg := float64(len(y)) - pos
	if pos == 0 || neg == 0 {
		return math.NaN()
	}
	return (posRanks - pos*(pos+1)/2) / (pos * neg)
}

// labels returns the labels of every task of ds.
func labels(ds *data.Dataset) [][]float64 {
	out := make([][]float64, len(ds.Tasks))
	for j := range ds.Tasks {
		out[j] = ds.Tasks[j].Y
	}
	return out
}

// flat concatenates per-task slices.
func flat(v [][]float64) []float64 {
	var out []float64
	for _, s := range v {
		out = append(out, s...)
	}
	return out
}
