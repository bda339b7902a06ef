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
// D = (W̃W̃ᵀ + εI)^{1/2} / tr(·), built from the thin SVD of W̃ (O(d T²)),
// with the trace normalization over the full dimension d (§6, §11).
func mtflMetric(W [][]float64, omega []float64, d int, eps float64) (*metric, error) {
	T := len(W)
	wt := mat.NewDense(d, T, nil)
	for t, w := range W {
		for j, v := range w {
			wt.Set(j, t, v*omega[t])
		}
	}
	var svd mat.SVD
	if !svd.Factorize(wt, mat.SVDThinU) {
		return nil, errNumeric("mtfl D-step: SVD did not converge")
	}
	s := svd.Values(nil)
	r := len(s)
	var u mat.Dense
	svd.UTo(&u)
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
	for j := 0; j < d; j++ {
		copy(m.u[j*r:j*r+r], u.RawRowView(j)[:r])
	}
	return m, nil
}
