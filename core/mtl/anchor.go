package mtl

import (
	"math"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/internal/linalg"
)

// anchorProblem is the value function of a mean-anchored method (MMTL,
// docs/algorithms.md §5.2, §2.7) over the shared mean a and, with κ > 0,
// the shared intercept b̄:
//
//	φ_ω(a, b̄) = Σ_t ω_t min_{w,b} [l_t(w, b) + ρ‖w − a‖² + ρκ(b − b̄)²]
//
// Its gradient is 2ρ Σ_t ω_t (a − w_t(a)) in a and 2ρκ Σ_t ω_t (b̄ − b_t)
// in b̄, one exact W-step per task for each evaluation. With a summed
// logistic loss φ also holds the prior's term (meanPrior, priorWeight). The point x is
// (a, √κ·b̄), so that both parts have the curvature bound 2ρΣω.
type anchorProblem struct {
	tasks []*taskData
	cfg   Config
	// priorU is each feature's factor in the prior's precision
	// (priorScales; nil: 1).
	priorU []float64
	m      *metric // one pointer for every evaluation: the caches hold
	omega  []float64
	w      [][]float64
	b      []float64
	loss   []float64 // each task's data term at the last evaluation (may be nil)
	cache  []taskCache
	// deviations has the squared W-steps solve for w − a itself (wstep.dev)
	// and the gradient read it: a visitor's file, where ρ reaches 5·10⁷
	// (§15). The reproduction's joint MMTL keeps the path its tables were
	// computed with.
	deviations bool
	dev        [][]float64

	evals int
	err   error
	last  []float64
	lastF float64
	lastG []float64
}

// MeanPriorSD is the standard deviation of the weak Gaussian prior that a
// summed logistic loss puts on MMTL's shared mean w̄, per feature
// (docs/algorithms.md §5.3): the default scale of a logistic regression's
// coefficients on standardized features in rstanarm (normal(0, 2.5)).
const MeanPriorSD = 2.5

// meanPrior is the precision π of the penalty π‖w̄‖² on MMTL's shared
// mean: 1/(2·MeanPriorSD²) for the summed logistic loss (a visitor's
// classifier, whose features are standardized), 0 otherwise. Without it
// nothing bounds w̄ when the classes are separable by the features, where
// every task's weights then run off together (the deviations are pulled to
// w̄, not to 0) and the fit's probabilities are exactly 0 or 1. The mean
// logistic loss (the paper's) keeps the paper's objective.
func meanPrior(cfg Config) float64 {
	if cfg.Loss == Logistic && cfg.Scale == SumLoss {
		return 1 / (2 * MeanPriorSD * MeanPriorSD)
	}
	return 0
}

// priorScales returns each feature's factor u_j in the prior's precision,
// c·Σ_j u_j w̄_j²: 1/FixedScale² for a task-level covariate the intake
// divided by FixedScale (data.Dataset.Fixed), 1 for every other. The
// prior is on the effect per standard deviation (§5.3), and a weight on
// x/(sd·FixedScale) is FixedScale times that effect: at u = 1 its prior
// standard deviation was 0.0025 per standard deviation, and a new group's
// prediction lost the covariate, which the tasks' intercepts absorbed
// (docs/findings.md, "Task-level covariates of a classifier"). nil when
// every factor is 1, or when the tasks are in span coordinates, where a
// reduction mixes the features (the prior stays isotropic there).
func priorScales(ds *data.Dataset, d int, reduced bool) []float64 {
	if ds == nil || len(ds.Fixed) == 0 || reduced || d != ds.Features {
		return nil
	}
	u := make([]float64, d)
	for j := range u {
		u[j] = 1
	}
	for _, j := range ds.Fixed {
		if j >= 0 && j < d {
			u[j] = 1 / (data.FixedScale * data.FixedScale)
		}
	}
	return u
}

