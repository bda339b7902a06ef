// Package reml estimates MMTL's two penalty strengths, ρ and κ, by
// restricted maximum likelihood (REML): the criterion by which a linear
// mixed model (R's lme4, nlme) estimates its variances
// (docs/algorithms.md §15).
//
// MMTL with the summed squared loss, ½Σ(y − b_t − x·w_t)² + ρ‖w_t − w̄‖² +
// ρκ(b_t − b̄)², is the mode of a mixed model: y = b̄ + x·w̄ + c_t + x·v_t + e,
// with e ~ N(0, σ²), the task's intercept deviation c_t ~ N(0, σ²/(2ρκ))
// and its slope deviations v_t ~ N(0, σ²/(2ρ)·I). Its fit is the mixed
// model's (b̄, w̄) and its predictions of (c_t, v_t). The package finds the
// ρ and κ whose variances that model's restricted likelihood prefers.
package reml

import (
	"errors"
	"fmt"
	"math"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/internal/linalg"
)

// Estimate is a REML estimate of MMTL's strengths.
type Estimate struct {
	// Rho is ρ = p₁/2 and Kappa κ = p₀/p₁, where p₀ and p₁ are the
	// precisions (relative to σ²) of the tasks' intercept and slope
	// deviations.
	Rho, Kappa float64
	// Sigma2 is the residual variance σ² at the estimate.
	Sigma2 float64
	// Criterion is −2 times the restricted log-likelihood, up to a
	// constant; smaller is better.
	Criterion float64
	// Evaluations counts the criterion's evaluations.
	Evaluations int
}

// Budget bounds the work of one evaluation of the criterion, in units of
// T·q³ (T tasks, q = d + 1): each task factors a q×q matrix and solves with
// it. A search takes about 70 evaluations: BenchmarkFit's 150 groups of 29
// features (T·q³ = 4·10⁶) took 0.5-1.0 s natively and 2.0 s under js/wasm
// (node) on the 2-core machine, so a search at the budget takes about 2.5
// times that. Larger problems are refused (ErrTooLarge).
const Budget = 1e7

// Shared reports which deviations the estimate puts no variance on: the
// slopes when p₁ is at the top of the search's box, the intercepts when p₀
// is (a precision of 10⁸ against features of unit spread).
func (e Estimate) Shared() (slopes, intercepts bool) {
	top := math.Pow(10, logHi) * (1 - 1e-9)
	p1 := 2 * e.Rho
	return p1 >= top, p1*e.Kappa >= top
}

// ErrTooLarge is returned for a problem whose criterion would cost more
// than Budget per evaluation.
var ErrTooLarge = errors.New("too many tasks × features³ for the likelihood's search")

// The search's box, in log₁₀ of the precisions p₀ and p₁: at the low end a
// deviation's prior is a hundred thousand times the features' spread (no
// pooling), at the high end a ten-millionth of it (full pooling).
const (
	logLo = -5.0
	logHi = 8.0
)

// moments are a task's sums over its rows of zzᵀ, zy and y² with z = (1, x):
// all the criterion reads.
type moments struct {
	g  []float64 // q×q, row-major
	gy []float64 // q
	yy float64
}

// problem holds what every evaluation of the criterion shares.
type problem struct {
	q, n  int
	tasks []moments
	basis []float64 // q×p: an orthonormal basis of the fixed effects' column space
	p     int
	// scratch
	a, h, ly, xvx, xvy, f, fb, beta []float64
}

// Fit returns the REML estimate of ρ and κ for MMTL on tasks, whose
// features must be dense (the summed squared loss; the features as the
// fit sees them: a change of their scale changes ρ). It fails for sparse
// features, for fewer rows than fixed effects plus one, and for problems
// over Budget.
func Fit(tasks []data.Task, d int) (Estimate, error) {
	pr, err := newProblem(tasks, d)
	if err != nil {
		return Estimate{}, err
	}
	est := pr.search()
	if math.IsInf(est.Criterion, 1) {
		return Estimate{}, errors.New("reml: the likelihood could not be evaluated anywhere in the search's range")
	}
	return est, nil
}

