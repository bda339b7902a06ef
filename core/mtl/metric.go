package mtl

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// metric is the inverse penalty metric of the W-step, stored low-rank so
// that no d×d matrix is ever formed in high dimension:
//
//	M⁻¹ = β·I + U·diag(γ)·Uᵀ,   U d×r with orthonormal columns.
//
// The identity (ITL, MMTL, MTASO, CL) is β = 1, r = 0. MTFL's D is
// (σ0·I + U·diag(σ−σ0)·Uᵀ)/tr (ALGORITHMS.md §6), so M⁻¹ = D and
// M = D⁻¹ = (1/β)·I + U·diag(1/(β+γ) − 1/β)·Uᵀ.
type metric struct {
	d     int
	beta  float64
	u     []float64 // d×r, row-major: u[j*r+i] is U_ji
	r     int
	gamma []float64

	dense []float64 // M (not M⁻¹), d×d row-major, formed lazily for the primal solver
}

func identityMetric(d int) *metric { return &metric{d: d, beta: 1} }

func scaledIdentityMetric(d int, beta float64) *metric { return &metric{d: d, beta: beta} }

// coef returns 1/(β+γ_i) − 1/β, the rank-r correction of M.
func (m *metric) coef(i int) float64 { return 1/(m.beta+m.gamma[i]) - 1/m.beta }

// project returns c = Uᵀv (length r) into c.
func (m *metric) project(v, c []float64) {
	r := m.r
	for i := range c[:r] {
		c[i] = 0
	}
	if r == 0 {
		return
	}
	// Hand-written: one pass over U in storage order; gonum's Dgemv would
	// read the same memory but costs a call per task per iteration.
	for j, vj := range v {
		if vj == 0 {
			continue
		}
		row := m.u[j*r : j*r+r]
		for i, uji := range row {
			c[i] += uji * vj
		}
	}
}

// applyInv sets dst = M⁻¹v (dst may alias v).
func (m *metric) applyInv(dst, v []float64) {
	m.apply(dst, v, false)
}

// applyM sets dst = M v (dst may alias v).
func (m *metric) applyM(dst, v []float64) {
	m.apply(dst, v, true)
}

func (m *metric) apply(dst, v []float64, forward bool) {
	r := m.r
	var c []float64
	if r > 0 {
		c = make([]float64, r)
		m.project(v, c)
		for i := range c {
			if forward {
				c[i] *= m.coef(i)
			} else {
				c[i] *= m.gamma[i]
			}
		}
	}
	s := m.beta
	if forward {
		s = 1 / m.beta
	}
	for j, vj := range v {
		x := s * vj
		if r > 0 {
			row := m.u[j*r : j*r+r]
			for i, uji := range row {
				x += uji * c[i]
			}
		}
		dst[j] = x
	}
}

// quad returns vᵀ M v.
func (m *metric) quad(v []float64) float64 {
	q := dotVec(v, v) / m.beta
	if m.r > 0 {
		c := make([]float64, m.r)
		m.project(v, c)
		for i, ci := range c {
			q += m.coef(i) * ci * ci
		}
	}
	return q
}

// traceM returns tr(M) = Σ 1/(β+γ_i) + (d−r)/β.
func (m *metric) traceM() float64 {
	t := float64(m.d-m.r) / m.beta
	for i := 0; i < m.r; i++ {
		t += 1 / (m.beta + m.gamma[i])
	}
	return t
}

// denseM returns M as a d×d matrix (for the primal solver, small d only).
// Where U spans the whole space the complement term is dropped, since
// (1/β)(I − UUᵀ) would only add round-off amplified by 1/β.
func (m *metric) denseM() []float64 {
	if m.dense != nil {
		return m.dense
	}
	d, r := m.d, m.r
	out := make([]float64, d*d)
	full := r >= d
	for a := 0; a < d; a++ {
		for b := a; b < d; b++ {
			var s float64
			if !full && a == b {
				s = 1 / m.beta
			}
			ua, ub := m.u[a*r:a*r+r], m.u[b*r:b*r+r]
			for i := 0; i < r; i++ {
				if full {
					s += ua[i] * ub[i] / (m.beta + m.gamma[i])
				} else {
					s += ua[i] * ub[i] * m.coef(i)
				}
			}
			out[a*d+b], out[b*d+a] = s, s
		}
	}
	m.dense = out
	return out
}