// priorQuad returns Σ_j u_j v_j², ‖v‖² when u is nil.
func priorQuad(u, v []float64) float64 {
	if u == nil {
		return linalg.Dot(v, v)
	}
	var s float64
	for j, x := range v {
		s += u[j] * x * x
	}
	return s
}

// priorWeight is the prior's coefficient c in c‖w̄‖² beside the weighted
// tasks' Σ_t ω_t[l_t + ρ pen_t]: π·Σ_t ω_t / T, so that against T tasks of
// weight 1 (the joint MMTL) the prior counts once, as in the posterior of
// all the rows, and the trainer's τ (which sums to 1) sees the same
// optimum scaled by 1/T.
func priorWeight(pi float64, omega []float64, T int) float64 {
	if pi == 0 || T == 0 {
		return 0
	}
	var sum float64
	for _, o := range omega {
		sum += o
	}
	return pi * sum / float64(T)
}

// dim is the length of a point: the features, and one more for b̄.
func (ap *anchorProblem) dim() int {
	if ap.cfg.Intercept > 0 {
		return len(ap.w[0]) + 1
	}
	return len(ap.w[0])
}

// eval returns φ_ω and its gradient at x, leaving each task's W-step
// solution in w, b. The first error is kept in err.
func (ap *anchorProblem) eval(x []float64) (float64, []float64) {
	if ap.last != nil && equalVec(x, ap.last) {
		return ap.lastF, ap.lastG
	}
	return ap.evaluate(x, true)
}

// gradient is eval's gradient alone, for probeNewton's probes, which read
// no value: the squared primal W-step's data term and penalty cost about
// as much as its solve (docs/bench.md, "Fifteenth round"). It leaves the
// W-step solutions in w, b, but not each task's data term in loss.
func (ap *anchorProblem) gradient(x []float64) []float64 {
	_, g := ap.evaluate(x, false)
	return g
}

// evaluate is eval, with φ_ω (and each task's data term) only when value
// is set; only a full evaluation is kept for the next call.
func (ap *anchorProblem) evaluate(x []float64, value bool) (float64, []float64) {
	ap.evals++
	d, rho, kappa := len(ap.w[0]), ap.cfg.Rho, ap.cfg.Intercept
	f := 0.0
	g := make([]float64, len(x))
	anchor := append([]float64(nil), x[:d]...)
	var b0 float64
	if kappa > 0 {
		b0 = x[d] / math.Sqrt(kappa)
	}
	for t, td := range ap.tasks {
		ws := &wstep{loss: ap.cfg.Loss, scale: lossScale(ap.cfg.Loss, ap.cfg.Variant, ap.cfg.Scale, td), rho: rho, m: ap.m, anchor: anchor, kappa: kappa, b0: b0}
		if ap.deviations && ap.cfg.Loss == Squared {
			if ap.dev == nil {
				ap.dev = make([][]float64, len(ap.tasks))
			}
			if ap.dev[t] == nil {
				ap.dev[t] = make([]float64, d)
			}
			ws.dev = ap.dev[t]
		}
		om := ap.omega[t]
		if value {
			l, pen, err := td.solveExact(ws, ap.w[t], &ap.b[t], &ap.cache[t])
			if err != nil && ap.err == nil {
				ap.err = err
			}
			if ap.loss != nil {
				ap.loss[t] = l
			}
			f += om * (l + rho*pen)
		} else if err := td.solveOnly(ws, ap.w[t], &ap.b[t], &ap.cache[t]); err != nil && ap.err == nil {
			ap.err = err
		}
		if ws.dev != nil {
			linalg.Axpy(g[:d], -2*rho*om, ws.dev)
		} else {
			for i := range anchor {
				g[i] += 2 * rho * om * (anchor[i] - ap.w[t][i])
			}
		}
		if kappa > 0 {
			g[d] += 2 * rho * math.Sqrt(kappa) * om * (b0 - ap.b[t])
		}
	}
	if c := priorWeight(meanPrior(ap.cfg), ap.omega, len(ap.tasks)); c > 0 {
		f += c * priorQuad(ap.priorU, anchor)
		for j, v := range anchor {
			u := 1.0
			if ap.priorU != nil {
				u = ap.priorU[j]
			}
			g[j] += 2 * c * u * v
		}
	}
	// A gradient's W-steps replace the solutions a kept evaluation left.
	ap.last = nil
	if value {
		ap.last, ap.lastF, ap.lastG = append([]float64(nil), x...), f, g
	}
	return f, g
}

