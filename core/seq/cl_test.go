package seq

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/mtl"
	"gonum.org/v1/gonum/mat"
)

// toyRegression returns T regression tasks in d dimensions whose noise
// level grows with the task index, so the tasks differ in difficulty.
func toyRegression(seed uint64, T, n, d int) *data.Dataset {
	rng := rand.New(rand.NewPCG(seed, 8))
	base := make([]float64, d)
	for j := range base {
		base[j] = rng.NormFloat64()
	}
	ds := &data.Dataset{Name: "toyreg", Features: d, Kind: data.Regression}
	for t := 0; t < T; t++ {
		x := mat.NewDense(n, d, nil)
		y := make([]float64, n)
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				v := rng.NormFloat64()
				x.Set(i, j, v)
				y[i] += v * (base[j] + 0.5*rng.NormFloat64())
			}
			y[i] += float64(t%3)*rng.NormFloat64() + 0.3*float64(t)
		}
		ds.Tasks = append(ds.Tasks, data.Task{Name: fmt.Sprintf("r%d", t), X: x, Y: y})
	}
	return ds
}

// refObjective minimizes l(w, b) + rho‖w − anchor‖² for one dense task
// with gonum, independently of mtl.FitTask, and returns the minimum and
// the minimizer's w. The squared loss is ½Σ(y − f)² (a sum, the code's
// scale) and is solved from its normal equations; the logistic loss is
// the mean of log(1 + e^{−y f}), minimized by damped Newton.
func refObjective(tb testing.TB, tk *data.Task, loss mtl.Loss, rho float64, anchor []float64) (float64, []float64) {
	tb.Helper()
	xa := augmented(tk)
	n, p := xa.Dims()
	a := mat.NewVecDense(p, nil) // the anchor with a 0 for the bias
	for j := 0; j < p-1; j++ {
		a.SetVec(j, anchor[j])
	}
	pen := mat.NewDiagDense(p, nil) // 2ρ on the weights, 0 on the bias
	for j := 0; j < p-1; j++ {
		pen.SetDiag(j, 2*rho)
	}
	y := mat.NewVecDense(n, tk.Y)
	objective := func(th *mat.VecDense) float64 {
		var f, u mat.VecDense
		f.MulVec(xa, th)
		var l float64
		for i := 0; i < n; i++ {
			if loss == mtl.Squared {
				r := tk.Y[i] - f.AtVec(i)
				l += 0.5 * r * r
			} else {
				z := -tk.Y[i] * f.AtVec(i)
				l += math.Max(z, 0) + math.Log1p(math.Exp(-math.Abs(z)))
			}
		}
		if loss == mtl.Logistic {
			l /= float64(n)
		}
		u.SubVec(th, a)
		u.SetVec(p-1, 0)
		return l + rho*mat.Dot(&u, &u)
	}
	th := mat.NewVecDense(p, nil)
	switch loss {
	case mtl.Squared:
		// (XaᵀXa + 2ρ I_nobias) θ = Xaᵀy + 2ρ a.
		var h mat.Dense
		h.Mul(xa.T(), xa)
		h.Add(&h, pen)
		var rhs, pa mat.VecDense
		rhs.MulVec(xa.T(), y)
		pa.MulVec(pen, a)
		rhs.AddVec(&rhs, &pa)
		if err := th.SolveVec(&h, &rhs); err != nil {
			tb.Fatal(err)
		}
	case mtl.Logistic:
		th.CopyVec(a)
		for it := 0; it < 200; it++ {
			var f, g, grad, pg, u mat.VecDense
			f.MulVec(xa, th)
			w := mat.NewDiagDense(n, nil)
			g.ReuseAsVec(n)
			for i := 0; i < n; i++ {
				pr := 1 / (1 + math.Exp(-f.AtVec(i)))
				w.SetDiag(i, pr*(1-pr)/float64(n))
				g.SetVec(i, -tk.Y[i]/(1+math.Exp(tk.Y[i]*f.AtVec(i)))/float64(n))
			}
			grad.MulVec(xa.T(), &g)
			u.SubVec(th, a)
			pg.MulVec(pen, &u)
			grad.AddVec(&grad, &pg)
			if mat.Norm(&grad, math.Inf(1)) < 1e-13 {
				break
			}
			var xw, h mat.Dense
			xw.Mul(xa.T(), w)
			h.Mul(&xw, xa)
			h.Add(&h, pen)
			var step mat.VecDense
			if err := step.SolveVec(&h, &grad); err != nil {
				tb.Fatal(err)
			}
			f0 := objective(th)
			for t := 1.0; ; t /= 2 {
				var next mat.VecDense
				next.AddScaledVec(th, -t, &step)
				if objective(&next) <= f0 || t < 1e-10 {
					th.CopyVec(&next)
					break
				}
			}
		}
	}
	w := make([]float64, p-1)
	for j := range w {
		w[j] = th.AtVec(j)
	}
	return objective(th), w
}

