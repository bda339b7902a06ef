package seq

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/internal/linalg"
	"github.com/spmtl/spmtl/core/mtl"
)

const dataClassification = data.Classification

// The task-selection rules of ELLA (Ruvolo & Eaton 2013).
const (
	SelectRandom      = "random"
	SelectInfoMax     = "infomax"
	SelectDiversity   = "diversity"
	SelectDiversityPP = "diversity++"
)

// ELLAConfig configures ELLA. Zero fields take the authors' landmine values
// (docs/algorithms.md §9, §10), so Mu cannot be set to exactly 0.
type ELLAConfig struct {
	K      int     // basis size k, default 5
	Mu     float64 // sparsity μ of the codes, default e^-12
	Lambda float64 // ridge λ on the basis, default e^-10
	Alpha  float64 // ridge α of the single-task fits, default e^-5
	// Select is random, infomax, diversity or diversity++ (default random).
	Select string
	// Loss defaults to logistic for classification, squared otherwise.
	// Logistic fits treat the label +1 as positive and everything else as
	// negative.
	Loss mtl.Loss
	// Seed seeds the PCG generator behind L⁽⁰⁾, re-drawn basis columns and
	// the random and Diversity++ draws.
	Seed uint64
}

// ELLA is the efficient lifelong learning algorithm (docs/algorithms.md §9):
// every task's single-task optimum θ_t (with the bias as a last, constant
// feature) is encoded as θ_t ≈ L s_t with a shared basis L (d+1 × k) and
// sparse codes s_t, and L is refitted from the running sums A and b after
// each task. L⁽⁰⁾ and every random choice come from a PCG generator seeded
// with ELLAConfig.Seed, so a seed gives the same run on every platform.
//
// The Lasso codes are computed by an exact active-set method (feature-sign
// search) on the Gram form
// ½ sᵀ(LᵀDL)s − (LᵀDθ)ᵀs + (μ/2)‖s‖₁, which is the spec's
// ½‖D^{1/2}(θ − Ls)‖² + (μ/2)‖s‖₁ expanded (the two differ by a constant),
// so D^{1/2} is never formed.
type ELLA struct {
	cfg     ELLAConfig
	ds      *data.Dataset
	p       int // d' = d + 1
	k       int
	rng     *rand.Rand
	basis   []float64   // L, d'×k column-major: L[r][j] = basis[j*p + r]
	info    []float64   // A, (d'k)×(d'k) row-major
	bvec    []float64   // b, d'k
	seen    int         // T_seen
	theta   [][]float64 // single-task optima θ_t
	curv    [][]float64 // D_t, d'×d' row-major
	s       [][]float64 // codes: frozen once learned, else the latest encoding
	learned []bool
	order   []int
	hist    []mtl.Snapshot
}

