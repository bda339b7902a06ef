package seq

import (
	"fmt"
	"math"

	"github.com/spmtl/spmtl/core/mtl"
)

// CLConfig configures curriculum learning.
type CLConfig struct {
	// Rho is the pull towards the previous task's vector. Default 0.01
	// (hard-coded in the authors' code).
	Rho float64
	// Loss defaults to logistic for classification, squared otherwise.
	Loss mtl.Loss
}

// CL is curriculum learning of multiple tasks with the authors' greedy rule
// (docs/algorithms.md §8): at each step, every remaining task is fitted anchored
// at the last learned task's vector, w = argmin l_t + ρ‖w − w_prev‖², and
// the task with the lowest regularized training objective is learned next.
// The objective is in the code's scale (a sum for the squared loss, a mean
// for the logistic loss, i.e. mtl.Reference), and the first step anchors at
// w = 0. Tasks not learned yet predict with zero weights and bias (CL has no
// model of a task before it is learned), so Model is only final once Done.
type CL struct {
	p       *mtl.Problem
	cfg     CLConfig
	learned []bool
	order   []int
	w       [][]float64
	b       []float64
	prev    []float64
	hist    []mtl.Snapshot
}

// NewCL starts curriculum learning on a prepared training set. Each step
// solves the remaining tasks with p.FitTask in the mtl.Reference scale.
func NewCL(p *mtl.Problem, cfg CLConfig) (c *CL, err error) {
	if p == nil {
		return nil, fmt.Errorf("new cl: nil problem")
	}
	if cfg.Rho == 0 {
		cfg.Rho = 0.01
	}
	if !mtl.RangeOf("rho").Contains(cfg.Rho) {
		return nil, fmt.Errorf("new cl: rho must be %s, got %v", mtl.RangeOf("rho"), cfg.Rho)
	}
	if cfg.Loss == "" {
		cfg.Loss = mtl.Config{}.Defaults(p.Data.Kind == dataClassification).Loss
	}
	switch {
	case cfg.Loss != mtl.Squared && cfg.Loss != mtl.Logistic:
		return nil, fmt.Errorf("new cl: unknown loss %q (want squared or logistic)", cfg.Loss)
	case cfg.Loss == mtl.Logistic && p.Data.Kind != dataClassification:
		return nil, fmt.Errorf("new cl: the logistic loss needs binary labels")
	}
	T, d := p.Tasks(), p.Features()
	c = &CL{p: p, cfg: cfg, learned: make([]bool, T), w: make([][]float64, T), b: make([]float64, T), prev: make([]float64, d)}
	for t := range c.w {
		c.w[t] = make([]float64, d)
	}
	return c, nil
}

// Done reports whether every task is learned.
func (c *CL) Done() bool { return len(c.order) == len(c.learned) }

// History returns the snapshots so far.
func (c *CL) History() []mtl.Snapshot { return c.hist }

// Step fits every remaining task anchored at the previous task and learns
// the one with the lowest regularized objective.
func (c *CL) Step() (s mtl.Snapshot, err error) {
	if c.Done() {
		return c.hist[len(c.hist)-1], nil
	}
	T := len(c.learned)
	scores := make([]float64, T)
	best, bestScore := -1, math.Inf(1)
	var bestFit mtl.TaskFit
	for t := 0; t < T; t++ {
		if c.learned[t] {
			scores[t] = math.NaN()
			continue
		}
		fit, err := c.p.FitTask(t, c.cfg.Loss, mtl.Reference, c.cfg.Rho, c.prev)
		if err != nil {
			return s, fmt.Errorf("cl step %d: %w", len(c.order)+1, err)
		}
		scores[t] = fit.Loss + c.cfg.Rho*fit.Penalty
		if math.IsNaN(scores[t]) || math.IsInf(scores[t], 0) {
			return s, fmt.Errorf("cl step %d: task %d: non-finite objective", len(c.order)+1, t)
		}
		if scores[t] < bestScore {
			best, bestScore, bestFit = t, scores[t], fit
		}
	}
	c.learned[best] = true
	c.order = append(c.order, best)
	c.w[best], c.b[best] = bestFit.W, bestFit.B
	c.prev = bestFit.W
	s = snapshot(len(c.order), best, c.order, scores, c.Done())
	c.hist = append(c.hist, s)
	return s, nil
}

// Model returns every task's predictor: the fit fixed when it was learned,
// zero weights and bias for tasks not learned yet.
func (c *CL) Model() *mtl.Model {
	return buildModel(c.p, c.w, c.b)
}

func buildModel(p *mtl.Problem, W [][]float64, b []float64) *mtl.Model {
	m := &mtl.Model{Features: p.Features(), Kind: p.Data.Kind}
	for t := range W {
		m.Names = append(m.Names, p.Data.Tasks[t].Name)
		m.W = append(m.W, append([]float64(nil), W[t]...))
		m.B = append(m.B, b[t])
	}
	return m
}
