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
// (ALGORITHMS.md §9, §10).
type ELLAConfig struct {
	K      int     // basis size, default 5
	Mu     float64 // sparsity of the codes, default e^-12
	Lambda float64 // ridge on the basis, default e^-10
	Alpha  float64 // ridge of the single-task fits, default e^-5
	// Select is random, infomax, diversity or diversity++ (default random).
	Select string
	// Loss defaults to logistic for classification, squared otherwise.
	Loss mtl.Loss
	Seed uint64
}

// ELLA is the efficient lifelong learning algorithm: every task's
// single-task optimum θ_t (with the bias as a last, constant feature) is
// encoded as θ_t ≈ L s_t with a shared basis L (d+1 × k) and sparse codes
// s_t, and L is refitted from the running sums A and b after each task.
type ELLA struct {
	cfg     ELLAConfig
	ds      *data.Dataset
	p       int // d + 1
	k       int
	rng     *rand.Rand
	L       []float64 // column-major: L[j*p + r]
	A       []float64 // (p k)², row-major
	bvec    []float64 // p k
	seen    int
	theta   [][]float64 // single-task optima
	D       [][]float64 // p×p row-major
	s       [][]float64 // codes: frozen once learned, else the latest encoding
	learned []bool
	order   []int
	hist    []Snapshot
}

// NewELLA fits every task's single-task model and starts ELLA.
func NewELLA(ds *data.Dataset, cfg ELLAConfig) (e *ELLA, err error) {
	defer guard(&err, "new ella")
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
	case !(cfg.Mu >= 0) || !(cfg.Lambda > 0) || !(cfg.Alpha > 0):
		return nil, fmt.Errorf("new ella: mu must be non-negative and lambda, alpha positive")
	case cfg.Select != SelectRandom && cfg.Select != SelectInfoMax && cfg.Select != SelectDiversity && cfg.Select != SelectDiversityPP:
		return nil, fmt.Errorf("new ella: unknown selection rule %q (want random, infomax, diversity or diversity++)", cfg.Select)
	case cfg.Loss == mtl.Logistic && ds.Kind != data.Classification:
		return nil, fmt.Errorf("new ella: the logistic loss needs binary labels")
	case (ds.Features+1)*cfg.K > 4000:
		return nil, fmt.Errorf("new ella: (d+1)·k = %d is too large for ELLA's dense basis update (it is meant for low-dimensional data such as landmine)", (ds.Features+1)*cfg.K)
	}
	T := len(ds.Tasks)
	p := ds.Features + 1
	e = &ELLA{cfg: cfg, ds: ds, p: p, k: cfg.K, rng: rand.New(rand.NewPCG(cfg.Seed, 0xe11a)),
		L: make([]float64, p*cfg.K), A: make([]float64, p*cfg.K*p*cfg.K), bvec: make([]float64, p*cfg.K),
		theta: make([][]float64, T), D: make([][]float64, T), s: make([][]float64, T), learned: make([]bool, T)}
	for i := range e.L {
		e.L[i] = e.rng.NormFloat64()
	}
	for t := range ds.Tasks {
		if e.theta[t], e.D[t], err = e.singleTask(&ds.Tasks[t]); err != nil {
			return nil, fmt.Errorf("new ella: task %s: %w", ds.Tasks[t].Name, err)
		}
	}
	return e, nil
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
// half the Hessian of the mean loss at θ (ALGORITHMS.md §9).
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
			for a := 0; a < p; a++ {
				g[a] += x[a] * t.Y[i]
				for b := 0; b < p; b++ {
					h[a*p+b] += x[a] * x[b]
				}
			}
		}
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
			y01 := (t.Y[i] + 1) / 2
			w := prob[i] * (1 - prob[i])
			for a := 0; a < p; a++ {
				g[a] += x[a] * (y01 - prob[i])
				for b := 0; b < p; b++ {
					h[a*p+b] += w * x[a] * x[b]
				}
			}
		}
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
		w := prob[i] * (1 - prob[i])
		for a := 0; a < p; a++ {
			for b := 0; b < p; b++ {
				h[a*p+b] += w * x[a] * x[b]
			}
		}
	}
	ridge(h)
	D := make([]float64, p*p)
	for i := range h {
		D[i] = 0.5 * h[i] / float64(n)
	}
	return theta, D, nil
}