// Pooled returns the criterion with the tasks' deviations held at the top
// of the search's box (a ten-millionth of the features' spread): one
// pooled model, to set against an estimate's Criterion in a
// likelihood-ratio test of the tasks' variances. It is the same at every
// origin of the features (with no deviation the intercept is a fixed
// effect), and fails as Fit does.
func Pooled(tasks []data.Task, d int) (float64, error) {
	pr, err := newProblem(tasks, d)
	if err != nil {
		return 0, err
	}
	c, _ := pr.criterion(logHi, logHi)
	if math.IsInf(c, 1) || math.IsNaN(c) {
		return 0, errors.New("reml: the pooled model's likelihood could not be evaluated")
	}
	return c, nil
}

// VaryMargin is how much lower the criterion at an estimate must be than
// the pooled model's (Pooled) for the tasks to differ by the likelihood:
// the test of two variances (the intercepts' and the slopes') at their
// boundary, whose null distribution is ¼χ²₀ + ½χ²₁ + ¼χ²₂ (Self and Liang
// 1987), at 5%: ½P(χ²₁ > 4.23) + ¼P(χ²₂ > 4.23) = 0.050.
const VaryMargin = 4.23

// OriginMargin is how much lower (−2 log-likelihood) the criterion at the
// origin Origin finds must be than at x = 0 for the origin to move: where
// the origin is, is one more parameter, and the likelihood-ratio test of
// one parameter at 5% asks for 3.84 (χ² with one degree of freedom); below
// that the origin as written is kept.
const OriginMargin = 3.84

// The origins Origin tries are t·c for t on a grid of OriginStep between
// 0 and 1, reaching out to [originLo, originHi] while the criterion keeps
// falling toward an end, then at the vertex of a parabola through the best
// and its two neighbours.
const (
	OriginStep = 0.25
	originLo   = -1.0
	originHi   = 2.0
)

// Origin finds where, along the line from x = 0 to the features' means c
// (over every row), MMTL's model fits best: the intercepts at the origin
// t·c. The fixed effects are the same at every origin, but a diagonal
// covariance of the deviations is not the same model: moving the origin
// to where the intercepts are uncorrelated with the slopes is what a
// mixed model with a correlated intercept and slope (lme4's (1 + x | g))
// gets from its correlation, exactly so for one slope (docs/algorithms.md
// §15). It returns the estimate at x = 0, the best one, its t, and
// whether it fits better than x = 0 by more than OriginMargin. It fails as
// Fit does.
func Origin(tasks []data.Task, d int, c []float64) (atZero, best Estimate, t float64, moved bool, err error) {
	pr, err := newProblem(tasks, d)
	if err != nil {
		return Estimate{}, Estimate{}, 0, false, err
	}
	if len(c) != d {
		return Estimate{}, Estimate{}, 0, false, fmt.Errorf("reml: %d means for %d features", len(c), d)
	}
	o := &originSearch{pr: pr, c: c, tried: map[float64]Estimate{}}
	if err := o.run(); err != nil {
		return Estimate{}, Estimate{}, 0, false, err
	}
	atZero, t = o.tried[0], o.best()
	best = o.tried[t]
	if math.IsInf(atZero.Criterion, 1) && math.IsInf(best.Criterion, 1) {
		return atZero, best, 0, false, errors.New("reml: the likelihood could not be evaluated anywhere in the search's range")
	}
	if t == 0 || !(best.Criterion < atZero.Criterion-OriginMargin) {
		return atZero, atZero, 0, false, nil
	}
	return atZero, best, t, true, nil
}

// originSearch is Origin's search along t·c: the estimate at each t tried.
type originSearch struct {
	pr    *problem
	c     []float64
	tried map[float64]Estimate
}

