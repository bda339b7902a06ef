package eval

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// MeanStd returns the mean, the sample standard deviation (n − 1) and the
// standard error std/√n of x. NaN values are left out; with fewer than two
// values std and se are NaN.
func MeanStd(x []float64) (mean, std, se float64) {
	var v []float64
	for _, a := range x {
		if !math.IsNaN(a) {
			v = append(v, a)
		}
	}
	if len(v) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	if len(v) == 1 {
		return v[0], math.NaN(), math.NaN()
	}
	mean, std = stat.MeanStdDev(v, nil)
	return mean, std, std / math.Sqrt(float64(len(v)))
}

// PairedTTest runs the two-sided paired t-test of a against b (paired by
// index, e.g. by split): t = mean(d)/(sd(d)/√n) with d = a − b, df = n − 1,
// p from Student's t distribution.
func PairedTTest(a, b []float64) (t float64, df int, p float64, err error) {
	if len(a) != len(b) {
		return 0, 0, 0, fmt.Errorf("paired t-test: %d values against %d", len(a), len(b))
	}
	if len(a) < 2 {
		return 0, 0, 0, errors.New("paired t-test: need at least two pairs")
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
		if math.IsNaN(d[i]) {
			return 0, 0, 0, errors.New("paired t-test: NaN score")
		}
	}
	mean, sd := stat.MeanStdDev(d, nil)
	df = len(d) - 1
	if sd == 0 {
		if mean == 0 {
			return 0, df, 1, nil
		}
		return math.Copysign(math.Inf(1), mean), df, 0, nil
	}
	t = mean / (sd / math.Sqrt(float64(len(d))))
	dist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}
	p = 2 * dist.Survival(math.Abs(t))
	return t, df, p, nil
}

// GridSearch scores n grid points by k-fold cross-validation. fit(point,
// fold) returns the test score of the model trained with grid point `point`
// on the training part of fold `fold`; an error or a NaN counts as the
// worst score (a setting that cannot be fitted is not chosen). The (point,
// fold) pairs run on `workers` goroutines (GOMAXPROCS when workers ≤ 0). It
// returns the first best point in grid order and every point's mean fold
// score, the same whatever the scheduling. A panic in fit is a bug, not a
// bad setting: the goroutines are the boundary that recovers it, and
// GridSearch returns it as an error.
func GridSearch(n, folds int, fit func(point, fold int) (float64, error), metric Metric, workers int) (best int, scores []float64, err error) {
	if n < 1 || folds < 1 {
		return 0, nil, fmt.Errorf("grid search: %d points and %d folds", n, folds)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	raw := make([]float64, n*folds)
	panics := make([]error, n*folds)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				raw[j], panics[j] = safeFit(fit, j/folds, j%folds)
			}
		}()
	}
	for j := range raw {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	for _, e := range panics {
		if e != nil {
			return 0, nil, e
		}
	}
	scores = make([]float64, n)
	for p := range scores {
		var s float64
		for f := 0; f < folds; f++ {
			s += raw[p*folds+f] // NaN propagates: one failed fold fails the point
		}
		scores[p] = s / float64(folds)
	}
	best = 0
	for p := 1; p < n; p++ {
		if metric.Better(scores[p], scores[best]) {
			best = p
		}
	}
	return best, scores, nil
}

// safeFit runs fit, mapping an error to NaN and a panic to an error.
func safeFit(fit func(int, int) (float64, error), p, f int) (v float64, bug error) {
	defer func() {
		if r := recover(); r != nil {
			v, bug = math.NaN(), fmt.Errorf("grid search: point %d, fold %d: internal error: %v", p+1, f+1, r)
		}
	}()
	v, err := fit(p, f)
	if err != nil {
		return math.NaN(), nil
	}
	return v, nil
}
