package mtl

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Trainer runs the self-paced alternating optimization (Algorithm 1 of the
// paper, docs/algorithms.md §2) one outer iteration at a time. The MTL baseline
// is the same trainer with Config.SelfPaced off (τ held uniform), so
// baseline and self-paced runs share one code path.
//
// A Trainer is not safe for concurrent use; distinct trainers on one
// Problem are.
type Trainer struct {
	p     *Problem
	cfg   Config
	env   structureEnv
	st    structure
	all   []*taskData // every task, in the solver's coordinates
	tasks []*taskData // the fitted tasks: all, or one pooled task for STL
	stl   bool
	// reduced is set when the tasks are in span coordinates (span.go);
	// Model maps the weights back.
	reduced bool

	w     [][]float64
	b     []float64
	cache []taskCache
	loss  []float64 // data term of each task at the current W
	pen   []float64 // penalty of each task against the Θ of its W-step
	// steps holds each task's W-step problem, refilled at every use
	// (wstep) so that its scratch vector outlives the iteration.
	steps []wstep
	ptrs  []*wstep // &steps[t]

	// bugScale is √ρ when Config.CodeBugs asks for the authors' MTASO
	// scaling of W, else 0 (no scaling).
	bugScale float64

	// b0 is the shared intercept b̄ (docs/algorithms.md §1.4), updated in
	// the Θ-step; used only when Config.Intercept is positive.
	b0 float64
	// gtol is the joint Θ-step's gradient tolerance (§2.7), set from the
	// first one's starting gradient.
	gtol float64

	lambda  float64
	prevTau []float64
	prevObj float64
	hist    []Snapshot
	done    bool
	err     error
}

// NewTrainer returns a trainer for p with cfg (zero fields take their
// defaults, see Config). It fails on an invalid configuration, or on a
// loss that does not fit the data (logistic on regression labels).
func NewTrainer(p *Problem, cfg Config) (tr *Trainer, err error) {
	if p == nil {
		return nil, errors.New("new trainer: nil problem")
	}
	classification := p.Data.Kind == dataClassification
	cfg = cfg.Defaults(classification)
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("new trainer: %w", err)
	}
	if cfg.Loss == Logistic && !classification {
		return nil, errors.New("new trainer: the logistic loss needs binary labels, and this data set is regression")
	}
	kind, ok := structures[cfg.Model]
	if !ok {
		return nil, fmt.Errorf("new trainer: %q is not a method of the self-paced trainer (want one of %s)", cfg.Model, strings.Join(structureKeys(), ", "))
	}
	tr = &Trainer{p: p, cfg: cfg, lambda: cfg.Lambda0}
	tr.all, tr.reduced = p.tasksFor(cfg.Solver)
	tr.tasks = tr.all
	if kind.pooled {
		pooled, err := p.pool(perTaskMean(cfg.Loss, cfg.Variant, cfg.Scale), tr.reduced)
		if err != nil {
			return nil, fmt.Errorf("new trainer: %w", err)
		}
		tr.tasks = []*taskData{pooled}
		tr.stl = true
	}
	if err := tr.initIntercept(); err != nil {
		return nil, fmt.Errorf("new trainer: %w", err)
	}
	dim := len(tr.all[0].xbar)
	tr.env = structureEnv{d: dim, dFull: p.d, T: len(tr.tasks), cfg: cfg, selfPaced: cfg.SelfPaced && !tr.stl, priorU: priorScales(p.Data, dim, tr.reduced), stl: tr.stl}
	tr.st = kind.new(tr.env)
	tr.w = make([][]float64, len(tr.tasks))
	for t := range tr.w {
		tr.w[t] = make([]float64, dim)
	}
	if _, scaled := tr.st.(codeBugScaled); scaled && cfg.CodeBugs {
		tr.bugScale = math.Sqrt(cfg.Rho)
	}
	tr.b = make([]float64, len(tr.tasks))
	tr.cache = make([]taskCache, len(tr.tasks))
	tr.loss = make([]float64, len(tr.tasks))
	tr.pen = make([]float64, len(tr.tasks))
	tr.steps = make([]wstep, len(tr.tasks))
	tr.ptrs = make([]*wstep, len(tr.tasks))
	for t := range tr.ptrs {
		tr.ptrs[t] = &tr.steps[t]
	}
	return tr, nil
}

// Config returns the configuration in force, defaults filled in.
func (tr *Trainer) Config() Config { return tr.cfg }