// at returns the estimate at t·c: a full search from nil, else a compass
// from the estimate from (another origin's).
func (o *originSearch) at(t float64, from *Estimate) error {
	if _, ok := o.tried[t]; ok {
		return nil
	}
	pt := o.pr
	if t != 0 {
		ct := make([]float64, len(o.c))
		for j, v := range o.c {
			ct[j] = t * v
		}
		var err error
		if pt, err = o.pr.centred(ct); err != nil {
			return err
		}
	}
	if from == nil {
		o.tried[t] = pt.search()
	} else {
		o.tried[t] = pt.searchFrom(*from)
	}
	return nil
}

// best returns the t of the lowest criterion tried (the nearer to 0 on a tie).
func (o *originSearch) best() float64 {
	bt := 0.0
	for t, e := range o.tried {
		if b := o.tried[bt]; e.Criterion < b.Criterion || e.Criterion == b.Criterion && math.Abs(t) < math.Abs(bt) {
			bt = t
		}
	}
	return bt
}

// run tries t = 0 and 1 (full searches), the grid between them, steps
// beyond an end while the best is there, and the parabola's vertex.
func (o *originSearch) run() error {
	for _, t := range []float64{0, 1} {
		if err := o.at(t, nil); err != nil {
			return err
		}
	}
	for t := OriginStep; t < 1; t += OriginStep {
		from := o.tried[o.best()]
		if err := o.at(t, &from); err != nil {
			return err
		}
	}
	for {
		bt := o.best()
		from := o.tried[bt]
		next := math.NaN()
		if _, ok := o.tried[bt-OriginStep]; !ok && bt-OriginStep >= originLo {
			next = bt - OriginStep
		} else if _, ok := o.tried[bt+OriginStep]; !ok && bt+OriginStep <= originHi {
			next = bt + OriginStep
		}
		if math.IsNaN(next) {
			break
		}
		if err := o.at(next, &from); err != nil {
			return err
		}
	}
	// The vertex of the parabola through the best and its neighbours, to a
	// hundredth of the means (no finer choice is told apart).
	bt := o.best()
	lo, okLo := o.tried[bt-OriginStep]
	hi, okHi := o.tried[bt+OriginStep]
	mid := o.tried[bt]
	if den := lo.Criterion - 2*mid.Criterion + hi.Criterion; okLo && okHi && den > 0 {
		v := math.Round((bt+OriginStep/2*(lo.Criterion-hi.Criterion)/den)*100) / 100
		return o.at(v, &mid)
	}
	return nil
}

func newProblem(tasks []data.Task, d int) (*problem, error) {
	q := d + 1
	if float64(len(tasks))*float64(q)*float64(q)*float64(q) > Budget {
		return nil, fmt.Errorf("reml: %d tasks of %d features: %w", len(tasks), d, ErrTooLarge)
	}
	// The labels' mean is taken out: the intercept is a fixed effect, so the
	// likelihood does not move, and the sums keep their precision.
	var sum float64
	n := 0
	for _, t := range tasks {
		if t.X == nil {
			return nil, fmt.Errorf("reml: task %s has sparse features", t.Name)
		}
		for _, y := range t.Y {
			sum += y
		}
		n += len(t.Y)
	}
	if n == 0 {
		return nil, errors.New("reml: no rows")
	}
	mean := sum / float64(n)
	pr := &problem{q: q, n: n}
	z := make([]float64, q)
	for _, t := range tasks {
		if len(t.Y) == 0 {
			continue
		}
		m := moments{g: make([]float64, q*q), gy: make([]float64, q)}
		for i, y := range t.Y {
			z[0] = 1
			copy(z[1:], t.X.RawRowView(i))
			y -= mean
			for r := 0; r < q; r++ {
				linalg.Axpy(m.g[r*q:r*q+q], z[r], z)
				m.gy[r] += z[r] * y
			}
			m.yy += y * y
		}
		pr.tasks = append(pr.tasks, m)
	}
	return pr, pr.prepare()
}

