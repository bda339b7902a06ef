package mtl

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// specFISTA is the authors' solver written out plainly from its description
// (docs/algorithms.md §1.3), for squared-sum loss and the ridge penalty
// ρ‖w_t‖² on dense tasks: gradients from the normal equations with gonum,
// nothing shared with fistaJoint. It returns W, B and the iterations done.
func specFISTA(X []*mat.Dense, Y [][]float64, rho float64) ([][]float64, []float64, int) {
	return specFISTAPenalty(X, Y, rho, false)
}

// specFISTAPenalty is specFISTA with the ridge penalty, or with the joint
// MMTL penalty ρ·Σ_t‖w_t − w̄‖² when mean is set.
func specFISTAPenalty(X []*mat.Dense, Y [][]float64, rho float64, mean bool) ([][]float64, []float64, int) {
	T := len(X)
	_, d := X[0].Dims()
	center := func(W [][]float64) [][]float64 {
		out := make([][]float64, T)
		for t := range W {
			out[t] = append([]float64(nil), W[t]...)
		}
		if !mean {
			return out
		}
		for j := 0; j < d; j++ {
			var m float64
			for t := range W {
				m += W[t][j] / float64(T)
			}
			for t := range W {
				out[t][j] -= m
			}
		}
		return out
	}
	f := func(W [][]float64, B []float64) float64 {
		C := center(W)
		var v float64
		for t := range X {
			n, _ := X[t].Dims()
			for i := 0; i < n; i++ {
				r := Y[t][i] - mat.Dot(X[t].RowView(i), mat.NewVecDense(d, W[t])) - B[t]
				v += 0.5 * r * r
			}
			v += rho * mat.Dot(mat.NewVecDense(d, C[t]), mat.NewVecDense(d, C[t]))
		}
		return v
	}
	grad := func(W [][]float64, B []float64) ([][]float64, []float64) {
		C := center(W)
		gw, gb := make([][]float64, T), make([]float64, T)
		for t := range X {
			n, _ := X[t].Dims()
			res := mat.NewVecDense(n, nil)
			for i := 0; i < n; i++ {
				res.SetVec(i, mat.Dot(X[t].RowView(i), mat.NewVecDense(d, W[t]))+B[t]-Y[t][i])
				gb[t] += res.AtVec(i)
			}
			var g mat.VecDense
			g.MulVec(X[t].T(), res)
			g.AddScaledVec(&g, 2*rho, mat.NewVecDense(d, C[t]))
			gw[t] = append([]float64(nil), g.RawVector().Data...)
		}
		return gw, gb
	}
	zeros := func() [][]float64 {
		out := make([][]float64, T)
		for t := range out {
			out[t] = make([]float64, d)
		}
		return out
	}
	W, B := zeros(), make([]float64, T)
	Z, Z0 := zeros(), make([]float64, T)
	alpha, gamma := 1.0, 1.0
	objs := []float64{0}
	it := 0
	for it = 1; it <= 100; it++ {
		Wold, Bold := W, B
		gW, gB := grad(Z, Z0)
		Fz := f(Z, Z0)
		stop := false
		var F float64
		for {
			W, B = zeros(), make([]float64, T)
			var lin, dist float64
			for t := range W {
				for j := range W[t] {
					W[t][j] = Z[t][j] - gW[t][j]/gamma
					dd := W[t][j] - Z[t][j]
					lin += dd * gW[t][j]
					dist += dd * dd
				}
				B[t] = Z0[t] - gB[t]/gamma
				dd := B[t] - Z0[t]
				lin += dd * gB[t]
				dist += dd * dd
			}
			F = f(W, B)
			if dist < 1e-20 {
				stop = true
				break
			}
			if F <= Fz+lin+gamma/2*dist {
				break
			}
			gamma *= 2
		}
		if stop {
			break
		}
		aOld := alpha
		alpha = 0.5 * (1 + math.Sqrt(1+4*alpha*alpha))
		for t := range W {
			for j := range W[t] {
				Z[t][j] = W[t][j] + (aOld-1)/alpha*(W[t][j]-Wold[t][j])
			}
			Z0[t] = B[t] + (aOld-1)/alpha*(B[t]-Bold[t])
		}
		var ns float64
		for _, w := range W {
			for _, v := range w {
				ns += math.Abs(v)
			}
		}
		objs = append(objs, F+ns)
		rel := (objs[len(objs)-1] - objs[len(objs)-2]) / objs[len(objs)-2]
		if math.Abs(rel) <= 1e-5 {
			break
		}
	}
	return W, B, it
}

