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
		"self-pacing makes no difference here; λ0 = %s is chosen as the simplest (it weighs the tasks most evenly)",
		name(kLo), name(kHi), spread, name(grid[chosen].cfg.AutoLambda0))
}
