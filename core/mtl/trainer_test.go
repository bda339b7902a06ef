package mtl

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/internal/linalg"
	"gonum.org/v1/gonum/mat"
)

// randDataset returns T regression (or classification) tasks whose weight
// vectors share the support {0, ..., k-1} of d features.
func randDataset(seed uint64, T, n, d, k int, classification bool, noise float64) (*data.Dataset, [][]float64) {
	rng := rand.New(rand.NewPCG(seed, 99))
	ds := &data.Dataset{Name: "synthetic", Features: d, Kind: data.Regression}
	if classification {
		ds.Kind = data.Classification
	}
	var W [][]float64
	for t := 0; t < T; t++ {
		w := make([]float64, d)
		for j := 0; j < k; j++ {
			w[j] = rng.NormFloat64() + 1
		}
		W = append(W, w)
		x := mat.NewDense(n, d, nil)
		y := make([]float64, n)
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				x.Set(i, j, rng.NormFloat64())
			}
			f := linalg.Dot(x.RawRowView(i), w) + noise*float64(t+1)*rng.NormFloat64()
			y[i] = f
			if classification {
				y[i] = 1
				if f < 0 {
					y[i] = -1
				}
			}
		}
		ds.Tasks = append(ds.Tasks, data.Task{Name: string(rune('a' + t)), X: x, Y: y})
	}
	return ds, W
}

