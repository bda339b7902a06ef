package eval

import (
	"math"
	"sort"

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
// {-1, +1}: the Mann-Whitney probability that a positive example scores
// above a negative one, ties counting one half. ok is false when y holds a
// single class (the AUC is then undefined).
func AUC(scores, y []float64) (auc float64, ok bool) {
	n := len(y)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return scores[idx[a]] < scores[idx[b]] })
	// Sum of the positives' mid-ranks.
	var rankSum float64
	var pos int
	for i := 0; i < n; {
		j := i
		for j < n && scores[idx[j]] == scores[idx[i]] {
			j++
		}
		mid := float64(i+j+1) / 2 // ranks i+1 .. j, averaged
		for k := i; k < j; k++ {
			if y[idx[k]] > 0 {
				rankSum += mid
				pos++
			}
		}
		i = j
	}
	neg := n - pos
	if pos == 0 || neg == 0 {
		return math.NaN(), false
	}
	u := rankSum - float64(pos)*float64(pos+1)/2
	return u / (float64(pos) * float64(neg)), true
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
