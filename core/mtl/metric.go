package mtl

import (
	"math"

	"github.com/spmtl/spmtl/core/internal/linalg"
)

// metric is the inverse penalty metric of the W-step, stored low-rank so
// that no d×d matrix is ever formed in high dimension:
//
//	M⁻¹ = β·I + U·diag(γ)·Uᵀ,   U d×r with orthonormal columns.
//
// The identity (ITL, MMTL, MTASO, CL) is β = 1, r = 0. MTFL's D is
// (σ0·I + U·diag(σ−σ0)·Uᵀ)/tr (docs/algorithms.md §6), so M⁻¹ = D and
// M = D⁻¹ = (1/β)·I + U·diag(1/(β+γ) − 1/β)·Uᵀ.
type metric struct {
	d     int
	full  int // the dimension the trace counts (d, or the data's features in span coordinates)
	beta  float64
	u     []float64 // d×r, row-major: u[j*r+i] is U_ji
	r     int
	gamma []float64

	dense []float64 // M (not M⁻¹), d×d row-major, formed lazily for the primal solver
	ut    []float64 // Uᵀ, r×d row-major, formed lazily for the span form's projections
}

// transposedU returns Uᵀ (r×d, row-major), formed on first use: row c is
// column c of U, so that (XU)_ic is one long linalg.Dot of row i of X.
func (m *metric) transposedU() []float64 {
	if m.ut == nil && m.r > 0 {
		d, r := m.d, m.r
		ut := make([]float64, r*d)
		for j := 0; j < d; j++ {
			for c, v := range m.u[j*r : j*r+r] {
				ut[c*d+j] = v
			}
		}
		m.ut = ut
	}
	return m.ut
}

func identityMetric(d int) *metric { return &metric{d: d, full: d, beta: 1} }

func scaledIdentityMetric(d int, beta float64) *metric { return &metric{d: d, full: d, beta: beta} }

// diagonalMetric is M = diag(u) (u_j > 0) as the identity corrected on the
// coordinates where u_j ≠ 1: U's columns are those unit vectors and
// γ_i = 1/u_j − 1, so that 1/(β+γ_i) = u_j at β = 1. nil u is the identity.
func diagonalMetric(d int, u []float64) *metric {
	m := identityMetric(d)
	var at []int
	for j, v := range u {
		if v != 1 {
			at = append(at, j)
		}
	}
	if len(at) == 0 {
		return m
	}
	m.r = len(at)
	m.u = make([]float64, d*m.r)
	m.gamma = make([]float64, m.r)
	for i, j := range at {
		m.u[j*m.r+i] = 1
		m.gamma[i] = 1/u[j] - 1
	}
	return m
}

// coef returns 1/(β+γ_i) − 1/β, the rank-r correction of M.
func (m *metric) coef(i int) float64 { return 1/(m.beta+m.gamma[i]) - 1/m.beta }

// project returns c = Uᵀv (length r) into c.
func (m *metric) project(v, c []float64) {
	// One pass over U in storage order (linalg.Combine); gonum's Dgemv
	// would read the same memory but costs a call per task per iteration.
	linalg.Combine(c, m.u, m.r, v)
}

