package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
)

// A run reports its progress on stderr once it has taken progressFirst,
// then at most every progressEvery: a quick run prints nothing, and a long
// one (ELLA on thousands of tasks takes minutes) does not look hung.
var (
	progressFirst = 3 * time.Second
	progressEvery = 5 * time.Second
)

// progress prints how far a long run is.
type progress struct {
	w           io.Writer
	label       string
	now         func() time.Time
	start, next time.Time
}

func newProgress(w io.Writer, label string) *progress {
	p := &progress{w: w, label: label, now: time.Now}
	p.start = p.now()
	p.next = p.start.Add(progressFirst)
	return p
}

// report prints "spmtl: LABEL: WHAT after Ns", WHAT formatted from
// format and args ("step 120 of 3000"), when a line is due.
func (p *progress) report(format string, args ...any) {
	t := p.now()
	if t.Before(p.next) {
		return
	}
	p.next = t.Add(progressEvery)
	fmt.Fprintf(p.w, "spmtl: %s: %s after %v\n", p.label, fmt.Sprintf(format, args...), t.Sub(p.start).Round(time.Second))
}

// finish steps r to its end (Run.Finish), reporting its progress on w
// under label once it is long.
func finish(r *app.Run, w io.Writer, label string) (mtl.Snapshot, error) {
	return r.Finish(progressRecorder(w, label, r.Method.Kind, r.Config.MaxIter))
}

// progressRecorder is the recorder that reports a run's progress: the
// steps taken of at most maxIter ("iteration 3 of at most 100"; a
// sequential learner's "step 3 of 9", one step per task).
func progressRecorder(w io.Writer, label string, kind method.Kind, maxIter int) mtl.Recorder {
	p := newProgress(w, label)
	format := "iteration %d of at most %d"
	if kind == method.Sequential {
		format = "step %d of %d"
	}
	return func(l mtl.Learner, _ mtl.Snapshot) error {
		p.report(format, len(l.History()), maxIter)
		return nil
	}
}
