package eval

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/spmtl/spmtl/core/data"
)

// TestPooledScores checks every pooled score and its standard error
// against values computed by hand (sample sd, N−1; the delta method for
// RMSE; Hanley–McNeil for AUC).
func TestPooledScores(t *testing.T) {
	ln := math.Log
	for _, c := range []struct {
		name   string
		got    Estimate
		value  float64
		se     float64
		wantOK bool
	}{
		// errors 0, 1, 2, 3: MSE 3.5, sd of the squares √(49/3), SE(MSE) = sd/2.
		{"rmse", PooledRMSE([]float64{1, 2, 3, 4}, []float64{1, 1, 1, 1}), math.Sqrt(3.5), math.Sqrt(49.0/3) / 2 / (2 * math.Sqrt(3.5)), true},
		{"rmse of a perfect fit", PooledRMSE([]float64{1, 2}, []float64{1, 2}), 0, 0, true},
		{"rmse of one row", PooledRMSE([]float64{3}, []float64{1}), 2, math.NaN(), true},
		{"rmse of no rows", PooledRMSE(nil, nil), math.NaN(), math.NaN(), false},
		// margins 0, ln 3, −ln 3 on positives: p(correct) = 1/2, 3/4, 1/4.
		{"log-loss", LogLoss([]float64{0, ln(3), -ln(3)}, []float64{1, 1, 1}), (ln(2) + ln(4.0/3) + ln(4)) / 3, 0.32074599924966146, true},
		{"log-loss, a negative row", LogLoss([]float64{ln(3)}, []float64{-1}), ln(4), math.NaN(), true},
		{"log-loss, a huge margin", LogLoss([]float64{-800}, []float64{1}), 800, math.NaN(), true},
		// p = 1/2, 3/4, 1/4 for three positives: (p−1)² = 1/4, 1/16, 9/16.
		{"brier", Brier([]float64{0.5, 0.75, 0.25}, []float64{1, 1, 1}), 0.2916666666666667, 0.14583333333333334, true},
		// squared-loss margins 0.6, −1.4, 3 read as p = 0.8, 0, 1.
		{"brier of squared-loss margins", Brier(Probabilities([]float64{0.6, -1.4, 3}, false), []float64{1, -1, -1}), 0.3466666666666667, 0.32687068459016705, true},
		// three of four positive-negative pairs ordered: A = 3/4.
		{"auc", PooledAUC([]float64{0.1, 0.4, 0.35, 0.8}, []float64{-1, -1, 1, 1}), 0.75, 0.27629564910487775, true},
		{"auc of one class", PooledAUC([]float64{0.1, 0.4}, []float64{1, 1}), math.NaN(), math.NaN(), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.got.OK() != c.wantOK || !near(c.got.Value, c.value) || !near(c.got.SE, c.se) {
				t.Errorf("got %+v, want value %v, SE %v", c.got, c.value, c.se)
			}
		})
	}
}

func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b))
}

// TestPooled: which scores a kind of data and a loss give, and which one
// tuning reads; the squared loss on classes has no log-loss.
func TestPooled(t *testing.T) {
	y := []float64{1, -1, 1, -1}
	f := []float64{2, -1, 0.5, 0.2}
	for _, c := range []struct {
		kind     data.Kind
		logistic bool
		metric   Metric
		defined  []Metric
	}{
		{data.Regression, false, RMSEMetric, []Metric{RMSEMetric}},
		{data.Classification, true, LogLossMetric, []Metric{LogLossMetric, BrierMetric, AUCMetric}},
		{data.Classification, false, BrierMetric, []Metric{BrierMetric, AUCMetric}},
	} {
		s := Pooled(c.kind, c.logistic, f, y)
		if s.Metric != c.metric {
			t.Errorf("%v logistic %v: metric %s, want %s", c.kind, c.logistic, s.Metric, c.metric)
		}
		for _, m := range []Metric{RMSEMetric, LogLossMetric, BrierMetric, AUCMetric} {
			want := false
			for _, d := range c.defined {
				want = want || d == m
			}
			if s.Of(m).OK() != want {
				t.Errorf("%v logistic %v: %s defined %v, want %v", c.kind, c.logistic, m, s.Of(m).OK(), want)
			}
		}
	}
}

