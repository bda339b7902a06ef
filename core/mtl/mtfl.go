package mtl

import (
	"fmt"
	"math"
)

// mtfl is convex multitask feature learning (Argyriou, Evgeniou & Pontil
// 2008; docs/algorithms.md §6): Θ = D, pen_t = w_tᵀD⁻¹w_t, and the Θ-step is
// D = (W̃W̃ᵀ + εI)^{1/2} / tr(·) with W̃ = W·diag(ω), kept low-rank.
type mtfl struct {
	env  structureEnv
	m    *metric   // M⁻¹ = D
	pen  []float64 // w_tᵀD⁻¹w_t of the last update's W
	proj []float64 // the last D-step's projections' storage, reused
}

var (
	_ structure     = (*mtfl)(nil)
	_ penaltyKnower = (*mtfl)(nil)
)

func newMTFL(env structureEnv) structure {
	// D^(0): Argyriou's I/d (paper variant) or the authors' d·I
	// (reference), with d the data's features even in span coordinates.
	beta := 1 / float64(env.dFull)
	if env.cfg.Variant == Reference {
		beta = float64(env.dFull)
	}
	m := scaledIdentityMetric(env.d, beta)
	m.full = env.dFull
	return &mtfl{env: env, m: m}
}

func (s *mtfl) metric() *metric      { return s.m }
func (s *mtfl) anchor(int) []float64 { return nil }

// extra is the ε·tr(D⁻¹) term of the perturbed objective
// tr(D⁻¹(WWᵀ + εI)), so that the reported objective is the one the
// alternation provably decreases. The authors' code leaves it out of the
// objective its stopping rule tests, and so does the reference variant.
func (s *mtfl) extra() float64 {
	if s.env.cfg.Variant == Reference {
		return 0
	}
	return s.env.cfg.Eps * s.m.traceM()
}

func (s *mtfl) update(W [][]float64, tau []float64) error {
	if err := validateWeights(tau, "mtfl"); err != nil {
		return err
	}
	m, pen, svd, err := mtflMetric(W, columnWeights(s.env, tau), s.env.d, s.env.dFull, s.env.cfg.Eps, s.proj)
	if err != nil {
		return err
	}
	s.m, s.pen, s.proj = m, pen, svd.projBuf
	return nil
}

func (s *mtfl) penalties() []float64 { return s.pen }

// mtflMetric returns M⁻¹ = D for the columns W̃ = W·diag(ω):
// D = (W̃W̃ᵀ + εI)^{1/2} / tr(·), from the thin SVD of W̃, with the trace
// normalization over all dFull dimensions of the data even when the
// vectors have only d (span) coordinates (§6, §11). It also returns each
// w_tᵀ D⁻¹ w_t, read off the SVD, and the SVD (projBuf: see newThinSVD).
func mtflMetric(W [][]float64, omega []float64, d, dFull int, eps float64, projBuf []float64) (*metric, []float64, *thinSVD, error) {
	svd, err := newThinSVD(W, omega, d, projBuf)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("mtfl D-step: %w", err)
	}
	r := svd.r
	sigma0 := math.Sqrt(eps)
	tr := float64(dFull-r) * sigma0
	sig := make([]float64, r)
	for i, si := range svd.s {
		sig[i] = math.Sqrt(si*si + eps)
		tr += sig[i]
	}
	m := &metric{d: d, full: dFull, beta: sigma0 / tr, r: r, u: svd.u, gamma: make([]float64, r)}
	for i := range sig {
		m.gamma[i] = (sig[i] - sigma0) / tr
	}
	pen := make([]float64, len(W))
	for t, w := range W {
		pen[t] = stableQuad(m.u, r, m.beta, m.gamma, w, svd.proj[t])
	}
	return m, pen, svd, nil
}

func (s *mtfl) theta(dFull int, toFull func([]float64) []float64) *Theta {
	m := s.m
	th := &Theta{Kind: "mtfl", Beta: m.beta, Gamma: append([]float64(nil), m.gamma...), Relevance: make([]float64, dFull)}
	for j := range th.Relevance {
		th.Relevance[j] = m.beta
	}
	for i := 0; i < m.r; i++ {
		u := make([]float64, m.d)
		for j := range u {
			u[j] = m.u[j*m.r+i]
		}
		full := toFull(u)
		th.Directions = append(th.Directions, full)
		for j, v := range full {
			th.Relevance[j] += m.gamma[i] * v * v
		}
	}
	return th
}

// mtflTheta is MTFL's knowledge, the feature metric D (Theta.Beta, Gamma,
// Directions) and its diagonal (Theta.Relevance).
var mtflTheta = &thetaKind{
	check: func(th *Theta, d int) error {
		if err := thetaVector("theta.relevance", th.Relevance, d); err != nil {
			return err
		}
		if len(th.Gamma) != len(th.Directions) {
			return fmt.Errorf("theta.gamma has %d values, theta.directions %d vectors: one weight per direction", len(th.Gamma), len(th.Directions))
		}
		return nil
	},
	view: func(th *Theta) ThetaView {
		return ThetaView{Title: "Shared feature metric D (MTFL)",
			Explain: "The diagonal of D is how much room the shared metric gives each feature: the tasks' weights are cheap along features with a large value and pulled to zero elsewhere. It sums to 1.",
			Charts:  []ThetaChart{{Title: "feature relevance diag(D)", Measure: "relevance", Values: th.Relevance}}}
	},
}
