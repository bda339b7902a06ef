//go:build js && wasm

package bridge

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/hack-pad/safejs"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/session"
)

// The page's model search (docs/algorithms.md §14) runs in two kinds of
// worker: one holds the search (tuneStart, tuneFeed, tuneEnd), the pool
// scores its batches (tuneScore). A point's held-out row losses (tens of
// thousands of rows per point) cross in bulk, beside the JSON: tuneScore
// answers them as a Float64Array, tuneFeed takes every point's as the
// bytes of one Float64Array, with each point's count in its request. In
// JSON they cost ~18 ms per point to write and ~1.3 s per batch of 25 to
// read back (15,000 rows, node); in bulk they cost a copy, and keep
// their values exactly.

// bulk is an answer whose floats cross beside its JSON as a Float64Array.
type bulk struct {
	v      any
	floats []float64
}

// tuneStart(request) → session.TuneStep: the search's id and first batch.
// With no model every family is a candidate.
func tuneStart(r session.TrainRequest, _ payload) (any, error) {
	o, err := r.Options()
	if err != nil {
		return nil, fmt.Errorf("spmtl.tuneStart: %w", err)
	}
	return sess.TuneStart(o.Dataset, o.Config, r.Folds, o.Seed, r.NewTasks)
}

// tuneScore(request) → a session.TunePoint, with the row losses in bulk
// when the point has them.
func tuneScore(r session.ScoreRequest, _ payload) (any, error) {
	res, err := sess.TuneScore(r.Data, r.Folds, r.Seed, r.NewTasks, r.Config)
	if err != nil {
		return nil, err
	}
	return bulk{v: session.PointOf(res), floats: res.Losses}, nil
}

// feedRequest is tuneFeed's: the search's id and its batch's points in
// order, each with the count of its row losses in the payload (none: no
// losses).
type feedRequest struct {
	ID      int `json:"id"`
	Results []struct {
		session.TunePoint
		Losses *int `json:"losses"`
	} `json:"results"`
}

// tuneFeed(request, losses) → the next session.TuneStep (with its result
// once the search is over).
func tuneFeed(r feedRequest, p payload) (any, error) {
	var losses []float64
	if !p.v.IsUndefined() {
		b, err := p.bytes()
		if err != nil {
			return nil, err
		}
		if len(b)%8 != 0 {
			return nil, fmt.Errorf("spmtl.tuneFeed: the losses: %d bytes, not a whole number of floats", len(b))
		}
		losses = make([]float64, len(b)/8)
		for i := range losses {
			losses[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		}
	}
	res := make([]app.TunePointResult, len(r.Results))
	for i, pt := range r.Results {
		var own []float64
		if pt.Losses != nil {
			n := *pt.Losses
			if n < 0 || n > len(losses) {
				return nil, fmt.Errorf("spmtl.tuneFeed: results[%d].losses: %d, more than the %d left in the payload", i, n, len(losses))
			}
			own, losses = losses[:n:n], losses[n:]
		}
		var err error
		if res[i], err = pt.Result(own); err != nil {
			return nil, fmt.Errorf("spmtl.tuneFeed: results[%d].%w", i, err)
		}
	}
	if len(losses) > 0 {
		return nil, fmt.Errorf("spmtl.tuneFeed: the losses: %d more in the payload than the results count", len(losses))
	}
	return sess.TuneFeed(r.ID, res)
}

// f64Array copies v into a new Float64Array in one copy of its bytes (not
// one call per element); NaN and ±Inf stay as they are.
func f64Array(v []float64) (safejs.Value, error) {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	u8ctor, err := safejs.Global().Get("Uint8Array")
	if err != nil {
		return safejs.Undefined(), err
	}
	u8, err := u8ctor.New(len(b))
	if err != nil {
		return safejs.Undefined(), err
	}
	if _, err := safejs.CopyBytesToJS(u8, b); err != nil {
		return safejs.Undefined(), err
	}
	buf, err := u8.Get("buffer")
	if err != nil {
		return safejs.Undefined(), err
	}
	f64ctor, err := safejs.Global().Get("Float64Array")
	if err != nil {
		return safejs.Undefined(), err
	}
	return f64ctor.New(buf)
}
