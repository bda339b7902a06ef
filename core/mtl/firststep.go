package mtl

// The first outer iteration's W-step (docs/algorithms.md §2.1, step 1) reads
// the data, ρ, the loss and the structure's initial Θ, but neither τ nor λ:
// the self-paced fits of one ρ over a λ0 grid, and the baseline of the same
// structure, all start by solving the same systems. Cross-validation trains
// them on one Problem per fold, so the Problem keeps the last few first
// W-steps and a trainer whose configuration matches takes the solution
// instead of solving again. The solvers are deterministic, so a fit is bit
// for bit the same either way; a trainer that took a stored solution has no
// factor in its cache, and its second W-step factors afresh what it would
// otherwise have reused (the same numbers).

// firstKeep bounds the stored first W-steps per Problem. A grid search
// visits its points in order (ρ slowest), so the entries in use are the
// last few; each holds T weight vectors, like one fit's W.
const firstKeep = 8

// firstStep is the solution of a first W-step: every task's weights,
// intercept, data term and penalty.
type firstStep struct {
	key            Config
	w              [][]float64
	b, loss, penal []float64
}

// firstKey is cfg without the settings that act only after the first
// W-step (τ, λ and the pace, the stopping rule, the Θ-step's form): two
// configurations with the same key solve the same first W-step. ok is false
// when the first W-step is not shared: the fista100 solver, and the
// leave-one-out pace, whose costs read the factors a solve leaves in the
// trainer's cache.
func firstKey(cfg Config) (key Config, ok bool) {
	if cfg.Solver != Exact || cfg.PaceCost == LOOCost {
		return Config{}, false
	}
	cfg.SelfPaced, cfg.Tau, cfg.Lambda0, cfg.AutoLambda0, cfg.Pace, cfg.Delta = false, "", 0, 0, 0, 0
	cfg.MaxIter, cfg.TauTol, cfg.ObjTol, cfg.JointTheta = 0, 0, 0, false
	return cfg, true
}

// firstW returns the stored first W-step of key, or nil. The caller copies
// it: the stored slices are shared.
func (p *Problem) firstW(key Config) *firstStep {
	p.firstMu.Lock()
	defer p.firstMu.Unlock()
	for _, f := range p.first {
		if f.key == key {
			p.firstHits++
			return f
		}
	}
	return nil
}

// keepFirstW stores a copy of a first W-step's solution under key, dropping
// the oldest entry past firstKeep.
func (p *Problem) keepFirstW(key Config, w [][]float64, b, loss, pen []float64) {
	f := &firstStep{key: key, w: make([][]float64, len(w)), b: append([]float64(nil), b...),
		loss: append([]float64(nil), loss...), penal: append([]float64(nil), pen...)}
	for t, v := range w {
		f.w[t] = append([]float64(nil), v...)
	}
	p.firstMu.Lock()
	defer p.firstMu.Unlock()
	for _, g := range p.first {
		if g.key == key {
			return // another trainer stored the same solution meanwhile
		}
	}
	if len(p.first) == firstKeep {
		p.first = append(p.first[:0], p.first[1:]...)
	}
	p.first = append(p.first, f)
}
