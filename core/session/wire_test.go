package session

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
)

// TestTrainRequestOptions: the page's run options become the session's,
// λ0 read as a number or through app.SetLambda0, the seed given to both
// the split and the learner.
func TestTrainRequestOptions(t *testing.T) {
	type req = TrainRequest
	cases := []struct {
		name         string
		set          func(*req) // on a request after SetDefaults
		lambda, auto float64
		seed         uint64
		err          string
	}{
		{name: "defaults", set: func(*req) {}, seed: 1},
		{name: "number", set: func(r *req) { r.Lambda0, r.Seed = 2.5, 7 }, lambda: 2.5, seed: 7},
		{name: "seed 0", set: func(r *req) { r.Seed = 0 }, seed: 0},
		{name: "auto", set: func(r *req) { r.Lambda0 = "auto" }, auto: 1, seed: 1},
		{name: "auto*K", set: func(r *req) { r.Lambda0 = "auto*2" }, auto: 2, seed: 1},
		{name: "text number", set: func(r *req) { r.Lambda0 = " 3 " }, lambda: 3, seed: 1},
		{name: "autoLambda0 given", set: func(r *req) { r.AutoLambda0 = 4 }, auto: 4, seed: 1},
		{name: "text auto wins", set: func(r *req) { r.AutoLambda0, r.Lambda0 = 4, "auto" }, auto: 1, seed: 1},
		{name: "text number keeps autoLambda0", set: func(r *req) { r.AutoLambda0, r.Lambda0 = 4, "5" }, lambda: 5, auto: 4, seed: 1},
		{name: "bad text", set: func(r *req) { r.Lambda0 = "auto*zz" }, err: `lambda0: want a number, auto or auto*K with K`},
		{name: "not a number or text", set: func(r *req) { r.Lambda0 = true }, err: "lambda0: want a number, auto or auto*K, got true"},
		{name: "NaN train", set: func(r *req) { r.Train = math.NaN() }, err: "train: want a number, got NaN"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r req
			r.SetDefaults()
			r.Data, r.Model, r.Train, r.All = 3, "mtfl", 0.5, true
			c.set(&r)
			o, err := r.Options()
			if c.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), c.err) {
					t.Fatalf("got error %v, want %q…", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := TrainOptions{Dataset: 3, TrainOptions: app.TrainOptions{Train: 0.5, All: true, Seed: c.seed,
				Config: mtl.Config{Model: "mtfl", Lambda0: c.lambda, AutoLambda0: c.auto, Seed: int64(c.seed)}}}
			if !reflect.DeepEqual(o, want) {
				t.Errorf("got %+v\nwant %+v", o, want)
			}
		})
	}
}

// TestRequestDefaults: a member the page leaves out takes the default
// stated with its request type.
func TestRequestDefaults(t *testing.T) {
	var n Named
	var mn ModelName
	var p PredictRequest
	var g GenerateRequest
	var s ScoreRequest
	var ro ReproduceOptions
	for _, d := range []interface{ SetDefaults() }{&n, &mn, &p, &g, &s, &ro} {
		d.SetDefaults()
	}
	want := []any{Named{"data"}, ModelName{Named{"model"}}, PredictRequest{Named: Named{"data"}}, GenerateRequest{Seed: 1},
		ScoreRequest{Seed: 1}, ReproduceOptions{Run: 1, Folds: 3, Variant: mtl.Paper, Table: app.PaperTable}}
	for i, got := range []any{n, mn, p, g, s, ro} {
		if !reflect.DeepEqual(got, want[i]) {
			t.Errorf("got %+v, want %+v", got, want[i])
		}
	}
}

// TestTunePoint: a point's scores cross as 12 numbers and come back as
// they were, NaN included, with its count of capped folds; another count
// is refused.
func TestTunePoint(t *testing.T) {
	r := app.TunePointResult{Scores: eval.PooledScores{Metric: eval.LogLossMetric, RMSE: eval.Estimate{Value: 0.5, SE: 0.1, N: 30},
		LogLoss: eval.Estimate{Value: 0.7, SE: 0.05, N: 30}, Brier: eval.Undefined(), AUC: eval.Estimate{Value: 0.8, SE: math.NaN(), N: 1}},
		Failure: "", Losses: []float64{1, 2}, Capped: 2}
	p := PointOf(r)
	if len(p.Scores) != 12 || p.Scores[3] != 0.7 || p.Metric != eval.LogLossMetric {
		t.Fatalf("point %+v", p)
	}
	back, err := p.Result(r.Losses)
	if err != nil {
		t.Fatal(err)
	}
	same := func(a, b eval.Estimate) bool {
		eq := func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
		return eq(a.Value, b.Value) && eq(a.SE, b.SE) && a.N == b.N
	}
	s, w := back.Scores, r.Scores
	if s.Metric != w.Metric || !same(s.RMSE, w.RMSE) || !same(s.LogLoss, w.LogLoss) || !same(s.Brier, w.Brier) || !same(s.AUC, w.AUC) ||
		!reflect.DeepEqual(back.Losses, r.Losses) || back.Capped != r.Capped {
		t.Errorf("read back %+v, want %+v", back, r)
	}
	p.Scores = p.Scores[:11]
	if _, err := p.Result(nil); err == nil || err.Error() != "scores: want 12 numbers, got 11" {
		t.Errorf("11 scores: %v", err)
	}
}

// TestSnapshotOf: the self-paced trainer's snapshot keeps λ, τ and the
// costs; a sequential learner's has none of them, and its scores.
func TestSnapshotOf(t *testing.T) {
	sp := mtl.Snapshot{Iter: 2, Lambda: 1.5, Tau: []float64{0.4, 0.6}, Cost: []float64{1, 2}, Loss: []float64{0.5, 1}, Penalty: []float64{3, 4},
		Objective: 9, TauChange: mtl.Float(math.NaN()), Done: true, Stop: mtl.StopCap}
	got := SnapshotOf(sp)
	if got.Lambda == nil || *got.Lambda != 1.5 || !reflect.DeepEqual(got.Tau, sp.Tau) || !reflect.DeepEqual(got.Penalty, sp.Penalty) ||
		got.Seq != nil || got.Stop != "cap" || got.StopMessage != sp.StopMessage() || !math.IsNaN(got.TauChange) {
		t.Errorf("self-paced: %+v", got)
	}
	seq := mtl.Snapshot{Iter: 1, Seq: &mtl.SeqStep{Task: 1, Order: []int{1}, Scores: []mtl.Float{0.25, mtl.Float(math.NaN())}}}
	got = SnapshotOf(seq)
	if got.Lambda != nil || got.Tau != nil || got.Cost != nil || got.Seq == nil || got.Seq.Task != 1 || got.Seq.Scores[0] != 0.25 ||
		!math.IsNaN(got.Seq.Scores[1]) || !reflect.DeepEqual(got.Seq.Order, []int{1}) {
		t.Errorf("sequential: %+v", got)
	}
}

// TestHeader: a CSV's columns and delimiter; none for the sparse format.
func TestHeader(t *testing.T) {
	for _, c := range []struct {
		text string
		want HeaderInfo
	}{
		{"task;y;x\nA;1;2,5\n", HeaderInfo{Header: []string{"task", "y", "x"}, Delimiter: "semicolon"}},
		{"1 1:0.5 3:2\n", HeaderInfo{}},
	} {
		got, err := Header([]byte(c.text), "h.csv")
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %+v (%v), want %+v", c.text, got, err, c.want)
		}
	}
}
