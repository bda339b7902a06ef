package mtl

import (
	"fmt"
	"math"

	"github.com/spmtl/spmtl/core/internal/linalg"
)

// squaredPrimal solves (XcᵀXc + η x̄x̄ᵀ + 2ρ'M) w = Xcᵀyc + η x̄(ȳ − b0) +
// 2ρ'M a, b = γ(ȳ − x̄ᵀw) + (1 − γ)b0 (docs/algorithms.md §1.1 eq. (2),
// §1.4) with ρ' = ρ/scale, c = 2ρ'κ, γ = N/(N + c) and η = Nc/(N + c); a
// free intercept (κ = 0) has η = 0 and γ = 1.
func (td *taskData) squaredPrimal(ws *wstep, w []float64, b *float64, cache *taskCache) error {
	d := len(w)
	rho2 := 2 * ws.rho / ws.scale
	n := td.sumW
	c := rho2 * ws.kappa
	eta, gamma := n*c/(n+c), n/(n+c)
	var l []float64
	if cache != nil && cache.m == ws.m && cache.rho == rho2 && cache.kappa == ws.kappa {
		l = cache.l
	} else {
		M := ws.m.denseM()
		if cache != nil && len(cache.l) == d*d {
			l = cache.l
		} else {
			l = make([]float64, d*d)
		}
		// C + 2ρ'M + η x̄x̄ᵀ, the lower triangle only: Cholesky and
		// CholSolve read no other entry (the upper one keeps whatever the
		// cache held).
		linalg.LowerSystem(l, td.c, M, d, rho2, td.xbar, eta)
		if !linalg.Cholesky(l, d) {
			return errNumeric(fmt.Sprintf("task %s: W-step system is not positive definite", td.name))
		}
		if cache != nil {
			cache.m, cache.rho, cache.kappa, cache.l = ws.m, rho2, ws.kappa, l
		}
	}
	copy(w, td.q)
	if eta != 0 {
		linalg.Axpy(w, eta*(td.ybar-ws.b0), td.xbar)
	}
	switch {
	case ws.anchor != nil && ws.dev != nil:
		// The deviation u = w − a solves the same system with the right
		// side less (C + η x̄x̄ᵀ)a: the residual's moments at the anchor.
		a := ws.anchor
		ca := ws.buf(d)
		linalg.Dots(ca, a, td.c, d)
		for j := range w {
			w[j] -= ca[j]
		}
		if eta != 0 {
			linalg.Axpy(w, -eta*linalg.Dot(td.xbar, a), td.xbar)
		}
		linalg.CholSolve(l, d, w)
		copy(ws.dev, w)
		linalg.Axpy(w, 1, a)
	case ws.anchor != nil:
		ma := ws.buf(d)
		ws.m.applyM(ma, ws.anchor)
		linalg.Axpy(w, rho2, ma)
		linalg.CholSolve(l, d, w)
	default:
		linalg.CholSolve(l, d, w)
	}
	*b = td.ybar - linalg.Dot(td.xbar, w)
	if gamma != 1 {
		*b = gamma*(*b) + (1-gamma)*ws.b0
	}
	return nil
}

// projectRows returns XU (n×r, row-major) for the task's rows.
func (td *taskData) projectRows(m *metric) []float64 {
	r := m.r
	out := make([]float64, td.n*r)
	if r == 0 {
		return out
	}
	for i := 0; i < td.n; i++ {
		acc := out[i*r : i*r+r]
		if td.s != nil {
			s := td.s
			for k := s.Indptr[i]; k < s.Indptr[i+1]; k++ {
				v := s.Values[k]
				row := m.u[s.Indices[k]*r : s.Indices[k]*r+r]
				for c, uc := range row {
					acc[c] += v * uc
				}
			}
			continue
		}
		// (XU)_ic = x_i · (column c of U): r long dots. Accumulating r-long
		// rows of U per feature instead was 18% of a sentiment run under
		// js/wasm (node's profile), mostly call and loop overhead at r ≤ T.
		linalg.Dots(acc, td.row(i), m.transposedU(), m.d)
	}
	return out
}