// NewELLA fits every task's single-task model (θ_t, D_t), draws L⁽⁰⁾ and
// encodes every task with it. It refuses (d+1)·k > 4000, since the basis
// update solves a dense (d+1)k-dimensional system.
func NewELLA(ds *data.Dataset, cfg ELLAConfig) (e *ELLA, err error) {
	if ds == nil {
		return nil, fmt.Errorf("new ella: nil dataset")
	}
	if err := ds.Validate(); err != nil {
		return nil, fmt.Errorf("new ella: %w", err)
	}
	if cfg.K == 0 {
		cfg.K = 5
	}
	if cfg.Mu == 0 {
		cfg.Mu = math.Exp(-12)
	}
	if cfg.Lambda == 0 {
		cfg.Lambda = math.Exp(-10)
	}
	if cfg.Alpha == 0 {
		cfg.Alpha = math.Exp(-5)
	}
	if cfg.Select == "" {
		cfg.Select = SelectRandom
	}
	if cfg.Loss == "" {
		cfg.Loss = mtl.Config{}.Defaults(ds.Kind == dataClassification).Loss
	}
	switch {
	case cfg.K < 1:
		return nil, fmt.Errorf("new ella: k must be at least 1, got %d", cfg.K)
	case !(cfg.Mu >= 0) || !(cfg.Lambda > 0) || !(cfg.Alpha > 0) || math.IsInf(cfg.Mu+cfg.Lambda+cfg.Alpha, 0):
		return nil, fmt.Errorf("new ella: mu must be non-negative and lambda, alpha positive, all finite (got mu %v, lambda %v, alpha %v)", cfg.Mu, cfg.Lambda, cfg.Alpha)
	case cfg.Select != SelectRandom && cfg.Select != SelectInfoMax && cfg.Select != SelectDiversity && cfg.Select != SelectDiversityPP:
		return nil, fmt.Errorf("new ella: unknown selection rule %q (want random, infomax, diversity or diversity++)", cfg.Select)
	case cfg.Loss != mtl.Squared && cfg.Loss != mtl.Logistic:
		return nil, fmt.Errorf("new ella: unknown loss %q (want squared or logistic)", cfg.Loss)
	case cfg.Loss == mtl.Logistic && ds.Kind != data.Classification:
		return nil, fmt.Errorf("new ella: the logistic loss needs binary labels")
	case (ds.Features+1)*cfg.K > 4000:
		return nil, fmt.Errorf("new ella: (d+1)·k = %d is too large for ELLA's dense basis update (it is meant for low-dimensional data such as landmine): choose CL or a parallel method such as MTFL for these %d features", (ds.Features+1)*cfg.K, ds.Features)
	}
	T := len(ds.Tasks)
	p := ds.Features + 1
	e = &ELLA{cfg: cfg, ds: ds, p: p, k: cfg.K, rng: rand.New(rand.NewPCG(cfg.Seed, 0xe11a)),
		basis: make([]float64, p*cfg.K), info: make([]float64, p*cfg.K*p*cfg.K), bvec: make([]float64, p*cfg.K),
		theta: make([][]float64, T), curv: make([][]float64, T), s: make([][]float64, T), learned: make([]bool, T)}
	for i := range e.basis {
		e.basis[i] = e.rng.NormFloat64()
	}
	for t := range ds.Tasks {
		if e.theta[t], e.curv[t], err = e.singleTask(&ds.Tasks[t]); err != nil {
			return nil, fmt.Errorf("new ella: task %s: %w", ds.Tasks[t].Name, err)
		}
	}
	// EncodeOnly every task with L⁽⁰⁾ so that Model is complete before the
	// first step.
	for t := range e.s {
		if e.s[t], err = e.encodeChecked(t); err != nil {
			return nil, fmt.Errorf("new ella: %w", err)
		}
	}
	return e, nil
}

// encodeChecked is encode with a check that the code is finite.
func (e *ELLA) encodeChecked(t int) ([]float64, error) {
	s := e.encode(t)
	for _, v := range s {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("task %s: non-finite code", e.ds.Tasks[t].Name)
		}
	}
	return s, nil
}

// row fills buf with example i of the task and a trailing 1.
func row(t *data.Task, i int, buf []float64) {
	for j := range buf {
		buf[j] = 0
	}
	if t.S != nil {
		for k := t.S.Indptr[i]; k < t.S.Indptr[i+1]; k++ {
			buf[t.S.Indices[k]] = t.S.Values[k]
		}
	} else {
		copy(buf, t.X.RawRowView(i))
	}
	buf[len(buf)-1] = 1
}

