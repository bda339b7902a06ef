package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randSym returns a symmetric matrix with standard normal entries.
func randSym(rng *rand.Rand, n int) []float64 {
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			v := rng.NormFloat64()
			a[i*n+j], a[j*n+i] = v, v
		}
	}
	return a
}

// symFromSpectrum returns Q diag(lam) Qᵀ for a random orthogonal Q, made
// exactly symmetric.
func symFromSpectrum(rng *rand.Rand, lam []float64) []float64 {
	n := len(lam)
	q := randOrthogonal(rng, n)
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			var s float64
			for k := 0; k < n; k++ {
				s += q.At(i, k) * lam[k] * q.At(j, k)
			}
			a[i*n+j], a[j*n+i] = s, s
		}
	}
	return a
}

// gramLowRank returns W Wᵀ for a Gaussian n×k W, k < n: rank k, so n−k
// eigenvalues are zero in exact arithmetic, as in MTFL's task Gram
// matrices when there are more tasks than features.
func gramLowRank(rng *rand.Rand, n, k int) []float64 {
	w := make([]float64, n*k)
	for i := range w {
		w[i] = rng.NormFloat64()
	}
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			var s float64
			for l := 0; l < k; l++ {
				s += w[i*k+l] * w[j*k+l]
			}
			a[i*n+j], a[j*n+i] = s, s
		}
	}
	return a
}

// TestSymEigen: eigenpairs of SymEigen have residuals ‖AV − VΛ‖ and
// orthogonality ‖VᵀV − I‖ at round-off level, and their eigenvalues are
// descending and match gonum's LAPACK solver and jacobiEigen, on
// random, diagonal, repeated-eigenvalue, rank-deficient and graded
// matrices, and random ones scaled by 2^±900 (given scaled, compared
// unscaled, exactly). The largest errors seen are logged (go test -v).
func TestSymEigen(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	type tc struct {
		name  string
		n     int
		a     []float64
		scale float64 // SymEigen gets a·scale; 0 for 1
	}
	var cases []tc
	for _, n := range []int{1, 2, 3, 9, 13, 20, 27, 30, 64} {
		cases = append(cases, tc{"random", n, randSym(rng, n), 0})
	}
	for _, n := range []int{1, 2, 5, 30} {
		// Unsorted, with a repeated value, a zero and negatives: the
		// reduction has nothing to do and the order comes from the sort.
		a := make([]float64, n*n)
		for i := 0; i < n; i++ {
			a[i*n+i] = float64((i*7)%5) - 2
		}
		cases = append(cases, tc{"diagonal", n, a, 0})
	}
	for _, n := range []int{4, 9, 30} {
		lam := make([]float64, n)
		for i := range lam {
			lam[i] = 1 + float64(i*2/n) // half 1, half 2
		}
		cases = append(cases, tc{"repeated", n, symFromSpectrum(rng, lam), 0})
		for i := range lam {
			lam[i] = 0
		}
		lam[0], lam[1] = 3, -1
		cases = append(cases, tc{"rank2", n, symFromSpectrum(rng, lam), 0})
	}
	for _, nk := range [][2]int{{2, 1}, {9, 3}, {30, 5}, {30, 20}, {64, 10}} {
		cases = append(cases, tc{fmt.Sprintf("gram k=%d", nk[1]), nk[0], gramLowRank(rng, nk[0], nk[1]), 0})
	}
	for _, n := range []int{5, 20, 30} {
		a, _ := gradedSym(rng, n, 8)
		cases = append(cases, tc{"graded", n, a, 0})
	}
	for _, sc := range []float64{0x1p-900, 0x1p900} {
		cases = append(cases, tc{fmt.Sprintf("scaled %g", sc), 20, randSym(rng, 20), sc})
	}
	cases = append(cases, tc{"zero", 6, make([]float64, 36), 0})
	// Already tridiagonal, with a zero off-diagonal splitting it.
	tri := make([]float64, 36)
	for i := 0; i < 6; i++ {
		tri[i*6+i] = float64(i)
		if i < 5 && i != 2 {
			tri[i*6+i+1], tri[(i+1)*6+i] = 1, 1
		}
	}
	cases = append(cases, tc{"tridiagonal", 6, tri, 0})

	var maxRes, maxOrth, maxGonum, maxJacobi float64
	for _, c := range cases {
		n, a := c.n, c.a
		sc := c.scale
		if sc == 0 {
			sc = 1
		}
		in := make([]float64, n*n)
		for i, x := range a {
			in[i] = x * sc
		}
		vals, vecs := SymEigen(in, n)
		if len(vals) != n || len(vecs) != n*n {
			t.Fatalf("%s n=%d: %d values, %d vector entries", c.name, n, len(vals), len(vecs))
		}
		for k := range vals {
			vals[k] /= sc
		}
		norm := math.Max(mat.Norm(mat.NewDense(n, n, a), 2), math.SmallestNonzeroFloat64)

		var es mat.EigenSym
		if !es.Factorize(mat.NewSymDense(n, append([]float64(nil), a...)), false) {
			t.Fatal("gonum failed")
		}
		want := es.Values(nil) // ascending
		jac, _ := jacobiEigen(append([]float64(nil), a...), n, nil)
		var dGonum, dJacobi float64
		for k := 0; k < n; k++ {
			if k > 0 && !(vals[k] <= vals[k-1]) {
				t.Errorf("%s n=%d: eigenvalues not descending: %v", c.name, n, vals)
				break
			}
			dGonum = math.Max(dGonum, math.Abs(vals[k]-want[n-1-k]))
			dJacobi = math.Max(dJacobi, math.Abs(vals[k]-jac[k]))
		}

		// ‖AV − VΛ‖_F / ‖A‖₂ and ‖VᵀV − I‖_F.
		var res, orth float64
		for i := 0; i < n; i++ {
			for k := 0; k < n; k++ {
				var av, vv float64
				for j := 0; j < n; j++ {
					av += a[i*n+j] * vecs[j*n+k]
					vv += vecs[j*n+i] * vecs[j*n+k]
				}
				r := av - vecs[i*n+k]*vals[k]
				res += r * r
				if i == k {
					vv--
				}
				orth += vv * vv
			}
		}
		res, orth = math.Sqrt(res)/norm, math.Sqrt(orth)
		dGonum /= norm
		dJacobi /= norm
		if res > 1e-12 || orth > 1e-13 || dGonum > 1e-12 || dJacobi > 1e-12 {
			t.Errorf("%s n=%d: residual %.3g, orthogonality %.3g, eigenvalues vs gonum %.3g, vs SymEigen %.3g (relative to ‖A‖)",
				c.name, n, res, orth, dGonum, dJacobi)
		}
		maxRes = math.Max(maxRes, res)
		maxOrth = math.Max(maxOrth, orth)
		maxGonum = math.Max(maxGonum, dGonum)
		maxJacobi = math.Max(maxJacobi, dJacobi)
	}
	t.Logf("%d matrices: max ‖AV−VΛ‖/‖A‖ %.3g, max ‖VᵀV−I‖ %.3g, max |λ−λ_gonum|/‖A‖ %.3g, max |λ−λ_SymEigen|/‖A‖ %.3g",
		len(cases), maxRes, maxOrth, maxGonum, maxJacobi)
}

