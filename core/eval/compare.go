package eval

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Alpha is the level at which a paired difference over tasks is called
// significant: two-sided, 95%.
const Alpha = 0.05

// Negligible is the size, relative to the compared model's mean score,
// below which a difference is called negligible however consistent it is:
// a thousandth, as PairedWithinOneSE judges a tie in tuning.
const Negligible = 1e-3

// Rounding is the relative size, per task, below which two scores are the
// same to six significant digits: what two fits that stopped a solver's
// tolerance apart differ by. Printing such a difference ("ahead by
// 0.0000000025") would read as a finding.
const Rounding = 1e-6

// TaskMean is a score averaged over the tasks that have one (an AUC is
// undefined on a task whose test rows are all of one class) and its
// standard error over those tasks, sd/√n: how far the average would move
// with other tasks like these.
type TaskMean struct {
	// Mean is NaN when no task has a score; SE is NaN with fewer than two.
	Mean float64 `json:"mean"`
	SE   float64 `json:"se"`
	// N is the number of tasks with a score.
	N int `json:"n"`
}

// MeanOverTasks returns the mean of the per-task scores that are numbers
// and its standard error over tasks.
func MeanOverTasks(scores []float64) TaskMean {
	var v []float64
	for _, s := range scores {
		if !math.IsNaN(s) && !math.IsInf(s, 0) {
			v = append(v, s)
		}
	}
	e := meanSE(v)
	return TaskMean{Mean: e.Value, SE: e.SE, N: e.N}
}

// The verdicts of a paired comparison over tasks (Versus.Verdict), from
// the first model's side.
const (
	// VerdictBetter and VerdictWorse: the first model's mean score differs
	// from the second's at level Alpha, by more than Negligible.
	VerdictBetter = "better"
	VerdictWorse  = "worse"
	// VerdictSame: no difference detectable at level Alpha.
	VerdictSame = "no detectable difference"
	// VerdictNegligible: a consistent difference smaller than Negligible.
	VerdictNegligible = "negligible"
	// VerdictIdentical: the same score on every task, to Rounding (Diff
	// is 0 only when exactly the same).
	VerdictIdentical = "identical"
	// VerdictFew: fewer than two tasks scored by both, nothing to test.
	VerdictFew = "too few tasks"
)

// Versus compares two models' per-task test scores, paired by task: the
// mean over tasks of the first's score minus the second's, the standard
// error of that mean, and the two-sided paired t-test of it. Pairing takes
// out what the two share (a hard task is hard for both), so a difference
// far smaller than either model's own standard error over tasks can be
// significant, and a larger one drowned in task-to-task noise is not.
type Versus struct {
	// Metric names the score (rmse: lower is better; auc: higher).
	Metric Metric `json:"metric"`
	// Tasks is the number of tasks scored by both.
	Tasks int `json:"tasks"`
	// Diff is the mean over those tasks of first − second; SE its standard
	// error; P the paired t-test's two-sided p-value. NaN when undefined.
	Diff float64 `json:"diff"`
	SE   float64 `json:"se"`
	P    float64 `json:"p"`
	// Verdict is one of the Verdict constants.
	Verdict string `json:"verdict"`
	// Text says the comparison in a sentence (Versus.Words), when the
	// models were named.
	Text string `json:"text,omitempty"`
}

// CompareTasks compares a's per-task scores with b's under metric m,
// paired over the tasks where both are numbers.
func CompareTasks(m Metric, a, b []float64) Versus {
	v := Versus{Metric: m, Diff: math.NaN(), SE: math.NaN(), P: math.NaN(), Verdict: VerdictFew}
	var x, y []float64
	for i := range a {
		if i < len(b) && finiteNum(a[i]) && finiteNum(b[i]) {
			x, y = append(x, a[i]), append(y, b[i])
		}
	}
	v.Tasks = len(x)
	if len(x) < 2 {
		return v
	}
	d := make([]float64, len(x))
	for i := range x {
		d[i] = x[i] - y[i]
	}
	e := meanSE(d)
	v.Diff, v.SE = e.Value, e.SE
	_, _, p, err := PairedTTest(x, y)
	if err != nil {
		return v // unreachable: the pairs are numbers and there are two or more
	}
	v.P = p
	same := true
	for i, di := range d {
		same = same && math.Abs(di) <= Rounding*math.Max(math.Abs(x[i]), math.Abs(y[i]))
	}
	base := meanSE(y).Value
	switch {
	case same:
		v.Verdict = VerdictIdentical
	case p >= Alpha:
		v.Verdict = VerdictSame
	case math.Abs(v.Diff) < Negligible*math.Abs(base):
		v.Verdict = VerdictNegligible
	case (v.Diff > 0) == m.HigherIsBetter():
		v.Verdict = VerdictBetter
	default:
		v.Verdict = VerdictWorse
	}
	return v
}