// singleTask returns the task's ridge optimum θ (bias unpenalized) and D,
// half the Hessian of the mean loss at θ (docs/algorithms.md §9).
func (e *ELLA) singleTask(t *data.Task) ([]float64, []float64, error) {
	p, n := e.p, t.Rows()
	x := make([]float64, p)
	h := make([]float64, p*p)
	g := make([]float64, p)
	theta := make([]float64, p)
	ridge := func(h []float64) {
		for j := 0; j < p-1; j++ {
			h[j*p+j] += e.cfg.Alpha
		}
	}
	if e.cfg.Loss == mtl.Squared {
		for i := 0; i < n; i++ {
			row(t, i, x)
			linalg.Axpy(g, t.Y[i], x)
			addOuter(h, p, 1, x)
		}
		mirror(h, p)
		ridge(h)
		D := make([]float64, p*p)
		for i := range h {
			D[i] = h[i] / float64(n)
		}
		if !linalg.SolveSPD(h, p, g) {
			return nil, nil, fmt.Errorf("single-task system is singular")
		}
		return g, D, nil
	}
	// Ridge logistic regression by Newton's method on {0, 1} labels.
	prob := make([]float64, n)
	for i := range prob {
		prob[i] = 0.5
	}
	for it := 0; it < 100; it++ {
		for i := range h {
			h[i] = 0
		}
		for j := range g {
			g[j] = -e.cfg.Alpha * theta[j]
		}
		g[p-1] = 0
		for i := 0; i < n; i++ {
			row(t, i, x)
			y01 := 0.0 // the positive class is +1, everything else negative
			if t.Y[i] == 1 {
				y01 = 1
			}
			linalg.Axpy(g, y01-prob[i], x)
			addOuter(h, p, prob[i]*(1-prob[i]), x)
		}
		mirror(h, p)
		ridge(h)
		if !linalg.SolveSPD(append([]float64(nil), h...), p, g) {
			break
		}
		for j := range theta {
			theta[j] += g[j]
		}
		var change float64
		for i := 0; i < n; i++ {
			row(t, i, x)
			np := 1 / (1 + math.Exp(-linalg.Dot(x, theta)))
			change = math.Max(change, math.Abs(np-prob[i]))
			prob[i] = np
		}
		if change <= 1e-3 {
			break
		}
	}
	for _, v := range theta {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return make([]float64, p), make([]float64, p*p), nil // as the authors' code: θ = 0, D = 0
		}
	}
	for i := range h {
		h[i] = 0
	}
	for i := 0; i < n; i++ {
		row(t, i, x)
		addOuter(h, p, prob[i]*(1-prob[i]), x)
	}
	mirror(h, p)
	ridge(h)
	D := make([]float64, p*p)
	for i := range h {
		D[i] = 0.5 * h[i] / float64(n)
		if math.IsNaN(D[i]) || math.IsInf(D[i], 0) {
			// Overflowing features: the same fallback as a NaN θ.
			return make([]float64, p), make([]float64, p*p), nil
		}
	}
	return theta, D, nil
}

// addOuter adds w·x xᵀ to the lower triangle of the p×p row-major h.
func addOuter(h []float64, p int, w float64, x []float64) {
	for a := 0; a < p; a++ {
		if f := w * x[a]; f != 0 {
			linalg.Axpy(h[a*p:a*p+a+1], f, x[:a+1])
		}
	}
}

// mirror copies the lower triangle of the p×p row-major h to the upper.
func mirror(h []float64, p int) {
	for a := 0; a < p; a++ {
		for b := 0; b < a; b++ {
			h[b*p+a] = h[a*p+b]
		}
	}
}

// encode returns the Lasso code of task t with the current basis:
// argmin_s ½(θ − Ls)ᵀD(θ − Ls) + (μ/2)‖s‖₁, solved on the k×k Gram form
// G = LᵀDL, c = LᵀDθ (the same problem as the D^{1/2} formulation of
// docs/algorithms.md §9, without forming D^{1/2}).
func (e *ELLA) encode(t int) []float64 {
	p, k := e.p, e.k
	D, th := e.curv[t], e.theta[t]
	DL := make([]float64, p*k) // column-major, like L
	for j := 0; j < k; j++ {
		col := e.basis[j*p : j*p+p]
		for r := 0; r < p; r++ {
			DL[j*p+r] = linalg.Dot(D[r*p:r*p+p], col)
		}
	}
	G := make([]float64, k*k)
	c := make([]float64, k)
	for i := 0; i < k; i++ {
		ci := e.basis[i*p : i*p+p]
		for j := 0; j <= i; j++ {
			G[i*k+j] = linalg.Dot(ci, DL[j*p:j*p+p])
			G[j*k+i] = G[i*k+j]
		}
		c[i] = linalg.Dot(DL[i*p:i*p+p], th)
	}
	return lasso(G, c, k, e.cfg.Mu/2)
}

// residual returns θ_t − L s.
func (e *ELLA) residual(t int, s []float64) []float64 {
	r := append([]float64(nil), e.theta[t]...)
	for j, sj := range s {
		if sj != 0 {
			linalg.Axpy(r, -sj, e.basis[j*e.p:j*e.p+e.p])
		}
	}
	return r
}

// addTask learns task t (docs/algorithms.md §9, AddTask).
func (e *ELLA) addTask(t int) error {
	p, k := e.p, e.k
	s, err := e.encodeChecked(t)
	if err != nil {
		return err
	}
	e.seen++
	if e.seen <= k {
		copy(e.basis[(e.seen-1)*p:e.seen*p], e.theta[t])
		s = make([]float64, k)
		s[e.seen-1] = 1
	}
	e.s[t] = s
	e.accumulate(t, s)
	return e.refit()
}