// kernel returns X M⁻¹ Xᵀ, or when centered is set Xc M⁻¹ Xcᵀ (rows
// centered by the weighted mean and, for a weighted task, scaled by √rw_i
// on both sides), and the projections XU (XcU, unscaled) it was built from
// (n×r row-major).
func (td *taskData) kernel(m *metric, centered bool) ([]float64, []float64) {
	n, r := td.n, m.r
	xu := td.projectRows(m)
	if centered && r > 0 {
		// Xc U = XU − 1·(x̄ᵀU), x̄ the (weighted) mean.
		mu := make([]float64, r)
		for i := 0; i < n; i++ {
			linalg.Axpy(mu, td.wt(i)/td.sumW, xu[i*r:i*r+r])
		}
		for i := 0; i < n; i++ {
			linalg.Axpy(xu[i*r:i*r+r], -1, mu)
		}
	}
	k := make([]float64, n*n)
	// gi = γ ∘ (XU)_i, so that each entry's low-rank part is one Dot.
	// lowRank[j] = gi·(XU)_j for j ≥ i: the products of one vector with
	// rows, which linalg.Dots takes four at a time under js/wasm.
	gi, lowRank := make([]float64, r), make([]float64, n)
	for i := 0; i < n; i++ {
		ri := xu[i*r : i*r+r]
		for c := range gi {
			gi[c] = ri[c] * m.gamma[c]
		}
		linalg.Dots(lowRank[i:], gi, xu[i*r:], r)
		for j := i; j < n; j++ {
			v := td.k0[i*n+j]
			if centered {
				v += -td.k0pi[i] - td.k0pi[j] + td.pipi
			}
			v *= m.beta
			v += lowRank[j]
			if centered && td.rw != nil {
				v *= math.Sqrt(td.rw[i] * td.rw[j])
			}
			k[i*n+j], k[j*n+i] = v, v
		}
	}
	return k, xu
}

// squaredSpan solves the squared W-step in the span of the task's centered
// rows (docs/algorithms.md §1.1 eq. (3)): (Xc M⁻¹ Xcᵀ + 2ρ'I) α = yc − Xc a,
// w = a + M⁻¹ Xcᵀ α (for a weighted task, Xc and yc − Xc a carry √rw_i on
// their rows). Only N×N systems and O(d r) products. It returns the data
// term and the penalty of the solution without another pass over the rows
// (§1.1, "the span form's loss and penalty"): with K = Xc M⁻¹ Xcᵀ and
// r = yc − Xc a, Kα = r − 2ρ'α, so the residuals yc − Xc w = r − Kα are
// 2ρ'α, the loss is scale·½(2ρ')²‖α‖², and the penalty
// (w−a)ᵀM(w−a) = αᵀKα = αᵀ(r − 2ρ'α).
func (td *taskData) squaredSpan(ws *wstep, w []float64, b *float64, cache *taskCache) (loss, pen float64, err error) {
	n := td.n
	rho2 := 2 * ws.rho / ws.scale
	var kd, xu []float64
	if cache.m == ws.m && cache.rho == rho2 && cache.l != nil {
		kd, xu = cache.l, cache.xu
	} else {
		kd, xu = td.kernel(ws.m, true)
		for i := 0; i < n; i++ {
			kd[i*n+i] += rho2
		}
		if !linalg.Cholesky(kd, n) {
			return 0, 0, errNumeric(fmt.Sprintf("task %s: W-step kernel system is not positive definite", td.name))
		}
		cache.m, cache.rho, cache.l, cache.xu = ws.m, rho2, kd, xu
	}
	var xba float64
	if ws.anchor != nil {
		xba = linalg.Dot(td.xbar, ws.anchor)
	}
	r := make([]float64, n)
	for i := range r {
		r[i] = td.y[i] - td.ybar
		if ws.anchor != nil {
			r[i] -= td.dot(i, ws.anchor) - xba
		}
		if td.rw != nil {
			r[i] *= math.Sqrt(td.rw[i])
		}
	}
	alpha := append([]float64(nil), r...)
	linalg.CholSolve(kd, n, alpha)
	aa := linalg.Dot(alpha, alpha)
	loss = ws.scale * 0.5 * rho2 * rho2 * aa
	pen = math.Max(0, linalg.Dot(alpha, r)-rho2*aa)
	if td.rw != nil {
		// w − a = M⁻¹Xcᵀ D^{1/2} α̃: the row coefficients are √rw_i α̃_i.
		for i := range alpha {
			alpha[i] *= math.Sqrt(td.rw[i])
		}
	}
	td.spanToW(ws, alpha, true, xu, w)
	*b = td.ybar - linalg.Dot(td.xbar, w)
	return loss, pen, nil
}

// spanToW sets w = a + M⁻¹ v with v = Xᵀα (Xcᵀα when centered), given the
// row projections xu = XU (XcU) of kernel, so that Uᵀv = xuᵀα costs O(n r)
// instead of a pass over the d×r basis.
func (td *taskData) spanToW(ws *wstep, alpha []float64, centered bool, xu []float64, w []float64) {
	for j := range w {
		w[j] = 0
	}
	var sa float64
	for i, a := range alpha {
		td.addRowTo(w, i, a)
		sa += a
	}
	if centered {
		linalg.Axpy(w, -sa, td.xbar)
	}
	m := ws.m
	r := m.r
	// w ← βv + U(γ ∘ Uᵀv)
	c := make([]float64, r)
	for i, a := range alpha {
		linalg.Axpy(c, a, xu[i*r:i*r+r])
	}
	for i := range c {
		c[i] *= m.gamma[i]
	}
	for j := range w {
		x := m.beta * w[j]
		if r > 0 {
			x += linalg.Dot(m.u[j*r:j*r+r], c)
		}
		w[j] = x
	}
	if ws.anchor != nil {
		if ws.dev != nil {
			copy(ws.dev, w)
		}
		linalg.Axpy(w, 1, ws.anchor)
	}
}
