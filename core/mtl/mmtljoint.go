package mtl

import (
	"errors"
	"fmt"
	"math"

	"github.com/spmtl/spmtl/core/internal/linalg"
)

// JointMMTL is mean-regularized MTL solved as one problem, the way the
// authors computed their MMTL row (docs/algorithms.md §5.2):
//
//	min_{W,b} Σ_t l_t(w_t, b_t) + ρ·tr(W Ω Wᵀ),  Ω = I − 11ᵀ/T,
//
// where ρ·tr(WΩWᵀ) = ρ·Σ_t ‖w_t − w̄‖². It is a single fit, not an
// alternation: with the fista100 solver one call of the authors' solver on
// the joint objective from zero; with the exact solver the joint optimum
// itself, found by minimizing the convex value function
//
//	φ(a) = Σ_t min_{w,b} [l_t(w, b) + ρ‖w − a‖²]
//
// over the shared mean a (the minimizers over a and over W coincide: a is
// then the mean of the w_t). Each evaluation of φ and of its gradient
// ∇φ(a) = 2ρ Σ_t (a − w_t(a)) is one exact W-step per task; L-BFGS
// (lbfgs.go) drives a to a relative gradient of 1e-10.
//
// The alternating MMTL of the trainer (model "mmtl") reaches the same
// optimum only as its alternation converges; it stays the baseline of
// spMMTL because self-pacing wraps an alternation.
type JointMMTL struct {
	p     *Problem
	cfg   Config
	tasks []*taskData // in the solver's coordinates
	// reduced is set when tasks are in span coordinates.
	reduced bool
	w       [][]float64
	b       []float64
	cache   []taskCache
	hist    []Snapshot
	err     error
	// Evals counts the W-steps per task the exact solve took (one per
	// evaluation of φ).
	evals int
	// b0 is the shared intercept at the optimum (κ > 0).
	b0 float64
	// a is the shared mean at the exact optimum (nil after fista100,
	// where it is the tasks' mean): with the summed logistic loss's prior
	// (§5.3) it is not the mean of the w_t.
	a []float64
	// priorU is each feature's factor in the prior's precision
	// (priorScales; nil: 1), for the solve and the objective alike.
	priorU []float64
}

// NewJointMMTL returns the joint MMTL fit of p with cfg (cfg.Model is
// ignored; the self-paced switch must be off: self-pacing wraps the
// alternating MMTL).
func NewJointMMTL(p *Problem, cfg Config) (j *JointMMTL, err error) {
	if p == nil {
		return nil, errors.New("new joint mmtl: nil problem")
	}
	cfg.Model = "mmtl"
	classification := p.Data.Kind == dataClassification
	cfg = cfg.Defaults(classification)
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("new joint mmtl: %w", err)
	}
	if cfg.SelfPaced {
		return nil, errors.New("new joint mmtl: the joint MMTL has no self-paced version (self-pacing wraps the alternating mmtl)")
	}
	if cfg.Loss == Logistic && !classification {
		return nil, errors.New("new joint mmtl: the logistic loss needs binary labels, and this data set is regression")
	}
	cfg.Model = "mmtl-joint"
	j = &JointMMTL{p: p, cfg: cfg, w: make([][]float64, len(p.tasks)), b: make([]float64, len(p.tasks)), cache: make([]taskCache, len(p.tasks))}
	j.tasks, j.reduced = p.tasksFor(cfg.Solver)
	j.priorU = priorScales(p.Data, len(j.tasks[0].xbar), j.reduced)
	for t := range j.w {
		j.w[t] = make([]float64, len(j.tasks[0].xbar))
	}
	return j, nil
}

// Config returns the configuration in force.
func (j *JointMMTL) Config() Config { return j.cfg }

// Done reports whether the fit is made.
func (j *JointMMTL) Done() bool { return len(j.hist) > 0 || j.err != nil }

// History returns the single snapshot once the fit is made.
func (j *JointMMTL) History() []Snapshot { return j.hist }

// Model returns the predictors.
func (j *JointMMTL) Model() *Model {
	T := len(j.p.tasks)
	m := &Model{Features: j.p.d, Kind: j.p.Data.Kind, Names: make([]string, T), W: make([][]float64, T), B: make([]float64, T)}
	full := j.p.toFullAll(j.w, j.reduced)
	for t, td := range j.tasks {
		m.Names[t] = td.name
		m.W[t] = full[t]
		m.B[t] = j.b[t]
	}
	return m
}

// Step makes the fit; afterwards it returns the same snapshot again.
func (j *JointMMTL) Step() (snap Snapshot, err error) {
	if len(j.hist) > 0 {
		return j.hist[0], nil
	}
	if j.err != nil {
		return snap, j.err
	}
	if j.cfg.Solver == FISTA100 {
		err = j.fista()
	} else {
		err = j.exact()
	}
	if err != nil {
		j.err = fmt.Errorf("iteration 1: %w", err)
		return snap, j.err
	}
	snap = j.snapshot()
	j.hist = append(j.hist, snap)
	return snap, nil
}

