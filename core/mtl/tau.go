package mtl

import "math"

// SoftmaxTau returns τ_t ∝ exp(−cost_t/λ), normalized to sum to 1.
//
// The Paper variant subtracts the smallest cost before exponentiating: the
// same distribution, finite for any finite costs. The Reference variant
// reproduces the authors' code: exp(−cost/λ) in float64 with no shift, tasks
// whose term underflows get τ = 0, and if every term underflows τ falls
// back to uniform (which is then the plain MTL baseline; docs/algorithms.md §2).
func SoftmaxTau(cost []float64, lambda float64, v Variant) []float64 {
	tau := make([]float64, len(cost))
	shift := 0.0
	if v != Reference {
		shift = math.Inf(1)
		for _, c := range cost {
			shift = math.Min(shift, c)
		}
	}
	var sum float64
	for t, c := range cost {
		tau[t] = math.Exp(-(c - shift) / lambda)
		sum += tau[t]
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		return uniform(len(cost))
	}
	for t := range tau {
		tau[t] /= sum
	}
	return tau
}

// HardTau returns the hard-threshold rule of the paper's eq. 7: weight 1 for
// tasks with cost below λ, δ for the rest, normalized to sum to 1.
func HardTau(cost []float64, lambda, delta float64) []float64 {
	tau := make([]float64, len(cost))
	var sum float64
	for t, c := range cost {
		tau[t] = delta
		if c < lambda {
			tau[t] = 1
		}
		sum += tau[t]
	}
	for t := range tau {
		tau[t] /= sum
	}
	return tau
}

func uniform(n int) []float64 {
	tau := make([]float64, n)
	for t := range tau {
		tau[t] = 1 / float64(n)
	}
	return tau
}

// tauRegularizer returns r(τ), the term whose λ-weighted sum with Σ τ·cost
// the rule minimizes: Σ τ log τ for the softmax rule, −Σ τ for the hard rule.
func tauRegularizer(rule TauRule, tau []float64) float64 {
	var r float64
	for _, v := range tau {
		if rule == Hard {
			r -= v
		} else if v > 0 {
			r += v * math.Log(v)
		}
	}
	return r
}
