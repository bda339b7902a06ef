package seq

import (
	"math"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/mtl"
	"gonum.org/v1/gonum/mat"
)

// augmented returns [X 1] for a dense task.
func augmented(tk *data.Task) *mat.Dense {
	n, d := tk.X.Dims()
	xa := mat.NewDense(n, d+1, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			xa.Set(i, j, tk.X.At(i, j))
		}
		xa.Set(i, d, 1)
	}
	return xa
}

// TestSingleTaskFits checks θ_t and D_t against formulas evaluated with
// gonum: the ridge normal equations for the squared loss, and for the
// logistic loss a vanishing gradient of the ridge log-likelihood with D
// half the regularized Hessian of the mean loss.
func TestSingleTaskFits(t *testing.T) {
	ds := toy(9, 3, 50, 3)
	const alpha = 0.3
	for _, loss := range []mtl.Loss{mtl.Squared, mtl.Logistic} {
		e, err := NewELLA(ds, ELLAConfig{Alpha: alpha, Loss: loss})
		if err != nil {
			t.Fatal(err)
		}
		for ti := range ds.Tasks {
			tk := &ds.Tasks[ti]
			xa := augmented(tk)
			n, p := xa.Dims()
			ridge := mat.NewDiagDense(p, nil)
			for j := 0; j < p-1; j++ {
				ridge.SetDiag(j, alpha)
			}
			th := mat.NewVecDense(p, e.theta[ti])
			var h mat.Dense
			var wantD mat.Dense
			switch loss {
			case mtl.Squared:
				h.Mul(xa.T(), xa)
				h.Add(&h, ridge)
				var rhs, want mat.VecDense
				rhs.MulVec(xa.T(), mat.NewVecDense(n, tk.Y))
				if err := want.SolveVec(&h, &rhs); err != nil {
					t.Fatal(err)
				}
				for j := 0; j < p; j++ {
					if math.Abs(th.AtVec(j)-want.AtVec(j)) > 1e-9*(1+math.Abs(want.AtVec(j))) {
						t.Fatalf("squared task %d: theta[%d] = %v, want %v", ti, j, th.AtVec(j), want.AtVec(j))
					}
				}
				wantD.Scale(1/float64(n), &h)
			case mtl.Logistic:
				var f mat.VecDense
				f.MulVec(xa, th)
				w := mat.NewDiagDense(n, nil)
				g := mat.NewVecDense(n, nil)
				for i := 0; i < n; i++ {
					pr := 1 / (1 + math.Exp(-f.AtVec(i)))
					w.SetDiag(i, pr*(1-pr))
					g.SetVec(i, (tk.Y[i]+1)/2-pr)
				}
				var grad, pen mat.VecDense
				grad.MulVec(xa.T(), g)
				pen.MulVec(ridge, th)
				grad.SubVec(&grad, &pen)
				if norm := mat.Norm(&grad, math.Inf(1)); norm > 1e-4 { // Newton stops once the probabilities move by ≤ 1e-3
					t.Fatalf("logistic task %d: gradient of the ridge log-likelihood is %v at theta", ti, norm)
				}
				var xw mat.Dense
				xw.Mul(xa.T(), w)
				h.Mul(&xw, xa)
				h.Add(&h, ridge)
				wantD.Scale(0.5/float64(n), &h)
			}
			if !mat.EqualApprox(&wantD, mat.NewDense(p, p, e.curv[ti]), 1e-6) {
				t.Fatalf("%s task %d: D = %v, want %v", loss, ti, e.curv[ti], mat.Formatted(&wantD))
			}
		}
	}
}