// applyM sets dst = M v (dst may alias v): v/β + U(coef ∘ Uᵀv).
func (m *metric) applyM(dst, v []float64) {
	r := m.r
	var c []float64
	if r > 0 {
		c = make([]float64, r)
		m.project(v, c)
		for i := range c {
			c[i] *= m.coef(i)
		}
	}
	s := 1 / m.beta
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

// quad returns vᵀ M v (see stableQuad).
func (m *metric) quad(v []float64) float64 {
	// c lives on the stack when r ≤ 32, as it does for every bundled data
	// set (r ≤ min(d, T): syn2 30, school 27, sentiment 8); quad runs once
	// per task per iteration.
	var small [32]float64
	c := small[:0]
	if m.r <= len(small) {
		c = small[:m.r]
	} else {
		c = make([]float64, m.r)
	}
	m.project(v, c)
	return stableQuad(m.u, m.r, m.beta, m.gamma, v, c)
}

// traceM returns tr(M) = Σ 1/(β+γ_i) + (d−r)/β, over all m.full
// dimensions.
func (m *metric) traceM() float64 {
	t := float64(m.full-m.r) / m.beta
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

// thinSVD is the thin singular value decomposition of W̃ = W·diag(ω)
// (d×T, columns ω_t w_t): W̃ ≈ U S Vᵀ with U d×r orthonormal (row-major),
// s descending, and proj[t] = Uᵀw_t.
type thinSVD struct {
	u    []float64
	r    int
	s    []float64
	proj [][]float64
	// projBuf backs proj; the caller may hand it to the next call to be
	// reused (a Θ-step per outer iteration would otherwise allocate T
	// vectors each time).
	projBuf []float64
}

// newThinSVD computes the SVD of W̃ in O(d T min(d, T)). For d > T it takes
// the T×T Gram matrix W̃ᵀW̃ = V S² Vᵀ and U = W̃ V S⁻¹; for d ≤ T the d×d
// matrix W̃W̃ᵀ = U S² Uᵀ. At d = 37,662 this is a third of the work of
// gonum's Dgesvd (which also scans the matrix for its norm), and leaving
// Dgesvd out keeps the wasm binary small. Directions with s_i² below
// 1e-12·s_max² are dropped in the Gram form: U V S⁻¹ could not make them
// orthogonal to working precision, and both users treat a dropped
// direction like a tiny one (MTFL puts it in the isotropic complement,
// where its σ = √(s² + ε) is σ0 to within s²/2ε; MTASO's top h never
// reach it unless W̃ has rank below h).
//
// projBuf, when its capacity suffices, is reused for the projections; the
// caller must no longer read the projections it backed.
func newThinSVD(W [][]float64, omega []float64, d int, projBuf []float64) (*thinSVD, error) {
	T := len(W)
	out := &thinSVD{proj: make([][]float64, T)}
	if d <= T {
		a := make([]float64, d*d)
		for t, w := range W {
			o2 := omega[t] * omega[t]
			if o2 == 0 {
				continue
			}
			// The lower triangle only, mirrored below: half the products
			// of a full rank-one update per task.
			linalg.RankOneLower(a, w[:d], o2)
		}
		for i := 0; i < d; i++ {
			for j := 0; j < i; j++ {
				a[j*d+i] = a[i*d+j]
			}
		}
		lam, vecs := linalg.SymEigen(a, d)
		out.r = d
		out.s = make([]float64, d)
		for i := range out.s {
			out.s[i] = math.Sqrt(math.Max(lam[i], 0))
		}
		out.u = vecs
		out.projectAll(W, projBuf)
		return out, nil
	}
	g := make([]float64, T*T)
	for a := 0; a < T; a++ {
		for b := a; b < T; b++ {
			v := omega[a] * omega[b] * linalg.Dot(W[a], W[b])
			g[a*T+b], g[b*T+a] = v, v
		}
	}
	lam, vecs := linalg.SymEigen(g, T) // descending
	var keep []int
	for i, l := range lam {
		if l > 1e-12*lam[0] && l > 0 {
			keep = append(keep, i)
		}
	}
	r := len(keep)
	out.r = r
	out.s = make([]float64, r)
	for k, i := range keep {
		out.s[k] = math.Sqrt(lam[i])
	}
	// U_j,: = Σ_t W̃_jt b_t with b_t,k = V_tk / s_k.
	out.u = make([]float64, d*r)
	bt := make([]float64, r)
	for t, w := range W {
		if omega[t] == 0 {
			continue
		}
		for k, i := range keep {
			bt[k] = omega[t] * vecs[t*T+i] / out.s[k]
		}
		for j, wj := range w {
			if wj != 0 {
				linalg.Axpy(out.u[j*r:j*r+r], wj, bt)
			}
		}
	}
	// Uᵀw_t directly, O(d r) per task. Reading it off the SVD as
	// S·Vᵀe_t/ω_t is cheaper but divides the round-off of V by ω_t, which
	// is unbounded when τ_t is tiny (docs/findings.md, "tiny weights").
	out.projectAll(W, projBuf)
	return out, nil
}

// projectAll sets out.proj[t] = Uᵀw_t for every task, in buf when it is
// long enough, else in a new backing array.
func (out *thinSVD) projectAll(W [][]float64, buf []float64) {
	r := out.r
	if cap(buf) < len(W)*r {
		buf = make([]float64, len(W)*r)
	}
	buf = buf[:len(W)*r]
	out.projBuf = buf
	for t, w := range W {
		c := buf[t*r : t*r+r : t*r+r]
		projectInto(c, out.u, r, w)
		out.proj[t] = c
	}
}

// projectInto sets c = Uᵀw for U d×r (row-major).
func projectInto(c, u []float64, r int, w []float64) { linalg.Combine(c, u, r, w) }

// stableQuad returns vᵀMv = ‖v − Uc‖²/β + Σ_i c_i²/(β+γ_i) with c = Uᵀv.
// The complement term is computed from the residual v − Uc itself, not as
// ‖v‖² − ‖c‖²: with MTFL's β = σ0/tr ≈ 1e-4/tr the cancellation in the
// difference would be amplified by 1/β and could make the penalty
// negative.
func stableQuad(u []float64, r int, beta float64, gamma, v, c []float64) float64 {
	var res float64
	// (Uc)_j for 64 rows at a time, which linalg.Dots takes four at a
	// time under js/wasm.
	var uc [64]float64
	for j0 := 0; j0 < len(v); j0 += len(uc) {
		vs := v[j0:min(j0+len(uc), len(v))]
		ucs := uc[:len(vs)]
		if r > 0 {
			linalg.Dots(ucs, c, u[j0*r:], r)
		}
		for j, vj := range vs {
			x := vj
			if r > 0 {
				x -= ucs[j]
			}
			res += x * x
		}
	}
	q := res / beta
	for i, ci := range c {
		q += ci * ci / (beta + gamma[i])
	}
	return q
}
