package eval

import (
	"encoding/json"
	"math"
	"testing"
)

// pDF3 is the two-sided p-value of Student's t with 3 degrees of freedom,
// from its closed-form distribution function
// F(t) = 1/2 + (θ + sin θ cos θ)/π with θ = atan(t/√3).
func pDF3(t float64) float64 {
	th := math.Atan(math.Abs(t) / math.Sqrt(3))
	return 2 * (0.5 - (th+math.Sin(th)*math.Cos(th))/math.Pi)
}

// pDF2 is the two-sided p-value of Student's t with 2 degrees of freedom:
// F(t) = 1/2 + t/(2√(2 + t²)).
func pDF2(t float64) float64 { return 1 - math.Abs(t)/math.Sqrt(2+t*t) }

// TestCompareTasks: the paired comparison over tasks against hand-computed
// differences, standard errors and p-values (three and four tasks: 2
// and 3 degrees of freedom, whose t distributions have closed forms).
func TestCompareTasks(t *testing.T) {
	b := []float64{0.75, 0.68, 0.86, 0.61}
	add := func(d ...float64) []float64 {
		out := make([]float64, len(b))
		for i := range b {
			out[i] = b[i] + d[i]
		}
		return out
	}
	nan := math.NaN()
	for _, c := range []struct {
		name      string
		m         Metric
		a, b      []float64
		tasks     int
		diff, se  float64 // hand-computed; NaN: undefined
		tStat     float64 // the t behind p (NaN: p is not from a t)
		p         float64 // used when tStat is NaN
		verdict   string
		wantWords string
	}{
		// d = 0.05, 0.02, 0.04, −0.01: mean 0.025, Σ(d − mean)² = 0.0021,
		// sd = √(0.0021/3) = 0.026458, SE = sd/2 = 0.013229, t = 1.8898.
		{"a noisy gap", AUCMetric, add(0.05, 0.02, 0.04, -0.01), b, 4, 0.025, 0.0132288, 1.8898224, 0, VerdictSame,
			"A vs B: no detectable difference (A ahead by 0.025 ± 0.013 AUC; mean over 4 tasks, paired; p = 0.16)"},
		// d = 0.02, 0.03, 0.025, 0.025: mean 0.025, Σ(d − mean)² = 5e-5,
		// sd = 0.0040825, SE = 0.0020412, t = 12.247.
		{"a steady gain in AUC", AUCMetric, add(0.02, 0.03, 0.025, 0.025), b, 4, 0.025, 0.00204124, 12.247449, 0, VerdictBetter,
			"A vs B: A is better by 0.0250 ± 0.0020 AUC (mean over 4 tasks, paired; p = 0.0012)"},
		{"the same gap in RMSE is worse", RMSEMetric, add(0.02, 0.03, 0.025, 0.025), b, 4, 0.025, 0.00204124, 12.247449, 0, VerdictWorse,
			"A vs B: A is worse by 0.0250 ± 0.0020 RMSE (mean over 4 tasks, paired; p = 0.0012)"},
		// d = 1e-4 ± 1e-5: consistent, and under a thousandth of B's mean 0.725.
		{"a ten-thousandth, consistently", AUCMetric, add(1e-4, 1.1e-4, 0.9e-4, 1e-4), b, 4, 1e-4, 4.0825e-6, 24.494897, 0, VerdictNegligible,
			"A vs B: a consistent but negligible difference (A ahead by 0.0001000 ± 0.0000041 AUC, under a thousandth of the score; mean over 4 tasks, paired; p < 0.001)"},
		{"identical", RMSEMetric, add(0, 0, 0, 0), b, 4, 0, 0, nan, 1, VerdictIdentical,
			"A vs B: the same score on every one of the 4 tasks"},
		// d = 2e-9, 3e-9, 1e-9, 2e-9 on scores near 0.7: a solver's
		// tolerance, steady enough for a t-test to call it significant.
		{"the same to six digits", RMSEMetric, add(2e-9, 3e-9, 1e-9, 2e-9), b, 4, 2e-9, 4.0825e-10, 4.8989795, 0, VerdictIdentical,
			"A vs B: the same score on every one of the 4 tasks, to six significant digits"},
		// One task a ten-thousandth apart: not rounding.
		{"one task apart", RMSEMetric, add(2e-9, 3e-9, 1e-4, 2e-9), b, 4, 2.500175e-5, 2.49994167e-5, 1.00009334, 0, VerdictSame, ""},
		// A task without a score in either is left out of the pairs: d =
		// 0.05, 0.02, −0.01, mean 0.02, sd 0.03, SE 0.03/√3, t = 1.1547.
		{"unscored tasks left out", AUCMetric, []float64{0.8, nan, 0.9, 0.7, 0.6}, []float64{0.75, 0.7, nan, 0.68, 0.61}, 3,
			0.02, 0.0173205, 1.1547005, 0, VerdictSame, ""},
		{"one pair", AUCMetric, []float64{0.8, nan}, []float64{0.7, 0.6}, 1, nan, nan, nan, nan, VerdictFew,
			"A vs B: too few tasks scored by both (1) to compare"},
	} {
		v := CompareTasks(c.m, c.a, c.b)
		near := func(got, want, tol float64) bool {
			return (math.IsNaN(want) && math.IsNaN(got)) || math.Abs(got-want) <= tol
		}
		p := c.p
		switch {
		case math.IsNaN(c.tStat):
		case c.tasks == 4:
			p = pDF3(c.tStat)
		case c.tasks == 3:
			p = pDF2(c.tStat)
		}
		if v.Tasks != c.tasks || !near(v.Diff, c.diff, 1e-9) || !near(v.SE, c.se, 1e-6) || v.Verdict != c.verdict {
			t.Errorf("%s: %+v, want %d tasks, diff %v ± %v, %q", c.name, v, c.tasks, c.diff, c.se, c.verdict)
		}
		if !math.IsNaN(p) && !near(v.P, p, 1e-6) {
			t.Errorf("%s: p = %v, want %v", c.name, v.P, p)
		}
		if c.wantWords != "" {
			if got := v.Words("A", "B"); got != c.wantWords {
				t.Errorf("%s: words\n%q, want\n%q", c.name, got, c.wantWords)
			}
		}
	}
}

