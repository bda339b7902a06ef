package eval

import (
	"math"
	"strings"

	"github.com/spmtl/spmtl/core/data"
)

// Metric is a test score: RMSE (lower is better) or AUC (higher is better).
type Metric string

// The two metrics of the paper's table.
const (
	RMSEMetric Metric = "rmse"
	AUCMetric  Metric = "auc"
)

// MetricFor returns the paper's metric for a kind of data.
func MetricFor(k data.Kind) Metric {
	if k == data.Classification {
		return AUCMetric
	}
	return RMSEMetric
}

// Name is the metric as a sentence or a table names it: "RMSE",
// "log-loss", "Brier score", "AUC".
func (m Metric) Name() string {
	switch m {
	case LogLossMetric:
		return "log-loss"
	case BrierMetric:
		return "Brier score"
	}
	return strings.ToUpper(string(m))
}

// HigherIsBetter reports whether larger scores are better.
func (m Metric) HigherIsBetter() bool { return m == AUCMetric }

// Better reports whether a is strictly better than b. NaN is worse than
// any number, so a NaN never wins.
func (m Metric) Better(a, b float64) bool {
	switch {
	case math.IsNaN(a):
		return false
	case math.IsNaN(b):
		return true
	case m.HigherIsBetter():
		return a > b
	default:
		return a < b
	}
}

// RMSE returns the root mean squared error of pred against y (NaN when
// empty).
func RMSE(pred, y []float64) float64 {
	if len(y) == 0 {
		return math.NaN()
	}
	var s float64
	for i, v := range y {
		d := pred[i] - v
		s += d * d
	}
	return math.Sqrt(s / float64(len(y)))
}

// AUC returns the area under the ROC curve of scores for labels y in
// {-1, +1} (or {0, 1}): the Mann-Whitney probability that a positive example
// scores above a negative one, ties counting one half. ok is false when y
// holds a single class or a score is NaN (the AUC is then undefined).
//
// The positives' and the negatives' scores are sorted apart and merged:
// U, the count of pairs won plus half the ties, is a sum of halves, exact
// in float64, so the result is bit for bit the mid-rank formula's
// (TestAUCMatchesRanks). The page scores every task after every step, so
// the sort is sortKeys, by hand (see there).
func AUC(scores, y []float64) (auc float64, ok bool) {
	npos := 0
	for i, v := range y {
		if math.IsNaN(scores[i]) {
			return math.NaN(), false
		}
		if v > 0 {
			npos++
		}
	}
	if npos == 0 || npos == len(y) {
		return math.NaN(), false
	}
	buf := make([]uint64, 2*len(y))
	keys, tmp := buf[:len(y)], buf[len(y):]
	p, n := 0, npos
	for i, v := range y {
		if v > 0 {
			keys[p] = floatKey(scores[i])
			p++
		} else {
			keys[n] = floatKey(scores[i])
			n++
		}
	}
	pos, neg := keys[:npos], keys[npos:]
	sortKeys(pos, tmp[:npos])
	sortKeys(neg, tmp[npos:])
	var u float64
	below, upTo := 0, 0 // neg[:below] < k, neg[below:upTo] == k
	for _, k := range pos {
		for below < len(neg) && neg[below] < k {
			below++
		}
		upTo = max(upTo, below)
		for upTo < len(neg) && neg[upTo] == k {
			upTo++
		}
		u += float64(below) + float64(upTo-below)/2
	}
	return u / (float64(len(pos)) * float64(len(neg))), true
}

// floatKey maps a float64 that is not NaN to a uint64 in the same order,
// with −0 and +0 one key (they are equal scores).
func floatKey(f float64) uint64 {
	if f == 0 {
		f = 0 // −0 → +0
	}
	b := math.Float64bits(f)
	if b>>63 != 0 {
		return ^b // negatives: the larger the magnitude, the smaller the key
	}
	return b | 1<<63
}

// sortKeys sorts keys ascending with tmp (as long) for scratch: runs of 8
// by insertion, then merged bottom-up. Written by hand because the page's
// build compiles this package without inlining: slices.Sort then calls its
// comparison per pair: BenchmarkAUC under js/wasm with the page's flags
// (-gcflags=all=-l) took 67 µs for 255 scores and 2.7 ms for 7,400 with
// slices.Sort, 30 µs and 1.2 ms with this sort (natively 11 → 5 µs and
// 0.95 → 0.53 ms). The page scores every task after every step.
func sortKeys(keys, tmp []uint64) {
	n := len(keys)
	const run = 8
	for lo := 0; lo < n; lo += run {
		hi := min(lo+run, n)
		for i := lo + 1; i < hi; i++ {
			k, j := keys[i], i
			for ; j > lo && keys[j-1] > k; j-- {
				keys[j] = keys[j-1]
			}
			keys[j] = k
		}
	}
	src, dst := keys, tmp
	for width := run; width < n; width *= 2 {
		for lo := 0; lo < n; lo += 2 * width {
			mid, hi := min(lo+width, n), min(lo+2*width, n)
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if src[j] < src[i] {
					dst[k] = src[j]
					j++
				} else {
					dst[k] = src[i]
					i++
				}
				k++
			}
			k += copy(dst[k:], src[i:mid])
			copy(dst[k:], src[j:hi])
		}
		src, dst = dst, src
	}
	if n > 0 && &src[0] != &keys[0] {
		copy(keys, src)
	}
}

// Score returns the per-task test scores of preds (one slice of predictions
// per task of test, in order) and their unweighted mean over tasks, as the
// paper computes it: RMSE per task for regression; AUC per task for
// classification, with single-class tasks reported as NaN and left out of
// the mean. The mean is NaN when no task has a score.
func Score(kind data.Kind, preds [][]float64, test *data.Dataset) (perTask []float64, mean float64) {
	perTask = make([]float64, len(test.Tasks))
	var sum float64
	var n int
	for t := range test.Tasks {
		y := test.Tasks[t].Y
		var v float64
		if kind == data.Classification {
			v, _ = AUC(preds[t], y)
		} else {
			v = RMSE(preds[t], y)
		}
		perTask[t] = v
		if !math.IsNaN(v) {
			sum += v
			n++
		}
	}
	if n == 0 {
		return perTask, math.NaN()
	}
	return perTask, sum / float64(n)
}
