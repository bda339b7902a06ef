package eval

import "github.com/spmtl/spmtl/core/mtl"

// Finish steps l until it is done or a step fails, giving each step's
// snapshot to recs, and returns the last snapshot that succeeded: what
// mtl.Run does with a context that is never cancelled. The learner's
// callers that cannot be cancelled (a fit to the end, the page's Finish)
// use it instead of mtl.Run(context.Background(), ...): a context linked
// into the WebAssembly learner keeps time's formatting alive through
// Context.Deadline's time.Time, about 10 KB gzipped for nothing the page
// uses.
func Finish(l mtl.Learner, recs ...mtl.Recorder) (mtl.Snapshot, error) {
	var last mtl.Snapshot
	if h := l.History(); len(h) > 0 {
		last = h[len(h)-1]
	}
	for !l.Done() {
		s, err := mtl.Step(l, recs...)
		if err != nil {
			return last, err
		}
		last = s
	}
	return last, nil
}
