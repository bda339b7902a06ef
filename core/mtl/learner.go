package mtl

import (
	"context"
	"fmt"
)

// Learner is a multitask learner that trains one step at a time. The
// self-paced Trainer takes one outer iteration per step, JointMMTL makes
// its single fit in one step, and the sequential learners of core/seq
// learn one task per step. The method catalogue (core/method) builds every
// learner behind this interface, so that the command line, the evaluation
// and the page drive them all alike.
type Learner interface {
	// Step advances the learner and returns its state; once Done it
	// returns the last state again.
	Step() (Snapshot, error)
	// Done reports whether another Step would change nothing.
	Done() bool
	// Model returns the current per-task predictors.
	Model() *Model
	// History returns the snapshots of the steps so far.
	History() []Snapshot
}

// The learners of this package.
var (
	_ Learner = (*Trainer)(nil)
	_ Learner = (*JointMMTL)(nil)
)

// Run steps l until it is done or ctx is cancelled, and returns the last
// snapshot.
func Run(ctx context.Context, l Learner) (Snapshot, error) {
	var last Snapshot
	if h := l.History(); len(h) > 0 {
		last = h[len(h)-1]
	}
	for !l.Done() {
		if err := ctx.Err(); err != nil {
			return last, fmt.Errorf("stopped after step %d: %w", last.Iter, err)
		}
		s, err := l.Step()
		if err != nil {
			return last, err
		}
		last = s
	}
	return last, nil
}
