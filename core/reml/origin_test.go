package reml

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/spmtl/spmtl/core/data"
)

// drawGroups draws T groups of 10-30 rows of two features around 4 (so
// the origin matters): intercepts N(0, 1) independent of slopes N(1, 0.5²),
// noise N(0, 1). The intercepts are the groups' levels at x = at: 0 (the
// origin as written) or 4 (the features' means).
func drawGroups(seed uint64, T int, at float64) []data.Task {
	rng := rand.New(rand.NewPCG(seed, 1))
	tasks := make([]data.Task, T)
	for t := range tasks {
		n := 10 + rng.IntN(21)
		b := rng.NormFloat64()
		w := []float64{1 + 0.5*rng.NormFloat64(), 1 + 0.5*rng.NormFloat64()}
		x := mat.NewDense(n, 2, nil)
		y := make([]float64, n)
		for i := 0; i < n; i++ {
			y[i] = b + rng.NormFloat64()
			for j := range w {
				v := 4 + rng.NormFloat64()
				x.Set(i, j, v)
				y[i] += (v - at) * w[j]
			}
		}
		tasks[t] = data.Task{Name: fmt.Sprint(t), X: x, Y: y}
	}
	return tasks
}

// TestOriginChoosesTheDrawnOne: on groups whose intercepts were drawn
// independent of the slopes at x = 0, the origin stays; drawn so at the
// features' means, it moves there. Six seeds each.
func TestOriginChoosesTheDrawnOne(t *testing.T) {
	for _, c := range []struct {
		at    float64
		means bool
	}{{0, false}, {4, true}} {
		for seed := uint64(1); seed <= 6; seed++ {
			tasks := drawGroups(seed, 150, c.at)
			zero, means, moved, err := Origin(tasks, 2, data.Means(&data.Dataset{Tasks: tasks, Features: 2}))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("drawn at x = %g, seed %d: criterion at 0 %.2f, at the means %.2f", c.at, seed, zero.Criterion, means.Criterion)
			if moved != c.means {
				t.Errorf("drawn at x = %g, seed %d: moved %v (criterion at 0 %.2f, at the means %.2f)", c.at, seed, moved, zero.Criterion, means.Criterion)
			}
		}
	}
}

// TestOriginMatchesCentredRows: the estimate at the means, mapped from the
// moments, is Fit's on rows whose features were centred one by one.
func TestOriginMatchesCentredRows(t *testing.T) {
	tasks := drawGroups(9, 60, 4)
	c := data.Means(&data.Dataset{Tasks: tasks, Features: 2})
	_, means, _, err := Origin(tasks, 2, c)
	if err != nil {
		t.Fatal(err)
	}
	moved := make([]data.Task, len(tasks))
	for i, tk := range tasks {
		x := mat.DenseCopyOf(tk.X)
		for r := 0; r < x.RawMatrix().Rows; r++ {
			for j := range c {
				x.Set(r, j, x.At(r, j)-c[j])
			}
		}
		moved[i] = data.Task{Name: tk.Name, X: x, Y: tk.Y}
	}
	want, err := Fit(moved, 2)
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(means.Criterion - want.Criterion); d > 1e-8*math.Abs(want.Criterion) || means.Rho != want.Rho || means.Kappa != want.Kappa {
		t.Errorf("from the moments: criterion %.10g, rho %g, kappa %g; from centred rows %.10g, %g, %g", means.Criterion, means.Rho, means.Kappa, want.Criterion, want.Rho, want.Kappa)
	}
}
