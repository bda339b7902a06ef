package mtl

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAnchorHessian: the value function's Hessian that the Newton steps
// of a visitor's logistic MMTL use (anchorProblem.hessian) is the one
// central differences of its gradient measure, with and without a shared
// intercept, with uneven task weights, and with a task-level feature under
// the prior (priorScales); a squared loss has none (its probes are exact).
func TestAnchorHessian(t *testing.T) {
	ds, _ := randDataset(7, 5, 12, 3, 3, true, 0.5)
	ds.Fixed = []int{2}
	for _, kappa := range []float64{0, 0.3} {
		cfg := Config{Model: "mmtl-joint", Loss: Logistic, Rho: 0.7, Intercept: kappa, Scale: SumLoss}
		j := mustJoint(t, ds, cfg)
		if j.priorU == nil {
			t.Fatal("no prior factors: the task-level feature is not under the prior")
		}
		rng := rand.New(rand.NewPCG(3, uint64(10*kappa)))
		omega := make([]float64, len(j.tasks))
		for i := range omega {
			omega[i] = 0.2 + rng.Float64()
		}
		ap := anchorOf(j, omega)
		x := make([]float64, ap.dim())
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		ap.eval(x)
		h := ap.hessian()
		if h == nil || ap.err != nil {
			t.Fatalf("κ %g: no Hessian (%v)", kappa, ap.err)
		}
		n := len(x)
		var worst, largest float64
		xt := make([]float64, n)
		for i := 0; i < n; i++ {
			step := 1e-5 * (1 + math.Abs(x[i]))
			copy(xt, x)
			xt[i] += step
			gp := append([]float64(nil), ap.gradient(xt)...)
			xt[i] -= 2 * step
			gm := ap.gradient(xt)
			for k := 0; k < n; k++ {
				fd := (gp[k] - gm[k]) / (2 * step)
				worst = math.Max(worst, math.Abs(h[k*n+i]-fd))
				largest = math.Max(largest, math.Abs(fd))
			}
		}
		// The differences divide the W-steps' own error (about 1e-10) by
		// the step: agreement to 1e-5 is what they can show.
		if worst > 1e-5*largest {
			t.Errorf("κ %g: the Hessian differs from central differences of the gradient by up to %.3g (entries up to %.3g)", kappa, worst, largest)
		}
	}
	sq, _ := randDataset(7, 5, 12, 3, 3, false, 0.5)
	j := mustJoint(t, sq, Config{Model: "mmtl-joint", Loss: Squared, Rho: 0.7, Scale: SumLoss})
	ap := anchorOf(j, []float64{1, 1, 1, 1, 1})
	ap.eval(make([]float64, 3))
	if ap.hessian() != nil {
		t.Error("a squared loss has a Hessian from hessian: its probes are exact and cheap")
	}
}

// TestJointLogisticNewton: with the Hessian, the joint logistic MMTL of a
// visitor's file reaches the optimum L-BFGS reaches at a tight tolerance
// (its objective to 1e-10, its weights to 1e-6) in a fraction of the
// evaluations the probed Newton steps took (each a W-step of every task).
func TestJointLogisticNewton(t *testing.T) {
	ds, _ := randDataset(11, 30, 6, 8, 4, true, 0.8)
	ds.Fixed = []int{7}
	for _, kappa := range []float64{0, 0.05} {
		cfg := Config{Model: "mmtl-joint", Loss: Logistic, Rho: 3, Intercept: kappa, Scale: SumLoss}
		j := mustJoint(t, ds, cfg)
		got := j.Model()
		// The same problem by L-BFGS alone, to a tighter gradient.
		ones := make([]float64, len(j.tasks))
		for i := range ones {
			ones[i] = 1
		}
		ap := anchorOf(j, ones)
		x := ap.point(j.a, j.b0)
		fNewton, g0 := ap.eval(x)
		for i := range x {
			x[i] += 0.1
		}
		if err := ap.solveTo(x, 1e-12*infNorm(g0)+1e-13, false); err != nil {
			t.Fatal(err)
		}
		fLBFGS, _ := ap.eval(x)
		if fNewton > fLBFGS+1e-10*math.Abs(fLBFGS) {
			t.Errorf("κ %g: Newton stopped at φ %.15g, L-BFGS reached %.15g", kappa, fNewton, fLBFGS)
		}
		for k := range got.W {
			for i := range got.W[k] {
				if math.Abs(got.W[k][i]-j.w[k][i]) > 1e-6*(1+math.Abs(j.w[k][i])) {
					t.Fatalf("κ %g: task %d weight %d %v by Newton, %v by L-BFGS", kappa, k, i, got.W[k][i], j.w[k][i])
				}
			}
		}
		// The probed steps took 53 at κ = 0.05 (each probe 9 gradients).
		if j.evals > 15 {
			t.Errorf("κ %g: %d evaluations of φ, want at most 15", kappa, j.evals)
		}
	}
}

// anchorOf is the value function of j's tasks with weights omega, as
// JointMMTL.exact builds it (at j's solutions).
func anchorOf(j *JointMMTL, omega []float64) *anchorProblem {
	return &anchorProblem{tasks: j.tasks, cfg: j.cfg, priorU: j.priorU, m: identityMetric(len(j.w[0])), omega: omega, w: j.w, b: j.b, cache: j.cache}
}
