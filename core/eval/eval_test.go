package eval

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"gonum.org/v1/gonum/mat"
)

func TestRMSE(t *testing.T) {
	for _, tc := range []struct {
		pred, y []float64
		want    float64
	}{
		{[]float64{1, 2, 3}, []float64{1, 2, 3}, 0},
		{[]float64{0, 0}, []float64{3, 4}, math.Sqrt(12.5)},
		{[]float64{1}, []float64{-1}, 2},
	} {
		if got := RMSE(tc.pred, tc.y); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("RMSE(%v, %v) = %v, want %v", tc.pred, tc.y, got, tc.want)
		}
	}
	if !math.IsNaN(RMSE(nil, nil)) {
		t.Error("RMSE of nothing should be NaN")
	}
}

func TestAUC(t *testing.T) {
	for _, tc := range []struct {
		name      string
		scores, y []float64
		want      float64
		ok        bool
	}{
		{"perfect", []float64{0.1, 0.2, 0.8, 0.9}, []float64{-1, -1, 1, 1}, 1, true},
		{"reversed", []float64{0.9, 0.8, 0.2, 0.1}, []float64{-1, -1, 1, 1}, 0, true},
		// pairs (pos, neg): (0.8 vs 0.1) win, (0.8 vs 0.9) loss,
		// (0.4 vs 0.1) win, (0.4 vs 0.9) loss: 2/4.
		{"half", []float64{0.1, 0.9, 0.8, 0.4}, []float64{-1, -1, 1, 1}, 0.5, true},
		// all tied: every pair counts one half.
		{"all tied", []float64{1, 1, 1}, []float64{1, -1, -1}, 0.5, true},
		// pos {0.5, 0.7}, neg {0.5, 0.2}: (0.5,0.5) tie 0.5, (0.5,0.2) win,
		// (0.7,0.5) win, (0.7,0.2) win: 3.5/4.
		{"one tie", []float64{0.5, 0.7, 0.5, 0.2}, []float64{1, 1, -1, -1}, 0.875, true},
		{"single class", []float64{0.1, 0.2}, []float64{1, 1}, math.NaN(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := AUC(tc.scores, tc.y)
			if ok != tc.ok || (ok && math.Abs(got-tc.want) > 1e-15) {
				t.Errorf("AUC = %v, %v; want %v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestScoreSkipsSingleClassTasks(t *testing.T) {
	test := &data.Dataset{Kind: data.Classification, Tasks: []data.Task{
		{Name: "a", Y: []float64{1, -1}}, {Name: "b", Y: []float64{1, 1}}, {Name: "c", Y: []float64{-1, 1}},
	}}
	per, mean := Score(data.Classification, [][]float64{{1, 0}, {1, 2}, {1, 0}}, test)
	if per[0] != 1 || !math.IsNaN(per[1]) || per[2] != 0 || mean != 0.5 {
		t.Errorf("per-task %v, mean %v; want [1 NaN 0], 0.5", per, mean)
	}
}

// The two-sided p of Student's t with 2 degrees of freedom has the closed
// form 1 − |t|/√(2 + t²), an independent check of the distribution code.
func TestPairedTTest(t *testing.T) {
	a := []float64{3, 5, 7}
	b := []float64{2, 3, 4} // differences 1, 2, 3: mean 2, sd 1
	tv, df, p, err := PairedTTest(a, b)
	if err != nil {
		t.Fatal(err)
	}
	wantT := 2 / (1 / math.Sqrt(3))
	wantP := 1 - wantT/math.Sqrt(2+wantT*wantT)
	if df != 2 || math.Abs(tv-wantT) > 1e-12 || math.Abs(p-wantP) > 1e-10 {
		t.Errorf("t = %v df = %d p = %v; want %v, 2, %v", tv, df, p, wantT, wantP)
	}
	// Textbook critical value: t = 2.262 at df = 9 is the two-sided 5% point.
	d := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	mean, sd := 5.5, math.Sqrt(82.5/9)
	shift := mean - 2.262*sd/math.Sqrt(10)
	zero := make([]float64, 10)
	shifted := make([]float64, 10)
	for i := range d {
		shifted[i] = d[i] - shift
	}
	_, _, p, err = PairedTTest(shifted, zero)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(p-0.05) > 2e-4 {
		t.Errorf("p at t = 2.262, df = 9: %v, want 0.05", p)
	}
	if _, _, _, err := PairedTTest([]float64{1}, []float64{2}); err == nil {
		t.Error("one pair: no error")
	}
}

func TestMeanStd(t *testing.T) {
	m, s, se := MeanStd([]float64{2, 4, 4, 4, 5, 5, 7, 9})
	if m != 5 || math.Abs(s-math.Sqrt(32.0/7)) > 1e-12 || math.Abs(se-s/math.Sqrt(8)) > 1e-12 {
		t.Errorf("MeanStd = %v %v %v", m, s, se)
	}
}

// imbalanced returns a landmine-like data set: T tasks of n rows with about
// 6% positives.
func imbalanced(T, n int) *data.Dataset {
	ds := &data.Dataset{Name: "imb", Features: 1, Kind: data.Classification}
	for t := 0; t < T; t++ {
		x := mat.NewDense(n, 1, nil)
		y := make([]float64, n)
		for i := range y {
			x.Set(i, 0, float64(i))
			y[i] = -1
			if (i*7+t)%17 == 0 {
				y[i] = 1
			}
		}
		ds.Tasks = append(ds.Tasks, data.Task{Name: fmt.Sprint("t", t), X: x, Y: y})
	}
	return ds
}

func TestStratifiedSplitKeepsBothClasses(t *testing.T) {
	ds := imbalanced(19, 500)
	for seed := uint64(1); seed <= 10; seed++ {
		tr, te, err := SplitPerTask(ds, 80, true, seed)
		if err != nil {
			t.Fatal(err)
		}
		for i := range tr.Tasks {
			var pos int
			for _, y := range tr.Tasks[i].Y {
				if y > 0 {
					pos++
				}
			}
			if tr.Tasks[i].Rows() != 80 || te.Tasks[i].Rows() != 420 {
				t.Fatalf("seed %d task %d: %d train, %d test rows", seed, i, tr.Tasks[i].Rows(), te.Tasks[i].Rows())
			}
			if pos == 0 || pos == 80 {
				t.Fatalf("seed %d task %d: %d positives of 80", seed, i, pos)
			}
		}
	}
	if _, _, err := SplitPerTask(ds, 500, true, 1); err == nil {
		t.Error("train size equal to the task size: no error")
	}
}

// TestSplitTooSmallAdvice: a split that cannot keep a test row in any task
// advises what can work: with one row per task no training size can, so it
// does not suggest one.
func TestSplitTooSmallAdvice(t *testing.T) {
	for _, tc := range []struct {
		rows  int
		train float64
		want  string
	}{
		{1, 0.75, "split: no task has enough rows for a test set: every task has 1 row, and a task needs two rows or more to keep one for testing; give the tasks more rows, or train on every row (without a test score)"},
		{1, 3, "every task has 1 row"},
		{5, 5, "split: no task has enough rows for 5 training rows and a test set (the largest has 5); give a count below 5, or a fraction such as 0.75"},
	} {
		_, _, err := SplitPerTask(imbalanced(3, tc.rows), tc.train, false, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%d rows per task, train %g: %v, want %q", tc.rows, tc.train, err, tc.want)
		}
	}
}

func TestSplitDeterministicAndDisjoint(t *testing.T) {
	ds := imbalanced(3, 40)
	a, _, _ := SplitPerTask(ds, 0.25, false, 7)
	b, te, _ := SplitPerTask(ds, 0.25, false, 7)
	for i := range a.Tasks {
		ra, rb := a.Tasks[i].X.RawMatrix().Data, b.Tasks[i].X.RawMatrix().Data
		if fmt.Sprint(ra) != fmt.Sprint(rb) {
			t.Fatal("same seed, different split")
		}
		seen := map[float64]bool{}
		for _, v := range ra {
			seen[v] = true
		}
		for _, v := range te.Tasks[i].X.RawMatrix().Data {
			if seen[v] {
				t.Fatalf("row %v is in both train and test", v)
			}
		}
		if a.Tasks[i].Rows()+te.Tasks[i].Rows() != 40 || a.Tasks[i].Rows() != 10 {
			t.Fatalf("sizes %d + %d", a.Tasks[i].Rows(), te.Tasks[i].Rows())
		}
	}
}

func TestKFoldPartitions(t *testing.T) {
	ds := imbalanced(4, 50)
	folds, err := KFold(ds, 3, true, 1)
	if err != nil {
		t.Fatal(err)
	}
	for ti := range ds.Tasks {
		count := map[float64]int{}
		for _, f := range folds {
			for _, v := range f.Test.Tasks[ti].X.RawMatrix().Data {
				count[v]++
			}
			if f.Train.Tasks[ti].Rows()+f.Test.Tasks[ti].Rows() != 50 {
				t.Fatal("fold does not cover the task")
			}
		}
		if len(count) != 50 {
			t.Fatalf("task %d: %d distinct test rows over the folds, want 50", ti, len(count))
		}
		for v, c := range count {
			if c != 1 {
				t.Fatalf("row %v is in %d test folds", v, c)
			}
		}
	}
	shared, err := KFoldShared(ds, 5, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range shared {
		first := fmt.Sprint(f.Test.Tasks[0].X.RawMatrix().Data)
		for ti := range ds.Tasks {
			if fmt.Sprint(f.Test.Tasks[ti].X.RawMatrix().Data) != first {
				t.Fatal("shared folds differ between tasks")
			}
		}
	}
}

// TestTaskFolds: every task is tested in exactly one fold, with all its
// rows, and never trains in that fold; the folds' sizes differ by at most
// one task; the same seed deals the same folds; too many folds for the
// tasks are refused.
func TestTaskFolds(t *testing.T) {
	ds := imbalanced(7, 20)
	for i := range ds.Tasks {
		ds.Tasks[i].Name = fmt.Sprintf("t%d", i)
	}
	deal := func(seed uint64) string {
		folds, err := TaskFolds(ds, 3, seed)
		if err != nil {
			t.Fatal(err)
		}
		tested := map[string]int{}
		var out []string
		for f, fold := range folds {
			if n := len(fold.Test.Tasks); n < 2 || n > 3 {
				t.Errorf("fold %d tests %d tasks, want 2 or 3 of 7", f, n)
			}
			if len(fold.Train.Tasks)+len(fold.Test.Tasks) != 7 {
				t.Errorf("fold %d: %d + %d tasks, want 7", f, len(fold.Train.Tasks), len(fold.Test.Tasks))
			}
			trains := map[string]bool{}
			for _, tk := range fold.Train.Tasks {
				trains[tk.Name] = true
			}
			for _, tk := range fold.Test.Tasks {
				tested[tk.Name]++
				if trains[tk.Name] {
					t.Errorf("fold %d trains on task %s, which it tests", f, tk.Name)
				}
				if tk.Rows() != 20 {
					t.Errorf("fold %d tests %d rows of task %s, want all 20", f, tk.Rows(), tk.Name)
				}
				out = append(out, tk.Name)
			}
			out = append(out, "|")
		}
		for i := range ds.Tasks {
			if c := tested[ds.Tasks[i].Name]; c != 1 {
				t.Errorf("task %s is tested in %d folds, want 1", ds.Tasks[i].Name, c)
			}
		}
		return fmt.Sprint(out)
	}
	if a, b := deal(4), deal(4); a != b {
		t.Errorf("seed 4 dealt %s, then %s", a, b)
	}
	if a, b := deal(4), deal(5); a == b {
		t.Errorf("seeds 4 and 5 dealt the same folds %s", a)
	}
	if _, err := TaskFolds(ds, 8, 1); err == nil || !strings.Contains(err.Error(), "7 tasks cannot make 8 folds") {
		t.Errorf("8 folds of 7 tasks: %v", err)
	}
}

func TestGridSearch(t *testing.T) {
	// Score of point p on fold f: (p − 3)² + f, best (lowest) at p = 3.
	fit := func(p, f int) (float64, error) { return float64((p-3)*(p-3) + f), nil }
	best, scores, err := GridSearch(7, 3, fit, RMSEMetric, 2)
	if err != nil || best != 3 || scores[3] != 1 {
		t.Fatalf("best %d scores %v err %v", best, scores, err)
	}
	// Ties: the first best in grid order wins; NaN and errors never win.
	tie := func(p, f int) (float64, error) {
		switch p {
		case 0:
			return math.NaN(), nil
		case 1:
			return 0, errors.New("diverged")
		}
		return 0.7, nil
	}
	for _, m := range []Metric{AUCMetric, RMSEMetric} {
		best, _, _ = GridSearch(5, 2, tie, m, 3)
		if best != 2 {
			t.Errorf("%s: best %d, want 2", m, best)
		}
	}
	panicky := func(p, f int) (float64, error) {
		if p == 1 {
			panic("boom")
		}
		return float64(p), nil
	}
	// A panic is a bug, not a bad setting: it comes back as an error that
	// names the grid point, and never crashes the process.
	if _, _, err := GridSearch(3, 2, panicky, AUCMetric, 2); err == nil || !strings.Contains(err.Error(), "point 2") || !strings.Contains(err.Error(), "boom") {
		t.Errorf("panicking point: error %v", err)
	}
}

func ExampleAUC() {
	auc, ok := AUC([]float64{0.5, 0.7, 0.5, 0.2}, []float64{1, 1, -1, -1})
	fmt.Println(auc, ok)
	// Output: 0.875 true
}

func ExamplePairedTTest() {
	t, df, p, _ := PairedTTest([]float64{3, 5, 7}, []float64{2, 3, 4})
	fmt.Printf("t = %.3f, df = %d, p = %.4f\n", t, df, p)
	// Output: t = 3.464, df = 2, p = 0.0742
}

// aucByRanks is the AUC by the positives' mid-ranks, computed the long way
// (every example ranked by one sort): the reference TestAUCMatchesRanks
// holds AUC to.
func aucByRanks(scores, y []float64) (float64, bool) {
	n := len(y)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return scores[idx[a]] < scores[idx[b]] })
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
	return (rankSum - float64(pos)*float64(pos+1)/2) / (float64(pos) * float64(neg)), true
}

// TestAUCMatchesRanks: AUC is bit for bit the mid-rank AUC on random scores
// with many ties, both label codings, and sizes from 1 to 2,000; a NaN
// score makes the AUC undefined.
func TestAUCMatchesRanks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := 0; trial < 400; trial++ {
		n := 1 + rng.IntN(2000)
		if trial < 50 {
			n = 1 + trial%7
		}
		levels := 1 + rng.IntN(40) // few distinct scores: many ties
		neg := []float64{-1, 0}[trial%2]
		scores, y := make([]float64, n), make([]float64, n)
		for i := range scores {
			scores[i] = float64(rng.IntN(levels)) / 7
			if trial%3 == 0 {
				scores[i] = rng.NormFloat64()
			}
			y[i] = neg
			if rng.Float64() < 0.3 {
				y[i] = 1
			}
		}
		got, ok := AUC(scores, y)
		want, wok := aucByRanks(scores, y)
		if ok != wok || ok && got != want {
			t.Fatalf("trial %d (n = %d): AUC = %v, %v; by ranks %v, %v", trial, n, got, ok, want, wok)
		}
	}
	if a, ok := AUC([]float64{0.1, math.NaN(), 0.3}, []float64{1, -1, 1}); ok || !math.IsNaN(a) {
		t.Errorf("AUC with a NaN score = %v, %v; want NaN, false", a, ok)
	}
}

// BenchmarkAUC scores a task of 255 test examples and one of 7,400 (the
// page scores each task after every step; landmine's have about 430).
func BenchmarkAUC(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{255, 7400} {
		scores, y := make([]float64, n), make([]float64, n)
		for i := range scores {
			scores[i] = rng.NormFloat64()
			y[i] = -1
			if rng.Float64() < 0.1 {
				y[i] = 1
				scores[i] += 1
			}
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				AUC(scores, y)
			}
		})
	}
}
