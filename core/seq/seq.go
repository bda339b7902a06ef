package seq

import (
	"math"

	"github.com/spmtl/spmtl/core/mtl"
)

// The sequential learners report each step as an mtl.Snapshot whose Seq
// field holds the task learned and the selection scores, and implement
// mtl.Learner.
var (
	_ mtl.Learner = (*CL)(nil)
	_ mtl.Learner = (*ELLA)(nil)
)

// snapshot returns the mtl.Snapshot of step k (1-based), which learned task
// of order, with every task's score (NaN for learned tasks).
func snapshot(k, task int, order []int, scores []float64, done bool) mtl.Snapshot {
	sq := &mtl.SeqStep{Task: task, Order: append([]int(nil), order...), Scores: make([]mtl.Float, len(scores))}
	for t, v := range scores {
		sq.Scores[t] = mtl.Float(v)
	}
	s := mtl.Snapshot{Iter: k, Seq: sq, Done: done, Converged: done, TauChange: mtl.Float(math.NaN()), ObjChange: mtl.Float(math.NaN())}
	if done {
		s.Stop = mtl.StopLearned
	}
	return s
}

func remaining(learned []bool) []int {
	var u []int
	for t, l := range learned {
		if !l {
			u = append(u, t)
		}
	}
	return u
}
