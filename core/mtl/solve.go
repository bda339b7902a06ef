package mtl

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// ErrNumeric marks a fit that broke down numerically (a singular system, a
// non-finite value). Test with errors.Is.
var ErrNumeric = errors.New("numerical failure")

func errNumeric(msg string) error { return fmt.Errorf("%s: %w", msg, ErrNumeric) }

// wstep is one W-step problem (ALGORITHMS.md eq. 1) for a task:
//
//	min_{w,b} scale·Σ_i loss_i(w,b) + rho·(w−a)ᵀM(w−a)
//
// with a = anchor (nil means 0) and M given by its inverse m.
type wstep struct {
	loss   Loss
	scale  float64 // 1 (sum) or 1/N (mean) on the data term
	rho    float64
	m      *metric
	anchor []float64
}

// lossValue returns scale·Σ_i loss_i(w, b) for the task.
func (td *taskData) lossValue(loss Loss, scale float64, w []float64, b float64) float64 {
	if loss == Squared && td.primal {
		// 0.5·‖y − Xw − b‖² from the moments, so the rows are not read.
		sw := make([]float64, len(w))
		symVec(td.S, w, sw)
		v := td.syy - 2*(dotVec(w, td.sxy)+b*td.sy) + dotVec(w, sw) + 2*b*dotVec(w, td.sx) + float64(td.n)*b*b
		return scale * 0.5 * math.Max(v, 0)
	}
	var sum float64
	for i := 0; i < td.n; i++ {
		f := td.dot(i, w) + b
		if loss == Squared {
			r := td.y[i] - f
			sum += 0.5 * r * r
		} else {
			sum += softplus(-td.y[i] * f)
		}
	}
	return scale * sum
}

// penalty returns (w−a)ᵀM(w−a).
func (ws *wstep) penalty(w []float64) float64 {
	return ws.m.quad(ws.diff(w))
}

func (ws *wstep) diff(w []float64) []float64 {
	u := make([]float64, len(w))
	copy(u, w)
	if ws.anchor != nil {
		for j, a := range ws.anchor {
			u[j] -= a
		}
	}
	return u
}

// solveExact solves the W-step to machine precision (closed form for the
// squared loss, Newton for the logistic loss). w and b hold the warm start
// and receive the solution. chol, when non-nil, caches the primal squared
// factorization across calls with the same metric and ρ.
func (td *taskData) solveExact(ws *wstep, w []float64, b *float64, cache *cholCache) error {
	switch {
	case ws.loss == Squared && td.primal:
		return td.squaredPrimal(ws, w, b, cache)
	case ws.loss == Squared:
		return td.squaredSpan(ws, w, b)
	case td.primal:
		return td.logisticPrimal(ws, w, b)
	default:
		return td.logisticSpan(ws, w, b)
	}
}

// cholCache keeps the Cholesky factor of XcᵀXc + 2ρ'M for one task while the
// metric and ρ' stay the same (ITL, MMTL and MTASO never change M).
type cholCache struct {
	m   *metric
	rho float64
	ch  mat.Cholesky
}

// squaredPrimal solves (XcᵀXc + 2ρ'M) w = Xcᵀyc + 2ρ'M a, b = ȳ − x̄ᵀw
// (ALGORITHMS.md eq. 2) with ρ' = ρ/scale.
func (td *taskData) squaredPrimal(ws *wstep, w []float64, b *float64, cache *cholCache) error {
	d := len(w)
	n := float64(td.n)
	rho2 := 2 * ws.rho / ws.scale
	var ch *mat.Cholesky
	if cache != nil && cache.m == ws.m && cache.rho == rho2 {
		ch = &cache.ch
	} else {
		a := mat.NewSymDense(d, nil)
		M := ws.m.denseM()
		for i := 0; i < d; i++ {
			for j := i; j < d; j++ {
				a.SetSym(i, j, td.S.At(i, j)-td.sx[i]*td.sx[j]/n+rho2*M.At(i, j))
			}
		}
		var c mat.Cholesky
		if !c.Factorize(a) {
			return errNumeric(fmt.Sprintf("task %s: W-step system is not positive definite", td.name))
		}
		if cache != nil {
			cache.m, cache.rho, cache.ch = ws.m, rho2, c
			ch = &cache.ch
		} else {
			ch = &c
		}
	}
	rhs := make([]float64, d)
	for j := range rhs {
		rhs[j] = td.sxy[j] - td.sx[j]*td.sy/n
	}
	if ws.anchor != nil {
		ma := make([]float64, d)
		ws.m.applyM(ma, ws.anchor)
		axpy(rhs, rho2, ma)
	}
	out := mat.NewVecDense(d, w)
	if err := ch.SolveVecTo(out, mat.NewVecDense(d, rhs)); err != nil {
		return errNumeric(fmt.Sprintf("task %s: W-step solve: %v", td.name, err))
	}
	*b = td.ybar - dotVec(td.xbar, w)
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
		for j, v := range td.x.RawRowView(i) {
			if v == 0 {
				continue
			}
			row := m.u[j*r : j*r+r]
			for c, uc := range row {
				acc[c] += v * uc
			}
		}
	}
	return out
}