// accumulate adds task t with code s to the running sums:
// A += (s sᵀ) ⊗ D_t and b += vec(D_t θ_t sᵀ), column-major like L.
func (e *ELLA) accumulate(t int, s []float64) {
	p, k := e.p, e.k
	D, th := e.curv[t], e.theta[t]
	n := p * k
	Dth := make([]float64, p)
	for r := 0; r < p; r++ {
		Dth[r] = linalg.Dot(D[r*p:r*p+p], th)
	}
	// A += (s sᵀ) ⊗ D; b += vec(D θ sᵀ), both column-major in L's layout.
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			f := s[i] * s[j]
			if f == 0 {
				continue
			}
			for r := 0; r < p; r++ {
				linalg.Axpy(e.info[(i*p+r)*n+j*p:(i*p+r)*n+j*p+p], f, D[r*p:r*p+p])
			}
		}
		linalg.Axpy(e.bvec[i*p:i*p+p], s[i], Dth)
	}
}

// refit solves (A/T + λI) vec(L) = b/T for the basis and re-draws any
// column that collapsed to zero.
func (e *ELLA) refit() error {
	p, k := e.p, e.k
	n := p * k
	M := make([]float64, n*n)
	rhs := make([]float64, n)
	inv := 1 / float64(e.seen)
	for i := range M {
		M[i] = e.info[i] * inv
	}
	for i := 0; i < n; i++ {
		M[i*n+i] += e.cfg.Lambda
		rhs[i] = e.bvec[i] * inv
	}
	if !linalg.SolveSPD(M, n, rhs) {
		return fmt.Errorf("basis update: the system is not positive definite")
	}
	copy(e.basis, rhs)
	for j := 0; j < k; j++ {
		col := e.basis[j*p : j*p+p]
		if linalg.Dot(col, col) < 1e-10 {
			for r := range col {
				col[r] = e.rng.NormFloat64()
			}
		}
	}
	return nil
}

// Done reports whether every task is learned.
func (e *ELLA) Done() bool { return len(e.order) == len(e.learned) }

// History returns the snapshots so far.
func (e *ELLA) History() []mtl.Snapshot { return e.hist }

// Step selects a task by the configured rule, learns it (AddTask), and
// re-encodes the tasks not learned yet with the new basis (EncodeOnly).
func (e *ELLA) Step() (snap mtl.Snapshot, err error) {
	if e.Done() {
		return e.hist[len(e.hist)-1], nil
	}
	step := len(e.order) + 1
	pick, scores, err := e.selectTask()
	if err != nil {
		return snap, fmt.Errorf("ella step %d: %s: %w", step, e.cfg.Select, err)
	}
	if err := e.addTask(pick); err != nil {
		return snap, fmt.Errorf("ella step %d: task %s: %w", step, e.ds.Tasks[pick].Name, err)
	}
	for _, v := range e.basis {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return snap, fmt.Errorf("ella step %d: the basis diverged", step)
		}
	}
	e.learned[pick] = true
	e.order = append(e.order, pick)
	for _, u := range remaining(e.learned) {
		if e.s[u], err = e.encodeChecked(u); err != nil {
			return snap, fmt.Errorf("ella step %d: %w", step, err)
		}
	}
	snap = snapshot(step, pick, e.order, scores, e.Done())
	sq := snap.Seq
	sq.L = make([][]float64, e.p)
	for r := range sq.L {
		sq.L[r] = make([]float64, e.k)
		for j := 0; j < e.k; j++ {
			sq.L[r][j] = e.basis[j*e.p+r]
		}
	}
	sq.S = make([][]float64, len(e.s))
	for t := range e.s {
		sq.S[t] = append([]float64(nil), e.s[t]...)
	}
	e.hist = append(e.hist, snap)
	return snap, nil
}

// Model returns every task's predictor: w_t is L s_t without its last
// entry and b_t is that last entry. A learned task's code is frozen; a task
// not learned yet uses its latest encoding in the current basis (from
// L⁽⁰⁾ before the first step), so the model is always complete.
func (e *ELLA) Model() *mtl.Model {
	d := e.p - 1
	m := &mtl.Model{Features: d, Kind: e.ds.Kind}
	for t := range e.ds.Tasks {
		th := make([]float64, e.p)
		if e.s[t] != nil {
			for j, sj := range e.s[t] {
				linalg.Axpy(th, sj, e.basis[j*e.p:j*e.p+e.p])
			}
		}
		m.Names = append(m.Names, e.ds.Tasks[t].Name)
		m.W = append(m.W, th[:d])
		m.B = append(m.B, th[d])
	}
	return m
}