func finiteNum(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Words says the comparison of model a with model b in one sentence, with
// the difference to the digits its standard error supports, e.g.
// "spMTFL vs ITL: spMTFL is better by 0.016 ± 0.005 AUC (mean over 19
// tasks, paired; p = 0.004)".
func (v Versus) Words(a, b string) string {
	name := metricLabel(v.Metric)
	mag, se := WithSE(math.Abs(v.Diff), v.SE)
	over := fmt.Sprintf("mean over %d tasks, paired; p %s", v.Tasks, pText(v.P))
	head := a + " vs " + b + ": "
	switch v.Verdict {
	case VerdictFew:
		return head + fmt.Sprintf("too few tasks scored by both (%d) to compare", v.Tasks)
	case VerdictIdentical:
		if v.Diff != 0 {
			return head + fmt.Sprintf("the same score on every one of the %d tasks, to six significant digits", v.Tasks)
		}
		return head + fmt.Sprintf("the same score on every one of the %d tasks", v.Tasks)
	case VerdictSame:
		return head + fmt.Sprintf("no detectable difference (%s %s ± %s %s; %s)", signWord(v.Diff, v.Metric, a), mag, se, name, over)
	case VerdictNegligible:
		return head + fmt.Sprintf("a consistent but negligible difference (%s %s ± %s %s, under a thousandth of the score; %s)", signWord(v.Diff, v.Metric, a), mag, se, name, over)
	case VerdictBetter:
		return head + fmt.Sprintf("%s is better by %s ± %s %s (%s)", a, mag, se, name, over)
	default:
		return head + fmt.Sprintf("%s is worse by %s ± %s %s (%s)", a, mag, se, name, over)
	}
}

// signWord says which way a difference points: "spMTFL ahead by",
// "spMTFL behind by" or "a difference of" (zero).
func signWord(diff float64, m Metric, a string) string {
	switch {
	case diff == 0 || math.IsNaN(diff):
		return "a difference of"
	case (diff > 0) == m.HigherIsBetter():
		return a + " ahead by"
	default:
		return a + " behind by"
	}
}

func metricLabel(m Metric) string {
	switch m {
	case AUCMetric:
		return "AUC"
	case RMSEMetric:
		return "RMSE"
	}
	return string(m)
}

// pText writes a p-value after its "p": "= 0.16" (two significant
// digits), "< 0.001" below that.
func pText(p float64) string {
	switch {
	case math.IsNaN(p):
		return "n/a"
	case p < 0.001:
		return "< 0.001"
	}
	return "= " + strconv.FormatFloat(p, 'g', 2, 64)
}

// WithSE writes a value and its standard error to the digits the error
// supports: the error to two significant digits, the value to the same
// decimal place ("0.760", "0.013"). Without an error (NaN or 0) the value
// keeps four significant digits and the error reads "n/a" or "0".
func WithSE(v, se float64) (value, err string) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "n/a", "n/a"
	}
	if math.IsNaN(se) || se <= 0 || math.IsInf(se, 0) {
		e := "n/a"
		if se == 0 {
			e = "0"
		}
		return strconv.FormatFloat(v, 'g', 4, 64), e
	}
	// The decimal place of the error's second significant digit.
	d := 1 - int(math.Floor(math.Log10(se)))
	// A rounding up to the next power of ten (0.0996 → 0.10) keeps two digits.
	if r := math.Round(se*math.Pow10(d)) / math.Pow10(d); r >= math.Pow10(2-d) {
		d--
	}
	if d < 0 {
		scale := math.Pow10(-d)
		return strconv.FormatFloat(math.Round(v/scale)*scale, 'f', 0, 64), strconv.FormatFloat(math.Round(se/scale)*scale, 'f', 0, 64)
	}
	if d >= 8 {
		// Past seven zeros after the point ("0.000000100 ± 0.000000046")
		// the digits are counted, not read: both in one power of ten
		// ("1.00e-7 ± 0.46e-7").
		e := int(math.Floor(math.Log10(math.Max(math.Abs(v), se))))
		scale := math.Pow10(e)
		f := max(d+e, 0)
		exp := "e" + strconv.Itoa(e)
		return strconv.FormatFloat(v/scale, 'f', f, 64) + exp, strconv.FormatFloat(se/scale, 'f', f, 64) + exp
	}
	return strconv.FormatFloat(v, 'f', d, 64), strconv.FormatFloat(se, 'f', d, 64)
}

// MarshalJSON writes the comparison with its undefined numbers as null
// (JSON has no NaN) for encoding/json; the wasm bridge's codec reads the
// field tags and writes NaN as null itself.
func (v Versus) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Metric  Metric   `json:"metric"`
		Tasks   int      `json:"tasks"`
		Diff    *float64 `json:"diff"`
		SE      *float64 `json:"se"`
		P       *float64 `json:"p"`
		Verdict string   `json:"verdict"`
		Text    string   `json:"text,omitempty"`
	}{v.Metric, v.Tasks, finite(v.Diff), finite(v.SE), finite(v.P), v.Verdict, v.Text})
}

// MarshalJSON writes the mean with its undefined numbers as null.
func (t TaskMean) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Mean *float64 `json:"mean"`
		SE   *float64 `json:"se"`
		N    int      `json:"n"`
	}{finite(t.Mean), finite(t.SE), t.N})
}