// Done reports whether the run has converged, hit the iteration cap or
// failed.
func (tr *Trainer) Done() bool { return tr.done }

// History returns the snapshots of the iterations so far (the τ history is
// the Tau field of each).
func (tr *Trainer) History() []Snapshot { return tr.hist }

func (tr *Trainer) scale(td *taskData) float64 {
	return lossScale(tr.cfg.Loss, tr.cfg.Variant, tr.cfg.Scale, td)
}

// wstep returns task t's W-step problem given the current Θ. It refills
// and returns the trainer's own &tr.steps[t], valid until the next call
// for t.
func (tr *Trainer) wstep(t int) *wstep {
	ws := &tr.steps[t]
	ws.loss, ws.scale, ws.rho = tr.cfg.Loss, tr.scale(tr.tasks[t]), tr.cfg.Rho
	ws.m, ws.anchor = tr.st.metric(), tr.st.anchor(t)
	ws.kappa, ws.b0 = tr.kappa(), tr.b0
	return ws
}

// kappa is κ of the shared intercept in force: Config.Intercept, except
// for STL's single pooled task, which has nothing to share it with.
func (tr *Trainer) kappa() float64 {
	if tr.stl {
		return 0
	}
	return tr.cfg.Intercept
}

// initIntercept checks that every task can take a shared intercept and
// sets b̄^(0) (docs/algorithms.md §1.4): the mean over tasks of ȳ_t for the
// squared loss, the log-odds of the pooled positive share for the logistic
// loss. b̄ is kept for free intercepts too: the leave-one-out pace scores a
// row that a task's own intercept absorbs by it (§2.6).
func (tr *Trainer) initIntercept() error {
	if tr.stl {
		return nil
	}
	var sum, pos, rows float64
	for _, td := range tr.all {
		if tr.kappa() > 0 && !td.primal && tr.cfg.Loss == Squared {
			return fmt.Errorf("task %s: the shared intercept is computed for dense tasks with at most %d features or at least as many rows as features; this task has %d rows of %d features: leave the intercept free (intercept 0)", td.name, primalMaxDim, td.n, len(td.xbar))
		}
		if td.n > 0 {
			sum += td.ybar
		}
		for _, y := range td.y {
			if y > 0 {
				pos++
			}
		}
		rows += float64(td.n)
	}
	tr.b0 = sum / float64(len(tr.all))
	if tr.cfg.Loss == Logistic && rows > 0 {
		share := math.Min(math.Max(pos/rows, 1e-3), 1-1e-3)
		tr.b0 = math.Log(share / (1 - share))
	}
	return nil
}

// updateIntercept is the shared intercept's Θ-step: b̄ = Σ τ_t b_t / Σ τ_t.
func (tr *Trainer) updateIntercept(tau []float64) {
	if tr.stl {
		return
	}
	var num, den float64
	for t, v := range tau {
		num += v * tr.b[t]
		den += v
	}
	if den > 0 {
		tr.b0 = num / den
	}
}

// Step runs one outer iteration: the W-step for every task given Θ, the
// task costs, τ, λ ← cλ, the Θ-step, and the stopping test. After the run
// is done it returns the last snapshot again. A numerical failure ends the
// run with an error wrapping ErrNumeric.
func (tr *Trainer) Step() (snap Snapshot, err error) {
	if tr.done {
		if len(tr.hist) > 0 {
			snap = tr.hist[len(tr.hist)-1]
		}
		return snap, tr.err
	}
	snap, err = tr.step()
	if err != nil {
		tr.done, tr.err = true, fmt.Errorf("iteration %d: %w", len(tr.hist)+1, err)
		return snap, tr.err
	}
	tr.hist = append(tr.hist, snap)
	tr.done = snap.Done
	return snap, nil
}

func (tr *Trainer) step() (Snapshot, error) {
	k := len(tr.hist) + 1
	steps, err := tr.wStep()
	if err != nil {
		return Snapshot{}, err
	}
	if tr.stl {
		return tr.stlSnapshot(steps[0])
	}
	snap := Snapshot{Iter: k, SelfPaced: tr.env.selfPaced}
	if err := tr.costs(&snap, steps); err != nil {
		return Snapshot{}, err
	}
	if k == 1 && tr.cfg.AutoLambda0 > 0 && tr.env.selfPaced {
		auto, err := AutoLambda(snap.Cost)
		if err != nil {
			return Snapshot{}, err
		}
		tr.lambda = tr.cfg.AutoLambda0 * auto
	}
	snap.Lambda = tr.lambda
	tr.tauStep(&snap)
	wTheta := tr.modelW()
	if err := tr.thetaStep(wTheta, snap.Tau); err != nil { // 5. Θ-step
		return Snapshot{}, err
	}
	if err := tr.objective(&snap, steps, wTheta); err != nil {
		return Snapshot{}, err
	}
	tr.finish(&snap, k)
	return snap, nil
}