// centred returns the problem with the features' origin moved to c:
// z = (1, x) becomes (1, x − c), a linear map of z, so each task's moments
// are mapped without reading a row again.
func (pr *problem) centred(c []float64) (*problem, error) {
	q := pr.q
	out := &problem{q: q, n: pr.n}
	for _, m := range pr.tasks {
		g := make([]float64, q*q)
		gy := make([]float64, q)
		at := func(a, b int) float64 { return m.g[a*q+b] }
		for a := 0; a < q; a++ {
			for b := 0; b < q; b++ {
				v := at(a, b)
				if a > 0 {
					v -= c[a-1] * at(0, b)
				}
				if b > 0 {
					v -= c[b-1] * at(a, 0)
				}
				if a > 0 && b > 0 {
					v += c[a-1] * c[b-1] * at(0, 0)
				}
				g[a*q+b] = v
			}
			gy[a] = m.gy[a]
			if a > 0 {
				gy[a] -= c[a-1] * m.gy[0]
			}
		}
		out.tasks = append(out.tasks, moments{g: g, gy: gy, yy: m.yy})
	}
	return out, out.prepare()
}

// prepare sets the fixed effects' basis and the scratch from the tasks'
// moments.
func (pr *problem) prepare() error {
	q, n := pr.q, pr.n
	total := make([]float64, q*q)
	for _, m := range pr.tasks {
		for i := range total {
			total[i] += m.g[i]
		}
	}
	// The fixed effects' design may be rank deficient (one indicator per
	// category beside the intercept); the likelihood of the error contrasts
	// is the same in any basis of its column space, which ZᵀZ's eigenvectors
	// of non-negligible eigenvalues give.
	vals, vecs := linalg.SymEigen(total, q)
	for _, v := range vals {
		if v > 1e-10*vals[0] {
			pr.p++
		}
	}
	if n <= pr.p {
		return fmt.Errorf("reml: %d rows for %d fixed effects", n, pr.p)
	}
	pr.basis = make([]float64, q*pr.p)
	for r := 0; r < q; r++ {
		copy(pr.basis[r*pr.p:(r+1)*pr.p], vecs[r*q:r*q+pr.p])
	}
	pr.a, pr.h = make([]float64, q*q), make([]float64, q*q)
	pr.xvx, pr.xvy = make([]float64, q*q), make([]float64, q)
	pr.ly = make([]float64, q)
	pr.f, pr.fb, pr.beta = make([]float64, pr.p*pr.p), make([]float64, pr.p), make([]float64, pr.p)
	return nil
}