// solve minimizes φ_ω from x (overwritten with the minimizer) to a
// gradient of 1e-10 of g0's largest entry, and leaves the W-step solutions
// at the minimizer in w, b: by L-BFGS, as the reproduction's joint MMTL
// always has, unless probe is set.
func (ap *anchorProblem) solve(x, g0 []float64, probe bool) error {
	return ap.solveTo(x, 1e-10*math.Max(infNorm(g0), 1e-300), probe)
}

// solveTo is solve to an absolute gradient gtol: with probe, by Newton's
// method with the Hessian probed from gradient differences when x is
// short (probeMax); else, or if that fails, by L-BFGS.
func (ap *anchorProblem) solveTo(x []float64, gtol float64, probe bool) error {
	if probe && len(x) <= probeMax {
		if ok := probeNewton(x, ap.eval, ap.gradient, ap.hessian, gtol); ap.err != nil || ok {
			if ap.err != nil {
				return ap.err
			}
			ap.last = nil
			ap.eval(x)
			return ap.err
		}
	}
	var sum float64
	for _, o := range ap.omega {
		sum += o
	}
	lbfgs(x, func(a []float64) (float64, []float64) {
		f, g := ap.eval(a)
		return f, append([]float64(nil), g...)
	}, 1/(2*ap.cfg.Rho*sum), 20, gtol, 2000)
	if ap.err != nil {
		return ap.err
	}
	ap.last = nil
	ap.eval(x)
	return ap.err
}

// point returns x = (a, √κ·b̄).
func (ap *anchorProblem) point(a []float64, b0 float64) []float64 {
	x := append([]float64(nil), a...)
	if ap.cfg.Intercept > 0 {
		x = append(x, math.Sqrt(ap.cfg.Intercept)*b0)
	}
	return x
}

// shared splits a point into a and b̄.
func (ap *anchorProblem) shared(x []float64) ([]float64, float64) {
	d := len(ap.w[0])
	if ap.cfg.Intercept > 0 {
		return x[:d], x[d] / math.Sqrt(ap.cfg.Intercept)
	}
	return x[:d], 0
}

// probeMax is the longest point probeNewton takes: it spends n+1 gradients
// per Newton step, against hundreds of L-BFGS steps on the ill-conditioned
// value functions of a large ρ (features of different scales).
const probeMax = 65

