package linalg

import (
	"fmt"
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

// TestJacobiEigenWarmStart: the reference solver's eigenpairs are the same
// from the identity and from an arbitrary orthonormal starting basis, and
// A v = λ v.
func TestJacobiEigenWarmStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	const n = 9
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			v := rng.NormFloat64()
			a[i*n+j], a[j*n+i] = v, v
		}
	}
	start := randOrthogonal(rng, n).RawMatrix().Data
	v0, _ := jacobiEigen(append([]float64(nil), a...), n, nil)
	v1, vec1 := jacobiEigen(append([]float64(nil), a...), n, start)
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

// randOrthogonal returns a random n×n orthogonal matrix (the Q of a
// Gaussian matrix's QR factorization).
func randOrthogonal(rng *rand.Rand, n int) *mat.Dense {
	g := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	return &q
}

// gradedSym returns Q diag(λ) Qᵀ for a random orthogonal Q and
// eigenvalues spread over 1..10^-span (the last ones tiny, as for the Gram
// matrices of nearly collinear task vectors).
func gradedSym(rng *rand.Rand, n int, span float64) (a, lam []float64) {
	q := randOrthogonal(rng, n)
	lam = make([]float64, n)
	for i := range lam {
		lam[i] = math.Pow(10, -span*float64(i)/float64(max(n-1, 1)))
	}
	a = make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for k := 0; k < n; k++ {
				s += q.At(i, k) * lam[k] * q.At(j, k)
			}
			a[i*n+j] = s
		}
	}
	for i := 0; i < n; i++ { // exactly symmetric
		for j := 0; j < i; j++ {
			a[i*n+j] = a[j*n+i]
		}
	}
	return a, lam
}

// TestSymEigenAgainstGonum: the eigenvalues match gonum's LAPACK solver,
// the vectors are orthonormal and the residuals ‖Av − λv‖ are at round-off
// level, for random and graded matrices of the sizes the methods use.
func TestSymEigenAgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 2, 5, 20, 30, 64} {
		for _, kind := range []string{"normal", "graded"} {
			var a []float64
			if kind == "graded" {
				a, _ = gradedSym(rng, n, 8)
			} else {
				a = make([]float64, n*n)
				for i := 0; i < n; i++ {
					for j := 0; j <= i; j++ {
						v := rng.NormFloat64()
						a[i*n+j], a[j*n+i] = v, v
					}
				}
			}
			var es mat.EigenSym
			if !es.Factorize(mat.NewSymDense(n, append([]float64(nil), a...)), false) {
				t.Fatal("gonum failed")
			}
			want := es.Values(nil) // ascending
			vals, vecs := SymEigen(append([]float64(nil), a...), n)
			var norm float64
			for _, x := range a {
				norm += x * x
			}
			norm = math.Sqrt(norm)
			for k := 0; k < n; k++ {
				if d := math.Abs(vals[k] - want[n-1-k]); d > 1e-13*norm {
					t.Errorf("%s n=%d: λ%d = %v, gonum %v", kind, n, k, vals[k], want[n-1-k])
				}
				for l := 0; l <= k; l++ {
					var dot float64
					for i := 0; i < n; i++ {
						dot += vecs[i*n+k] * vecs[i*n+l]
					}
					if l == k {
						dot--
					}
					if math.Abs(dot) > 1e-13 {
						t.Fatalf("%s n=%d: vᵀv off by %v at (%d,%d)", kind, n, dot, k, l)
					}
				}
				for i := 0; i < n; i++ {
					var av float64
					for j := 0; j < n; j++ {
						av += a[i*n+j] * vecs[j*n+k]
					}
					if math.Abs(av-vals[k]*vecs[i*n+k]) > 1e-13*norm {
						t.Fatalf("%s n=%d: residual %v for eigenpair %d", kind, n, av-vals[k]*vecs[i*n+k], k)
					}
				}
			}
		}
	}
}