// TestEncodeKKT checks the Lasso codes in the D^{1/2} form of docs/algorithms.md
// §9: with B = D^{1/2} L and z = D^{1/2} θ, the subgradient optimality
// conditions of ½‖z − Bs‖² + (μ/2)‖s‖₁ hold at s.
func TestEncodeKKT(t *testing.T) {
	ds := toy(10, 4, 60, 4)
	for _, mu := range []float64{1e-6, 0.01, 0.1, 1} {
		e, err := NewELLA(ds, ELLAConfig{K: 3, Mu: mu, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		p, k := e.p, e.k
		zeros := 0
		for ti := range ds.Tasks {
			var eig mat.EigenSym
			if !eig.Factorize(mat.NewSymDense(p, append([]float64(nil), e.curv[ti]...)), true) {
				t.Fatal("eigendecomposition failed")
			}
			var v mat.Dense
			eig.VectorsTo(&v)
			vals := eig.Values(nil)
			sq := mat.NewDiagDense(p, nil)
			for i, l := range vals {
				sq.SetDiag(i, math.Sqrt(math.Max(l, 0)))
			}
			var half, tmp mat.Dense
			tmp.Mul(&v, sq)
			half.Mul(&tmp, v.T())
			L := mat.NewDense(k, p, append([]float64(nil), e.basis...)) // rows of this are L's columns
			var B mat.Dense
			B.Mul(&half, L.T())
			var z mat.VecDense
			z.MulVec(&half, mat.NewVecDense(p, e.theta[ti]))
			s := e.encode(ti)
			var r, g mat.VecDense
			r.MulVec(&B, mat.NewVecDense(k, s))
			r.SubVec(&z, &r)
			g.MulVec(B.T(), &r) // minus the gradient of the smooth part
			for j := 0; j < k; j++ {
				switch {
				case s[j] == 0:
					zeros++
					if math.Abs(g.AtVec(j)) > mu/2+1e-8 {
						t.Fatalf("mu %v task %d: s[%d] = 0 but |gradient| %v > mu/2", mu, ti, j, math.Abs(g.AtVec(j)))
					}
				default:
					if math.Abs(g.AtVec(j)-math.Copysign(mu/2, s[j])) > 1e-8 {
						t.Fatalf("mu %v task %d: s[%d] = %v, gradient %v, want %v", mu, ti, j, s[j], g.AtVec(j), math.Copysign(mu/2, s[j]))
					}
				}
			}
		}
		if mu == 1 && zeros == 0 {
			t.Errorf("mu = 1 left every code entry non-zero")
		}
	}
}

// TestELLARejects lists settings NewELLA must refuse with an error.
func TestELLARejects(t *testing.T) {
	reg := toy(11, 2, 20, 2)
	reg.Kind = data.Regression
	for _, c := range []struct {
		name string
		ds   *data.Dataset
		cfg  ELLAConfig
		want string
	}{
		{"nil data", nil, ELLAConfig{}, "nil dataset"},
		{"negative k", toy(11, 2, 20, 2), ELLAConfig{K: -1}, "k must"},
		{"negative lambda", toy(11, 2, 20, 2), ELLAConfig{Lambda: -1}, "lambda"},
		{"NaN alpha", toy(11, 2, 20, 2), ELLAConfig{Alpha: math.NaN()}, "alpha"},
		{"unknown rule", toy(11, 2, 20, 2), ELLAConfig{Select: "best"}, "unknown selection"},
		{"logistic regression", reg, ELLAConfig{Loss: mtl.Logistic}, "binary labels"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewELLA(c.ds, c.cfg)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one mentioning %q", err, c.want)
			}
		})
	}
}

// TestLasso checks the code solver on problems with a known answer and on
// a badly conditioned one (nearly collinear basis columns, μ as small as
// the landmine default), where coordinate descent alone stalls far from
// the optimum (it missed the optimality conditions by about 1e-4 after
// 5000 sweeps): they must hold to rounding.
func TestLasso(t *testing.T) {
	// Nearly collinear: B = [b, b + 1e-4 e, f]; G = BᵀB, c = Bᵀz.
	B := mat.NewDense(6, 3, []float64{
		1, 1.0001, 0.3,
		-2, -2, 1,
		0.5, 0.5, -0.7,
		1, 0.9999, 0.2,
		3, 3.0001, 0,
		-1, -1, 1.5,
	})
	var G mat.Dense
	G.Mul(B.T(), B)
	var c mat.VecDense
	c.MulVec(B.T(), mat.NewVecDense(6, []float64{1, 2, -1, 0.5, 3, 1}))
	for _, tc := range []struct {
		name string
		G, c []float64
		h    float64
		want []float64 // nil: check the optimality conditions only
	}{
		{"identity", []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}, []float64{3, -0.5, 0.1}, 1, []float64{2, 0, 0}},
		{"diagonal", []float64{2, 0, 0, 4}, []float64{3, -5}, 1, []float64{1, -1}},
		{"all zero", []float64{2, 1, 1, 2}, []float64{0.5, -0.5}, 1, []float64{0, 0}},
		{"zero column", []float64{0, 0, 0, 2}, []float64{0, 3}, 1, []float64{0, 1}},
		{"collinear, tiny mu", G.RawMatrix().Data, c.RawVector().Data, math.Exp(-12) / 2, nil},
		{"collinear, mu 1", G.RawMatrix().Data, c.RawVector().Data, 0.5, nil},
		// Rank 2 (as when k > d+1): the active-set solve fails on the full
		// support and coordinate descent finishes from its last iterate.
		{"rank deficient", []float64{2, 1, 3, 1, 1, 2, 3, 2, 5}, []float64{1, 2, 3}, 0.1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := len(tc.c)
			s := lasso(tc.G, tc.c, k, tc.h)
			if tc.want != nil {
				for j := range s {
					if math.Abs(s[j]-tc.want[j]) > 1e-12 {
						t.Fatalf("s = %v, want %v", s, tc.want)
					}
				}
				return
			}
			for j := 0; j < k; j++ {
				g := tc.c[j] // minus the gradient of the smooth part
				for i := 0; i < k; i++ {
					g -= tc.G[j*k+i] * s[i]
				}
				viol := math.Max(0, math.Abs(g)-tc.h)
				if s[j] != 0 {
					viol = math.Abs(g - math.Copysign(tc.h, s[j]))
				}
				if viol > 1e-10 {
					t.Fatalf("s = %v: coordinate %d violates the optimality conditions by %v (h = %v)", s, j, viol, tc.h)
				}
			}
		})
	}
}