// criterion returns −2 times the restricted log-likelihood (up to a
// constant) at log₁₀ precisions (l0, l1), with σ² profiled out, and σ².
// With P = diag(p₀, p₁, …, p₁), A_t = G_t + P and V_t = I + Z_t P⁻¹ Z_tᵀ:
//
//	log|V_t| = log|A_t| − log|P|
//	ZᵀV⁻¹Z = Σ G_t − G_t A_t⁻¹ G_t,  ZᵀV⁻¹y = Σ g_t − G_t A_t⁻¹ g_t,
//	yᵀV⁻¹y = Σ y_tᵀy_t − g_tᵀ A_t⁻¹ g_t
//
// (Woodbury), and the criterion is Σ log|V_t| + log|BᵀZᵀV⁻¹ZB| +
// (N − p) log(r/(N − p)), where B is the basis of the fixed effects and
// r = yᵀV⁻¹y − the generalized least squares fit's share.
func (pr *problem) criterion(l0, l1 float64) (float64, float64) {
	q, p := pr.q, pr.p
	p0, p1 := math.Pow(10, l0), math.Pow(10, l1)
	clear(pr.xvx)
	clear(pr.xvy)
	var ldv, yvy float64
	logP := math.Log(p0) + float64(q-1)*math.Log(p1)
	for _, m := range pr.tasks {
		copy(pr.a, m.g)
		pr.a[0] += p0
		for j := 1; j < q; j++ {
			pr.a[j*q+j] += p1
		}
		if !linalg.Cholesky(pr.a, q) {
			return math.Inf(1), math.NaN()
		}
		for j := 0; j < q; j++ {
			ldv += 2 * math.Log(pr.a[j*q+j])
		}
		ldv -= logP
		// With A = LLᵀ, G A⁻¹ G = (L⁻¹G)ᵀ(L⁻¹G): row c of h is L⁻¹ g_c, g_c
		// being column c of G (G is symmetric, so also its row c), and ly
		// is L⁻¹ g. This takes a third of the work of solving with A for
		// every column (BenchmarkFit).
		for c := 0; c < q; c++ {
			col := pr.h[c*q : c*q+q]
			copy(col, m.g[c*q:c*q+q])
			linalg.LowerSolve(pr.a, q, col)
		}
		ly := pr.ly
		copy(ly, m.gy)
		linalg.LowerSolve(pr.a, q, ly)
		for r := 0; r < q; r++ {
			hr := pr.h[r*q : r*q+q]
			for c := 0; c <= r; c++ {
				pr.xvx[r*q+c] += m.g[r*q+c] - linalg.Dot(hr, pr.h[c*q:c*q+q])
			}
			pr.xvy[r] += m.gy[r] - linalg.Dot(hr, ly)
		}
		yvy += m.yy - linalg.Dot(ly, ly)
	}
	for r := 0; r < q; r++ { // the upper triangle from the lower
		for c := r + 1; c < q; c++ {
			pr.xvx[r*q+c] = pr.xvx[c*q+r]
		}
	}
	// F = BᵀXᵀV⁻¹XB and its share of the fit, once per evaluation: p, q ≤
	// 65 here, and the per-task loop above is the cost (BenchmarkFit).
	for i := 0; i < p; i++ {
		pr.fb[i] = 0
		for r := 0; r < q; r++ {
			pr.fb[i] += pr.basis[r*p+i] * pr.xvy[r]
		}
		for j := 0; j <= i; j++ {
			var s float64
			for r := 0; r < q; r++ {
				br := pr.basis[r*p+i]
				if br == 0 {
					continue
				}
				for c := 0; c < q; c++ {
					s += br * pr.xvx[r*q+c] * pr.basis[c*p+j]
				}
			}
			pr.f[i*p+j] = s
		}
	}
	if !linalg.Cholesky(pr.f, p) {
		return math.Inf(1), math.NaN()
	}
	var ldf float64
	for i := 0; i < p; i++ {
		ldf += 2 * math.Log(pr.f[i*p+i])
	}
	beta := pr.beta
	copy(beta, pr.fb)
	linalg.CholSolve(pr.f, p, beta)
	r := yvy - linalg.Dot(beta, pr.fb)
	dof := float64(pr.n - p)
	if !(r > 0) {
		return math.Inf(1), math.NaN()
	}
	return ldv + ldf + dof*math.Log(r/dof), r / dof
}

// search minimizes the criterion over the box of log₁₀ precisions: a grid
// every three decades, then a compass search from its best point, whose
// step halves whenever none of its four neighbours is better, down to a
// hundredth of a decade. It is written here rather than taken from gonum's
// optimize: the search must stay in the box (a precision of 0 or ∞ has no
// likelihood), which gonum's Nelder–Mead does not bound, and two
// coordinates need no more than this.
func (pr *problem) search() Estimate {
	w := &walk{pr: pr, best: Estimate{Criterion: math.Inf(1)}}
	for l0 := logLo; l0 <= logHi; l0 += 3 {
		for l1 := logLo; l1 <= logHi; l1 += 3 {
			w.try(l0, l1)
		}
	}
	return w.compass(1)
}

// walk is a search's state: the best point so far, in log₁₀ precisions.
type walk struct {
	pr     *problem
	best   Estimate
	b0, b1 float64
}

// try evaluates the criterion at (l0, l1), clamped to the box, and
// reports whether it is the best so far.
func (w *walk) try(l0, l1 float64) bool {
	l0, l1 = min(max(l0, logLo), logHi), min(max(l1, logLo), logHi)
	c, s2 := w.pr.criterion(l0, l1)
	w.best.Evaluations++
	if c < w.best.Criterion {
		w.best.Criterion, w.best.Sigma2, w.b0, w.b1 = c, s2, l0, l1
		return true
	}
	return false
}