// TestSymEigenTinyEigenvalues: Jacobi finds the small eigenvalues of a
// well-scaled graded matrix to high relative accuracy (the reason it is
// used: MTFL's σ and MTASO's subspace depend on the small ones).
func TestSymEigenTinyEigenvalues(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const n = 12
	// D A D with A well conditioned and D graded: the eigenvalues span
	// 20 orders, yet each is determined to a few ulps relative.
	a := randSPD(rng, n)
	dsc := make([]float64, n)
	for i := range dsc {
		dsc[i] = math.Pow(10, -float64(i))
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a[i*n+j] *= dsc[i] * dsc[j]
		}
	}
	vals, _ := SymEigen(append([]float64(nil), a...), n)
	// The determinant is the product of the eigenvalues; the Cholesky
	// factor gives it accurately for a graded SPD matrix.
	l := append([]float64(nil), a...)
	if !Cholesky(l, n) {
		t.Fatal("not SPD")
	}
	var logDet, logProd float64
	for i := 0; i < n; i++ {
		logDet += 2 * math.Log(l[i*n+i])
		if !(vals[i] > 0) {
			t.Fatalf("eigenvalue %d = %v, want > 0", i, vals[i])
		}
		logProd += math.Log(vals[i])
	}
	if math.Abs(logDet-logProd) > 1e-9 {
		t.Errorf("log det %v, Σ log λ %v", logDet, logProd)
	}
	if vals[n-1] > 1e-18 || vals[n-1] < 1e-26 {
		t.Errorf("smallest eigenvalue %v, want about 1e-22", vals[n-1])
	}
}

// BenchmarkJacobiEigen: the Jacobi solver SymEigen replaced, at 30×30
// (syn2's 30 tasks), cold and warm-started from the eigenvectors of a
// nearby matrix, as MTFL and MTASO used to from one outer iteration to the
// next; BenchmarkSymEigen runs on the same matrix.
func BenchmarkJacobiEigen(b *testing.B) {
	const n = 30
	near, a := benchEigenMatrices(n)
	_, start := jacobiEigen(near, n, nil)
	buf := make([]float64, n*n)
	for _, bc := range []struct {
		name  string
		start []float64
	}{{"cold", nil}, {"warm", start}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				copy(buf, a)
				jacobiEigen(buf, n, bc.start)
			}
		})
	}
}

// BenchmarkCholSolve: one solve with a factored system at the sizes of the
// primal W-steps (cs 14, school 27, the primal bound 64).
func BenchmarkCholSolve(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{14, 27, 64} {
		l := randSPD(rng, n)
		if !Cholesky(l, n) {
			b.Fatal("not SPD")
		}
		rhs := make([]float64, n)
		for i := range rhs {
			rhs[i] = rng.NormFloat64()
		}
		x := make([]float64, n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				copy(x, rhs)
				CholSolve(l, n, x)
			}
		})
	}
}

// TestCholeskyReadsLowerTriangle: Cholesky and CholSolve give the same
// bits whatever the strict upper triangle holds (squaredPrimal fills only
// the lower one), for sizes that exercise Dot's main and tail loops.
func TestCholeskyReadsLowerTriangle(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, n := range []int{1, 3, 9, 14, 27} {
		a := randSPD(rng, n)
		junk := append([]float64(nil), a...)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				junk[i*n+j] = math.NaN()
			}
		}
		if !Cholesky(a, n) || !Cholesky(junk, n) {
			t.Fatalf("n=%d: not SPD", n)
		}
		x, y := randVec(rng, n), make([]float64, n)
		copy(y, x)
		CholSolve(a, n, x)
		CholSolve(junk, n, y)
		for i := 0; i < n; i++ {
			for j := 0; j <= i; j++ {
				if a[i*n+j] != junk[i*n+j] {
					t.Fatalf("n=%d: L[%d][%d] = %v with a NaN upper triangle, %v without", n, i, j, junk[i*n+j], a[i*n+j])
				}
			}
			if x[i] != y[i] {
				t.Fatalf("n=%d: solution[%d] = %v with a NaN upper triangle, %v without", n, i, y[i], x[i])
			}
		}
	}
}

// TestDotAxpyExact: Dot's partial sums take the elements in the order of
// the plain definition below (four running sums by index mod 4, a remainder
// added to the first), so its result is the same bit for bit whatever its
// loops look like; Axpy updates each element once, as a·x_i + dst_i. Both
// are checked for every length that exercises their main and tail loops.
func TestDotAxpyExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for n := 0; n <= 41; n++ {
		a, b := randVec(rng, n), randVec(rng, n+3) // b may be longer than a
		var s [4]float64
		m := n - n%4
		for i := 0; i < m; i++ {
			s[i%4] += a[i] * b[i]
		}
		for i := m; i < n; i++ {
			s[0] += a[i] * b[i]
		}
		if got, want := Dot(a, b), (s[0]+s[1])+(s[2]+s[3]); got != want {
			t.Errorf("n=%d: Dot = %v, want %v", n, got, want)
		}
		dst := randVec(rng, n)
		want := make([]float64, n)
		for i := range want {
			want[i] = dst[i] + 0.7*a[i]
		}
		Axpy(dst, 0.7, a)
		for i := range want {
			if dst[i] != want[i] {
				t.Errorf("n=%d: Axpy element %d = %v, want %v", n, i, dst[i], want[i])
			}
		}
	}
}

