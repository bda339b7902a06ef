package mtl

import (
	"fmt"
	"math"

	"github.com/spmtl/spmtl/core/internal/linalg"
)

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
	if cache.newton == nil || len(cache.newton.delta) != p {
		cache.newton = &newtonScratch{cur: newLogisticEval(p), trial: newLogisticEval(p),
			fac: make([]float64, p*p), delta: make([]float64, p), step: make([]float64, d)}
	}
	ns := cache.newton
	cur, trial := ns.cur, ns.trial
	ws.addPenalty(w, *b, curD, cur)
	fac, delta, tw := ns.fac, ns.delta, ns.step
	for it := 0; it < newtonMaxIter; it++ {
		if !factorDamped(fac, cur.h, p) {
			cache.dataOK = false
			return 0, errNumeric(fmt.Sprintf("task %s: logistic Hessian is not positive definite", td.name))
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
			ws.addPenalty(tw, tb, trialD, trial)
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
	ns.cur, ns.trial = cur, trial
	copy(cache.dw, w)
	cache.db = *b
	cache.dataOK = true
	return curD.f, nil
}

// logisticEval holds an objective value, its gradient and its Hessian
// (p×p row-major, both triangles) at one point, and logisticData's
// per-row scratch.
type logisticEval struct {
	f    float64
	grad []float64
	h    []float64
	rows []float64
}

func newLogisticEval(p int) *logisticEval {
	return &logisticEval{grad: make([]float64, p), h: make([]float64, p*p)}
}

// logisticData fills e with the data term scale·Σ softplus(−y_i f_i) and its
// derivatives at (w, b), for a dense task in the primal form. It works a
// column of X at a time (td.columns): the margins as d long Axpys over the
// rows, the gradient and the Hessian's entries as long Dots, where a rank-1
// update per row spent its time, under js/wasm, in short loops' bounds
// checks and calls (58% of a landmine run in node's profile).
func (td *taskData) logisticData(scale float64, w []float64, b float64, e *logisticEval) {
	d, n := len(w), td.n
	p := d + 1
	xt := td.columns()
	if len(e.rows) < 4*n {
		e.rows = make([]float64, 4*n)
	}
	f, g, c, cx := e.rows[:n], e.rows[n:2*n], e.rows[2*n:3*n], e.rows[3*n:4*n]
	for i := range f {
		f[i] = b
	}
	for a, wa := range w {
		if wa != 0 {
			linalg.Axpy(f, wa, xt[a*n:a*n+n])
		}
	}
	var loss, sg, sc float64
	for i, fi := range f {
		z := -td.y[i] * fi
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
		g[i] = -td.y[i] * s * scale * wi
		c[i] = s * (1 - s) * scale * wi
		sg += g[i]
		sc += c[i]
	}
	grad, hd := e.grad, e.h
	for a := 0; a < d; a++ {
		xa := xt[a*n : a*n+n]
		grad[a] = linalg.Dot(g, xa)
		for i, v := range xa {
			cx[i] = c[i] * v
		}
		linalg.Dots(hd[a*p+a:a*p+d], cx, xt[a*n:], n)
		hd[a*p+d] = linalg.Dot(c, xa)
	}
	grad[d] = sg
	hd[d*p+d] = sc
	for a := 0; a < p; a++ {
		for bb := a + 1; bb < p; bb++ {
			hd[bb*p+a] = hd[a*p+bb]
		}
	}
	e.f = scale * loss
}

// addPenalty sets out = data + the W-step penalty ρ(w−a)ᵀM(w−a) (plus
// ρκ(b − b0)² for a shared intercept) and its derivatives, with M dense
// (primal form).
func (ws *wstep) addPenalty(w []float64, b float64, data, out *logisticEval) {
	d := len(w)
	p := d + 1
	copy(out.grad, data.grad)
	copy(out.h, data.h)
	M := ws.m.denseM()
	u := ws.diffInto(ws.buf(d), w)
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
	if ws.kappa > 0 {
		// The shared intercept's ρκ(b − b0)² (docs/algorithms.md §1.4).
		db := b - ws.b0
		out.f += ws.rho * ws.kappa * db * db
		out.grad[d] += rho2 * ws.kappa * db
		out.h[d*p+d] += rho2 * ws.kappa
	}
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
// w = a + M⁻¹Xᵀα (docs/algorithms.md §1), on (α, b) ∈ R^{N+1}. With K = XM⁻¹Xᵀ
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
		return s*ws.scale + ws.rho*linalg.Dot(alpha, kAlpha) + ws.rho*ws.interceptPenalty(bb)
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
		// The shared intercept's ρκ(b − b0)² (docs/algorithms.md §1.4).
		gb := sumG + 2*ws.rho*ws.kappa*(bb-ws.b0)
		last[n] = sumS + 1e-12 + 2*ws.rho*ws.kappa
		rhs[n] = gb
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
		dec += gb * delta[n]
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
	return objAt(alpha, bb, kAlpha) - ws.rho*pen - ws.rho*ws.interceptPenalty(bb), pen, nil
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

// factorDamped sets fac to the Cholesky factor of the p×p matrix h, or,
// when h is not positive definite, of h with each diagonal entry raised by
// 1e-10·(1 + h_aa): on separable data the bias direction can be flat. It
// reports false when neither factors. The W-step's Newton matrix and the
// value function's Hessian (anchorProblem.hessian) are damped alike.
func factorDamped(fac, h []float64, p int) bool {
	copy(fac, h)
	if linalg.Cholesky(fac, p) {
		return true
	}
	copy(fac, h)
	for a := 0; a < p; a++ {
		fac[a*p+a] += 1e-10 * (1 + fac[a*p+a])
	}
	return linalg.Cholesky(fac, p)
}
