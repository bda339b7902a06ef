package mtl

import (
	"math"

	"github.com/spmtl/spmtl/core/internal/linalg"
)

// looMean returns task t's mean leave-one-out loss at its current W-step
// solution (docs/algorithms.md §2.6), with Θ held fixed, and whether it
// could be computed (not for the logistic loss in the span form, which
// keeps the training cost). It must follow the task's solveExact, whose
// factor and logistic derivatives it reuses from the task's cache.
func (tr *Trainer) looMean(t int, ws *wstep) (float64, bool) {
	td, w, b, cache := tr.tasks[t], tr.w[t], tr.b[t], &tr.cache[t]
	if td.n == 0 {
		return 0, false
	}
	var sum float64
	switch {
	case ws.loss == Squared && td.primal:
		sum = tr.looSquaredPrimal(td, ws, w, b, cache)
	case ws.loss == Squared:
		sum = tr.looSquaredSpan(td, ws, w, b, cache)
	case td.primal:
		var ok bool
		if sum, ok = tr.looLogisticPrimal(td, ws, w, b, cache); !ok {
			return 0, false
		}
	default:
		return 0, false
	}
	return sum / float64(td.n), true
}

// sharedPrediction is what Θ alone predicts for row i of a task: its
// anchor's score plus the shared intercept. It scores a row that the
// task's own free intercept absorbs entirely (h_i = 1), which has no
// held-out evidence of its own (§2.6).
func (tr *Trainer) sharedPrediction(td *taskData, ws *wstep, i int) float64 {
	f := tr.b0
	if ws.anchor != nil {
		f += td.dot(i, ws.anchor)
	}
	return f
}

// absorbed is the leverage above which a row counts as absorbed by the
// task's own parameters.
const absorbed = 1 - 1e-9

// looSquaredPrimal sums ½(e_i/(1 − h_i))² with h_i = 1/(N + c) +
// zᵀS⁻¹z, z = x_i − γx̄, S the factored matrix of the W-step (§1.4, §2.6).
func (tr *Trainer) looSquaredPrimal(td *taskData, ws *wstep, w []float64, b float64, cache *taskCache) float64 {
	d := len(w)
	n := td.sumW
	c := 2 * ws.rho / ws.scale * ws.kappa
	gamma := n / (n + c)
	z := make([]float64, d)
	v := make([]float64, d)
	var sum float64
	for i := 0; i < td.n; i++ {
		x := td.x.RawRowView(i)
		for j := range z {
			z[j] = x[j] - gamma*td.xbar[j]
		}
		copy(v, z)
		linalg.CholSolve(cache.l, d, v)
		h := 1/(n+c) + linalg.Dot(z, v)
		var e float64
		if h >= absorbed {
			e = td.y[i] - tr.sharedPrediction(td, ws, i)
		} else {
			e = (td.y[i] - linalg.Dot(x, w) - b) / (1 - h)
		}
		sum += 0.5 * e * e
	}
	return sum
}

// looSquaredSpan sums ½(e_i/(1 − h_i))² with h_i = 1/N + 1 −
// 2ρ'[(K + 2ρ'I)⁻¹]_ii from the span form's cached factor (free intercept).
func (tr *Trainer) looSquaredSpan(td *taskData, ws *wstep, w []float64, b float64, cache *taskCache) float64 {
	n := td.n
	lam := 2 * ws.rho / ws.scale
	col := make([]float64, n)
	var sum float64
	for i := 0; i < n; i++ {
		for j := range col {
			col[j] = 0
		}
		col[i] = 1
		linalg.CholSolve(cache.l, n, col)
		h := 1/float64(n) + 1 - lam*col[i]
		var e float64
		if h >= absorbed {
			e = td.y[i] - tr.sharedPrediction(td, ws, i)
		} else {
			e = (td.y[i] - td.dot(i, w) - b) / (1 - h)
		}
		sum += 0.5 * e * e
	}
	return sum
}

// looLogisticPrimal sums softplus(−y_i f_(−i)) with the one-Newton-step
// margins f_(−i) = f_i + g_i h_i/(1 − c_i h_i), h_i = x̃_iᵀH⁻¹x̃_i, H the
// Hessian of the W-step objective divided by its scale (§2.6).
func (tr *Trainer) looLogisticPrimal(td *taskData, ws *wstep, w []float64, b float64, cache *taskCache) (float64, bool) {
	d := len(w)
	p := d + 1
	if cache.data == nil || !cache.dataOK || len(cache.data.h) != p*p {
		return 0, false
	}
	full := newLogisticEval(p)
	ws.addPenalty(w, b, cache.data, full)
	hs := full.h // scale·H
	if !linalg.Cholesky(hs, p) {
		return 0, false
	}
	xt := make([]float64, p)
	v := make([]float64, p)
	var sum float64
	for i := 0; i < td.n; i++ {
		copy(xt, td.x.RawRowView(i))
		xt[d] = 1
		copy(v, xt)
		linalg.CholSolve(hs, p, v)
		a := ws.scale * linalg.Dot(xt, v)
		f := linalg.Dot(xt[:d], w) + b
		y := td.y[i]
		s := sigmoid(-y * f) // σ(−y f)
		g := -y * s          // d softplus(−y f)/df
		cc := s * (1 - s)
		if cc*a >= absorbed {
			f = tr.sharedPrediction(td, ws, i)
		} else {
			f += g * a / (1 - cc*a)
		}
		sum += softplus(-y * f)
	}
	return sum, !math.IsNaN(sum)
}
