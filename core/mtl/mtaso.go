package mtl

import "gonum.org/v1/gonum/mat"

// mtaso is alternating structure optimization (Ando & Zhang 2005;
// ALGORITHMS.md §7, the authors' non-convex form): Θ is h×d with
// orthonormal rows, pen_t = ‖w_t − ΘᵀΘ w_t^old‖². The Θ-step takes the top
// h left singular vectors of W̃ = W·diag(ω); the next W-step's anchors are
// the projections of the current task vectors onto span(Θ).
type mtaso struct {
	env     structureEnv
	h       int
	m       *metric
	anchors [][]float64 // nil at the start: W^(0) = 0, so p = 0
}

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
	d, T := s.env.d, len(W)
	omega := columnWeights(s.env, tau)
	wt := mat.NewDense(d, T, nil)
	for t, w := range W {
		for j, v := range w {
			wt.Set(j, t, v*omega[t])
		}
	}
	var svd mat.SVD
	if !svd.Factorize(wt, mat.SVDThinU) {
		return errNumeric("mtaso Θ-step: SVD did not converge")
	}
	var u mat.Dense
	svd.UTo(&u)
	h := s.h
	// p_t = U_h U_hᵀ w_t for the current (unweighted) task vectors.
	s.anchors = make([][]float64, T)
	c := make([]float64, h)
	for t, w := range W {
		for i := range c {
			c[i] = 0
		}
		for j, v := range w {
			row := u.RawRowView(j)
			for i := 0; i < h; i++ {
				c[i] += row[i] * v
			}
		}
		p := make([]float64, d)
		for j := range p {
			row := u.RawRowView(j)
			var x float64
			for i := 0; i < h; i++ {
				x += row[i] * c[i]
			}
			p[j] = x
		}
		s.anchors[t] = p
	}
	return nil
}
