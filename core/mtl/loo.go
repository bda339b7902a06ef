package mtl

import (
	"math"

	"github.com/spmtl/spmtl/core/internal/linalg"
)

// looStats are a task's leave-one-out row losses, summed: Σℓ_i and Σℓ_i²
// over its n rows; ok is false where they could not be computed.
type looStats struct {
	n          int
	sum, sumSq float64
	ok         bool
}

// looRows returns task t's leave-one-out row losses at its current W-step
// solution (docs/algorithms.md §2.6), with Θ held fixed (not for the
// logistic loss in the span form, which keeps the training cost). It must
// follow the task's solveExact, whose factor and logistic derivatives it
// reuses from the task's cache.
func (tr *Trainer) looRows(t int, ws *wstep) looStats {
	td, w, b, cache := tr.tasks[t], tr.w[t], tr.b[t], &tr.cache[t]
	st := looStats{n: td.n}
	if td.n == 0 {
		return st
	}
	add := func(l float64) { st.sum += l; st.sumSq += l * l }
	switch {
	case ws.loss == Squared && td.primal:
		tr.looSquaredPrimal(td, ws, w, b, cache, add)
	case ws.loss == Squared:
		tr.looSquaredSpan(td, ws, w, b, cache, add)
	case td.primal:
		if !tr.looLogisticPrimal(td, ws, w, b, cache, add) {
			return st
		}
	default:
		return st
	}
	st.ok = !math.IsNaN(st.sum) && !math.IsInf(st.sum, 0)
	return st
}

// looMean returns task t's mean leave-one-out loss (looRows), and whether
// it could be computed.
func (tr *Trainer) looMean(t int, ws *wstep) (float64, bool) {
	st := tr.looRows(t, ws)
	if !st.ok {
		return 0, false
	}
	return st.sum / float64(st.n), true
}

// shrinkLOO returns each task's mean leave-one-out loss shrunk toward the
// pooled mean by empirical Bayes (§2.6): the mean of a task of n rows is
// m_t with sampling variance σ²_w/n around its true value, the true values
// spread by σ²_b, so the best linear estimate is (n m_t + n0 m̄)/(n + n0)
// with n0 = σ²_w/σ²_b. σ²_w is the pooled within-task variance of the row
// losses, σ²_b the spread of the m_t less their mean sampling variance (0:
// every task is estimated as m̄). A task of one or two rows then counts for
// little; a task of many rows keeps its own mean. ok[t] false leaves
// out[t] at NaN.
func shrinkLOO(st []looStats) []float64 {
	out := make([]float64, len(st))
	var rows, sum, within, dof float64
	var means []float64
	for _, s := range st {
		if !s.ok {
			continue
		}
		n := float64(s.n)
		m := s.sum / n
		means = append(means, m)
		rows += n
		sum += s.sum
		if s.n > 1 {
			within += s.sumSq - n*m*m
			dof += n - 1
		}
	}
	grand := sum / rows
	var sw float64
	if dof > 0 {
		sw = math.Max(within/dof, 0)
	}
	var spread, noise float64
	for _, s := range st {
		if s.ok {
			m := s.sum / float64(s.n)
			spread += (m - grand) * (m - grand)
			noise += sw / float64(s.n)
		}
	}
	k := float64(len(means))
	sb := 0.0
	if k > 1 {
		sb = math.Max(spread/(k-1)-noise/k, 0)
	}
	for t, s := range st {
		if !s.ok {
			out[t] = math.NaN()
			continue
		}
		n, m := float64(s.n), s.sum/float64(s.n)
		switch {
		case sb == 0:
			out[t] = grand
		case sw == 0:
			out[t] = m
		default:
			n0 := sw / sb
			out[t] = (n*m + n0*grand) / (n + n0)
		}
	}
	return out
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
func (tr *Trainer) looSquaredPrimal(td *taskData, ws *wstep, w []float64, b float64, cache *taskCache, add func(float64)) {
	d := len(w)
	n := td.sumW
	c := 2 * ws.rho / ws.scale * ws.kappa
	gamma := n / (n + c)
	z := make([]float64, d)
	v := make([]float64, d)
	for i := 0; i < td.n; i++ {
		x := td.x.RawRowView(i)
		for j := range z {
			z[j] = x[j] - gamma*td.xbar[j]
		}
		copy(v, z)
		h := 1/(n+c) + linalg.LowerNormSq(cache.l, d, v)
		var e float64
		if h >= absorbed {
			e = td.y[i] - tr.sharedPrediction(td, ws, i)
		} else {
			e = (td.y[i] - linalg.Dot(x, w) - b) / (1 - h)
		}
		add(0.5 * e * e)
	}
}

// looSquaredSpan sums ½(e_i/(1 − h_i))² with h_i = 1/N + 1 −
// 2ρ'[(K + 2ρ'I)⁻¹]_ii from the span form's cached factor (free intercept).
func (tr *Trainer) looSquaredSpan(td *taskData, ws *wstep, w []float64, b float64, cache *taskCache, add func(float64)) {
	n := td.n
	lam := 2 * ws.rho / ws.scale
	inv := make([]float64, n)
	linalg.InverseDiagonal(cache.l, n, inv, make([]float64, n))
	for i := 0; i < n; i++ {
		h := 1/float64(n) + 1 - lam*inv[i]
		var e float64
		if h >= absorbed {
			e = td.y[i] - tr.sharedPrediction(td, ws, i)
		} else {
			e = (td.y[i] - td.dot(i, w) - b) / (1 - h)
		}
		add(0.5 * e * e)
	}
}

// looLogisticPrimal sums softplus(−y_i f_(−i)) with the one-Newton-step
// margins f_(−i) = f_i + g_i h_i/(1 − c_i h_i), h_i = x̃_iᵀH⁻¹x̃_i, H the
// Hessian of the W-step objective divided by its scale (§2.6).
func (tr *Trainer) looLogisticPrimal(td *taskData, ws *wstep, w []float64, b float64, cache *taskCache, add func(float64)) bool {
	d := len(w)
	p := d + 1
	if cache.data == nil || !cache.dataOK || len(cache.data.h) != p*p {
		return false
	}
	full := newLogisticEval(p)
	ws.addPenalty(w, b, cache.data, full)
	hs := full.h // scale·H
	if !linalg.Cholesky(hs, p) {
		return false
	}
	xt := make([]float64, p)
	v := make([]float64, p)
	for i := 0; i < td.n; i++ {
		copy(xt, td.x.RawRowView(i))
		xt[d] = 1
		copy(v, xt)
		a := ws.scale * linalg.LowerNormSq(hs, p, v)
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
		add(softplus(-y * f))
	}
	return true
}
