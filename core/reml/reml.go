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

// OriginMargin is how much lower (−2 log-likelihood) the criterion at the
// features' means must be than at x = 0 for Origin to move the origin:
// the two models have the same number of variances, and a difference
// below 2 (one unit of log-likelihood) is no evidence either way, so the
// origin as written is kept.
const OriginMargin = 2.0

// Origin compares MMTL's model with the tasks' intercepts at x = 0 and at
// the features' means c (over every row): the same fixed effects, but a
// diagonal covariance of the deviations is not the same model at another
// origin (docs/algorithms.md §15). It returns both estimates and whether
// the means fit better by more than OriginMargin. It fails as Fit does.
func Origin(tasks []data.Task, d int, c []float64) (atZero, atMeans Estimate, means bool, err error) {
	pr, err := newProblem(tasks, d)
	if err != nil {
		return Estimate{}, Estimate{}, false, err
	}
	if len(c) != d {
		return Estimate{}, Estimate{}, false, fmt.Errorf("reml: %d means for %d features", len(c), d)
	}
	pc, err := pr.centred(c)
	if err != nil {
		return Estimate{}, Estimate{}, false, err
	}
	atZero, atMeans = pr.search(), pc.search()
	if math.IsInf(atZero.Criterion, 1) && math.IsInf(atMeans.Criterion, 1) {
		return atZero, atMeans, false, errors.New("reml: the likelihood could not be evaluated anywhere in the search's range")
	}
	return atZero, atMeans, atMeans.Criterion < atZero.Criterion-OriginMargin, nil
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
	best := Estimate{Criterion: math.Inf(1)}
	var b0, b1 float64
	try := func(l0, l1 float64) bool {
		l0, l1 = min(max(l0, logLo), logHi), min(max(l1, logLo), logHi)
		c, s2 := pr.criterion(l0, l1)
		best.Evaluations++
		if c < best.Criterion {
			best.Criterion, best.Sigma2, b0, b1 = c, s2, l0, l1
			return true
		}
		return false
	}
	for l0 := logLo; l0 <= logHi; l0 += 3 {
		for l1 := logLo; l1 <= logHi; l1 += 3 {
			try(l0, l1)
		}
	}
	for step := 1.0; step >= 0.01; {
		c0, c1 := b0, b1
		if !try(c0+step, c1) && !try(c0-step, c1) && !try(c0, c1+step) && !try(c0, c1-step) {
			step /= 2
		}
	}
	p0, p1 := math.Pow(10, b0), math.Pow(10, b1)
	best.Rho, best.Kappa = p1/2, p0/p1
	return best
}
