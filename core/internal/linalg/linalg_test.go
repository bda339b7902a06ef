package linalg

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randSPD(rng *rand.Rand, n int) []float64 {
	b := make([]float64, n*n)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				a[i*n+j] += b[i*n+k] * b[j*n+k]
			}
		}
		a[i*n+i] += 0.5
	}
	return a
}

// TestSolversAgainstGonum: the Cholesky and Gaussian solves agree with
// gonum's general solver.
func TestSolversAgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 3, 9, 27} {
		a := randSPD(rng, n)
		b := make([]float64, n)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		var want mat.VecDense
		if err := want.SolveVec(mat.NewDense(n, n, append([]float64(nil), a...)), mat.NewVecDense(n, append([]float64(nil), b...))); err != nil {
			t.Fatal(err)
		}
		x := append([]float64(nil), b...)
		if !SolveSPD(append([]float64(nil), a...), n, x) {
			t.Fatalf("n=%d: SPD matrix rejected", n)
		}
		// A non-symmetric system for GaussSolve: A + an antisymmetric part.
		g := append([]float64(nil), a...)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				g[i*n+j] += 0.3
				g[j*n+i] -= 0.3
			}
		}
		var wantG mat.VecDense
		if err := wantG.SolveVec(mat.NewDense(n, n, append([]float64(nil), g...)), mat.NewVecDense(n, append([]float64(nil), b...))); err != nil {
			t.Fatal(err)
		}
		y := append([]float64(nil), b...)
		if !GaussSolve(g, n, y) {
			t.Fatalf("n=%d: regular matrix rejected", n)
		}
		for i := 0; i < n; i++ {
			if math.Abs(x[i]-want.AtVec(i)) > 1e-9*(1+math.Abs(want.AtVec(i))) || math.Abs(y[i]-wantG.AtVec(i)) > 1e-9*(1+math.Abs(wantG.AtVec(i))) {
				t.Fatalf("n=%d: x[%d] = %v / %v, gonum %v / %v", n, i, x[i], y[i], want.AtVec(i), wantG.AtVec(i))
			}
		}
	}
	if Cholesky([]float64{1, 2, 2, 1}, 2) {
		t.Error("an indefinite matrix was factored")
	}
}

// TestSymEigenWarmStart: eigenpairs are the same from the identity and from
// an arbitrary orthonormal starting basis, and A v = λ v.
func TestSymEigenWarmStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	const n = 9
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			v := rng.NormFloat64()
			a[i*n+j], a[j*n+i] = v, v
		}
	}
	var qr mat.QR
	g := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	start := q.RawMatrix().Data
	v0, _ := SymEigen(append([]float64(nil), a...), n, nil)
	v1, vec1 := SymEigen(append([]float64(nil), a...), n, start)
	for k := 0; k < n; k++ {
		if math.Abs(v0[k]-v1[k]) > 1e-12 {
			t.Fatalf("eigenvalue %d: %v cold, %v warm", k, v0[k], v1[k])
		}
		if k > 0 && v1[k] > v1[k-1] {
			t.Fatalf("eigenvalues not descending: %v", v1)
		}
		for i := 0; i < n; i++ {
			var av float64
			for j := 0; j < n; j++ {
				av += a[i*n+j] * vec1[j*n+k]
			}
			if math.Abs(av-v1[k]*vec1[i*n+k]) > 1e-10 {
				t.Fatalf("A v ≠ λ v for eigenpair %d", k)
			}
		}
	}
}
