package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/spmtl/spmtl/core/data"
)

// newRand returns the generator every split uses: PCG, so that a seed gives
// the same split natively and under js/wasm.
func newRand(seed uint64, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x5eed0000+stream))
}

// subsetPair builds the train and test datasets from per-task row lists.
func subsetPair(ds *data.Dataset, trainRows, testRows [][]int) (tr, te *data.Dataset) {
	tr, te = shell(ds), shell(ds)
	for t := range ds.Tasks {
		tr.Tasks = append(tr.Tasks, ds.Tasks[t].Subset(trainRows[t]))
		te.Tasks = append(te.Tasks, ds.Tasks[t].Subset(testRows[t]))
	}
	return tr, te
}

func shell(ds *data.Dataset) *data.Dataset {
	return &data.Dataset{Name: ds.Name, Features: ds.Features, FeatureNames: ds.FeatureNames,
		Kind: ds.Kind, Positive: ds.Positive, Negative: ds.Negative, Fixed: ds.Fixed}
}

// trainCount turns a train size (a count ≥ 1, or a fraction in (0, 1)) into
// a count for a task of n rows. A fraction leaves at least one row for the
// test set when the task has two or more. ok is false when the task is too
// small for that count and a test set: it then trains on all its rows.
func trainCount(train float64, n int) (c int, ok bool, err error) {
	switch {
	case train >= 1 && train == math.Trunc(train):
		c = int(train)
	case train > 0 && train < 1:
		c = min(max(int(math.Round(train*float64(n))), 1), n-1)
	default:
		return 0, false, fmt.Errorf("train size %v: want a whole count >= 1 or a fraction in (0, 1)", train)
	}
	if c < 1 || c >= n {
		return n, false, nil
	}
	return c, true, nil
}

// SplitPerTask draws a random train/test split of every task: train rows
// per task given as a count (≥ 1) or a fraction (< 1), the rest for test.
// When stratified is set and the data are classification, each task's
// training rows keep the class proportions, with at least one example of
// each class the task has. Rows keep their file order within each side.
//
// A task too small for that many training rows and a test set trains on
// all its rows and has an empty test set (Untested lists such tasks; the
// test score leaves them out). When every task is that small, the split is
// an error that says how big the tasks are.
func SplitPerTask(ds *data.Dataset, train float64, stratified bool, seed uint64) (tr, te *data.Dataset, err error) {
	rng := newRand(seed, 1)
	trainRows := make([][]int, len(ds.Tasks))
	testRows := make([][]int, len(ds.Tasks))
	tested, largest := 0, 0
	for t := range ds.Tasks {
		task := &ds.Tasks[t]
		n := task.Rows()
		largest = max(largest, n)
		c, ok, err := trainCount(train, n)
		if err != nil {
			return nil, nil, fmt.Errorf("split: %w", err)
		}
		if !ok {
			trainRows[t], testRows[t] = complement(allRows(n), n)
			continue
		}
		tested++
		var chosen []int
		if stratified && ds.Kind == data.Classification {
			chosen = stratifiedPick(rng, task.Y, c)
		} else {
			chosen = rng.Perm(n)[:c]
		}
		trainRows[t], testRows[t] = complement(chosen, n)
	}
	if tested == 0 {
		if largest < 2 {
			// No size of the training part can help.
			return nil, nil, fmt.Errorf("split: no task has enough rows for a test set: every task has %d row, and a task needs two rows or more to keep one for testing; give the tasks more rows, or train on every row (without a test score)", largest)
		}
		return nil, nil, fmt.Errorf("split: no task has enough rows for %g training rows and a test set (the largest has %d); give a count below %d, or a fraction such as 0.75", train, largest, largest)
	}
	tr, te = subsetPair(ds, trainRows, testRows)
	return tr, te, nil
}

