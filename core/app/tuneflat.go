package app

import (
	"fmt"
	"math"

	"github.com/spmtl/spmtl/core/eval"
)

// flatLambda0 says, for a self-paced candidate's grid of multiples of the
// automatic λ0, when the grid is flat: every multiple scored, and every
// one within one standard error of the difference from the best on the
// same held-out rows (eval.PairedWithinOneSE), so that the one-SE rule's
// choice (chosen: the largest multiple, which weighs the tasks most
// evenly) is no finding about the pace. It names the range, the spread of
// the scores and the choice; "" when the grid is not flat, has fewer than
// two points, or lacks the row losses a paired tie is judged on.
func flatLambda0(grid []gridPoint, best, chosen int) string {
	if len(grid) < 2 || best < 0 || chosen < 0 || grid[best].losses == nil {
		return ""
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	kLo, kHi := math.Inf(1), math.Inf(-1)
	for _, p := range grid {
		if !(p.cfg.AutoLambda0 > 0) || !p.est.OK() || p.losses == nil || !eval.PairedWithinOneSE(p.losses, grid[best].losses) {
			return ""
		}
		lo, hi = math.Min(lo, p.est.Value), math.Max(hi, p.est.Value)
		kLo, kHi = math.Min(kLo, p.cfg.AutoLambda0), math.Max(kHi, p.cfg.AutoLambda0)
	}
	name := func(k float64) string {
		c := grid[0].cfg
		c.AutoLambda0 = k
		return Lambda0Text(c)
	}
	spread := "scored the same"
	if hi > lo {
		spread = fmt.Sprintf("scored within %.2g of each other", hi-lo)
	}
	return fmt.Sprintf("flat: every λ0 from %s to %s %s, within one standard error of the difference from the best on the same rows: "+
		"the pace's strength makes no difference here, and λ0 = %s is chosen as the simplest (it weighs the tasks most evenly)",
		name(kLo), name(kHi), spread, name(grid[chosen].cfg.AutoLambda0))
}

// paceAgainstBaseline compares a self-paced model's chosen point (sp, its
// held-out row losses) with its baseline's (base, named name) on the same
// rows: ties is true when each is within one standard error of their
// difference of the other (eval.PairedWithinOneSE both ways), and clause
// says so in words, to follow a flat λ0 grid's report. A flat grid says
// only that λ0's value does not matter; a fit paced at every λ0 tried may
// still differ from one not paced at all. Without both losses there is no
// comparison: false and "".
func paceAgainstBaseline(sp, base []float64, name string) (ties bool, clause string) {
	if sp == nil || base == nil {
		return false, ""
	}
	spOK, baseOK := eval.PairedWithinOneSE(sp, base), eval.PairedWithinOneSE(base, sp)
	switch {
	case spOK && baseOK:
		return true, fmt.Sprintf("; %s, without self-pacing, ties with it on the same rows too: self-pacing makes no difference here", name)
	case baseOK:
		return false, fmt.Sprintf("; %s, without self-pacing, scores better by more than one standard error of the difference on the same rows", name)
	default:
		return false, fmt.Sprintf("; %s, without self-pacing, scores worse by more than one standard error of the difference on the same rows", name)
	}
}
