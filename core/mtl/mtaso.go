package mtl

import (
	"fmt"

	"github.com/spmtl/spmtl/core/internal/linalg"
)

// mtaso is alternating structure optimization (Ando & Zhang 2005;
// docs/algorithms.md §7, the authors' non-convex form): Θ is h×d with
// orthonormal rows, pen_t = ‖w_t − ΘᵀΘ w_t^old‖². The Θ-step takes the top
// h left singular vectors of W̃ = W·diag(ω); the next W-step's anchors are
// the projections of the current task vectors onto span(Θ).
type mtaso struct {
	env     structureEnv
	h       int
	m       *metric
	anchors [][]float64 // nil at the start: W^(0) = 0, so p = 0
	theta0  [][]float64 // Θ's rows after the last Θ-step (for Theta)
	proj    []float64   // the last Θ-step's projections' storage, reused
}

var _ structure = (*mtaso)(nil)

func newMTASO(env structureEnv) structure {
	h := env.cfg.H
	if h > env.d {
		h = env.d
	}
	if h > env.T {
		h = env.T
	}
	return &mtaso{env: env, h: h, m: identityMetric(env.d)}
}

func (s *mtaso) metric() *metric { return s.m }
func (s *mtaso) extra() float64  { return 0 }

func (s *mtaso) anchor(t int) []float64 {
	if s.anchors == nil {
		return nil
	}
	return s.anchors[t]
}

func (s *mtaso) update(W [][]float64, tau []float64) error {
	if err := validateWeights(tau, "mtaso"); err != nil {
		return err
	}
	d := s.env.d
	svd, err := newThinSVD(W, columnWeights(s.env, tau), d, s.proj)
	if err != nil {
		return fmt.Errorf("mtaso Θ-step: %w", err)
	}
	s.proj = svd.projBuf
	// Θ = the top h left singular vectors (fewer if W̃ has lower rank; the
	// missing directions would carry no weight of W̃ anyway).
	h := min(s.h, svd.r)
	r := svd.r
	s.theta0 = make([][]float64, h)
	for i := range s.theta0 {
		row := make([]float64, d)
		for j := range row {
			row[j] = svd.u[j*r+i]
		}
		s.theta0[i] = row
	}
	// The last Θ's anchors are rewritten in place: their W-step is done.
	if len(s.anchors) != len(W) {
		s.anchors = make([][]float64, len(W))
	}
	for t := range W {
		// p_t = U_h U_hᵀ w_t, from the projections the SVD already has.
		c := svd.proj[t][:h]
		p := s.anchors[t]
		if len(p) != d {
			p = make([]float64, d)
		}
		for j := range p {
			p[j] = linalg.Dot(svd.u[j*r:j*r+h], c)
		}
		s.anchors[t] = p
	}
	return nil
}

func (s *mtaso) theta(dFull int, toFull func([]float64) []float64) *Theta {
	th := &Theta{Kind: "mtaso"}
	for _, row := range s.theta0 {
		th.Directions = append(th.Directions, toFull(row))
	}
	return th
}

// scaledByCodeBugs: under Config.CodeBugs the authors' code hands MTASO's
// Θ-step and model √ρ·W (docs/algorithms.md §7.3; the trainer applies it).
func (s *mtaso) scaledByCodeBugs() {}

// mtasoTheta is MTASO's knowledge, the h shared directions (the rows of
// Θ, Theta.Directions, which Theta.Check sizes as for every kind).
var mtasoTheta = &thetaKind{
	view: func(th *Theta) ThetaView {
		v := ThetaView{Title: fmt.Sprintf("Shared subspace Θ (MTASO, h = %d)", len(th.Directions)),
			Explain: "The tasks' weights are pulled towards this h-dimensional subspace; each direction's loadings say which features move together across tasks (the sign of a direction is arbitrary)."}
		for k, dir := range th.Directions {
			v.Charts = append(v.Charts, ThetaChart{Title: fmt.Sprintf("direction %d loadings", k+1), Measure: "loading", Values: dir})
		}
		return v
	},
}
