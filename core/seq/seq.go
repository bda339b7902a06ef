package seq

import (
	"context"
	"fmt"

	"github.com/spmtl/spmtl/core/mtl"
)

// Snapshot is the state after one step of a sequential learner.
type Snapshot struct {
	// Step is 1-based; step k learned Order[k-1].
	Step int `json:"step"`
	// Task is the index of the task learned at this step.
	Task int `json:"task"`
	// Order lists the tasks learned so far, in order.
	Order []int `json:"order"`
	// Scores is every task's selection score at this step (NaN for tasks
	// already learned; for ELLA-random, 0).
	Scores []float64 `json:"scores"`
	// Done is true once every task is learned.
	Done bool `json:"done"`
	// L is ELLA's basis (d+1 rows of k), S its codes per task (nil for a
	// task never encoded); both nil for CL.
	L [][]float64 `json:"L,omitempty"`
	S [][]float64 `json:"S,omitempty"`
}

// Learner is a sequential multitask learner.
type Learner interface {
	// Step learns one more task.
	Step() (Snapshot, error)
	// Done reports whether every task is learned.
	Done() bool
	// Model returns the current predictors of every task.
	Model() *mtl.Model
	// History returns the snapshots so far.
	History() []Snapshot
}

// Run steps l until every task is learned or ctx is cancelled.
func Run(ctx context.Context, l Learner) (Snapshot, error) {
	var last Snapshot
	for !l.Done() {
		if err := ctx.Err(); err != nil {
			return last, err
		}
		s, err := l.Step()
		if err != nil {
			return s, err
		}
		last = s
	}
	return last, nil
}

// guard turns a panic inside a step into an error.
func guard(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: internal error: %v", what, r)
	}
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