// wStep is step 1 (docs/algorithms.md §2.1): every task's W-step (eq. 1)
// given Θ^(k−1), warm-started, exactly or with the authors' fista100. It
// leaves each task's data term and penalty in tr.loss and tr.pen and
// returns the per-task problems it solved.
func (tr *Trainer) wStep() ([]*wstep, error) {
	cfg := tr.cfg
	steps := tr.ptrs
	for t := range steps {
		tr.wstep(t)
	}
	if cfg.Solver == FISTA100 {
		if err := fistaJoint(tr.tasks, steps, tr.w, tr.b, nil); err != nil {
			return nil, err
		}
		for t, td := range tr.tasks {
			tr.loss[t] = td.lossValue(cfg.Loss, steps[t].scale, tr.w[t], tr.b[t])
			tr.pen[t] = steps[t].penalty(tr.w[t])
		}
	} else {
		for t, td := range tr.tasks {
			l, pen, err := td.solveExact(steps[t], tr.w[t], &tr.b[t], &tr.cache[t])
			if err != nil {
				return nil, err
			}
			tr.loss[t], tr.pen[t] = l, pen
		}
	}
	for t := range tr.w {
		if !finiteVec(tr.w[t]) || !finite(tr.b[t]) {
			return nil, errNumeric(fmt.Sprintf("task %s: the fit diverged (non-finite weights)", tr.tasks[t].name))
		}
	}
	return steps, nil
}

// costs is step 2: each task's difficulty, its mean loss plus ρ times its
// penalty against the OLD Θ (the one its W-step used).
func (tr *Trainer) costs(snap *Snapshot, steps []*wstep) error {
	T := len(tr.tasks)
	snap.Loss, snap.Penalty, snap.Cost = make([]float64, T), make([]float64, T), make([]float64, T)
	var loo []float64
	if tr.env.selfPaced && tr.cfg.PaceCost == LOOCost && tr.cfg.Solver == Exact {
		// The own-data pace (§2.6): each task's leave-one-out loss, shrunk
		// toward the pooled one, in place of its training loss.
		st := make([]looStats, T)
		for t := range st {
			st[t] = tr.looRows(t, steps[t])
		}
		loo = shrinkLOO(st)
	}
	for t, td := range tr.tasks {
		l, pen := tr.loss[t], tr.pen[t]
		norm := steps[t].scale * float64(td.n) // turns l into a per-example mean
		snap.Loss[t] = l / norm
		snap.Penalty[t] = pen
		snap.Cost[t] = (l + tr.cfg.Rho*pen) / norm
		if loo != nil && !math.IsNaN(loo[t]) {
			snap.Cost[t] = loo[t] + tr.cfg.Rho*pen/norm
		}
		if !finite(snap.Cost[t]) {
			return errNumeric(fmt.Sprintf("task %s: non-finite cost", td.name))
		}
	}
	return nil
}

// thetaStep is step 5: the method's Θ-step and the shared intercept's, or
// with Config.JointTheta for MMTL the joint minimization over Θ and W for
// the current τ (§2.7), which also leaves W, b and the data terms at that
// minimizer.
func (tr *Trainer) thetaStep(W [][]float64, tau []float64) error {
	mm, ok := tr.st.(*mmtl)
	if !tr.cfg.JointTheta || !ok || tr.bugScale != 0 {
		if err := tr.st.update(W, tau); err != nil {
			return err
		}
		tr.updateIntercept(tau)
		return nil
	}
	if err := validateWeights(tau, tr.cfg.Model); err != nil {
		return err
	}
	ap := &anchorProblem{tasks: tr.tasks, cfg: tr.cfg, priorU: mm.priorU, m: mm.m, omega: tau, w: tr.w, b: tr.b, loss: tr.loss, cache: tr.cache, deviations: true}
	a := mm.w0
	if a == nil {
		a = make([]float64, len(tr.w[0]))
		for t, w := range tr.w {
			for j, v := range w {
				a[j] += tau[t] * v
			}
		}
	}
	x := ap.point(a, tr.b0)
	_, g0 := ap.eval(x)
	if tr.gtol == 0 {
		// Every later solve starts near its minimizer (τ moves a little
		// per iteration): a tolerance relative to its own start would ask
		// more of each than the first, for nothing the stopping rule sees.
		tr.gtol = 1e-8 * math.Max(infNorm(g0), 1e-300)
	}
	if err := ap.solveTo(x, tr.gtol, true); err != nil {
		return err
	}
	a, b0 := ap.shared(x)
	mm.w0 = append([]float64(nil), a...)
	mm.weight = priorWeight(mm.prior, tau, mm.T)
	if tr.cfg.Intercept > 0 {
		tr.b0 = b0
	} else {
		tr.updateIntercept(tau)
	}
	return nil
}