// compass moves from the best point to a better neighbour a step away
// along either coordinate, halving the step when none is better, down to
// a hundredth of a decade, and returns the estimate there.
func (w *walk) compass(step float64) Estimate {
	for step >= 0.01 {
		c0, c1 := w.b0, w.b1
		if !w.try(c0+step, c1) && !w.try(c0-step, c1) && !w.try(c0, c1+step) && !w.try(c0, c1-step) {
			step /= 2
		}
	}
	p0, p1 := math.Pow(10, w.b0), math.Pow(10, w.b1)
	w.best.Rho, w.best.Kappa = p1/2, p0/p1
	return w.best
}

// searchFrom is search's compass from the precisions of a nearby estimate
// (another origin's), with a first step of half a decade and no grid: about
// a third of search's evaluations where the optimum moved little.
func (pr *problem) searchFrom(e Estimate) Estimate {
	w := &walk{pr: pr, best: Estimate{Criterion: math.Inf(1)}}
	p1 := 2 * e.Rho
	w.try(math.Log10(e.Kappa*p1), math.Log10(p1))
	return w.compass(0.5)
}

// OriginOf finds, for feature j of tasks (d features), the origin x₀ along
// it at which MMTL's model fits best: the intercepts at x_j = x₀, every
// other feature as it is. With one feature whose slopes vary by task, the
// diagonal model at the origin −σ_bs/σ_s² is exactly the mixed model with a
// correlated intercept and slope (lme4's (1 + x | g)), and no multiple of
// the features' means need reach it: a feature centred as written (Oxboys'
// age, mean −0.01) has its decorrelating origin three years away. The
// search starts from the deviations' predictions at x = 0 (their
// decorrelating point), brackets the criterion's minimum by steps growing
// by the golden ratio, and narrows it by golden sections to round(x)'s
// resolution; round maps an origin to the one the caller will use (its
// rounding in the file's units), and the estimate returned is there. It
// returns the estimate at x = 0, the best, x₀, and whether x₀ fits better
// than x = 0 by more than OriginMargin. It fails as Fit does.
func OriginOf(tasks []data.Task, d, j int, round func(float64) float64) (atZero, best Estimate, x0 float64, moved bool, err error) {
	pr, err := newProblem(tasks, d)
	if err != nil {
		return Estimate{}, Estimate{}, 0, false, err
	}
	if j < 0 || j >= d {
		return Estimate{}, Estimate{}, 0, false, fmt.Errorf("reml: feature %d of %d", j, d)
	}
	o := &pointSearch{pr: pr, j: j, tried: map[float64]Estimate{}}
	if err := o.at(0); err != nil {
		return Estimate{}, Estimate{}, 0, false, err
	}
	atZero = o.tried[0]
	if math.IsInf(atZero.Criterion, 1) {
		return atZero, atZero, 0, false, errors.New("reml: the likelihood could not be evaluated at the origin as written")
	}
	if slopes, _ := atZero.Shared(); slopes {
		return atZero, atZero, 0, false, nil // no slope varies: the origin changes nothing
	}
	u := pr.decorrelating(atZero, j)
	if !(math.Abs(u) > 1e-3) || math.Abs(u) > maxPoint {
		u = 1 // no lead from the predictions: a step of the feature's spread
	}
	x, err := o.minimum(u)
	if err != nil {
		return atZero, atZero, 0, false, err
	}
	x0 = round(x)
	if err := o.at(x0); err != nil {
		return atZero, atZero, 0, false, err
	}
	best = o.tried[x0]
	if x0 == 0 || !(best.Criterion < atZero.Criterion-OriginMargin) {
		return atZero, atZero, 0, false, nil
	}
	return atZero, best, x0, true, nil
}

// maxPoint bounds OriginOf's search: a hundred times the feature's spread
// (the features are standardized) from x = 0.
const maxPoint = 100.0

// pointSearch is OriginOf's search along feature j: the estimate at each
// origin tried.
type pointSearch struct {
	pr    *problem
	j     int
	tried map[float64]Estimate
}