// encode returns the Lasso code of task t with the current basis:
// argmin_s ½(θ − Ls)ᵀD(θ − Ls) + (μ/2)‖s‖₁, by coordinate descent on the
// k×k Gram form G = LᵀDL, c = LᵀDθ (the same problem as the D^{1/2}
// formulation, without forming D^{1/2}).
func (e *ELLA) encode(t int) []float64 {
	p, k := e.p, e.k
	D, th := e.D[t], e.theta[t]
	DL := make([]float64, p*k) // column-major, like L
	for j := 0; j < k; j++ {
		col := e.L[j*p : j*p+p]
		for r := 0; r < p; r++ {
			DL[j*p+r] = linalg.Dot(D[r*p:r*p+p], col)
		}
	}
	G := make([]float64, k*k)
	c := make([]float64, k)
	for i := 0; i < k; i++ {
		ci := e.L[i*p : i*p+p]
		for j := 0; j < k; j++ {
			G[i*k+j] = linalg.Dot(ci, DL[j*p:j*p+p])
		}
		c[i] = linalg.Dot(DL[i*p:i*p+p], th)
	}
	s := make([]float64, k)
	for sweep := 0; sweep < 1000; sweep++ {
		var change float64
		for j := 0; j < k; j++ {
			if G[j*k+j] <= 0 {
				s[j] = 0
				continue
			}
			rj := c[j]
			for i := 0; i < k; i++ {
				if i != j {
					rj -= G[j*k+i] * s[i]
				}
			}
			nj := softThreshold(rj, e.cfg.Mu/2) / G[j*k+j]
			change = math.Max(change, math.Abs(nj-s[j]))
			s[j] = nj
		}
		if change <= 1e-12 {
			break
		}
	}
	return s
}

func softThreshold(x, a float64) float64 {
	switch {
	case x > a:
		return x - a
	case x < -a:
		return x + a
	}
	return 0
}

// residual returns θ_t − L s.
func (e *ELLA) residual(t int, s []float64) []float64 {
	r := append([]float64(nil), e.theta[t]...)
	for j, sj := range s {
		if sj != 0 {
			linalg.Axpy(r, -sj, e.L[j*e.p:j*e.p+e.p])
		}
	}
	return r
}

// addTask learns task t (ALGORITHMS.md §9, AddTask).
func (e *ELLA) addTask(t int) error {
	p, k := e.p, e.k
	s := e.encode(t)
	e.seen++
	if e.seen <= k {
		copy(e.L[(e.seen-1)*p:e.seen*p], e.theta[t])
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
	D, th := e.D[t], e.theta[t]
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
				linalg.Axpy(e.A[(i*p+r)*n+j*p:(i*p+r)*n+j*p+p], f, D[r*p:r*p+p])
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
		M[i] = e.A[i] * inv
	}
	for i := 0; i < n; i++ {
		M[i*n+i] += e.cfg.Lambda
		rhs[i] = e.bvec[i] * inv
	}
	if !linalg.SolveSPD(M, n, rhs) {
		return fmt.Errorf("basis update: the system is not positive definite")
	}
	copy(e.L, rhs)
	for j := 0; j < k; j++ {
		col := e.L[j*p : j*p+p]
		if linalg.Dot(col, col) < 1e-10 {
			for r := range col {
				col[r] = e.rng.NormFloat64()
			}
		}
	}
	return nil
}

// logdet returns log det((A + (s sᵀ) ⊗ D_u)/(seen+1) + λI).
func (e *ELLA) logdet(u int, s []float64) (float64, bool) {
	p, k := e.p, e.k
	n := p * k
	M := make([]float64, n*n)
	copy(M, e.A)
	D := e.D[u]
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			if f := s[i] * s[j]; f != 0 {
				for r := 0; r < p; r++ {
					linalg.Axpy(M[(i*p+r)*n+j*p:(i*p+r)*n+j*p+p], f, D[r*p:r*p+p])
				}
			}
		}
	}
	inv := 1 / float64(e.seen+1)
	for i := range M {
		M[i] *= inv
	}
	for i := 0; i < n; i++ {
		M[i*n+i] += e.cfg.Lambda
	}
	if !linalg.Cholesky(M, n) {
		return math.Inf(-1), false
	}
	var ld float64
	for i := 0; i < n; i++ {
		ld += 2 * math.Log(M[i*n+i])
	}
	return ld, true
}

