//go:build js && wasm

package bridge

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/hack-pad/safejs"
	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/wasm/internal/jsonlite"
)

// The page's model search (docs/algorithms.md §14) runs in two kinds of
// worker: one holds the search (tuneStart, tuneFeed, tuneEnd), the pool
// scores its batches (tuneScore). A point's result crosses as three
// values: its pooled scores as 12 numbers (scoreFields), its held-out row
// losses as a Float64Array copied in bulk (tens of thousands of rows per
// point), and why it failed.

// tuneStart({data, model?, selfPaced, ..., folds, seed}) → JSON text of
// session.TuneStep: the search's id and first batch. With no model every
// family is a candidate.
func tuneStart(args []safejs.Value) (any, error) {
	o := opts{arg(args, 0)}
	to, err := trainOptions(o, "tuneStart")
	if err != nil {
		return nil, err
	}
	folds, err := o.num("folds", 3)
	if err != nil {
		return nil, fmt.Errorf("spmtl.tuneStart: %w", err)
	}
	st, err := sess.TuneStart(to.Dataset, to.Config, int(folds), to.Seed)
	if err != nil {
		return nil, err
	}
	return jsonText("tuneStart", st)
}

// tuneFeed(id, [{scores, losses, failure}, ...]) → JSON text of the next
// session.TuneStep (with its result once the search is over).
func tuneFeed(args []safejs.Value) (any, error) {
	id, err := arg(args, 0).Int()
	if err != nil {
		return nil, fmt.Errorf("spmtl.tuneFeed: id: %w", err)
	}
	list := arg(args, 1)
	n, err := list.Length()
	if err != nil {
		return nil, fmt.Errorf("spmtl.tuneFeed: the results: %w", err)
	}
	res := make([]app.TunePointResult, n)
	for i := range res {
		v, err := list.Index(i)
		if err != nil {
			return nil, err
		}
		if res[i], err = pointResult(v); err != nil {
			return nil, fmt.Errorf("spmtl.tuneFeed: result %d: %w", i+1, err)
		}
	}
	st, err := sess.TuneFeed(id, res)
	if err != nil {
		return nil, err
	}
	return jsonText("tuneFeed", st)
}

// tuneEnd(id) forgets a cancelled search.
func tuneEnd(args []safejs.Value) (any, error) {
	id, err := arg(args, 0).Int()
	if err != nil {
		return nil, fmt.Errorf("spmtl.tuneEnd: id: %w", err)
	}
	sess.TuneEnd(id)
	return nil, nil
}

// tuneScore({data, folds, seed}, config) → {scores, losses, failure}: one
// configuration of a batch (config as the batch gave it) scored on the
// data's folds.
func tuneScore(args []safejs.Value) (any, error) {
	o := opts{arg(args, 0)}
	h, err := o.num("data", 0)
	if err != nil {
		return nil, fmt.Errorf("spmtl.tuneScore: %w", err)
	}
	folds, err := o.num("folds", 3)
	if err != nil {
		return nil, fmt.Errorf("spmtl.tuneScore: %w", err)
	}
	seed, err := o.num("seed", 1)
	if err != nil || seed < 0 {
		return nil, fmt.Errorf("spmtl.tuneScore: seed must be a non-negative number")
	}
	t, err := treeOf(arg(args, 1))
	if err != nil {
		return nil, fmt.Errorf("spmtl.tuneScore: the configuration: %w", err)
	}
	var cfg mtl.Config
	if err := jsonlite.Assign(&cfg, t); err != nil {
		return nil, fmt.Errorf("spmtl.tuneScore: the configuration: %w", err)
	}
	r, err := sess.TuneScore(int(h), int(folds), uint64(seed), cfg)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"scores": f64Bulk(scoreFields(r.Scores)), "metric": string(r.Scores.Metric), "failure": r.Failure}
	if r.Losses != nil {
		out["losses"] = f64Bulk(r.Losses)
	}
	return out, nil
}

// scoreFields writes pooled scores as value, SE and N of RMSE, log-loss,
// Brier and AUC, in that order.
func scoreFields(s eval.PooledScores) []float64 {
	var out []float64
	for _, e := range []eval.Estimate{s.RMSE, s.LogLoss, s.Brier, s.AUC} {
		out = append(out, e.Value, e.SE, float64(e.N))
	}
	return out
}

// pointResult reads one {scores, metric, losses, failure} back.
func pointResult(v safejs.Value) (app.TunePointResult, error) {
	var r app.TunePointResult
	o := opts{v}
	var err error
	if r.Failure, err = o.str("failure", ""); err != nil {
		return r, err
	}
	m, err := o.str("metric", "")
	if err != nil {
		return r, err
	}
	r.Scores.Metric = eval.Metric(m)
	sv, _ := v.Get("scores")
	f, err := floatsOf(sv)
	if err != nil || len(f) != 12 {
		return r, fmt.Errorf("scores: want 12 numbers (%v)", err)
	}
	est := func(i int) eval.Estimate { return eval.Estimate{Value: f[i], SE: f[i+1], N: int(f[i+2])} }
	r.Scores.RMSE, r.Scores.LogLoss, r.Scores.Brier, r.Scores.AUC = est(0), est(3), est(6), est(9)
	if lv, _ := v.Get("losses"); lv.Type() == safejs.TypeObject {
		if r.Losses, err = floatsOf(lv); err != nil {
			return r, fmt.Errorf("losses: %w", err)
		}
	}
	return r, nil
}

// f64Bulk copies v into a new Float64Array in one copy of its bytes (not
// one call per element).
func f64Bulk(v []float64) any {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	u8ctor, err := safejs.Global().Get("Uint8Array")
	if err != nil {
		return nil
	}
	u8, err := u8ctor.New(len(b))
	if err != nil {
		return nil
	}
	if _, err := safejs.CopyBytesToJS(u8, b); err != nil {
		return nil
	}
	f64ctor, err := safejs.Global().Get("Float64Array")
	if err != nil {
		return nil
	}
	buf, err := u8.Get("buffer")
	if err != nil {
		return nil
	}
	arr, err := f64ctor.New(buf)
	if err != nil {
		return nil
	}
	return safejs.Unsafe(arr)
}

// floatsOf copies a Float64Array into Go in one copy of its bytes.
func floatsOf(v safejs.Value) ([]float64, error) {
	if v.Type() != safejs.TypeObject {
		return nil, fmt.Errorf("want a Float64Array, got a %s", v.Type())
	}
	buf, err := v.Get("buffer")
	if err != nil {
		return nil, err
	}
	off, err := v.Get("byteOffset")
	if err != nil {
		return nil, err
	}
	n, err := v.Get("byteLength")
	if err != nil {
		return nil, err
	}
	o, err1 := off.Int()
	l, err2 := n.Int()
	if err1 != nil || err2 != nil || l%8 != 0 {
		return nil, fmt.Errorf("want a Float64Array")
	}
	u8ctor, err := safejs.Global().Get("Uint8Array")
	if err != nil {
		return nil, err
	}
	u8, err := u8ctor.New(buf, o, l)
	if err != nil {
		return nil, err
	}
	b := make([]byte, l)
	if _, err := safejs.CopyBytesToGo(b, u8); err != nil {
		return nil, err
	}
	out := make([]float64, l/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out, nil
}