func mustTrainer(t *testing.T, ds *data.Dataset, cfg Config) *Trainer {
	t.Helper()
	p, err := Prepare(ds)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestObjectiveMonotone: with τ fixed (the baselines) and exact solves, each
// alternation is a block-coordinate step on one convex objective, so the
// objective never increases.
func TestObjectiveMonotone(t *testing.T) {
	for _, tc := range []struct {
		model string
		loss  Loss
		d     int
	}{
		{"mmtl", Squared, 6}, {"mtfl", Squared, 6}, {"mmtl", Logistic, 6},
		{"mtfl", Logistic, 6}, {"mtfl", Squared, 80}, {"mtfl", Logistic, 80},
	} {
		for _, v := range []Variant{Paper, Reference} {
			ds, _ := randDataset(1, 5, 25, tc.d, 3, tc.loss == Logistic, 0.3)
			tr := mustTrainer(t, ds, Config{Model: tc.model, Loss: tc.loss, Rho: 0.3, Variant: v, Solver: Exact, MaxIter: 25, ObjTol: 1e-300})
			prev := math.Inf(1)
			for !tr.Done() {
				s, err := tr.Step()
				if err != nil {
					t.Fatal(err)
				}
				if s.Objective > prev*(1+1e-10) {
					t.Errorf("%s/%s/d=%d/%s: objective rose at iteration %d: %v -> %v", tc.model, tc.loss, tc.d, v, s.Iter, prev, s.Objective)
				}
				prev = s.Objective
			}
		}
	}
}

// TestMTFLDStepClosedForm compares the low-rank D with the dense closed form
// (W̃W̃ᵀ + εI)^{1/2}/tr computed by a full eigendecomposition, for d < T and
// d > T.
func TestMTFLDStepClosedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, dims := range [][2]int{{4, 9}, {12, 5}} {
		d, T := dims[0], dims[1]
		W := make([][]float64, T)
		omega := make([]float64, T)
		for k := range W {
			W[k] = randVec(rng, d)
			omega[k] = rng.Float64() + 0.1
		}
		const eps = 1e-3
		m, pen, _, err := mtflMetric(W, omega, d, d, eps, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, w := range W {
			if q := m.quad(w); math.Abs(pen[k]-q) > 1e-9*q {
				t.Errorf("d=%d T=%d: penalty of task %d from the SVD %v, quadratic form %v", d, T, k, pen[k], q)
			}
		}
		// Dense: eigendecomposition of Σ ω²wwᵀ + εI.
		A := mat.NewSymDense(d, nil)
		for k, w := range W {
			A.SymRankOne(A, omega[k]*omega[k], mat.NewVecDense(d, w))
		}
		for j := 0; j < d; j++ {
			A.SetSym(j, j, A.At(j, j)+eps)
		}
		var eig mat.EigenSym
		if !eig.Factorize(A, true) {
			t.Fatal("eigen failed")
		}
		vals := eig.Values(nil)
		var vec mat.Dense
		eig.VectorsTo(&vec)
		var tr float64
		for _, v := range vals {
			tr += math.Sqrt(v)
		}
		D := mat.NewDense(d, d, nil)
		for i, v := range vals {
			col := mat.Col(nil, i, &vec)
			for a := 0; a < d; a++ {
				for b := 0; b < d; b++ {
					D.Set(a, b, D.At(a, b)+math.Sqrt(v)/tr*col[a]*col[b])
				}
			}
		}
		for j := 0; j < d; j++ {
			e := make([]float64, d)
			e[j] = 1
			got := make([]float64, d)
			applyInv(m, got, e)
			for a := 0; a < d; a++ {
				if math.Abs(got[a]-D.At(a, j)) > 1e-9 {
					t.Fatalf("d=%d T=%d: D[%d,%d] low-rank %v, dense %v", d, T, a, j, got[a], D.At(a, j))
				}
			}
		}
		if math.Abs(1/m.beta*0+sumDiag(D)-1) > 1e-12 {
			t.Errorf("tr(D) = %v, want 1", sumDiag(D))
		}
	}
}

func sumDiag(a *mat.Dense) float64 {
	r, _ := a.Dims()
	var s float64
	for i := 0; i < r; i++ {
		s += a.At(i, i)
	}
	return s
}

func TestSoftmaxTau(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cost   []float64
		lambda float64
	}{
		{"plain", []float64{0.3, 0.1, 0.7, 0.2}, 0.5},
		{"large costs", []float64{1e6, 1e6 + 1, 2e6, 1e6 + 0.5}, 1},
		{"tiny lambda", []float64{3, 1, 2}, 1e-9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tau := SoftmaxTau(tc.cost, tc.lambda, Paper)
			var sum float64
			for _, v := range tau {
				if !finite(v) || v < 0 {
					t.Fatalf("tau %v is not finite and non-negative", tau)
				}
				sum += v
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Fatalf("tau sums to %v", sum)
			}
			idx := make([]int, len(tau))
			for i := range idx {
				idx[i] = i
			}
			sort.Slice(idx, func(a, b int) bool { return tc.cost[idx[a]] < tc.cost[idx[b]] })
			for k := 1; k < len(idx); k++ {
				if tau[idx[k]] > tau[idx[k-1]] {
					t.Fatalf("a costlier task got more weight: cost %v tau %v", tc.cost, tau)
				}
			}
		})
	}
	// The reference rule underflows to uniform where the paper's does not.
	ref := SoftmaxTau([]float64{1e6, 2e6}, 1, Reference)
	if ref[0] != 0.5 || ref[1] != 0.5 {
		t.Errorf("reference underflow fallback: got %v, want uniform", ref)
	}
	if p := SoftmaxTau([]float64{1e6, 2e6}, 1, Paper); p[0] != 1 {
		t.Errorf("paper softmax on separated costs: got %v, want all mass on the easy task", p)
	}
}

func TestHardTau(t *testing.T) {
	tau := HardTau([]float64{0.5, 2, 0.1}, 1, 0.01)
	want := []float64{1 / 2.01, 0.01 / 2.01, 1 / 2.01}
	for i := range tau {
		if math.Abs(tau[i]-want[i]) > 1e-15 {
			t.Fatalf("got %v, want %v", tau, want)
		}
	}
}