// Untested returns the tasks of a test set that have no rows: those too
// small to split, which trained on all their rows (SplitPerTask).
func Untested(test *data.Dataset) []int {
	var out []int
	for t := range test.Tasks {
		if test.Tasks[t].Rows() == 0 {
			out = append(out, t)
		}
	}
	return out
}

func allRows(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// stratifiedPick chooses c of the rows with labels y, keeping the class
// proportions and at least one row of each class present (when c ≥ 2).
func stratifiedPick(rng *rand.Rand, y []float64, c int) []int {
	var pos, neg []int
	for i, v := range y {
		if v > 0 {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	cp := int(math.Round(float64(c) * float64(len(pos)) / float64(len(y))))
	if cp < 1 && len(pos) > 0 && c >= 2 {
		cp = 1
	}
	if c-cp < 1 && len(neg) > 0 && c >= 2 {
		cp = c - 1
	}
	cp = min(cp, len(pos))
	cn := min(c-cp, len(neg))
	cp = c - cn
	out := make([]int, 0, c)
	for k, i := range rng.Perm(len(pos)) {
		if k >= cp {
			break
		}
		out = append(out, pos[i])
	}
	for k, i := range rng.Perm(len(neg)) {
		if k >= cn {
			break
		}
		out = append(out, neg[i])
	}
	return out
}

// complement returns the chosen rows sorted, and the others.
func complement(chosen []int, n int) (in, out []int) {
	mark := make([]bool, n)
	for _, i := range chosen {
		mark[i] = true
	}
	for i := 0; i < n; i++ {
		if mark[i] {
			in = append(in, i)
		} else {
			out = append(out, i)
		}
	}
	return in, out
}

// SplitSharedRows splits data whose tasks share one design (cs: every
// respondent rates the same profiles): the same train row positions are
// drawn for every task.
func SplitSharedRows(ds *data.Dataset, train int, seed uint64) (tr, te *data.Dataset, err error) {
	n, err := sharedRows(ds)
	if err != nil {
		return nil, nil, fmt.Errorf("split: %w", err)
	}
	c, ok, err := trainCount(float64(train), n)
	if err != nil {
		return nil, nil, fmt.Errorf("split: %w", err)
	}
	if !ok {
		return nil, nil, fmt.Errorf("split: the tasks have %d shared rows, too few for %d training rows and a test set", n, train)
	}
	in, out := complement(newRand(seed, 2).Perm(n)[:c], n)
	trainRows := make([][]int, len(ds.Tasks))
	testRows := make([][]int, len(ds.Tasks))
	for t := range ds.Tasks {
		trainRows[t], testRows[t] = in, out
	}
	tr, te = subsetPair(ds, trainRows, testRows)
	return tr, te, nil
}

func sharedRows(ds *data.Dataset) (int, error) {
	if len(ds.Tasks) == 0 {
		return 0, fmt.Errorf("dataset %s has no tasks", ds.Name)
	}
	n := ds.Tasks[0].Rows()
	for t := range ds.Tasks {
		if ds.Tasks[t].Rows() != n {
			return 0, fmt.Errorf("shared-row split: task %q has %d rows, task %q has %d", ds.Tasks[0].Name, n, ds.Tasks[t].Name, ds.Tasks[t].Rows())
		}
	}
	return n, nil
}

// Fold is one cross-validation fold.
type Fold struct {
	Train, Test *data.Dataset
}

// KFold partitions each task's rows into k folds (stratified by label for
// classification when stratified is set) and returns, for each fold, the
// other folds as training set and the fold as test set. A task with fewer
// than k rows is in every fold's training set and no fold's test set (the
// fold scores leave it out).
func KFold(ds *data.Dataset, k int, stratified bool, seed uint64) ([]Fold, error) {
	if k < 2 {
		return nil, fmt.Errorf("kfold: k = %d, want at least 2", k)
	}
	rng := newRand(seed, 3)
	assign := make([][]int, len(ds.Tasks))
	for t := range ds.Tasks {
		task := &ds.Tasks[t]
		n := task.Rows()
		a := make([]int, n)
		if n < k {
			// Too few rows for every fold to test the task: it trains in
			// every fold and no fold scores it.
			for i := range a {
				a[i] = -1
			}
			assign[t] = a
			continue
		}
		var order []int
		if stratified && ds.Kind == data.Classification {
			var pos, neg []int
			for i, v := range task.Y {
				if v > 0 {
					pos = append(pos, i)
				} else {
					neg = append(neg, i)
				}
			}
			for _, i := range rng.Perm(len(pos)) {
				order = append(order, pos[i])
			}
			for _, i := range rng.Perm(len(neg)) {
				order = append(order, neg[i])
			}
		} else {
			order = rng.Perm(n)
		}
		// Dealing the (class-grouped) order round-robin spreads each class
		// evenly over the folds. Each task's dealing starts at a fold of
		// its own: started at fold 0 in every task, a task's first
		// positive (and first row) always went to fold 0, so a file of
		// matched pairs (one case, one control per group) put every case
		// in fold 0's test rows and none in its training rows, and CV
		// scored the models below a constant (AUC 0; docs/findings.md,
		// "Twenty more R data sets").
		off := rng.IntN(k)
		for pos, i := range order {
			a[i] = (off + pos) % k
		}
		assign[t] = a
	}
	return foldsFrom(ds, k, func(t int) []int { return assign[t] }), nil
}

// KFoldShared is KFold for data with a design shared across tasks: the same
// row positions fall in each fold for every task.
func KFoldShared(ds *data.Dataset, k int, seed uint64) ([]Fold, error) {
	n, err := sharedRows(ds)
	if err != nil {
		return nil, fmt.Errorf("kfold: %w", err)
	}
	if k < 2 || n < k {
		return nil, fmt.Errorf("kfold: %d shared rows cannot make %d folds", n, k)
	}
	a := make([]int, n)
	for pos, i := range newRand(seed, 4).Perm(n) {
		a[i] = pos % k
	}
	return foldsFrom(ds, k, func(int) []int { return a }), nil
}

// TaskFolds deals whole tasks to k folds and returns, for each fold, the
// tasks of the other folds (all their rows) as training set and the fold's
// tasks as test set: a model fitted on a training part has never seen a
// test task, as it will not have seen a task of a file it predicts later.
// The tasks are dealt round-robin after a shuffle, so the folds differ in
// size by at most one task; k must not exceed the number of tasks. The
// parts share the tasks' rows with ds (they are not copied): neither may
// be changed.
func TaskFolds(ds *data.Dataset, k int, seed uint64) ([]Fold, error) {
	T := len(ds.Tasks)
	if k < 2 || k > T {
		return nil, fmt.Errorf("task folds: %d tasks cannot make %d folds of whole tasks", T, k)
	}
	fold := make([]int, T)
	for pos, t := range newRand(seed, 5).Perm(T) {
		fold[t] = pos % k
	}
	folds := make([]Fold, k)
	for f := range folds {
		tr, te := shell(ds), shell(ds)
		for t := range ds.Tasks {
			if fold[t] == f {
				te.Tasks = append(te.Tasks, ds.Tasks[t])
			} else {
				tr.Tasks = append(tr.Tasks, ds.Tasks[t])
			}
		}
		folds[f] = Fold{Train: tr, Test: te}
	}
	return folds, nil
}

func foldsFrom(ds *data.Dataset, k int, assign func(t int) []int) []Fold {
	folds := make([]Fold, k)
	for f := range folds {
		trainRows := make([][]int, len(ds.Tasks))
		testRows := make([][]int, len(ds.Tasks))
		for t := range ds.Tasks {
			for i, a := range assign(t) {
				if a == f {
					testRows[t] = append(testRows[t], i)
				} else {
					trainRows[t] = append(trainRows[t], i)
				}
			}
			sort.Ints(testRows[t])
		}
		folds[f].Train, folds[f].Test = subsetPair(ds, trainRows, testRows)
	}
	return folds
}
