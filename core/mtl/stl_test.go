package mtl

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"gonum.org/v1/gonum/mat"
)

// TestSTLPerTaskMean: STL minimizes Σ_t l_t(w, b) + μ‖w‖² with l_t the
// task's mean loss (docs/algorithms.md §3), not one mean over the pooled
// rows; with unequal task sizes the two differ. The squared case is checked
// against the weighted normal equations, in the primal form (dense, small
// d) and the span form (sparse rows); the logistic case by the gradient of
// the per-task-mean objective at the solution. Under the reference variant
// the squared loss is a plain sum over all rows.
func TestSTLPerTaskMean(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	const d, mu = 5, 0.7
	sizes := []int{8, 20, 45}
	for _, tc := range []struct {
		sparse bool
		loss   Loss
		v      Variant
	}{
		{false, Squared, Paper}, {true, Squared, Paper}, {false, Squared, Reference}, {true, Squared, Reference},
		{false, Logistic, Paper}, {true, Logistic, Paper},
	} {
		name := fmt.Sprintf("sparse=%v/%s/%s", tc.sparse, tc.loss, tc.v)
		ds := &data.Dataset{Name: "stl", Features: d, Kind: data.Regression}
		if tc.loss == Logistic {
			ds.Kind = data.Classification
		}
		for k, n := range sizes {
			tk := randTask(rng, n, d, tc.loss == Logistic)
			tk.Name = fmt.Sprint("t", k)
			if tc.sparse {
				tk = toSparse(tk)
			}
			ds.Tasks = append(ds.Tasks, tk)
		}
		tr := mustTrainer(t, ds, Config{Model: "stl", Loss: tc.loss, Variant: tc.v, Solver: Exact, Rho: mu})
		if _, err := Run(context.Background(), tr); err != nil {
			t.Fatal(err)
		}
		m := tr.Model()
		w, b := m.W[0], m.B[0]
		// Gradient of Σ_t c_t Σ_i loss_i + μ‖w‖², c_t = 1/N_t or 1.
		gw := make([]float64, d)
		var gb float64
		for k := range ds.Tasks {
			task := &ds.Tasks[k]
			c := 1 / float64(task.Rows())
			if tc.loss == Squared && tc.v == Reference {
				c = 1
			}
			for i := 0; i < task.Rows(); i++ {
				f := task.Dot(i, w) + b
				var g float64
				if tc.loss == Squared {
					g = f - task.Y[i]
				} else {
					g = -task.Y[i] / (1 + math.Exp(task.Y[i]*f))
				}
				row := make([]float64, d)
				if task.X != nil {
					copy(row, task.X.RawRowView(i))
				} else {
					for p := task.S.Indptr[i]; p < task.S.Indptr[i+1]; p++ {
						row[task.S.Indices[p]] = task.S.Values[p]
					}
				}
				for j := range gw {
					gw[j] += c * g * row[j]
				}
				gb += c * g
			}
		}
		worst := math.Abs(gb)
		for j := range gw {
			worst = math.Max(worst, math.Abs(gw[j]+2*mu*w[j]))
		}
		if worst > 1e-8 {
			t.Errorf("%s: gradient of the per-task-mean objective at the STL solution is %g", name, worst)
		}
	}
	// And the closed form for the squared paper case.
	ds := &data.Dataset{Name: "stl", Features: d, Kind: data.Regression}
	for k, n := range sizes {
		tk := randTask(rng, n, d, false)
		tk.Name = fmt.Sprint("t", k)
		ds.Tasks = append(ds.Tasks, tk)
	}
	A := mat.NewSymDense(d+1, nil)
	rhs := mat.NewVecDense(d+1, nil)
	for k := range ds.Tasks {
		task := &ds.Tasks[k]
		c := 1 / float64(task.Rows())
		for i := 0; i < task.Rows(); i++ {
			xa := mat.NewVecDense(d+1, append(append([]float64(nil), task.X.RawRowView(i)...), 1))
			A.SymRankOne(A, c, xa)
			rhs.AddScaledVec(rhs, c*task.Y[i], xa)
		}
	}
	for j := 0; j < d; j++ {
		A.SetSym(j, j, A.At(j, j)+2*mu)
	}
	var want mat.VecDense
	if err := want.SolveVec(A, rhs); err != nil {
		t.Fatal(err)
	}
	tr := mustTrainer(t, ds, Config{Model: "stl", Rho: mu})
	if _, err := Run(context.Background(), tr); err != nil {
		t.Fatal(err)
	}
	m := tr.Model()
	for j := 0; j < d; j++ {
		if math.Abs(m.W[0][j]-want.AtVec(j)) > 1e-9 {
			t.Errorf("w[%d] = %v, closed form %v", j, m.W[0][j], want.AtVec(j))
		}
	}
	if math.Abs(m.B[0]-want.AtVec(d)) > 1e-9 {
		t.Errorf("b = %v, closed form %v", m.B[0], want.AtVec(d))
	}
}

