package mtl

import (
	"errors"
	"fmt"
	"math"

	"github.com/spmtl/spmtl/core/internal/linalg"
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
		// ½‖y − Xw − b‖² = ½(ycᵀyc − 2wᵀq + wᵀCw + N(ȳ − x̄ᵀw − b)²) from
		// the centered moments, so the rows are not read.
		d := len(w)
		var wcw float64
		for i, wi := range w {
			wcw += wi * linalg.Dot(td.c[i*d:i*d+d], w)
		}
		e := td.ybar - linalg.Dot(td.xbar, w) - b
		v := td.ycyc - 2*linalg.Dot(w, td.q) + wcw + td.sumW*e*e
		return scale * 0.5 * math.Max(v, 0)
	}
	var sum float64
	for i := 0; i < td.n; i++ {
		f := td.dot(i, w) + b
		if loss == Squared {
			r := td.y[i] - f
			sum += 0.5 * td.wt(i) * r * r
		} else {
			sum += td.wt(i) * softplus(-td.y[i]*f)
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
// and receive the solution. It returns the data term scale·Σ loss_i and the
// penalty (w−a)ᵀM(w−a) at the solution. cache, when non-nil, carries work
// from one call to the next for the same task (a trainer keeps one per
// task); nil is fine.
func (td *taskData) solveExact(ws *wstep, w []float64, b *float64, cache *taskCache) (loss, pen float64, err error) {
	if cache == nil {
		cache = new(taskCache)
	}
	switch {
	case ws.loss == Squared && td.primal:
		if err = td.squaredPrimal(ws, w, b, cache); err == nil {
			loss = td.lossValue(ws.loss, ws.scale, w, *b)
		}
	case ws.loss == Squared:
		// The span solvers know the penalty as αᵀKα, which saves an O(d·r)
		// pass over w in high dimension.
		pen, err = td.squaredSpan(ws, w, b, cache)
		if err != nil {
			return 0, 0, err
		}
		return td.lossValue(ws.loss, ws.scale, w, *b), pen, nil
	case td.primal:
		loss, err = td.logisticPrimal(ws, w, b, cache)
	default:
		loss, pen, err = td.logisticSpan(ws, w, b)
		return loss, pen, err
	}
	if err != nil {
		return 0, 0, err
	}
	return loss, ws.penalty(w), nil
}

// taskCache is the work a trainer keeps per task between outer iterations:
// the Cholesky factor of XcᵀXc + 2ρ'M (primal form) or of
// Xc M⁻¹ Xcᵀ + 2ρ'I (span form) while the metric and ρ' stay the same (ITL,
// MMTL and MTASO never change M), and the logistic data term with its
// derivatives at the last solution, where the next Newton run starts.
type taskCache struct {
	m   *metric
	rho float64
	l   []float64
	xu  []float64 // the span form's row projections XcU

	dataOK      bool
	dw          []float64
	db          float64
	data, spare *logisticEval
}

// squaredPrimal solves (XcᵀXc + 2ρ'M) w = Xcᵀyc + 2ρ'M a, b = ȳ − x̄ᵀw
// (ALGORITHMS.md eq. 2) with ρ' = ρ/scale.
func (td *taskData) squaredPrimal(ws *wstep, w []float64, b *float64, cache *taskCache) error {
	d := len(w)
	rho2 := 2 * ws.rho / ws.scale
	var l []float64
	if cache != nil && cache.m == ws.m && cache.rho == rho2 {
		l = cache.l
	} else {
		M := ws.m.denseM()
		if cache != nil && len(cache.l) == d*d {
			l = cache.l
		} else {
			l = make([]float64, d*d)
		}
		for i, v := range td.c {
			l[i] = v + rho2*M[i]
		}
		if !linalg.Cholesky(l, d) {
			return errNumeric(fmt.Sprintf("task %s: W-step system is not positive definite", td.name))
		}
		if cache != nil {
			cache.m, cache.rho, cache.l = ws.m, rho2, l
		}
	}
	copy(w, td.q)
	if ws.anchor != nil {
		ma := make([]float64, d)
		ws.m.applyM(ma, ws.anchor)
		linalg.Axpy(w, rho2, ma)
	}
	linalg.CholSolve(l, d, w)
	*b = td.ybar - linalg.Dot(td.xbar, w)
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
	for i := 0; i < n; i++ {
		ri := xu[i*r : i*r+r]
		for j := i; j < n; j++ {
			v := td.k0[i*n+j]
			if centered {
				v += -td.k0pi[i] - td.k0pi[j] + td.pipi
			}
			v *= m.beta
			rj := xu[j*r : j*r+r]
			for c := 0; c < r; c++ {
				v += ri[c] * m.gamma[c] * rj[c]
			}
			if centered && td.rw != nil {
				v *= math.Sqrt(td.rw[i] * td.rw[j])
			}
			k[i*n+j], k[j*n+i] = v, v
		}
	}
	return k, xu
}

// squaredSpan solves the squared W-step in the span of the task's centered
// rows (docs/algorithms.md eq. 3): (Xc M⁻¹ Xcᵀ + 2ρ'I) α = yc − Xc a,
// w = a + M⁻¹ Xcᵀ α (for a weighted task, Xc and yc − Xc a carry √rw_i on
// their rows). Only N×N systems and O(d r) products. It returns the
// penalty (w−a)ᵀM(w−a) = αᵀ Xc M⁻¹ Xcᵀ α = αᵀ(r − 2ρ'α).
func (td *taskData) squaredSpan(ws *wstep, w []float64, b *float64, cache *taskCache) (float64, error) {
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
			return 0, errNumeric(fmt.Sprintf("task %s: W-step kernel system is not positive definite", td.name))
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
	pen := math.Max(0, linalg.Dot(alpha, r)-rho2*linalg.Dot(alpha, alpha))
	if td.rw != nil {
		// w − a = M⁻¹Xcᵀ D^{1/2} α̃: the row coefficients are √rw_i α̃_i.
		for i := range alpha {
			alpha[i] *= math.Sqrt(td.rw[i])
		}
	}
	td.spanToW(ws, alpha, true, xu, w)
	*b = td.ybar - linalg.Dot(td.xbar, w)
	return pen, nil
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
		linalg.Axpy(w, 1, ws.anchor)
	}
}

// Newton settings for the logistic W-step: stop when the Newton decrement
// −gᵀΔ (relative to the objective) falls below newtonTol, take one last
// undamped step once it is below newtonFinal, and give up improving after
// newtonMaxIter steps or when a line search finds no decrease.
const (
	newtonTol     = 1e-20
	newtonFinal   = 1e-8
	newtonMaxIter = 100
	lineSearchMax = 40
)

// logisticPrimal runs Newton's method with backtracking on (w, b) ∈ R^{d+1}
// and returns the data term at the solution. Each trial point is evaluated
// together with its gradient and Hessian in one pass over the rows (one exp
// and one log1p per row), since a full Newton step is nearly always accepted
// and the trial becomes the iterate. The data part at the solution is kept
// in cache: the next outer iteration starts there and changes only the
// penalty.
func (td *taskData) logisticPrimal(ws *wstep, w []float64, b *float64, cache *taskCache) (float64, error) {
	d := len(w)
	p := d + 1
	if cache.data == nil || len(cache.data.grad) != p {
		cache.data, cache.spare = newLogisticEval(p), newLogisticEval(p)
		cache.dw = make([]float64, d)
		cache.dataOK = false
	}
	curD, trialD := cache.data, cache.spare
	if !cache.dataOK || cache.db != *b || !equalVec(cache.dw, w) {
		td.logisticData(ws.scale, w, *b, curD)
	}
	cur, trial := newLogisticEval(p), newLogisticEval(p)
	ws.addPenalty(w, curD, cur)
	fac := make([]float64, p*p)
	delta := make([]float64, p)
	tw := make([]float64, d)
	for it := 0; it < newtonMaxIter; it++ {
		copy(fac, cur.h)
		if !linalg.Cholesky(fac, p) {
			// The bias direction can be flat on separable data: damp it.
			copy(fac, cur.h)
			for a := 0; a < p; a++ {
				fac[a*p+a] += 1e-10 * (1 + fac[a*p+a])
			}
			if !linalg.Cholesky(fac, p) {
				cache.dataOK = false
				return 0, errNumeric(fmt.Sprintf("task %s: logistic Hessian is not positive definite", td.name))
			}
		}
		copy(delta, cur.grad)
		linalg.CholSolve(fac, p, delta)
		dec := linalg.Dot(cur.grad, delta) // Newton decrement; the step is −delta
		if !(dec >= 0) {
			cache.dataOK = false
			return 0, errNumeric(fmt.Sprintf("task %s: Newton decrement %v", td.name, dec))
		}
		scale := math.Max(1, math.Abs(cur.f))
		if dec <= newtonTol*scale {
			break
		}
		if dec <= newtonFinal*scale {
			// Inside the region of quadratic convergence: a full step
			// leaves an error far below round-off, and a line search could
			// no longer tell the objective values apart.
			linalg.Axpy(w, -1, delta[:d])
			*b -= delta[d]
			td.logisticData(ws.scale, w, *b, curD)
			break
		}
		step := 1.0
		accepted := false
		for ls := 0; ls <= lineSearchMax; ls++ {
			for j := range tw {
				tw[j] = w[j] - step*delta[j]
			}
			tb := *b - step*delta[d]
			td.logisticData(ws.scale, tw, tb, trialD)
			ws.addPenalty(tw, trialD, trial)
			if trial.f <= cur.f-1e-4*step*dec {
				copy(w, tw)
				*b = tb
				curD, trialD = trialD, curD
				cur, trial = trial, cur
				accepted = true
				break
			}
			step /= 2
		}
		if !accepted {
			break // no further decrease possible in floating point
		}
	}
	cache.data, cache.spare = curD, trialD
	copy(cache.dw, w)
	cache.db = *b
	cache.dataOK = true
	return curD.f, nil
}

// logisticEval holds an objective value, its gradient and its Hessian
// (p×p row-major, both triangles) at one point.
type logisticEval struct {
	f    float64
	grad []float64
	h    []float64
}

func newLogisticEval(p int) *logisticEval {
	return &logisticEval{grad: make([]float64, p), h: make([]float64, p*p)}
}

// logisticData fills e with the data term scale·Σ softplus(−y_i f_i) and its
// derivatives at (w, b), for a dense task in the primal form.
func (td *taskData) logisticData(scale float64, w []float64, b float64, e *logisticEval) {
	d := len(w)
	p := d + 1
	grad, hd := e.grad, e.h
	for i := range grad {
		grad[i] = 0
	}
	for i := range hd {
		hd[i] = 0
	}
	var loss float64
	for i := 0; i < td.n; i++ {
		row := td.x.RawRowView(i)
		z := -td.y[i] * (linalg.Dot(row, w) + b)
		// softplus(z) and sigmoid(z) from one exponential.
		ez := math.Exp(-math.Abs(z))
		s := 1 / (1 + ez)
		sp := math.Log1p(ez)
		if z > 0 {
			sp += z
		} else {
			s = ez * s
		}
		wi := td.wt(i)
		loss += wi * sp
		g := -td.y[i] * s * scale * wi
		c := s * (1 - s) * scale * wi
		linalg.Axpy(grad[:d], g, row)
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
	for a := 0; a < p; a++ {
		for bb := a + 1; bb < p; bb++ {
			hd[bb*p+a] = hd[a*p+bb]
		}
	}
	e.f = scale * loss
}

// addPenalty sets out = data + the W-step penalty ρ(w−a)ᵀM(w−a) and its
// derivatives, with M dense (primal form).
func (ws *wstep) addPenalty(w []float64, data, out *logisticEval) {
	d := len(w)
	p := d + 1
	copy(out.grad, data.grad)
	copy(out.h, data.h)
	M := ws.m.denseM()
	u := ws.diff(w)
	rho2 := 2 * ws.rho
	var pen float64
	for a := 0; a < d; a++ {
		ma := M[a*d : a*d+d]
		mu := linalg.Dot(ma, u)
		pen += u[a] * mu
		out.grad[a] += rho2 * mu
		linalg.Axpy(out.h[a*p:a*p+d], rho2, ma)
	}
	out.f = data.f + ws.rho*pen
}

func equalVec(a, b []float64) bool {
	for i, v := range a {
		if b[i] != v {
			return false
		}
	}
	return true
}

// logisticSpan runs Newton's method in the representer form
// w = a + M⁻¹Xᵀα (ALGORITHMS.md §1), on (α, b) ∈ R^{N+1}. With K = XM⁻¹Xᵀ
// the objective is (1/N)Σ softplus(−y_i f_i) + ρ αᵀKα, f = Xa + Kα + b.
// The Newton system H Δ = −∇ shares its solutions with the smaller,
// better conditioned system R Δ = −r obtained by dividing K out of the α
// rows, which is what is solved.
func (td *taskData) logisticSpan(ws *wstep, w []float64, b *float64) (loss, pen float64, err error) {
	n := td.n
	k, xu := td.kernel(ws.m, false)
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
			s += td.wt(i) * softplus(-td.y[i]*(c0[i]+kAlpha[i]+bb))
		}
		return s*ws.scale + ws.rho*linalg.Dot(alpha, kAlpha)
	}
	symVec(k, alpha, kAlpha)
	f := objAt(alpha, bb, kAlpha)
	R := make([]float64, (n+1)*(n+1))
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
			g[i] = -td.y[i] * s * ws.scale * td.wt(i)
			sv[i] = s * (1 - s) * ws.scale * td.wt(i)
			sumG += g[i]
			sumS += sv[i]
		}
		colS := make([]float64, n)
		for i := 0; i < n; i++ {
			row := R[i*(n+1) : (i+1)*(n+1)]
			for j := 0; j < n; j++ {
				kij := k[i*n+j]
				row[j] = sv[i] * kij
				colS[j] += sv[i] * kij
			}
			row[i] += 2 * ws.rho
			row[n] = sv[i]
			rhs[i] = g[i] + 2*ws.rho*alpha[i]
		}
		last := R[n*(n+1):]
		copy(last[:n], colS)
		last[n] = sumS + 1e-12
		rhs[n] = sumG
		delta := rhs // solved in place; the step is −delta
		if !linalg.GaussSolve(R, n+1, delta) {
			return 0, 0, errNumeric(fmt.Sprintf("task %s: kernel Newton system is singular", td.name))
		}
		// Directional derivative ∇ᵀdelta = (g + 2ρα)ᵀK δα + Σg·δb.
		symVec(k, delta[:n], kd)
		var dec float64
		for i := 0; i < n; i++ {
			dec += (g[i] + 2*ws.rho*alpha[i]) * kd[i]
		}
		dec += sumG * delta[n]
		if !(dec >= -1e-12) {
			return 0, 0, errNumeric(fmt.Sprintf("task %s: kernel Newton decrement %v", td.name, dec))
		}
		if dec <= newtonTol*math.Max(1, math.Abs(f)) {
			break
		}
		step := 1.0
		var ft float64
		final := dec <= newtonFinal*math.Max(1, math.Abs(f))
		for ls := 0; !final; ls++ {
			for i := range trialA {
				trialA[i] = alpha[i] - step*delta[i]
				trialK[i] = kAlpha[i] - step*kd[i]
			}
			ft = objAt(trialA, bb-step*delta[n], trialK)
			if ft <= f-1e-4*step*dec || ls >= lineSearchMax {
				break
			}
			step /= 2
		}
		if final {
			linalg.Axpy(alpha, -1, delta[:n])
			linalg.Axpy(kAlpha, -1, kd)
			bb -= delta[n]
			break
		}
		if !(ft <= f-1e-4*step*dec) {
			break
		}
		copy(alpha, trialA)
		copy(kAlpha, trialK)
		bb -= step * delta[n]
		f = ft
	}
	td.spanToW(ws, alpha, false, xu, w)
	*b = bb
	pen = math.Max(0, linalg.Dot(alpha, kAlpha))
	return objAt(alpha, bb, kAlpha) - ws.rho*pen, pen, nil
}

// symVec sets dst = A v for a square row-major A.
func symVec(a []float64, v, dst []float64) {
	n := len(v)
	for i := range dst {
		dst[i] = linalg.Dot(a[i*n:i*n+n], v)
	}
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