// Done reports whether every task is learned.
func (e *ELLA) Done() bool { return len(e.order) == len(e.learned) }

// History returns the snapshots so far.
func (e *ELLA) History() []Snapshot { return e.hist }

// Step selects a task by the configured rule, learns it, and re-encodes the
// tasks not learned yet with the new basis.
func (e *ELLA) Step() (snap Snapshot, err error) {
	defer guard(&err, "ella step")
	if e.Done() {
		return e.hist[len(e.hist)-1], nil
	}
	T := len(e.learned)
	U := remaining(e.learned)
	scores := make([]float64, T)
	for t := range scores {
		if e.learned[t] {
			scores[t] = math.NaN()
		}
	}
	var pick int
	switch e.cfg.Select {
	case SelectRandom:
		pick = U[e.rng.IntN(len(U))]
	case SelectInfoMax:
		pick = -1
		for _, u := range U {
			ld, ok := e.logdet(u, e.encode(u))
			if !ok {
				return snap, fmt.Errorf("ella step %d: infomax: system not positive definite", len(e.order)+1)
			}
			scores[u] = ld
			if pick < 0 || ld > scores[pick] {
				pick = u
			}
		}
	default: // diversity, diversity++
		var total float64
		for _, u := range U {
			s := e.encode(u)
			var sum float64
			for _, v := range s {
				sum += v
			}
			if sum != 0 { // the authors test the sum of the code, not its norm
				r := e.residual(u, s)
				var q float64
				for a := 0; a < e.p; a++ {
					q += r[a] * linalg.Dot(e.D[u][a*e.p:a*e.p+e.p], r)
				}
				scores[u] = q
			}
			total += scores[u] * scores[u]
		}
		pick = U[0]
		if e.cfg.Select == SelectDiversity {
			for _, u := range U {
				if scores[u] > scores[pick] {
					pick = u
				}
			}
		} else if total > 0 {
			x := e.rng.Float64() * total
			for _, u := range U {
				x -= scores[u] * scores[u]
				pick = u
				if x < 0 {
					break
				}
			}
		}
	}
	if err := e.addTask(pick); err != nil {
		return snap, fmt.Errorf("ella step %d: %w", len(e.order)+1, err)
	}
	e.learned[pick] = true
	e.order = append(e.order, pick)
	for _, u := range remaining(e.learned) {
		e.s[u] = e.encode(u)
	}
	snap = Snapshot{Step: len(e.order), Task: pick, Order: append([]int(nil), e.order...), Scores: scores, Done: e.Done()}
	snap.L = make([][]float64, e.p)
	for r := range snap.L {
		snap.L[r] = make([]float64, e.k)
		for j := 0; j < e.k; j++ {
			snap.L[r][j] = e.L[j*e.p+r]
		}
	}
	for t := range e.s {
		snap.S = append(snap.S, append([]float64(nil), e.s[t]...))
	}
	for _, v := range e.L {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return snap, fmt.Errorf("ella step %d: the basis diverged", len(e.order))
		}
	}
	e.hist = append(e.hist, snap)
	return snap, nil
}

// Model returns w_t and b_t from L s_t (the last entry is the bias); a task
// not encoded yet predicts with zeros.
func (e *ELLA) Model() *mtl.Model {
	d := e.p - 1
	m := &mtl.Model{Features: d, Kind: e.ds.Kind}
	for t := range e.ds.Tasks {
		th := make([]float64, e.p)
		if e.s[t] != nil {
			for j, sj := range e.s[t] {
				linalg.Axpy(th, sj, e.L[j*e.p:j*e.p+e.p])
			}
		}
		m.Names = append(m.Names, e.ds.Tasks[t].Name)
		m.W = append(m.W, th[:d])
		m.B = append(m.B, th[d])
	}
	return m
}