// BenchmarkDot and BenchmarkAxpy: the lengths of landmine's and school's
// primal rows (9, 27), a Cholesky row of a span system (120) and a row of
// a reduced sentiment task (1000).
func BenchmarkDot(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{9, 27, 120, 1000} {
		x, y := randVec(rng, n), randVec(rng, n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var s float64
			for b.Loop() {
				s += Dot(x, y)
			}
			sink = s
		})
	}
}

func BenchmarkAxpy(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{9, 27, 120, 1000} {
		x, y := randVec(rng, n), randVec(rng, n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				Axpy(y, 1e-9, x)
			}
		})
	}
}

// BenchmarkCholesky: a factorization at a primal size (27) and a span
// size (120).
func BenchmarkCholesky(b *testing.B) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{27, 120} {
		a := randSPD(rng, n)
		buf := make([]float64, n*n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				copy(buf, a)
				if !Cholesky(buf, n) {
					b.Fatal("not SPD")
				}
			}
		})
	}
}

var sink float64

func randVec(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// benchEigenMatrices returns a graded symmetric n×n matrix and a copy of it
// perturbed by 1e-3 relative, entry by entry: the eigen benchmarks' input
// and, for the Jacobi one's warm start, the nearby matrix whose
// eigenvectors start it.
func benchEigenMatrices(n int) (near, a []float64) {
	rng := rand.New(rand.NewPCG(3, 4))
	a, _ = gradedSym(rng, n, 6)
	near = append([]float64(nil), a...)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			e := 1e-3 * rng.NormFloat64() * math.Sqrt(math.Abs(a[i*n+i]*a[j*n+j]))
			a[i*n+j] += e
			if i != j {
				a[j*n+i] += e
			}
		}
	}
	return near, a
}

// TestInverseDiagonalAndLowerNormSq: the diagonal of A⁻¹ and bᵀA⁻¹b from
// A's Cholesky factor agree with gonum's inverse of A.
func TestInverseDiagonalAndLowerNormSq(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 7, 30} {
		a := randSPD(rng, n)
		var inv mat.Dense
		if err := inv.Inverse(mat.NewDense(n, n, append([]float64(nil), a...))); err != nil {
			t.Fatal(err)
		}
		l := append([]float64(nil), a...)
		if !Cholesky(l, n) {
			t.Fatalf("n=%d: SPD matrix rejected", n)
		}
		got := make([]float64, n)
		InverseDiagonal(l, n, got, make([]float64, n))
		b := make([]float64, n)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		want := mat.Inner(mat.NewVecDense(n, b), &inv, mat.NewVecDense(n, b))
		quad := LowerNormSq(l, n, append([]float64(nil), b...))
		if math.Abs(quad-want) > 1e-9*math.Abs(want) {
			t.Errorf("n=%d: bᵀA⁻¹b = %v, gonum %v", n, quad, want)
		}
		for i := 0; i < n; i++ {
			if w := inv.At(i, i); math.Abs(got[i]-w) > 1e-9*w {
				t.Errorf("n=%d: [A⁻¹]_%d%d = %v, gonum %v", n, i, i, got[i], w)
			}
		}
	}
}

// TestDots: each product is Dot's, bit for bit, for rows of a matrix wider
// than the vector, including a single row and an empty vector.
func TestDots(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, tc := range []struct{ n, rows, stride int }{{0, 3, 2}, {5, 1, 5}, {9, 4, 11}, {70, 7, 73}} {
		x, m := randVec(rng, tc.n), randVec(rng, tc.rows*tc.stride)
		out := make([]float64, tc.rows)
		Dots(out, x, m, tc.stride)
		for c, got := range out {
			if want := Dot(x, m[c*tc.stride:c*tc.stride+tc.n]); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("n %d, row %d: %v, Dot %v", tc.n, c, got, want)
			}
		}
	}
}