// tauStep is steps 3 and 4: τ from the costs (uniform for the baseline),
// the self-paced objective, then λ ← cλ.
func (tr *Trainer) tauStep(snap *Snapshot) {
	cfg := tr.cfg
	switch {
	case !tr.env.selfPaced:
		snap.Tau = uniform(len(tr.tasks))
	case cfg.Tau == Hard:
		snap.Tau = HardTau(snap.Cost, tr.lambda, cfg.Delta)
	default:
		snap.Tau = SoftmaxTau(snap.Cost, tr.lambda, cfg.Variant)
	}
	var wc float64
	for t, c := range snap.Cost {
		wc += snap.Tau[t] * c
	}
	snap.SPObjective = wc + tr.lambda*tauRegularizer(cfg.Tau, snap.Tau)
	tr.lambda *= cfg.Pace
}

// objective is step 6's first half: the unweighted objective with the new
// Θ (on √ρ·W under Config.CodeBugs), and its change and τ's change since
// the last iteration, which the stopping rule reads.
func (tr *Trainer) objective(snap *Snapshot, steps []*wstep, wTheta [][]float64) error {
	cfg := tr.cfg
	var obj float64
	newPen := tr.newPenalties(wTheta)
	for t, td := range tr.tasks {
		l := tr.loss[t]
		if tr.bugScale != 0 {
			l = td.lossValue(cfg.Loss, steps[t].scale, wTheta[t], tr.b[t])
		}
		obj += l + cfg.Rho*newPen[t]
	}
	obj += cfg.Rho * tr.st.extra()
	if !finite(obj) {
		return errNumeric("non-finite objective")
	}
	snap.Objective = obj
	snap.TauChange, snap.ObjChange = Float(math.NaN()), Float(math.NaN())
	if tr.prevTau != nil {
		var ch float64
		for t, v := range snap.Tau {
			dv := v - tr.prevTau[t]
			ch += dv * dv
		}
		snap.TauChange = Float(ch)
		snap.ObjChange = Float(relChange(obj, tr.prevObj))
	}
	tr.prevTau, tr.prevObj = snap.Tau, obj
	return nil
}

// relChange is |obj − prev| / |prev|, the stopping rule's objective
// change (§2.4), and 0 when the two are equal: an objective that stays at
// 0 (labels fitted exactly: one training row per task with its own
// intercept) has not changed, where 0/0 is NaN and never passes the
// tolerance, so the run went on to the iteration cap.
func relChange(obj, prev float64) float64 {
	if obj == prev {
		return 0
	}
	return math.Abs(obj-prev) / math.Abs(prev)
}

// finish is step 6's second half: the stopping rule (docs/algorithms.md
// §2.4) on the snapshot of iteration k. Every run stops when the relative objective
// change falls to ObjTol; the self-paced paper variant also waits for τ to
// settle (‖Δτ‖² ≤ TauTol at the same iteration), so self-pacing never stops
// earlier than the alternation it wraps. The authors' ITL is one call of
// their solver, not an alternation.
func (tr *Trainer) finish(snap *Snapshot, k int) {
	cfg := tr.cfg
	if _, isITL := tr.st.(*itl); isITL && !tr.stl && cfg.Variant == Reference {
		snap.Converged, snap.Done, snap.Stop = true, true, StopSingle
		return
	}
	snap.TauRule = tr.env.selfPaced && cfg.Variant == Paper
	if k > 1 {
		objOK := float64(snap.ObjChange) <= cfg.ObjTol
		if snap.TauRule {
			snap.Converged = objOK && float64(snap.TauChange) <= cfg.TauTol && everyTaskIn(snap.Tau)
		} else {
			snap.Converged = objOK
		}
	}
	switch {
	case snap.Converged:
		snap.Done, snap.Stop = true, StopConverged
	case k >= cfg.MaxIter:
		snap.Done, snap.Stop = true, StopCap
	}
}