// kernel returns X M⁻¹ Xᵀ, centered (Xc M⁻¹ Xcᵀ) when centered is set.
func (td *taskData) kernel(m *metric, centered bool) *mat.SymDense {
	n, r := td.n, m.r
	xu := td.projectRows(m)
	var tot float64
	if centered {
		for _, s := range td.k0rowSum {
			tot += s
		}
		// Xc U = XU − 1·(x̄ᵀU)
		if r > 0 {
			mu := make([]float64, r)
			for i := 0; i < n; i++ {
				axpy(mu, 1/float64(n), xu[i*r:i*r+r])
			}
			for i := 0; i < n; i++ {
				axpy(xu[i*r:i*r+r], -1, mu)
			}
		}
	}
	fn := float64(n)
	k := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		ri := xu[i*r : i*r+r]
		for j := i; j < n; j++ {
			v := td.k0.At(i, j)
			if centered {
				v += -td.k0rowSum[i]/fn - td.k0rowSum[j]/fn + tot/(fn*fn)
			}
			v *= m.beta
			rj := xu[j*r : j*r+r]
			for c := 0; c < r; c++ {
				v += ri[c] * m.gamma[c] * rj[c]
			}
			k.SetSym(i, j, v)
		}
	}
	return k
}

// squaredSpan solves the squared W-step in the span of the task's centered
// rows (ALGORITHMS.md eq. 3): (Xc M⁻¹ Xcᵀ + 2ρ'I) α = yc − Xc a,
// w = a + M⁻¹ Xcᵀ α. Only N×N systems and O(d r) products.
func (td *taskData) squaredSpan(ws *wstep, w []float64, b *float64) error {
	n := td.n
	rho2 := 2 * ws.rho / ws.scale
	k := td.kernel(ws.m, true)
	for i := 0; i < n; i++ {
		k.SetSym(i, i, k.At(i, i)+rho2)
	}
	var xba float64
	if ws.anchor != nil {
		xba = dotVec(td.xbar, ws.anchor)
	}
	r := make([]float64, n)
	for i := range r {
		r[i] = td.y[i] - td.ybar
		if ws.anchor != nil {
			r[i] -= td.dot(i, ws.anchor) - xba
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(k) {
		return errNumeric(fmt.Sprintf("task %s: W-step kernel system is not positive definite", td.name))
	}
	alpha := mat.NewVecDense(n, nil)
	if err := ch.SolveVecTo(alpha, mat.NewVecDense(n, r)); err != nil {
		return errNumeric(fmt.Sprintf("task %s: W-step solve: %v", td.name, err))
	}
	td.spanToW(ws, alpha.RawVector().Data, true, w)
	*b = td.ybar - dotVec(td.xbar, w)
	return nil
}

// spanToW sets w = a + M⁻¹ Xᵀα (Xcᵀα when centered).
func (td *taskData) spanToW(ws *wstep, alpha []float64, centered bool, w []float64) {
	for j := range w {
		w[j] = 0
	}
	var sa float64
	for i, a := range alpha {
		td.addRowTo(w, i, a)
		sa += a
	}
	if centered {
		axpy(w, -sa, td.xbar)
	}
	ws.m.applyInv(w, w)
	if ws.anchor != nil {
		axpy(w, 1, ws.anchor)
	}
}

// Newton settings for the logistic W-step: stop when the Newton decrement
// −gᵀΔ falls below newtonTol (the objective is then within about that of
// its minimum), or after newtonMaxIter steps.
const (
	newtonTol     = 1e-18
	newtonMaxIter = 100
)

// logisticPrimal runs Newton's method with backtracking on (w, b) ∈ R^{d+1}.
func (td *taskData) logisticPrimal(ws *wstep, w []float64, b *float64) error {
	d := len(w)
	p := d + 1
	M := ws.m.denseM()
	rho2 := 2 * ws.rho
	grad := make([]float64, p)
	h := mat.NewSymDense(p, nil)
	delta := make([]float64, p)
	trial := make([]float64, d)
	obj := func(w []float64, b float64) float64 {
		return td.lossValue(Logistic, ws.scale, w, b) + ws.rho*ws.penalty(w)
	}
	f := obj(w, *b)
	for it := 0; it < newtonMaxIter; it++ {
		for i := range grad {
			grad[i] = 0
		}
		hd := h.RawSymmetric().Data
		for i := range hd {
			hd[i] = 0
		}
		for i := 0; i < td.n; i++ {
			row := td.x.RawRowView(i)
			z := -td.y[i] * (dotVec(row, w) + *b)
			s := sigmoid(z)
			g := -td.y[i] * s * ws.scale
			c := s * (1 - s) * ws.scale
			axpy(grad[:d], g, row)
			grad[d] += g
			// Hand-written rank-1 update of the upper triangle: d is small
			// (primal form only) and a Dsyr call per row costs more here.
			for a := 0; a < d; a++ {
				ca := c * row[a]
				if ca == 0 {
					continue
				}
				hrow := hd[a*p : a*p+p]
				for bb := a; bb < d; bb++ {
					hrow[bb] += ca * row[bb]
				}
				hrow[d] += ca
			}
			hd[d*p+d] += c
		}
		mu := make([]float64, d)
		symVec(M, ws.diff(w), mu)
		axpy(grad[:d], rho2, mu)
		for a := 0; a < d; a++ {
			for bb := a; bb < d; bb++ {
				hd[a*p+bb] += rho2 * M.At(a, bb)
			}
		}
		var ch mat.Cholesky
		if !ch.Factorize(h) {
			// The bias direction can be flat on separable data: damp it.
			for a := 0; a < p; a++ {
				hd[a*p+a] += 1e-10 * (1 + hd[a*p+a])
			}
			if !ch.Factorize(h) {
				return errNumeric(fmt.Sprintf("task %s: logistic Hessian is not positive definite", td.name))
			}
		}
		dv := mat.NewVecDense(p, delta)
		if err := ch.SolveVecTo(dv, mat.NewVecDense(p, grad)); err != nil {
			return errNumeric(fmt.Sprintf("task %s: Newton step: %v", td.name, err))
		}
		dec := dotVec(grad, delta) // Newton decrement, Δ = −delta
		if !(dec >= 0) {
			return errNumeric(fmt.Sprintf("task %s: Newton decrement %v", td.name, dec))
		}
		if dec <= newtonTol*math.Max(1, math.Abs(f)) {
			return nil
		}
		step := 1.0
		var ft, bt float64
		for ls := 0; ; ls++ {
			for j := range trial {
				trial[j] = w[j] - step*delta[j]
			}
			bt = *b - step*delta[d]
			ft = obj(trial, bt)
			if ft <= f-1e-4*step*dec || ls >= 50 {
				break
			}
			step /= 2
		}
		if !(ft <= f) {
			return nil // no further decrease possible in floating point
		}
		copy(w, trial)
		*b = bt
		f = ft
	}
	return nil
}

// logisticSpan runs Newton's method in the representer form
// w = a + M⁻¹Xᵀα (ALGORITHMS.md §1), on (α, b) ∈ R^{N+1}. With K = XM⁻¹Xᵀ
// the objective is (1/N)Σ softplus(−y_i f_i) + ρ αᵀKα, f = Xa + Kα + b.
// The Newton system H Δ = −∇ shares its solutions with the smaller,
// better conditioned system R Δ = −r obtained by dividing K out of the α
// rows, which is what is solved.
func (td *taskData) logisticSpan(ws *wstep, w []float64, b *float64) error {
	n := td.n
	k := td.kernel(ws.m, false)
	c0 := make([]float64, n)
	if ws.anchor != nil {
		for i := range c0 {
			c0[i] = td.dot(i, ws.anchor)
		}
	}
	alpha := make([]float64, n)
	bb := *b
	fvals := make([]float64, n)
	kAlpha := make([]float64, n)
	objAt := func(alpha []float64, bb float64, kAlpha []float64) float64 {
		var s float64
		for i := 0; i < n; i++ {
			s += softplus(-td.y[i] * (c0[i] + kAlpha[i] + bb))
		}
		return s*ws.scale + ws.rho*dotVec(alpha, kAlpha)
	}
	symVec(k, alpha, kAlpha)
	f := objAt(alpha, bb, kAlpha)
	R := mat.NewDense(n+1, n+1, nil)
	rhs := make([]float64, n+1)
	g := make([]float64, n)
	sv := make([]float64, n)
	trialA := make([]float64, n)
	trialK := make([]float64, n)
	kd := make([]float64, n)
	for it := 0; it < newtonMaxIter; it++ {
		var sumG, sumS float64
		for i := 0; i < n; i++ {
			fvals[i] = c0[i] + kAlpha[i] + bb
			z := -td.y[i] * fvals[i]
			s := sigmoid(z)
			g[i] = -td.y[i] * s * ws.scale
			sv[i] = s * (1 - s) * ws.scale
			sumG += g[i]
			sumS += sv[i]
		}
		colS := make([]float64, n)
		for i := 0; i < n; i++ {
			row := R.RawRowView(i)
			for j := 0; j < n; j++ {
				kij := k.At(i, j)
				row[j] = sv[i] * kij
				colS[j] += sv[i] * kij
			}
			row[i] += 2 * ws.rho
			row[n] = sv[i]
			rhs[i] = g[i] + 2*ws.rho*alpha[i]
		}
		last := R.RawRowView(n)
		copy(last[:n], colS)
		last[n] = sumS + 1e-12
		rhs[n] = sumG
		var lu mat.LU
		lu.Factorize(R)
		dv := mat.NewVecDense(n+1, nil)
		if err := lu.SolveVecTo(dv, false, mat.NewVecDense(n+1, rhs)); err != nil {
			return errNumeric(fmt.Sprintf("task %s: kernel Newton step: %v", td.name, err))
		}
		delta := dv.RawVector().Data // step is −delta
		// Directional derivative ∇ᵀdelta = (g + 2ρα)ᵀK δα + Σg·δb.
		symVec(k, delta[:n], kd)
		var dec float64
		for i := 0; i < n; i++ {
			dec += (g[i] + 2*ws.rho*alpha[i]) * kd[i]
		}
		dec += sumG * delta[n]
		if !(dec >= -1e-12) {
			return errNumeric(fmt.Sprintf("task %s: kernel Newton decrement %v", td.name, dec))
		}
		if dec <= newtonTol*math.Max(1, math.Abs(f)) {
			break
		}
		step := 1.0
		var ft float64
		for ls := 0; ; ls++ {
			for i := range trialA {
				trialA[i] = alpha[i] - step*delta[i]
				trialK[i] = kAlpha[i] - step*kd[i]
			}
			ft = objAt(trialA, bb-step*delta[n], trialK)
			if ft <= f-1e-4*step*dec || ls >= 50 {
				break
			}
			step /= 2
		}
		if !(ft <= f) {
			break
		}
		copy(alpha, trialA)
		copy(kAlpha, trialK)
		bb -= step * delta[n]
		f = ft
	}
	td.spanToW(ws, alpha, false, w)
	*b = bb
	return nil
}

// symVec sets dst = A v for a symmetric A.
func symVec(a *mat.SymDense, v, dst []float64) {
	mat.NewVecDense(len(dst), dst).MulVec(a, mat.NewVecDense(len(v), v))
}

func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// softplus returns log(1 + e^z) without overflow.
func softplus(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}