// TestFISTAMatchesSpec: one call of fistaJoint from zero is the authors'
// solver iterate for iterate, including their stopping test on F + ‖W‖₁
// (testing F alone stops at another iteration and moves the result by far
// more than 1e-10).
func TestFISTAMatchesSpec(t *testing.T) {
	for _, tc := range []struct {
		seed uint64
		n, d int
		rho  float64
	}{{1, 30, 5, 0.5}, {2, 12, 8, 0.05}, {3, 40, 3, 5}} {
		rng := rand.New(rand.NewPCG(tc.seed, 7))
		var X []*mat.Dense
		var Y [][]float64
		var tasks []*taskData
		var steps []*wstep
		for k := 0; k < 4; k++ {
			tk := randTask(rng, tc.n, tc.d, false)
			X = append(X, tk.X)
			Y = append(Y, tk.Y)
			tasks = append(tasks, newTaskData(&tk, tc.d))
			steps = append(steps, &wstep{loss: Squared, scale: 1, rho: tc.rho, m: identityMetric(tc.d)})
		}
		W := make([][]float64, len(tasks))
		for k := range W {
			W[k] = make([]float64, tc.d)
		}
		B := make([]float64, len(tasks))
		if err := fistaJoint(tasks, steps, W, B, nil); err != nil {
			t.Fatal(err)
		}
		wantW, wantB, iters := specFISTA(X, Y, tc.rho)
		var worst float64
		for k := range W {
			for j := range W[k] {
				worst = math.Max(worst, math.Abs(W[k][j]-wantW[k][j]))
			}
			worst = math.Max(worst, math.Abs(B[k]-wantB[k]))
		}
		if worst > 1e-10 {
			t.Errorf("case %d: fistaJoint differs from the spec's solver (%d iterations) by %g", tc.seed, iters, worst)
		}
	}
}

// TestITLReferenceIsOneCall: the authors' ITL (their STLearner) is one call
// of their solver from zero; under the reference variant with fista100 the
// trainer reports exactly that, after one iteration, not the outer loop
// warm-starting FISTA again and again.
func TestITLReferenceIsOneCall(t *testing.T) {
	ds, _ := randDataset(4, 4, 25, 6, 3, false, 0.4)
	tr := mustTrainer(t, ds, Config{Model: "itl", Variant: Reference, Solver: FISTA100, Rho: 0.3, MaxIter: 10})
	last, err := Run(context.Background(), tr)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.History()) != 1 || last.Stop != StopSingle {
		t.Fatalf("ITL (reference) ran %d iterations, stop %q; want one call", len(tr.History()), last.Stop)
	}
	var X []*mat.Dense
	var Y [][]float64
	for i := range ds.Tasks {
		X = append(X, ds.Tasks[i].X)
		Y = append(Y, ds.Tasks[i].Y)
	}
	wantW, wantB, _ := specFISTA(X, Y, 0.3)
	m := tr.Model()
	for k := range wantW {
		for j := range wantW[k] {
			if math.Abs(m.W[k][j]-wantW[k][j]) > 1e-10 {
				t.Fatalf("w[%d][%d] = %v, one call of the solver gives %v", k, j, m.W[k][j], wantW[k][j])
			}
		}
		if math.Abs(m.B[k]-wantB[k]) > 1e-10 {
			t.Fatalf("b[%d] = %v, one call gives %v", k, m.B[k], wantB[k])
		}
	}
}