// TestMTFLRecoversSharedSupport: MTFL concentrates the weight on the
// features the tasks share. With finite samples the independent estimates
// leak weight off the support through chance correlations of the inputs;
// learning the shared subspace averages that leak over tasks, so MTFL must
// leave a small fraction of the weight off the support, and several times
// less than ITL at the same ρ.
func TestMTFLRecoversSharedSupport(t *testing.T) {
	const d, k = 20, 3
	ds, _ := randDataset(7, 20, 200, d, k, false, 0.1)
	offSupport := func(model string) float64 {
		tr := mustTrainer(t, ds, Config{Model: model, Rho: 0.1, MaxIter: 100})
		if _, err := Run(context.Background(), tr); err != nil {
			t.Fatal(err)
		}
		var on, off float64
		for _, w := range tr.Model().W {
			for j, v := range w {
				if j < k {
					on += v * v
				} else {
					off += v * v
				}
			}
		}
		return off / (on + off)
	}
	mtfl, itl := offSupport("mtfl"), offSupport("itl")
	if mtfl > 0.01 || mtfl > itl/3 {
		t.Errorf("share of weight off the true support: MTFL %.4f, ITL %.4f", mtfl, itl)
	}
}

// TestSelfPacedOrdersByNoise: tasks with more label noise are harder; the
// self-paced weights put the easiest task first.
func TestSelfPacedOrdersByNoise(t *testing.T) {
	ds, _ := randDataset(3, 6, 40, 5, 3, false, 0.5)
	for _, model := range []string{"mmtl", "mtfl", "mtaso", "itl"} {
		tr := mustTrainer(t, ds, Config{Model: model, SelfPaced: true, Rho: 0.1, Lambda0: 0.5, H: 2})
		s, err := tr.Step()
		if err != nil {
			t.Fatal(err)
		}
		if s.Tau[0] <= s.Tau[5] {
			t.Errorf("%s: the noisiest task got at least the easiest task's weight: %v", model, s.Tau)
		}
		var sum float64
		for _, v := range s.Tau {
			sum += v
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("%s: tau sums to %v", model, sum)
		}
	}
}

func TestEveryModelAndVariantRuns(t *testing.T) {
	dsR, _ := randDataset(11, 4, 15, 40, 3, false, 0.3) // d > N: span form
	dsC, _ := randDataset(12, 4, 30, 5, 3, true, 0.3)
	for _, ds := range []*data.Dataset{dsR, dsC} {
		for _, model := range structureKeys() {
			for _, v := range []Variant{Paper, Reference} {
				for _, sp := range []bool{false, true} {
					tr := mustTrainer(t, ds, Config{Model: model, Variant: v, SelfPaced: sp, H: 2, MaxIter: 4})
					last, err := Run(context.Background(), tr)
					if err != nil {
						t.Fatalf("%s %s sp=%v: %v", model, v, sp, err)
					}
					if !last.Done || len(last.Tau) != 4 || !finite(last.Objective) {
						t.Fatalf("%s %s sp=%v: bad final snapshot %+v", model, v, sp, last)
					}
					m := tr.Model()
					for ti := range ds.Tasks {
						for _, s := range m.Predict(ti, &ds.Tasks[ti]) {
							if !finite(s) {
								t.Fatalf("%s %s: non-finite prediction", model, v)
							}
						}
					}
				}
			}
		}
	}
}

func TestConfigErrors(t *testing.T) {
	ds, _ := randDataset(1, 2, 10, 3, 2, false, 0.1)
	p, err := Prepare(ds)
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []Config{
		{Model: "nope"}, {Rho: -1}, {Rho: math.NaN()}, {Pace: 0.5}, {Tau: "x"},
		{Variant: "x"}, {Loss: Logistic}, {Lambda0: math.Inf(1)}, {MaxIter: -1},
	} {
		if _, err := NewTrainer(p, cfg); err == nil {
			t.Errorf("config %+v: no error", cfg)
		}
	}
	if _, err := Prepare(&data.Dataset{Name: "empty"}); err == nil {
		t.Error("empty dataset: no error")
	}
}