// hessian returns φ's Hessian in x (dim()² values, row-major) at the
// point of the last full evaluation, whose W-step solutions are in w and
// b, when every task is a logistic one in the primal form; else nil, and
// probeNewton probes it. With A = (a, b̄), z_t = (w_t, b_t) and P =
// diag(M, κ), each task's value V_t(A) = min_z l_t(z) + ρ(z − A)ᵀP(z − A)
// has ∇V_t = 2ρP(A − z_t) (the envelope theorem), and differentiating the
// solution's condition ∇l_t(z_t) + 2ρP(z_t − A) = 0 gives
//
//	∇²V_t = 2ρP − 2ρP (H_t + 2ρP)⁻¹ 2ρP,
//
// H_t the data term's Hessian at z_t: the W-step's own Newton matrix.
// The point holds √κ·b̄, which divides b̄'s row and column by √κ, and the
// prior adds 2c·u_j on the diagonal. One pass over each task's rows and a
// (d+1)-column solve per task, where probing took d+1 gradients, each a
// Newton solve of every task: on a classifier of 128 groups of 1-2 rows
// and 31 features (survival's cgd) a fit took 690 evaluations, 1.2 s,
// and its probed Newton stalled at a gradient of 0.03 for L-BFGS to
// finish (docs/bench.md, "Twenty-third round").
func (ap *anchorProblem) hessian() []float64 {
	if ap.cfg.Loss != Logistic {
		return nil
	}
	for _, td := range ap.tasks {
		if !td.primal {
			return nil
		}
	}
	d, rho, kappa := len(ap.w[0]), ap.cfg.Rho, ap.cfg.Intercept
	p, n := d+1, ap.dim()
	M := ap.m.denseM()
	// r = 2ρP, p×p; its last row and column are 0 without a shared intercept.
	r := make([]float64, p*p)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			r[i*p+j] = 2 * rho * M[i*d+j]
		}
	}
	r[d*p+d] = 2 * rho * kappa
	h := make([]float64, n*n)
	e := newLogisticEval(p)
	hr, k := make([]float64, p*p), make([]float64, p*p) // H_t + 2ρP, and its factor
	col := make([]float64, p)
	x := make([]float64, p*p) // column j of (H_t + 2ρP)⁻¹ r in x[j*p:]
	for t, td := range ap.tasks {
		om := ap.omega[t]
		if om == 0 {
			continue
		}
		td.logisticData(lossScale(ap.cfg.Loss, ap.cfg.Variant, ap.cfg.Scale, td), ap.w[t], ap.b[t], e)
		for i := range hr {
			hr[i] = e.h[i] + r[i]
		}
		if !factorDamped(k, hr, p) {
			return nil
		}
		for j := 0; j < n; j++ {
			for i := 0; i < p; i++ {
				col[i] = r[i*p+j]
			}
			linalg.CholSolve(k, p, col)
			copy(x[j*p:j*p+p], col)
		}
		// ω_t (r − r·x) on the first n rows and columns.
		for i := 0; i < n; i++ {
			ri := r[i*p : i*p+p]
			for j := 0; j < n; j++ {
				h[i*n+j] += om * (r[i*p+j] - linalg.Dot(ri, x[j*p:j*p+p]))
			}
		}
	}
	if kappa > 0 {
		s := 1 / math.Sqrt(kappa)
		for i := 0; i < n; i++ {
			h[i*n+d] *= s
			h[d*n+i] *= s
		}
	}
	if c := priorWeight(meanPrior(ap.cfg), ap.omega, len(ap.tasks)); c > 0 {
		for j := 0; j < d; j++ {
			u := 1.0
			if ap.priorU != nil {
				u = ap.priorU[j]
			}
			h[j*n+j] += 2 * c * u
		}
	}
	return h
}

// probeNewton minimizes f from x (overwritten) by Newton steps whose
// Hessian is hess's at the point f last evaluated, or where hess is nil or
// gives none, is probed column by column from differences of grad, f's
// gradient alone (as f computes it: the differences are exact only
// then). φ of the
// squared loss is quadratic, so the differences are exact up to rounding
// and one step lands at the minimizer; for the logistic loss they are
// secants and a few damped steps do. It reports false when a probed
// Hessian is not positive definite or no step decreases f, leaving x at
// its best point for another method to go on from.
func probeNewton(x []float64, f func([]float64) (float64, []float64), grad func([]float64) []float64, hess func() []float64, gtol float64) bool {
	n := len(x)
	fx, g := f(x)
	g = append([]float64(nil), g...)
	h := make([]float64, n*n)
	xt := make([]float64, n)
	dir := make([]float64, n)
	for it := 0; it < 30; it++ {
		if infNorm(g) <= gtol {
			return true
		}
		if hx := callHess(hess); hx != nil {
			copy(h, hx)
		} else {
			for i := 0; i < n; i++ {
				copy(xt, x)
				step := 1e-4 * (1 + math.Abs(x[i]))
				xt[i] += step
				gi := grad(xt)
				for j := 0; j < n; j++ {
					h[j*n+i] = (gi[j] - g[j]) / step
				}
			}
		}
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				v := (h[i*n+j] + h[j*n+i]) / 2
				h[i*n+j], h[j*n+i] = v, v
			}
		}
		if !dampedSolve(h, n, g, dir) {
			return false
		}
		slope := linalg.Dot(g, dir)
		if !(slope < 0) {
			return false
		}
		t := 1.0
		moved := false
		for ls := 0; ls < 30; ls++ {
			for i := range xt {
				xt[i] = x[i] + t*dir[i]
			}
			ft, gt := f(xt)
			if ft <= fx+1e-4*t*slope || (ft <= fx && infNorm(gt) < infNorm(g)) {
				copy(x, xt)
				fx = ft
				g = append(g[:0], gt...)
				moved = true
				break
			}
			t /= 2
		}
		if !moved {
			return infNorm(g) <= gtol
		}
	}
	return infNorm(g) <= gtol
}