// TestCLPicks follows CL for three steps and checks, against objectives
// computed here with gonum (not with mtl.FitTask), that every candidate's
// score is its regularized training objective anchored at the previously
// learned task (0 at the first step) and that the lowest one is learned.
func TestCLPicks(t *testing.T) {
	for _, c := range []struct {
		name string
		ds   *data.Dataset
		loss mtl.Loss
		rho  float64
	}{
		{"logistic", toy(5, 6, 40, 3), mtl.Logistic, 0},
		{"logistic rho 0.5", toy(12, 5, 30, 3), mtl.Logistic, 0.5},
		{"squared sum scale", toyRegression(3, 6, 25, 3), mtl.Squared, 0},
		{"squared on ±1 labels", toy(13, 5, 30, 2), mtl.Squared, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := mtl.Prepare(c.ds)
			if err != nil {
				t.Fatal(err)
			}
			cl, err := NewCL(p, CLConfig{Loss: c.loss, Rho: c.rho})
			if err != nil {
				t.Fatal(err)
			}
			rho := c.rho
			if rho == 0 {
				rho = 0.01
			}
			prev := make([]float64, c.ds.Features)
			learned := map[int]bool{}
			for step := 1; step <= 3; step++ {
				s, err := cl.Step()
				if err != nil {
					t.Fatal(err)
				}
				best, bestObj := -1, math.Inf(1)
				var bestW []float64
				for ti := range c.ds.Tasks {
					if learned[ti] {
						if !math.IsNaN(float64(s.Seq.Scores[ti])) {
							t.Errorf("step %d: learned task %d has score %v, want NaN", step, ti, s.Seq.Scores[ti])
						}
						continue
					}
					obj, w := refObjective(t, &c.ds.Tasks[ti], c.loss, rho, prev)
					if math.Abs(float64(s.Seq.Scores[ti])-obj) > 1e-6*(1+math.Abs(obj)) {
						t.Errorf("step %d task %d: score %v, objective %v", step, ti, s.Seq.Scores[ti], obj)
					}
					if obj < bestObj {
						best, bestObj, bestW = ti, obj, w
					}
				}
				if s.Seq.Task != best || s.Iter != step {
					t.Fatalf("step %d (reported %d): CL learned task %d, the lowest objective is task %d (scores %v)", step, s.Iter, s.Seq.Task, best, s.Seq.Scores)
				}
				m := cl.Model()
				for j, v := range bestW {
					if math.Abs(m.W[best][j]-v) > 1e-5*(1+math.Abs(v)) {
						t.Fatalf("step %d: learned w[%d] = %v, want %v", step, j, m.W[best][j], v)
					}
				}
				learned[best], prev = true, bestW
			}
		})
	}
}

// TestCLRejects lists settings NewCL must refuse with an error.
func TestCLRejects(t *testing.T) {
	reg, _ := mtl.Prepare(toyRegression(1, 2, 10, 2))
	cls, _ := mtl.Prepare(toy(1, 2, 10, 2))
	for _, c := range []struct {
		name string
		p    *mtl.Problem
		cfg  CLConfig
		want string
	}{
		{"nil problem", nil, CLConfig{}, "nil problem"},
		{"negative rho", cls, CLConfig{Rho: -1}, "rho"},
		{"infinite rho", cls, CLConfig{Rho: math.Inf(1)}, "rho"},
		{"NaN rho", cls, CLConfig{Rho: math.NaN()}, "rho"},
		{"unknown loss", cls, CLConfig{Loss: "hinge"}, "unknown loss"},
		{"logistic regression", reg, CLConfig{Loss: mtl.Logistic}, "binary labels"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewCL(c.p, c.cfg)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one mentioning %q", err, c.want)
			}
		})
	}
}