// TestSymEigenGraded: what TestSymEigenTinyEigenvalues asks of SymEigen,
// on the same D A D matrix (eigenvalues over 20 orders) as it is, with its
// rows and columns reversed (the large entries at the bottom-right) and
// shuffled. Householder and QR only guarantee errors of order ε‖A‖, but
// with the diagonal ordered first every eigenvalue matches Jacobi's to
// about 1e-12 relative; without the ordering the reversed and shuffled
// matrices had relative errors of 6e+1 to 2e+6 on the small ones. The
// figures are logged (go test -v); log det − Σ log λ has the same 1e-9
// bound as in TestSymEigenTinyEigenvalues.
func TestSymEigenGraded(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const n = 12
	a := randSPD(rng, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a[i*n+j] *= math.Pow(10, -float64(i)) * math.Pow(10, -float64(j))
		}
	}
	l := append([]float64(nil), a...)
	if !Cholesky(l, n) {
		t.Fatal("not SPD")
	}
	var logDet float64
	for i := 0; i < n; i++ {
		logDet += 2 * math.Log(l[i*n+i])
	}
	jac, _ := jacobiEigen(append([]float64(nil), a...), n, nil)
	permuted := func(p []int) []float64 {
		b := make([]float64, n*n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				b[i*n+j] = a[p[i]*n+p[j]]
			}
		}
		return b
	}
	reversed := make([]int, n)
	for i := range reversed {
		reversed[i] = n - 1 - i
	}
	cases := []struct {
		name string
		a    []float64
	}{{"large first", a}, {"large last", permuted(reversed)}}
	for s := 0; s < 3; s++ {
		cases = append(cases, struct {
			name string
			a    []float64
		}{fmt.Sprintf("shuffled %d", s), permuted(rng.Perm(n))})
	}
	for _, c := range cases {
		vals, _ := SymEigen(append([]float64(nil), c.a...), n)
		var logProd, worst float64
		worstK := 0
		for i := 0; i < n; i++ {
			logProd += math.Log(math.Abs(vals[i]))
			if r := math.Abs(vals[i]-jac[i]) / jac[i]; r > worst {
				worst, worstK = r, i
			}
			if math.Abs(vals[i]-jac[i]) > 1e-14*jac[0] {
				t.Errorf("%s: λ%d = %v, SymEigen %v: beyond ε‖A‖", c.name, i, vals[i], jac[i])
			}
		}
		if !(math.Abs(logDet-logProd) <= 1e-9) {
			t.Errorf("%s: log det %v, Σ log λ %v", c.name, logDet, logProd)
		}
		t.Logf("%s: smallest eigenvalue %v (SymEigen %v); worst relative error %.3g at λ%d = %.3g; log det − Σ log λ = %.3g",
			c.name, vals[n-1], jac[n-1], worst, worstK, jac[worstK], logDet-logProd)
	}
}

// BenchmarkSymEigen: the matrix of BenchmarkJacobiEigen (the same seed
// and construction), so that the figures compare directly with its cold
// and warm runs.
func BenchmarkSymEigen(b *testing.B) {
	const n = 30
	_, a := benchEigenMatrices(n)
	buf := make([]float64, n*n)
	for b.Loop() {
		copy(buf, a)
		SymEigen(buf, n)
	}
}