// TestEstimateJSON: an undefined value travels as null and comes back as
// NaN, never as 0 (a perfect RMSE).
func TestEstimateJSON(t *testing.T) {
	b, err := json.Marshal(Estimate{Value: math.NaN(), SE: 0.5, N: 3})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"value":null,"se":0.5,"n":3}` {
		t.Errorf("wrote %s", b)
	}
	var back Estimate
	if err := json.Unmarshal(b, &back); err != nil || !math.IsNaN(back.Value) || back.SE != 0.5 || back.N != 3 {
		t.Errorf("read %+v (%v)", back, err)
	}
}

// TestPairedWithinOneSE: a tie is judged on the same rows' differences.
// Two loss vectors with a large spread over rows but a consistent gap are
// not tied; the same gap drowned in row-by-row noise is; a gap below a
// thousandth of the loss is a tie however consistent.
func TestPairedWithinOneSE(t *testing.T) {
	base := make([]float64, 400)
	for i := range base {
		base[i] = float64(i%20) + 1 // spread over rows: SE of the mean ≈ 0.29
	}
	shift := func(f func(i int) float64) []float64 {
		out := make([]float64, len(base))
		for i := range base {
			out[i] = base[i] + f(i)
		}
		return out
	}
	for _, c := range []struct {
		name string
		a    []float64
		want bool
	}{
		{"identical", shift(func(int) float64 { return 0 }), true},
		{"consistently worse by 0.1", shift(func(int) float64 { return 0.1 }), false},
		{"better", shift(func(int) float64 { return -0.5 }), true},
		{"worse by 0.1 in noise of ±3", shift(func(i int) float64 { return 0.1 + 3*float64(1-2*(i%2)) }), true},
		{"consistently worse by a ten-thousandth", shift(func(int) float64 { return 1e-4 }), true},
	} {
		if got := PairedWithinOneSE(c.a, base); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if PairedWithinOneSE([]float64{1}, []float64{1}) || PairedWithinOneSE([]float64{1, 2}, []float64{1}) {
		t.Error("fewer than two rows, or rows that do not pair, are never a tie")
	}
}

// TestGroupLosses: one value per group whose mean is the rows' mean; the
// clustered standard error is the spread of whole groups: rows that
// repeat their group's loss count once, so the SE is that of the groups'
// means over three draws, not of eight rows; the values do not move.
func TestGroupLosses(t *testing.T) {
	losses := []float64{1, 1, 1, 1, 4, 4, 9, 9}
	sizes := []int{4, 2, 2}
	g := GroupLosses(losses, sizes)
	want := []float64{4 * 3.0 / 8, 8 * 3.0 / 8, 18 * 3.0 / 8}
	for i := range want {
		if math.Abs(g[i]-want[i]) > 1e-15 {
			t.Fatalf("group values %v, want %v", g, want)
		}
	}
	if m, r := meanSE(g).Value, meanSE(losses).Value; math.Abs(m-r) > 1e-15 {
		t.Errorf("the groups' mean %v, the rows' %v", m, r)
	}
	for _, bad := range [][]int{{4, 2}, {4, 2, 3}, {-1, 7, 2}} {
		if GroupLosses(losses, bad) != nil {
			t.Errorf("sizes %v of 8 rows accepted", bad)
		}
	}
	// Log-losses of rows: each task's rows predicted alike.
	y := []float64{1, 1, 1, 1, -1, -1, 1, 1}
	margin := []float64{2, 2, 2, 2, 0.5, 0.5, -1, -1}
	s := Pooled(data.Classification, true, margin, y)
	c := Clustered(s, true, margin, y, sizes)
	rows := RowLosses(LogLossMetric, true, margin, y)
	var ss float64
	for _, v := range GroupLosses(rows, sizes) {
		ss += (v - c.LogLoss.Value) * (v - c.LogLoss.Value)
	}
	if se := math.Sqrt(ss/2) / math.Sqrt(3); math.Abs(c.LogLoss.SE-se) > 1e-12 || c.LogLoss.Value != s.LogLoss.Value || !(c.LogLoss.SE > s.LogLoss.SE) {
		t.Errorf("clustered log-loss %v ± %v (by hand ± %v), by rows %v ± %v", c.LogLoss.Value, c.LogLoss.SE, se, s.LogLoss.Value, s.LogLoss.SE)
	}
	if c.AUC != s.AUC {
		t.Errorf("AUC moved: %v, was %v", c.AUC, s.AUC)
	}
}
