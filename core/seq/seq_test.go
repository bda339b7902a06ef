package seq

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/internal/linalg"
	"github.com/spmtl/spmtl/core/mtl"
	"gonum.org/v1/gonum/mat"
)

// toy returns T classification tasks in d dimensions with related weights.
func toy(seed uint64, T, n, d int) *data.Dataset {
	rng := rand.New(rand.NewPCG(seed, 7))
	base := make([]float64, d)
	for j := range base {
		base[j] = rng.NormFloat64()
	}
	ds := &data.Dataset{Name: "toy", Features: d, Kind: data.Classification}
	for t := 0; t < T; t++ {
		x := mat.NewDense(n, d, nil)
		y := make([]float64, n)
		for i := 0; i < n; i++ {
			var f float64
			for j := 0; j < d; j++ {
				v := rng.NormFloat64()
				x.Set(i, j, v)
				f += v * (base[j] + 0.3*float64(t)*rng.NormFloat64())
			}
			y[i] = -1
			if f+0.5*rng.NormFloat64() > 0 {
				y[i] = 1
			}
		}
		ds.Tasks = append(ds.Tasks, data.Task{Name: fmt.Sprintf("t%d", t), X: x, Y: y})
	}
	return ds
}

// TestELLABasisUpdate compares the basis update with a direct solve of its
// normal equations built from Kronecker products, and checks the gradient
// of the ELLA objective at the result.
func TestELLABasisUpdate(t *testing.T) {
	ds := toy(1, 4, 40, 2)
	e, err := NewELLA(ds, ELLAConfig{K: 2, Lambda: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	p, k := e.p, e.k
	codes := [][]float64{{1, 0.5}, {-0.3, 2}, {0.7, 0.7}}
	for i, s := range codes {
		e.seen++
		e.accumulate(i, s)
	}
	if err := e.refit(); err != nil {
		t.Fatal(err)
	}
	n := p * k
	A := mat.NewDense(n, n, nil)
	b := mat.NewVecDense(n, nil)
	for i, s := range codes {
		ss := mat.NewDense(k, k, nil)
		ss.Outer(1, mat.NewVecDense(k, s), mat.NewVecDense(k, s))
		var kron mat.Dense
		kron.Kronecker(ss, mat.NewDense(p, p, e.D[i]))
		A.Add(A, &kron)
		var dth mat.VecDense
		dth.MulVec(mat.NewDense(p, p, e.D[i]), mat.NewVecDense(p, e.theta[i]))
		for j := 0; j < k; j++ {
			for r := 0; r < p; r++ {
				b.SetVec(j*p+r, b.AtVec(j*p+r)+dth.AtVec(r)*s[j])
			}
		}
	}
	T := float64(len(codes))
	A.Scale(1/T, A)
	for i := 0; i < n; i++ {
		A.Set(i, i, A.At(i, i)+0.05)
	}
	b.ScaleVec(1/T, b)
	var want mat.VecDense
	if err := want.SolveVec(A, b); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if math.Abs(e.L[i]-want.AtVec(i)) > 1e-9*(1+math.Abs(want.AtVec(i))) {
			t.Fatalf("vec(L)[%d] = %v, direct solve %v", i, e.L[i], want.AtVec(i))
		}
	}
	// Gradient of (1/T)Σ(θ−Ls)ᵀD(θ−Ls) + λ‖L‖² vanishes at L.
	grad := make([]float64, n)
	for i, s := range codes {
		r := e.residual(i, s)
		for j := 0; j < k; j++ {
			for a := 0; a < p; a++ {
				grad[j*p+a] += -2 * linalg.Dot(e.D[i][a*p:a*p+p], r) * s[j] / T
			}
		}
	}
	for i := range grad {
		grad[i] += 2 * 0.05 * e.L[i]
		if math.Abs(grad[i]) > 1e-9 {
			t.Fatalf("gradient %v at coordinate %d", grad[i], i)
		}
	}
}

// TestELLAReproducesSingleTasks: with k ≥ T and tiny regularization, each
// task gets its own column and ELLA's model is the single-task optimum.
func TestELLAReproducesSingleTasks(t *testing.T) {
	ds := toy(2, 3, 60, 3)
	for _, loss := range []mtl.Loss{mtl.Logistic, mtl.Squared} {
		e, err := NewELLA(ds, ELLAConfig{K: 4, Mu: 1e-12, Lambda: 1e-12, Loss: loss, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Run(context.Background(), e); err != nil {
			t.Fatal(err)
		}
		m := e.Model()
		for ti := range ds.Tasks {
			th := e.theta[ti]
			for j := 0; j < 3; j++ {
				if math.Abs(m.W[ti][j]-th[j]) > 1e-6*(1+math.Abs(th[j])) {
					t.Fatalf("%s task %d: w[%d] = %v, single-task %v", loss, ti, j, m.W[ti][j], th[j])
				}
			}
			if math.Abs(m.B[ti]-th[3]) > 1e-6*(1+math.Abs(th[3])) {
				t.Fatalf("%s task %d: b = %v, single-task %v", loss, ti, m.B[ti], th[3])
			}
		}
	}
}

// TestInfoMaxPicksLargestLogDet: after the first task, infomax must pick the
// candidate whose log-determinant (computed here with gonum) is largest.
func TestInfoMaxPicksLargestLogDet(t *testing.T) {
	ds := toy(4, 5, 50, 2)
	// One task with a much larger curvature in every direction.
	ds.Tasks[3].X.Scale(6, ds.Tasks[3].X)
	e, err := NewELLA(ds, ELLAConfig{K: 2, Select: SelectInfoMax, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Step(); err != nil {
		t.Fatal(err)
	}
	best, bestLD := -1, math.Inf(-1)
	n := e.p * e.k
	for _, u := range remaining(e.learned) {
		s := e.encode(u)
		M := mat.NewDense(n, n, append([]float64(nil), e.A...))
		ss := mat.NewDense(e.k, e.k, nil)
		ss.Outer(1, mat.NewVecDense(e.k, s), mat.NewVecDense(e.k, s))
		var kron mat.Dense
		kron.Kronecker(ss, mat.NewDense(e.p, e.p, e.D[u]))
		M.Add(M, &kron)
		M.Scale(1/float64(e.seen+1), M)
		for i := 0; i < n; i++ {
			M.Set(i, i, M.At(i, i)+e.cfg.Lambda)
		}
		sym := mat.NewSymDense(n, M.RawMatrix().Data)
		var ch mat.Cholesky
		if !ch.Factorize(sym) {
			t.Fatal("not positive definite")
		}
		if ld := ch.LogDet(); ld > bestLD {
			best, bestLD = u, ld
		}
	}
	s, err := e.Step()
	if err != nil {
		t.Fatal(err)
	}
	if s.Task != best {
		t.Errorf("infomax picked task %d, the largest log-determinant is task %d", s.Task, best)
	}
}

// TestCLFirstPick: CL's first task has the lowest regularized training
// objective, computed here task by task.
func TestCLFirstPick(t *testing.T) {
	ds := toy(5, 6, 40, 3)
	p, err := mtl.Prepare(ds)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCL(p, CLConfig{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Step()
	if err != nil {
		t.Fatal(err)
	}
	best, bestObj := -1, math.Inf(1)
	for ti := range ds.Tasks {
		fit, err := p.FitTask(ti, mtl.Logistic, mtl.Reference, 0.01, nil)
		if err != nil {
			t.Fatal(err)
		}
		if obj := fit.Loss + 0.01*fit.Penalty; obj < bestObj {
			best, bestObj = ti, obj
		}
	}
	if s.Task != best {
		t.Errorf("CL learned task %d first, the lowest objective is task %d", s.Task, best)
	}
}

// TestEveryTaskOnce: each rule learns each task exactly once, the same
// order for the same seed.
func TestEveryTaskOnce(t *testing.T) {
	ds := toy(6, 7, 30, 2)
	p, _ := mtl.Prepare(ds)
	for _, rule := range []string{"cl", SelectRandom, SelectInfoMax, SelectDiversity, SelectDiversityPP} {
		for seed := uint64(1); seed <= 3; seed++ {
			run := func() []int {
				var l Learner
				var err error
				if rule == "cl" {
					l, err = NewCL(p, CLConfig{})
				} else {
					l, err = NewELLA(ds, ELLAConfig{Select: rule, Seed: seed})
				}
				if err != nil {
					t.Fatal(err)
				}
				last, err := Run(context.Background(), l)
				if err != nil {
					t.Fatal(err)
				}
				return last.Order
			}
			a, b := run(), run()
			if fmt.Sprint(a) != fmt.Sprint(b) {
				t.Errorf("%s seed %d: orders differ: %v vs %v", rule, seed, a, b)
			}
			sorted := append([]int(nil), a...)
			sort.Ints(sorted)
			for i, v := range sorted {
				if v != i {
					t.Fatalf("%s seed %d: order %v is not a permutation of the 7 tasks", rule, seed, a)
				}
			}
		}
	}
}

func ExampleNewCL() {
	ds := toy(5, 4, 40, 3)
	p, _ := mtl.Prepare(ds)
	c, _ := NewCL(p, CLConfig{})
	last, _ := Run(context.Background(), c)
	fmt.Println("order:", last.Order)
	// Output: order: [0 1 2 3]
}

func ExampleNewELLA() {
	ds := toy(5, 4, 40, 3)
	e, _ := NewELLA(ds, ELLAConfig{Select: SelectDiversity, Seed: 1})
	last, _ := Run(context.Background(), e)
	fmt.Println("order:", last.Order, "basis rows:", len(last.L))
	// Output: order: [0 1 2 3] basis rows: 4
}
