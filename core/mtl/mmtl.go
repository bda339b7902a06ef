package mtl

import (
	"errors"

	"github.com/spmtl/spmtl/core/internal/linalg"
)

// mmtl is mean-regularized MTL (Evgeniou & Pontil 2004, docs/algorithms.md §5):
// Θ = w0, pen_t = ‖w_t − w0‖², and the Θ-step is the τ-weighted mean
// (shrunk toward 0 by the summed logistic loss's prior, §5.3).
type mmtl struct {
	m  *metric
	w0 []float64 // nil until the first Θ-step (w0^(0) = 0)
	// rho and prior are ρ and the prior's precision π (meanPrior); T is
	// the number of tasks, and weight the prior's coefficient at the last
	// Θ-step, π·Στ_t/T (priorWeight).
	rho, prior float64
	T          int
	weight     float64
	// priorU is each feature's factor in the prior's precision
	// (priorScales; nil: 1).
	priorU []float64
}

var _ structure = (*mmtl)(nil)

func newMMTL(env structureEnv) structure {
	return &mmtl{m: identityMetric(env.d), rho: env.cfg.Rho, prior: meanPrior(env.cfg), T: env.T, priorU: env.priorU}
}

func (s *mmtl) metric() *metric      { return s.m }
func (s *mmtl) anchor(int) []float64 { return s.w0 }

// extra is the prior's c·Σ_j u_j w0_j² (§5.3), 0 without one.
func (s *mmtl) extra() float64 {
	if s.weight == 0 || s.w0 == nil {
		return 0
	}
	return s.weight * priorQuad(s.priorU, s.w0)
}

// update sets w0 to the minimizer of Σ_t τ_t ρ‖w_t − w0‖² + c·Σ_j u_j w0_j²
// with c = π·Στ_t/T (priorWeight) and u the features' factors (priorU):
// w0_j = ρΣτ_t w_tj / (ρΣτ_t + c·u_j), the τ-weighted mean when π = 0.
func (s *mmtl) update(W [][]float64, tau []float64) error {
	if err := validateWeights(tau, "mmtl"); err != nil {
		return err
	}
	var sum float64
	for _, v := range tau {
		sum += v
	}
	if !(sum > 0) {
		return errors.New("mmtl: task weights sum to zero")
	}
	s.weight = priorWeight(s.prior, tau, s.T)
	den := sum + s.weight/s.rho
	w0 := make([]float64, len(W[0]))
	for t, w := range W {
		linalg.Axpy(w0, tau[t]/den, w)
	}
	if s.priorU != nil && s.weight > 0 {
		// A feature whose factor is not 1: the same sum over a
		// denominator of its own.
		for j, u := range s.priorU {
			if u != 1 {
				w0[j] *= den / (sum + s.weight*u/s.rho)
			}
		}
	}
	s.w0 = w0
	return nil
}

func (s *mmtl) theta(dFull int, toFull func([]float64) []float64) *Theta {
	if s.w0 == nil {
		return &Theta{Kind: "mmtl", Mean: make([]float64, dFull)}
	}
	return &Theta{Kind: "mmtl", Mean: toFull(s.w0)}
}

// mmtlTheta is MMTL's knowledge, the shared predictor w0 (Theta.Mean);
// the joint MMTL saves the same.
var mmtlTheta = &thetaKind{
	check: func(th *Theta, d int) error { return thetaVector("theta.mean", th.Mean, d) },
	view: func(th *Theta) ThetaView {
		return ThetaView{Title: "Shared mean predictor w̄ (MMTL)",
			Explain: "Every task's weights are pulled towards this common predictor; its weights say what the tasks share.",
			Charts:  []ThetaChart{{Title: "mean predictor weights", Measure: "weight", Values: th.Mean}}}
	},
}
