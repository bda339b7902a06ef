package mtl

import "errors"

// mtflMean is a shared mean with a learned feature metric
// (docs/algorithms.md §6.4): w_t = w0 + v_t, Θ = (w0, D), pen_t =
// (w_t − w0)ᵀD⁻¹(w_t − w0). It is MTFL on the deviations from the tasks'
// mean, so tasks are pulled toward what they share (MMTL's anchor) along
// the directions in which they actually differ (MTFL's D): the shape of a
// mixed model whose random slopes have a learned covariance.
type mtflMean struct {
	env  structureEnv
	m    *metric   // M⁻¹ = D
	w0   []float64 // nil until the first Θ-step (w0^(0) = 0)
	pen  []float64
	proj []float64
}

var (
	_ structure     = (*mtflMean)(nil)
	_ penaltyKnower = (*mtflMean)(nil)
)

func newMTFLMean(env structureEnv) structure {
	s := newMTFL(env).(*mtfl)
	return &mtflMean{env: env, m: s.m}
}

func (s *mtflMean) metric() *metric      { return s.m }
func (s *mtflMean) anchor(int) []float64 { return s.w0 }

// extra is MTFL's ε·tr(D⁻¹) (§6), for the paper variant.
func (s *mtflMean) extra() float64 {
	if s.env.cfg.Variant == Reference {
		return 0
	}
	return s.env.cfg.Eps * s.m.traceM()
}

// update is the joint Θ-step. For a fixed D the minimizer of
// Σ_t ω_t²(w_t − w0)ᵀD⁻¹(w_t − w0) over w0 is the ω²-weighted mean,
// whatever D is, so the exact joint minimizer is that mean followed by
// MTFL's D-step on the deviations.
func (s *mtflMean) update(W [][]float64, tau []float64) error {
	if err := validateWeights(tau, "mtfl-mean"); err != nil {
		return err
	}
	omega := columnWeights(s.env, tau)
	var sum float64
	for _, o := range omega {
		sum += o * o
	}
	if !(sum > 0) {
		return errors.New("mtfl-mean: task weights sum to zero")
	}
	w0 := make([]float64, len(W[0]))
	for t, w := range W {
		c := omega[t] * omega[t] / sum
		for j, v := range w {
			w0[j] += c * v
		}
	}
	dev := make([][]float64, len(W))
	for t, w := range W {
		dev[t] = make([]float64, len(w))
		for j, v := range w {
			dev[t][j] = v - w0[j]
		}
	}
	m, pen, svd, err := mtflMetric(dev, omega, s.env.d, s.env.dFull, s.env.cfg.Eps, s.proj)
	if err != nil {
		return err
	}
	s.m, s.pen, s.proj, s.w0 = m, pen, svd.projBuf, w0
	return nil
}

func (s *mtflMean) penalties() []float64 { return s.pen }

// theta is MTFL-mean's knowledge: MTFL's metric D (Theta.Beta, Gamma,
// Directions, Relevance) and the shared mean w0 (Theta.Mean; 0 before the
// first Θ-step).
func (s *mtflMean) theta(dFull int, toFull func([]float64) []float64) *Theta {
	th := (&mtfl{env: s.env, m: s.m}).theta(dFull, toFull)
	th.Kind = "mtfl-mean"
	th.Mean = make([]float64, dFull)
	if s.w0 != nil {
		th.Mean = toFull(s.w0)
	}
	return th
}

// mtflMeanTheta is MTFL-mean's knowledge (§6.4): the shared mean w0 and
// the metric D the deviations from it are measured in.
var mtflMeanTheta = &thetaKind{
	check: func(th *Theta, d int) error {
		if err := thetaVector("theta.mean", th.Mean, d); err != nil {
			return err
		}
		return mtflTheta.check(th, d)
	},
	view: func(th *Theta) ThetaView {
		return ThetaView{Title: "Shared mean w̄ and feature metric D (MTFL-mean)",
			Explain: "Every task's weights are pulled towards the shared mean, more cheaply along features with a large relevance: the mean says what the tasks share, the relevance where they may differ from it. The relevance sums to 1.",
			Charts: []ThetaChart{{Title: "mean predictor weights", Measure: "weight", Values: th.Mean},
				{Title: "feature relevance diag(D)", Measure: "relevance", Values: th.Relevance}}}
	},
}