// minShare is the least T·τ_t at which a self-paced run may stop: below
// it a task is still held out by the pace, and τ standing still there
// says only that λ has not yet grown to the task's cost (§2.4).
const minShare = 1e-3

// everyTaskIn reports whether every task's weight is at least minShare of
// an equal share. With λ far below the costs' spread the softmax τ sits on
// the easiest tasks and barely moves for many iterations while λ grows;
// the τ and objective tests then both pass, and the run stopped there
// (ohio's 2-row folds: at iteration 3, every child predicted 0 with the
// intercepts at −20, log-loss 5.9 against 0.75 without self-pacing).
func everyTaskIn(tau []float64) bool {
	T := float64(len(tau))
	for _, v := range tau {
		if T*v < minShare {
			return false
		}
	}
	return true
}

// newPenalties returns every task's penalty against the Θ just updated,
// from the structure when it knows them more cheaply than the quadratic
// form (MTFL, from its SVD).
func (tr *Trainer) newPenalties(W [][]float64) []float64 {
	if k, ok := tr.st.(penaltyKnower); ok {
		if p := k.penalties(); p != nil {
			if tr.kappa() == 0 {
				return p
			}
			// A copy: the structure's own slice stays its Θ-step's.
			return tr.withIntercepts(append([]float64(nil), p...))
		}
	}
	p := make([]float64, len(tr.tasks))
	for t := range p {
		p[t] = tr.wstep(t).penalty(W[t])
	}
	return tr.withIntercepts(p)
}

// withIntercepts adds each task's κ(b_t − b̄)² against the current b̄ to
// its penalty in p (in place), and returns p.
func (tr *Trainer) withIntercepts(p []float64) []float64 {
	if k := tr.kappa(); k > 0 {
		for t := range p {
			p[t] += k * (tr.b[t] - tr.b0) * (tr.b[t] - tr.b0)
		}
	}
	return p
}

// modelW returns the task vectors the Θ-step and the model see: W itself,
// or √ρ·W under Config.CodeBugs for MTASO (the warm start of the next
// W-step stays W, as in the authors' code).
func (tr *Trainer) modelW() [][]float64 {
	if tr.bugScale == 0 {
		return tr.w
	}
	out := make([][]float64, len(tr.w))
	for t, w := range tr.w {
		out[t] = make([]float64, len(w))
		for j, v := range w {
			out[t][j] = tr.bugScale * v
		}
	}
	return out
}

// stlSnapshot reports the pooled fit per original task; STL is done after
// its single fit.
func (tr *Trainer) stlSnapshot(ws *wstep) (Snapshot, error) {
	T := len(tr.all)
	snap := Snapshot{Iter: 1, Lambda: tr.lambda, Tau: uniform(T), TauChange: Float(math.NaN()), ObjChange: Float(math.NaN()),
		Converged: true, Done: true, Stop: StopSingle}
	snap.Loss = make([]float64, T)
	snap.Penalty = make([]float64, T)
	snap.Cost = make([]float64, T)
	pen := tr.pen[0]
	for t, td := range tr.all {
		sc := tr.scale(td)
		l := td.lossValue(tr.cfg.Loss, sc, tr.w[0], tr.b[0])
		snap.Loss[t] = l / (sc * float64(td.n))
		snap.Penalty[t] = pen
		snap.Cost[t] = snap.Loss[t] + tr.cfg.Rho*pen/(sc*float64(td.n))
	}
	snap.Objective = tr.loss[0] + tr.cfg.Rho*pen
	snap.SPObjective = snap.Objective
	return snap, nil
}

func finite(v float64) bool { return v-v == 0 }

func finiteVec(v []float64) bool {
	for _, x := range v {
		if x-x != 0 {
			return false
		}
	}
	return true
}

// structureKeys lists the methods the trainer runs, sorted.
func structureKeys() []string {
	var k []string
	for key := range structures {
		k = append(k, key)
	}
	sort.Strings(k)
	return k
}
