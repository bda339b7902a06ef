package mtl

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

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

// AutoLambda returns the pace λ at which the softmax rule gives the
// easiest quarter of the tasks (⌈T/4⌉ of them, by cost) half of the total
// weight (docs/algorithms.md §2.5), found by bisection on log λ, but never
// less than a tenth of the median cost: when the first W-step barely
// separates the tasks (their costs agree to many digits) the rule would
// otherwise sharpen τ on differences that are noise. The share of the
// easiest quarter falls from 1 (λ → 0) to ⌈T/4⌉/T (λ → ∞), so a half is
// reachable from three tasks on. Two tasks take the λ at which the easier
// one holds three quarters (it weighs three times the other, as the
// easiest quarter of many tasks weighs three times the rest on average);
// one task has τ = 1 whatever λ is, and takes the floor. Costs that are all
// equal leave no λ to find, and AutoLambda says why.
func AutoLambda(cost []float64) (float64, error) {
	T := len(cost)
	if T == 0 {
		return 0, errors.New("lambda0 auto: no task costs")
	}
	c := append([]float64(nil), cost...)
	sort.Float64s(c)
	floor := 0.1 * math.Abs(c[T/2])
	if T == 1 {
		if !(floor > 0) || math.IsInf(floor, 0) {
			return 1, nil // any λ gives the one task τ = 1
		}
		return floor, nil
	}
	spread := c[T-1] - c[0]
	if !(spread > 0) || math.IsInf(spread, 0) {
		return 0, fmt.Errorf("lambda0 auto: every task has the same cost %g at the first iteration, so no pace separates them: give lambda0 a number", c[0])
	}
	target := 0.5
	if T == 2 {
		target = 0.75
	}
	q := (T + 3) / 4
	share := func(lambda float64) float64 {
		var easy, all float64
		for i, v := range c {
			e := math.Exp(-(v - c[0]) / lambda)
			all += e
			if i < q {
				easy += e
			}
		}
		return easy / all
	}
	lo, hi := math.Log(spread*1e-9), math.Log(spread*1e9)
	if share(math.Exp(lo)) < target {
		return math.Max(math.Exp(lo), floor), nil // the easiest tasks are tied with the next ones
	}
	for i := 0; i < 200 && hi-lo > 1e-12; i++ {
		mid := (lo + hi) / 2
		if share(math.Exp(mid)) > target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Max(math.Exp((lo+hi)/2), floor), nil
}