// mtflMetric returns M⁻¹ = D for the columns W̃ = W·diag(ω):
// D = (W̃W̃ᵀ + εI)^{1/2} / tr(·), with the trace normalization over the full
// dimension d (§6, §11). It also returns each w_tᵀ D⁻¹ w_t.
//
// The thin SVD W̃ = U S Vᵀ comes from the T×T Gram matrix W̃ᵀW̃ = V S² Vᵀ
// and U = W̃ V S⁻¹: O(d T²) like a direct SVD, but a third of the work of
// gonum's Dgesvd at d = 37,662 (which also scans the matrix for its norm).
// Directions with s_i² below 1e-12·s_max² are left to the isotropic
// complement: their σ_i = √(s_i² + ε) is σ0 to within s_i²/2ε, and U V S⁻¹
// could not make them orthogonal to working precision anyway.
func mtflMetric(W [][]float64, omega []float64, d int, eps float64) (*metric, []float64, error) {
	T := len(W)
	if d <= T {
		return mtflMetricSmall(W, omega, d, eps)
	}
	g := mat.NewSymDense(T, nil)
	for a := 0; a < T; a++ {
		for b := a; b < T; b++ {
			g.SetSym(a, b, omega[a]*omega[b]*dotVec(W[a], W[b]))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(g, true) {
		return nil, nil, errNumeric("mtfl D-step: eigendecomposition did not converge")
	}
	lam := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	lmax := 0.0
	for _, l := range lam {
		lmax = math.Max(lmax, l)
	}
	var keep []int
	for i := len(lam) - 1; i >= 0; i-- { // descending
		if lam[i] > 1e-12*lmax && lam[i] > 0 && len(keep) < d {
			keep = append(keep, i)
		}
	}
	r := len(keep)
	sv := make([]float64, r)
	// b[t][i] = V_ti / s_i, so that U_j,: = Σ_t W̃_jt b[t].
	b := make([][]float64, T)
	for t := range b {
		b[t] = make([]float64, r)
		for k, i := range keep {
			b[t][k] = vecs.At(t, i) / math.Sqrt(lam[i])
		}
	}
	for k, i := range keep {
		sv[k] = math.Sqrt(lam[i])
	}
	m := newMTFLMetric(d, sv, eps)
	for t, w := range W {
		if omega[t] == 0 {
			continue
		}
		bt := b[t]
		for j, wj := range w {
			if wj != 0 {
				axpy(m.u[j*r:j*r+r], omega[t]*wj, bt)
			}
		}
	}
	pen := make([]float64, T)
	c := make([]float64, r)
	for t, w := range W {
		if omega[t] == 0 {
			pen[t] = m.quad(w)
			continue
		}
		// Uᵀw̃_t = S Vᵀe_t, so Uᵀw_t = S Vᵀe_t / ω_t.
		for k, i := range keep {
			c[k] = sv[k] * vecs.At(t, i) / omega[t]
		}
		q := dotVec(w, w) / m.beta
		for i, ci := range c {
			q += m.coef(i) * ci * ci
		}
		pen[t] = q
	}
	return m, pen, nil
}

// newMTFLMetric returns the metric D = (U diag(σ) Uᵀ + σ0 (I − UUᵀ)) / tr
// for singular values s (σ_i = √(s_i² + ε), σ0 = √ε), with U left for the
// caller to fill.
func newMTFLMetric(d int, s []float64, eps float64) *metric {
	r := len(s)
	sigma0 := math.Sqrt(eps)
	tr := float64(d-r) * sigma0
	sig := make([]float64, r)
	for i, si := range s {
		sig[i] = math.Sqrt(si*si + eps)
		tr += sig[i]
	}
	m := &metric{d: d, beta: sigma0 / tr, r: r, u: make([]float64, d*r), gamma: make([]float64, r)}
	for i := range sig {
		m.gamma[i] = (sig[i] - sigma0) / tr
	}
	return m
}

// mtflMetricSmall is mtflMetric for d ≤ T: the eigendecomposition of the
// d×d matrix W̃W̃ᵀ gives U (all d directions) and S².
func mtflMetricSmall(W [][]float64, omega []float64, d int, eps float64) (*metric, []float64, error) {
	a := mat.NewSymDense(d, nil)
	ad := a.RawSymmetric().Data
	for t, w := range W {
		o2 := omega[t] * omega[t]
		if o2 == 0 {
			continue
		}
		for i, wi := range w {
			if wi != 0 {
				axpy(ad[i*d+i:i*d+d], o2*wi, w[i:])
			}
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(a, true) {
		return nil, nil, errNumeric("mtfl D-step: eigendecomposition did not converge")
	}
	lam := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	s := make([]float64, d)
	for i := range s {
		s[i] = math.Sqrt(math.Max(lam[d-1-i], 0)) // descending
	}
	m := newMTFLMetric(d, s, eps)
	for j := 0; j < d; j++ {
		for i := 0; i < d; i++ {
			m.u[j*d+i] = vecs.At(j, d-1-i)
		}
	}
	pen := make([]float64, len(W))
	for t, w := range W {
		pen[t] = m.quad(w)
	}
	return m, pen, nil
}
