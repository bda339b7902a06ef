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

func mustJoint(t *testing.T, ds *data.Dataset, cfg Config) *JointMMTL {
	t.Helper()
	p, err := Prepare(ds)
	if err != nil {
		t.Fatal(err)
	}
	j, err := NewJointMMTL(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := j.Step()
	if err != nil {
		t.Fatal(err)
	}
	if !snap.Done || snap.Stop != StopSingle || !j.Done() {
		t.Fatalf("joint MMTL is one fit; snapshot %+v", snap)
	}
	return j
}

// jointGradient returns the largest entry of the gradient of the joint
// objective Σ_t c_t Σ_i loss_i + ρ Σ_t ‖w_t − w̄‖² at the model, with
// c_t the variant's loss scale.
func jointGradient(ds *data.Dataset, m *Model, loss Loss, v Variant, rho float64) float64 {
	d, T := ds.Features, len(ds.Tasks)
	mean := make([]float64, d)
	for _, w := range m.W {
		for j := range mean {
			mean[j] += w[j] / float64(T)
		}
	}
	var worst float64
	for k := range ds.Tasks {
		task := &ds.Tasks[k]
		c := 1 / float64(task.Rows())
		if loss == Squared && v == Reference {
			c = 1
		}
		gw := make([]float64, d)
		var gb float64
		for i := 0; i < task.Rows(); i++ {
			f := task.Dot(i, m.W[k]) + m.B[k]
			g := f - task.Y[i]
			if loss == Logistic {
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
		worst = math.Max(worst, math.Abs(gb))
		for j := range gw {
			worst = math.Max(worst, math.Abs(gw[j]+2*rho*(m.W[k][j]-mean[j])))
		}
	}
	return worst
}

// TestJointMMTLOptimal: the exact joint MMTL is the minimizer of
// Σ_t l_t + ρ·tr(WΩWᵀ): its gradient vanishes, for the squared loss (mean
// and sum scale, primal and span forms) and the logistic loss; and the
// squared case equals the closed-form solution of the joint normal
// equations.
func TestJointMMTLOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(81, 82))
	const d, rho = 5, 0.4
	for _, tc := range []struct {
		sparse bool
		loss   Loss
		v      Variant
		tol    float64
	}{
		{false, Squared, Paper, 1e-8}, {true, Squared, Paper, 1e-8}, {false, Squared, Reference, 1e-6},
		{false, Logistic, Paper, 1e-8}, {true, Logistic, Reference, 1e-8},
	} {
		name := fmt.Sprintf("sparse=%v/%s/%s", tc.sparse, tc.loss, tc.v)
		ds := &data.Dataset{Name: "joint", Features: d, Kind: data.Regression}
		if tc.loss == Logistic {
			ds.Kind = data.Classification
		}
		for k, n := range []int{12, 25, 40, 18} {
			tk := randTask(rng, n, d, tc.loss == Logistic)
			tk.Name = fmt.Sprint("t", k)
			if tc.sparse {
				tk = toSparse(tk)
			}
			ds.Tasks = append(ds.Tasks, tk)
		}
		j := mustJoint(t, ds, Config{Loss: tc.loss, Variant: tc.v, Solver: Exact, Rho: rho})
		if g := jointGradient(ds, j.Model(), tc.loss, tc.v, rho); g > tc.tol {
			t.Errorf("%s: gradient of the joint objective %g after %d evaluations", name, g, j.evals)
		}
	}

	// Closed form, squared mean loss: stack θ = (w_1, b_1, ..., w_T, b_T);
	// the Hessian is block-diagonal data terms plus 2ρ(Ω ⊗ I) on the w parts.
	ds := &data.Dataset{Name: "joint", Features: d, Kind: data.Regression}
	for k, n := range []int{10, 30, 22} {
		tk := randTask(rng, n, d, false)
		tk.Name = fmt.Sprint("t", k)
		ds.Tasks = append(ds.Tasks, tk)
	}
	T, p := len(ds.Tasks), d+1
	A := mat.NewSymDense(T*p, nil)
	rhs := mat.NewVecDense(T*p, nil)
	for k := range ds.Tasks {
		task := &ds.Tasks[k]
		c := 1 / float64(task.Rows())
		for i := 0; i < task.Rows(); i++ {
			xa := append(append([]float64(nil), task.X.RawRowView(i)...), 1)
			for a := 0; a < p; a++ {
				rhs.SetVec(k*p+a, rhs.AtVec(k*p+a)+c*task.Y[i]*xa[a])
				for bb := a; bb < p; bb++ {
					A.SetSym(k*p+a, k*p+bb, A.At(k*p+a, k*p+bb)+c*xa[a]*xa[bb])
				}
			}
		}
	}
	for k := 0; k < T; k++ {
		for l := 0; l < T; l++ {
			om := -1 / float64(T)
			if k == l {
				om += 1
			}
			for a := 0; a < d; a++ {
				if k <= l {
					A.SetSym(k*p+a, l*p+a, A.At(k*p+a, l*p+a)+2*rho*om)
				}
			}
		}
	}
	var want mat.VecDense
	if err := want.SolveVec(A, rhs); err != nil {
		t.Fatal(err)
	}
	m := mustJoint(t, ds, Config{Rho: rho}).Model()
	for k := 0; k < T; k++ {
		for a := 0; a < d; a++ {
			if math.Abs(m.W[k][a]-want.AtVec(k*p+a)) > 1e-8 {
				t.Errorf("w[%d][%d] = %v, closed form %v", k, a, m.W[k][a], want.AtVec(k*p+a))
			}
		}
		if math.Abs(m.B[k]-want.AtVec(k*p+d)) > 1e-8 {
			t.Errorf("b[%d] = %v, closed form %v", k, m.B[k], want.AtVec(k*p+d))
		}
	}
}

// TestJointMMTLFista: with fista100 the joint MMTL is one call of the
// authors' solver on ρ·tr(WΩWᵀ), iterate for iterate the spec's solver.
func TestJointMMTLFista(t *testing.T) {
	ds, _ := randDataset(14, 4, 25, 6, 3, false, 0.4)
	j := mustJoint(t, ds, Config{Variant: Reference, Solver: FISTA100, Rho: 0.3})
	var X []*mat.Dense
	var Y [][]float64
	for i := range ds.Tasks {
		X = append(X, ds.Tasks[i].X)
		Y = append(Y, ds.Tasks[i].Y)
	}
	wantW, wantB, _ := specFISTAPenalty(X, Y, 0.3, true)
	m := j.Model()
	for k := range wantW {
		for a := range wantW[k] {
			if math.Abs(m.W[k][a]-wantW[k][a]) > 1e-10 {
				t.Fatalf("w[%d][%d] = %v, the spec's solver gives %v", k, a, m.W[k][a], wantW[k][a])
			}
		}
		if math.Abs(m.B[k]-wantB[k]) > 1e-10 {
			t.Fatalf("b[%d] = %v, the spec's solver gives %v", k, m.B[k], wantB[k])
		}
	}
}

// TestJointMMTLIsAlternationLimit: the alternating MMTL (block coordinate
// descent on the same objective) run to a tight tolerance reaches the
// joint optimum.
func TestJointMMTLIsAlternationLimit(t *testing.T) {
	ds, _ := randDataset(15, 5, 30, 6, 3, false, 0.4)
	j := mustJoint(t, ds, Config{Rho: 0.2})
	tr := mustTrainer(t, ds, Config{Model: "mmtl", Rho: 0.2, MaxIter: 5000, ObjTol: 1e-14})
	if _, err := Run(context.Background(), tr); err != nil {
		t.Fatal(err)
	}
	alt := tr.History()[len(tr.History())-1].Objective
	joint := j.History()[0].Objective
	if math.Abs(alt-joint) > 1e-9*joint || joint > alt*(1+1e-12) {
		t.Errorf("alternation ends at %v after %d iterations, joint optimum %v", alt, len(tr.History()), joint)
	}
}

func TestJointMMTLRefusesSelfPaced(t *testing.T) {
	ds, _ := randDataset(1, 3, 10, 3, 2, false, 0.1)
	p, err := Prepare(ds)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewJointMMTL(p, Config{SelfPaced: true}); err == nil {
		t.Error("self-paced joint MMTL: no error")
	}
}