// at finds the estimate at x_j = x: a full search at 0, else a compass
// from the nearest origin tried.
func (o *pointSearch) at(x float64) error {
	if _, ok := o.tried[x]; ok {
		return nil
	}
	if x == 0 {
		o.tried[0] = o.pr.search()
		return nil
	}
	c := make([]float64, o.pr.q-1)
	c[o.j] = x
	pc, err := o.pr.centred(c)
	if err != nil {
		return err
	}
	near, gap := 0.0, math.Inf(1)
	for t := range o.tried {
		if g := math.Abs(t - x); g < gap {
			near, gap = t, g
		}
	}
	o.tried[x] = pc.searchFrom(o.tried[near])
	return nil
}

// f is the criterion at x_j = x.
func (o *pointSearch) f(x float64) (float64, error) {
	if err := o.at(x); err != nil {
		return 0, err
	}
	return o.tried[x].Criterion, nil
}

// minimum brackets the criterion's minimum from 0 and u and narrows the
// bracket to a hundredth of the feature's spread by golden sections.
func (o *pointSearch) minimum(u float64) (float64, error) {
	const gold = 1.618033988749895
	a, b := 0.0, u
	fa, err := o.f(a)
	if err != nil {
		return 0, err
	}
	fb, err := o.f(b)
	if err != nil {
		return 0, err
	}
	if fb > fa {
		a, b, fa, fb = b, a, fb, fa
	}
	c := b + gold*(b-a)
	fc, err := o.f(c)
	if err != nil {
		return 0, err
	}
	for fc < fb && math.Abs(c) < maxPoint {
		a, b, fa, fb = b, c, fb, fc
		c = b + gold*(b-a)
		if fc, err = o.f(c); err != nil {
			return 0, err
		}
	}
	if fc < fb {
		return c, nil // still falling at the bound
	}
	// Golden sections of [lo, hi] around b.
	lo, hi := math.Min(a, c), math.Max(a, c)
	for hi-lo > 0.01 {
		var x float64
		if b-lo > hi-b {
			x = b - (b-lo)/(gold*gold)
		} else {
			x = b + (hi-b)/(gold*gold)
		}
		fx, err := o.f(x)
		if err != nil {
			return 0, err
		}
		if fx < fb {
			if x < b {
				hi = b
			} else {
				lo = b
			}
			b, fb = x, fx
		} else if x < b {
			lo = x
		} else {
			hi = x
		}
	}
	return b, nil
}

// decorrelating predicts the tasks' deviations (BLUPs) at the estimate e
// at x = 0 and returns the origin along feature j at which the predicted
// intercept deviations c_t are uncorrelated with the slope deviations v_t:
// c_t + x·v_t ⊥ v_t, x = −Σ c_t v_t / Σ v_t². Predictions are shrunk, so
// this is a lead for the search, not its answer. NaN when no slope
// deviation is predicted.
func (pr *problem) decorrelating(e Estimate, j int) float64 {
	q := pr.q
	p1 := 2 * e.Rho
	p0 := e.Kappa * p1
	if _, s2 := pr.criterion(math.Log10(p0), math.Log10(p1)); math.IsNaN(s2) {
		return math.NaN()
	}
	b := make([]float64, q) // the fixed effects, from the basis's coordinates
	for r := 0; r < q; r++ {
		b[r] = linalg.Dot(pr.basis[r*pr.p:(r+1)*pr.p], pr.beta)
	}
	a, u := make([]float64, q*q), make([]float64, q)
	var cv, vv float64
	for _, m := range pr.tasks {
		copy(a, m.g)
		a[0] += p0
		for k := 1; k < q; k++ {
			a[k*q+k] += p1
		}
		if !linalg.Cholesky(a, q) {
			return math.NaN()
		}
		for r := 0; r < q; r++ {
			u[r] = m.gy[r] - linalg.Dot(m.g[r*q:r*q+q], b)
		}
		linalg.CholSolve(a, q, u)
		cv += u[0] * u[1+j]
		vv += u[1+j] * u[1+j]
	}
	return -cv / vv
}