// dampedSolve sets dir = −H⁺g, the step of the pseudo-inverse of the
// symmetric probed Hessian H, computed on H scaled to a unit diagonal
// (S H S with S = diag(H)^(-1/2)): a feature that a visitor's file holds
// to a shared effect is divided by 1,000 (§14), so the shared mean's
// curvature along it is a millionth of the others', and two correlated
// such features (epil's base and lbase) put an eigenvalue of H below any
// fixed fraction of the largest, where the step was cut and the fit stopped
// short of the optimum (TestMMTLHeldFeaturesClosedForm). Scaled, only the
// directions in which φ is flat are below 1e-9 of the largest: those in
// which no task's rows vary (the sums of one-hot groups against the
// intercepts), where H is zero and g is rounding noise. The step does not
// move along them, orthogonally in the point's own coordinates: a damped
// solve divided that noise by the small damping and moved the shared mean
// and intercept far along the valley — to a point that fits every row seen
// equally well but predicts a value never seen (a new category) by where
// the rounding fell, different natively and under js/wasm. h is left as
// it was. It reports false when H has no positive eigenvalue.
func dampedSolve(h []float64, n int, g, dir []float64) bool {
	s := make([]float64, n)
	for i := range s {
		s[i] = 1
		if v := h[i*n+i]; v > 0 {
			s[i] = 1 / math.Sqrt(v)
		}
	}
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a[i*n+j] = s[i] * h[i*n+j] * s[j]
		}
	}
	vals, vecs := linalg.SymEigen(a, n)
	if len(vals) == 0 || !(vals[0] > 0) {
		return false
	}
	cut := 1e-9 * vals[0]
	for i := range dir {
		dir[i] = 0
	}
	var flat [][]float64 // H's null directions, S z for S H S's null z, orthonormal
	for k, lam := range vals {
		if lam <= cut {
			v := make([]float64, n)
			for i := range v {
				v[i] = s[i] * vecs[i*n+k]
			}
			for _, u := range flat {
				linalg.Axpy(v, -linalg.Dot(u, v), u)
			}
			if nv := math.Sqrt(linalg.Dot(v, v)); nv > 0 {
				for i := range v {
					v[i] /= nv
				}
				flat = append(flat, v)
			}
			continue
		}
		var c float64
		for i := 0; i < n; i++ {
			c += vecs[i*n+k] * s[i] * g[i]
		}
		c /= lam
		for i := 0; i < n; i++ {
			dir[i] -= c * vecs[i*n+k] * s[i]
		}
	}
	for _, u := range flat {
		linalg.Axpy(dir, -linalg.Dot(u, dir), u)
	}
	return true
}

// callHess returns hess(), or nil when hess is nil.
func callHess(hess func() []float64) []float64 {
	if hess == nil {
		return nil
	}
	return hess()
}