// steps returns the per-task W-steps with anchor a (nil: 0) and the given ρ.
func (j *JointMMTL) steps(a []float64, rho float64) []*wstep {
	m := identityMetric(len(j.w[0]))
	out := make([]*wstep, len(j.tasks))
	for t, td := range j.tasks {
		out[t] = &wstep{loss: j.cfg.Loss, scale: lossScale(j.cfg.Loss, j.cfg.Variant, j.cfg.Scale, td), rho: rho, m: m, anchor: a}
	}
	return out
}

// fista is one call of the authors' solver on the joint objective: the
// per-task data terms plus ρ·Σ_t‖w_t − w̄‖², whose gradient in w_t is
// 2ρ(w_t − w̄).
func (j *JointMMTL) fista() error {
	rho := j.cfg.Rho
	joint := func(W, grad [][]float64) float64 {
		mean := columnMean(W)
		var v float64
		for t, w := range W {
			for i, wi := range w {
				dv := wi - mean[i]
				v += dv * dv
				if grad != nil {
					grad[t][i] += 2 * rho * dv
				}
			}
		}
		return rho * v
	}
	return fistaJoint(j.tasks, j.steps(nil, 0), j.w, j.b, joint)
}

// exact minimizes the value function φ(a) (with uniform weights, and
// over (a, b̄) with a shared intercept: anchorProblem) with L-BFGS and
// leaves the W-step solutions at the minimizer in j.w, j.b.
func (j *JointMMTL) exact() error {
	T := len(j.tasks)
	ap := &anchorProblem{tasks: j.tasks, cfg: j.cfg, priorU: j.priorU, m: identityMetric(len(j.w[0])), omega: make([]float64, T), w: j.w, b: j.b, cache: j.cache, deviations: j.cfg.Scale == SumLoss}
	for t := range ap.omega {
		ap.omega[t] = 1
	}
	x0 := make([]float64, ap.dim())
	_, g0 := ap.eval(x0)
	j.evals = ap.evals
	if ap.err != nil {
		return ap.err
	}
	// The first point's W are the ITL solutions with ρ; start from their
	// mean, where φ is already much lower than at 0. φ's curvature is at
	// most 2ρT, so the first step −g/(2ρT) is the alternation's own step
	// (a ← mean of the w_t); L-BFGS then accelerates it.
	var mb float64
	for _, b := range j.b {
		mb += b / float64(T)
	}
	x := ap.point(columnMean(j.w), mb)
	// Own data (a summed loss) takes the probed Newton steps; the paper's
	// and the authors' settings keep the L-BFGS path their tables were
	// computed with.
	err := ap.solve(x, g0, j.cfg.Scale == SumLoss)
	j.evals = ap.evals
	var a []float64
	a, j.b0 = ap.shared(x)
	j.a = append([]float64(nil), a...)
	return err
}

// mean returns the shared mean w̄ in the solver's coordinates.
func (j *JointMMTL) mean() []float64 {
	if j.a != nil {
		return j.a
	}
	return columnMean(j.w)
}

// snapshot reports the fit: per-task loss, ‖w_t − w̄‖², the objective.
func (j *JointMMTL) snapshot() Snapshot {
	T := len(j.tasks)
	mean := j.mean()
	snap := Snapshot{Iter: 1, Lambda: j.cfg.Lambda0, Tau: uniform(T), Loss: make([]float64, T), Penalty: make([]float64, T),
		Cost: make([]float64, T), TauChange: Float(math.NaN()), ObjChange: Float(math.NaN()), Converged: true, Done: true, Stop: StopSingle}
	for t, td := range j.tasks {
		sc := lossScale(j.cfg.Loss, j.cfg.Variant, j.cfg.Scale, td)
		l := td.lossValue(j.cfg.Loss, sc, j.w[t], j.b[t])
		diff := append([]float64(nil), j.w[t]...)
		linalg.Axpy(diff, -1, mean)
		pen := linalg.Dot(diff, diff)
		if k := j.cfg.Intercept; k > 0 {
			pen += k * (j.b[t] - j.b0) * (j.b[t] - j.b0)
		}
		norm := sc * float64(td.n)
		snap.Loss[t] = l / norm
		snap.Penalty[t] = pen
		snap.Cost[t] = (l + j.cfg.Rho*pen) / norm
		snap.Objective += l + j.cfg.Rho*pen
	}
	if pi := meanPrior(j.cfg); pi > 0 {
		snap.Objective += pi * priorQuad(j.priorU, mean)
	}
	snap.SPObjective = snap.Objective
	return snap
}

// columnMean returns (1/T) Σ_t w_t.
func columnMean(W [][]float64) []float64 {
	mean := make([]float64, len(W[0]))
	for _, w := range W {
		linalg.Axpy(mean, 1/float64(len(W)), w)
	}
	return mean
}

// Theta returns the mean of the task vectors, the joint model's w̄: the
// knowledge of the alternating MMTL (mmtl.go).
func (j *JointMMTL) Theta() *Theta {
	if len(j.hist) == 0 {
		return nil
	}
	if j.a != nil {
		return &Theta{Kind: "mmtl", Mean: j.p.toFull(j.a, j.reduced)}
	}
	m := j.Model()
	return &Theta{Kind: "mmtl", Mean: columnMean(m.W)}
}