// TestSTLTaskLevelCovariate: STL's pooled weights are penalized per
// standard deviation on every feature: on a task-level covariate the
// intake divided by data.FixedScale (Dataset.Fixed) the penalty is
// μ w_j²/FixedScale², so the fit is the ridge of the undivided feature
// (checked by the gradient of that objective at the solution, squared and
// logistic), and the covariate keeps its effect, where the plain penalty
// held it near zero.
func TestSTLTaskLevelCovariate(t *testing.T) {
	rng := rand.New(rand.NewPCG(81, 82))
	const d, mu = 3, 0.5
	for _, loss := range []Loss{Squared, Logistic} {
		ds := &data.Dataset{Name: "stl-fixed", Features: d, Kind: data.Regression, Fixed: []int{d - 1}}
		if loss == Logistic {
			ds.Kind = data.Classification
		}
		for k := 0; k < 12; k++ {
			z := float64(k%3) - 1 // the task's covariate
			n := 15
			x := mat.NewDense(n, d, nil)
			y := make([]float64, n)
			for i := range y {
				a, b := rng.NormFloat64(), rng.NormFloat64()
				x.SetRow(i, []float64{a, b, z / data.FixedScale})
				f := 0.4*a - 0.3*b + 1.5*z + 0.2*rng.NormFloat64()
				y[i] = f
				if loss == Logistic {
					y[i] = -1
					if rng.Float64() < 1/(1+math.Exp(-f)) {
						y[i] = 1
					}
				}
			}
			ds.Tasks = append(ds.Tasks, data.Task{Name: fmt.Sprint(k), X: x, Y: y})
		}
		fit := func(ds *data.Dataset) ([]float64, float64) {
			tr := mustTrainer(t, ds, Config{Model: "stl", Loss: loss, Solver: Exact, Rho: mu})
			if _, err := Run(context.Background(), tr); err != nil {
				t.Fatal(err)
			}
			m := tr.Model()
			return m.W[0], m.B[0]
		}
		w, b := fit(ds)
		// The gradient of Σ_t (1/N_t) Σ_i loss_i + μ Σ_j u_j w_j².
		gw := make([]float64, d)
		var gb float64
		for k := range ds.Tasks {
			task := &ds.Tasks[k]
			c := 1 / float64(task.Rows())
			for i := 0; i < task.Rows(); i++ {
				f := task.Dot(i, w) + b
				g := f - task.Y[i]
				if loss == Logistic {
					g = -task.Y[i] / (1 + math.Exp(task.Y[i]*f))
				}
				for j, v := range task.X.RawRowView(i) {
					gw[j] += c * g * v
				}
				gb += c * g
			}
		}
		worst := math.Abs(gb)
		for j := range gw {
			u := 1.0
			if j == d-1 {
				u = 1 / (data.FixedScale * data.FixedScale)
			}
			worst = math.Max(worst, math.Abs(gw[j]+2*mu*u*w[j]))
		}
		if worst > 1e-8 {
			t.Errorf("%s: gradient of the objective per standard deviation at the STL solution is %g", loss, worst)
		}
		effect := w[d-1] / data.FixedScale
		plain := *ds
		plain.Fixed = nil
		wp, _ := fit(&plain)
		if effect < 0.3 || math.Abs(wp[d-1]/data.FixedScale) > 0.01 {
			t.Errorf("%s: the covariate's effect per unit is %.4g (the plain penalty's %.4g), want it kept", loss, effect, wp[d-1]/data.FixedScale)
		}
	}
}

// TestPriorScalesHeldFeature: a held (task-level) feature's factor in
// MMTL's prior and STL's penalty is 1/FixedScale², a millionth, not 0
// (with FixedScale an integer constant, 1/(FixedScale·FixedScale) was
// integer division: such features went unpenalized, and STL's system on a
// task-level factor, whose indicators sum to the intercept's column, was
// singular: lme4's calcium data "W-step system is not positive definite").
func TestPriorScalesHeldFeature(t *testing.T) {
	ds, _ := randDataset(5, 3, 8, 3, 3, false, 0.5)
	ds.Fixed = []int{1}
	u := priorScales(ds, 3, false)
	if len(u) != 3 || u[0] != 1 || u[2] != 1 || u[1] != 1e-6 {
		t.Errorf("prior factors %v, want [1 1e-06 1]", u)
	}
}