// TestMeanOverTasks: the mean over the tasks with a score and its
// standard error over them.
func TestMeanOverTasks(t *testing.T) {
	for _, c := range []struct {
		name     string
		scores   []float64
		mean, se float64
		n        int
	}{
		// sd of 1, 2, 3, 6 = √(14/3) = 2.1602; SE = sd/2.
		{"four tasks", []float64{1, 2, 3, 6}, 3, 1.0801234, 4},
		{"NaN left out", []float64{1, math.NaN(), 3}, 2, 1, 2},
		{"one task: no SE", []float64{5}, 5, math.NaN(), 1},
		{"none", []float64{math.NaN()}, math.NaN(), math.NaN(), 0},
	} {
		got := MeanOverTasks(c.scores)
		same := func(a, b float64) bool { return (math.IsNaN(a) && math.IsNaN(b)) || math.Abs(a-b) < 1e-6 }
		if !same(got.Mean, c.mean) || !same(got.SE, c.se) || got.N != c.n {
			t.Errorf("%s: %+v, want %v ± %v over %d", c.name, got, c.mean, c.se, c.n)
		}
	}
}

// TestWithSE: a value to the digits its standard error supports.
func TestWithSE(t *testing.T) {
	for _, c := range []struct {
		v, se   float64
		val, er string
	}{
		{0.76025, 0.0134, "0.760", "0.013"},
		{10.1202, 0.4213, "10.12", "0.42"},
		{0.7459, 0.0996, "0.75", "0.10"}, // the error rounds up to a power of ten
		{1234.56, 34.2, "1235", "34"},
		{1234.56, 342, "1230", "340"},
		{0.0001, 0.0000041, "0.0001000", "0.0000041"},
		{1.0e-7, 4.6e-8, "1.00e-7", "0.46e-7"}, // past seven zeros, in one power of ten
		{1.25e-6, 6.8e-7, "1.25e-6", "0.68e-6"},
		{2e-9, 3e-8, "0.2e-8", "3.0e-8"},
		{0.7603, math.NaN(), "0.7603", "n/a"},
		{0.7603, 0, "0.7603", "0"},
		{math.NaN(), 0.1, "n/a", "n/a"},
	} {
		if v, e := WithSE(c.v, c.se); v != c.val || e != c.er {
			t.Errorf("WithSE(%v, %v) = %q, %q; want %q, %q", c.v, c.se, v, e, c.val, c.er)
		}
	}
}

// TestVersusJSON: undefined numbers are written as null, never as 0.
func TestVersusJSON(t *testing.T) {
	b, err := json.Marshal(CompareTasks(AUCMetric, []float64{0.8}, []float64{0.7}))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"metric":"auc","tasks":1,"diff":null,"se":null,"p":null,"verdict":"too few tasks"}`; string(b) != want {
		t.Errorf("%s, want %s", b, want)
	}
	b, err = json.Marshal(MeanOverTasks([]float64{0.5}))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"mean":0.5,"se":null,"n":1}`; string(b) != want {
		t.Errorf("%s, want %s", b, want)
	}
}
