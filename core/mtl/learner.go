package mtl

import "fmt"

// Learner is a multitask learner that trains one step at a time. The
// self-paced Trainer takes one outer iteration per step, JointMMTL makes
// its single fit in one step, and the sequential learners of core/seq
// learn one task per step. The method catalogue (core/method) builds every
// learner behind this interface, and Run steps every one of them, so that
// the command line, the evaluation and the page drive them all alike.
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

// Recorder is told of every step a run takes, after the step, with the
// learner and the step's snapshot (as gonum's optimize.Recorder is told of
// every iteration). It may read the learner (its model, its history); an
// error it returns stops the run, and Run and Step return that error.
// The command line reports a long run's progress through one, the
// application checks every snapshot for numbers that are not finite, and
// the evaluation scores the model after every step.
type Recorder func(l Learner, s Snapshot) error

// Step takes one step of l and gives its snapshot to each recorder in
// turn; the first error, the learner's or a recorder's, is returned with
// the snapshot. It is one turn of Run's loop, for callers that step a run
// themselves (the page's worker, which yields to its messages between
// steps).
func Step(l Learner, recs ...Recorder) (Snapshot, error) {
	s, err := l.Step()
	if err == nil {
		err = record(l, &s, recs)
	}
	return s, err
}

// Stopper says when a run should stop: Err returns nil while it may go
// on. A context.Context is one (the command line's, cancelled by a
// signal); Run takes this one method rather than a Context so that a
// caller that never cancels passes nil and links no context: in the
// WebAssembly learner a context kept time's formatting alive through
// Context.Deadline's time.Time, about 25 KB gzipped (docs/bench.md,
// "Fourth round").
type Stopper interface {
	Err() error
}

// Run steps l until it is done, stop says to stop (a nil stop never does)
// or a step fails, giving each step's snapshot to recs (as Step does), and
// returns the last snapshot that succeeded. A learner that is done already
// is not stepped; its last snapshot is returned.
func Run(stop Stopper, l Learner, recs ...Recorder) (Snapshot, error) {
	var last Snapshot
	if h := l.History(); len(h) > 0 {
		last = h[len(h)-1]
	}
	for !l.Done() {
		if stop != nil {
			if err := stop.Err(); err != nil {
				return last, fmt.Errorf("stopped after step %d: %w", last.Iter, err)
			}
		}
		// Step's body, without its copy of every snapshot on the way out.
		s, err := l.Step()
		if err == nil {
			err = record(l, &s, recs)
		}
		if err != nil {
			return last, err
		}
		last = s
	}
	return last, nil
}

// record gives the snapshot s of l's last step to each recorder in turn,
// and returns the first error.
func record(l Learner, s *Snapshot, recs []Recorder) error {
	for _, rec := range recs {
		if err := rec(l, *s); err != nil {
			return err
		}
	}
	return nil
}
