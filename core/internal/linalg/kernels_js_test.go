//go:build js && wasm && spmtlkernels

package linalg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bitsEqual reports whether a and b hold the same float64 bits.
func bitsEqual(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// inGo runs f with the kernels off, so that the Go loops serve.
func inGo(f func()) {
	kernels = false
	defer func() { kernels = true }()
	f()
}

// TestKernelsMatchGo: the WebAssembly kernels load (under
// wasm/testexec/kernels_exec, as the page loads them), both forms of the
// module, with SIMD and without, and each gives the Go loops' results bit
// for bit: Dot and Axpy at every length to 200, Cholesky, LowerSolve,
// CholSolve, QuadForm, Combine, Dots, LowerSystem, RankOneLower and
// SymEigen at every order to 70, and
// Cholesky's refusal of a matrix that is not positive definite, or not
// finite.
func TestKernelsMatchGo(t *testing.T) {
	if !kernels {
		t.Fatal("the kernels did not load: run with wasm/testexec/kernels_exec")
	}
	defer loadKernels(true)
	for _, simd := range []bool{false, true} {
		if !loadKernels(simd) {
			t.Fatalf("the module (SIMD %v) did not load", simd)
		}
		t.Run(map[bool]string{false: "scalar", true: "SIMD"}[simd], testKernelsMatchGo)
	}
}

func testKernelsMatchGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 0; n <= 200; n++ {
		a, b := randVec(rng, n), randVec(rng, n)
		var want float64
		inGo(func() { want = Dot(a, b) })
		if n > 0 {
			if got := kernelDot(a, b); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("dot of %d: %v, Go %v", n, got, want)
			}
		}
		d1 := randVec(rng, n)
		d2 := slices.Clone(d1)
		c := rng.NormFloat64()
		if n > 0 {
			kernelAxpy(d1, c, a)
		}
		inGo(func() { Axpy(d2, c, a) })
		if !bitsEqual(d1, d2) {
			t.Errorf("axpy of %d differs", n)
		}
	}
	for n := 1; n <= 70; n++ {
		a := randSPD(rng, n)
		k, g := slices.Clone(a), slices.Clone(a)
		var ok bool
		inGo(func() { ok = Cholesky(g, n) })
		if !kernelCholesky(k, n) || !ok || !bitsEqual(k, g) {
			t.Fatalf("cholesky of %d differs", n)
		}
		b := randVec(rng, n)
		bk, bg := slices.Clone(b), slices.Clone(b)
		kernelLowerSolve(k, n, bk)
		inGo(func() { LowerSolve(g, n, bg) })
		if !bitsEqual(bk, bg) {
			t.Errorf("lower solve of %d differs", n)
		}
		bk, bg = slices.Clone(b), slices.Clone(b)
		kernelCholSolve(k, n, bk)
		inGo(func() { CholSolve(g, n, bg) })
		if !bitsEqual(bk, bg) {
			t.Errorf("cholesky solve of %d differs", n)
		}
		// wᵀCw, and Uᵀw with some zero weights (skipped) and r from 1 to 9.
		w := randVec(rng, n)
		var q float64
		inGo(func() { q = QuadForm(a, w) })
		if got := kernelQuadForm(a, w); math.Float64bits(got) != math.Float64bits(q) {
			t.Errorf("quadratic form of %d: %v, Go %v", n, got, q)
		}
		r := 1 + n%9
		u := randVec(rng, n*r)
		w[rng.IntN(n)] = 0
		ck, cg := randVec(rng, r), randVec(rng, r)
		kernelCombine(ck, u, r, w)
		inGo(func() { Combine(cg, u, r, w) })
		if !bitsEqual(ck, cg) {
			t.Errorf("combination of %d rows of %d differs", n, r)
		}
		// The primal system's lower triangle, with and without its
		// rank-one term, and a rank-one update with some zero weights.
		for _, eta := range []float64{0, 0.37} {
			lk, lg := randVec(rng, n*n), randVec(rng, n*n)
			copy(lg, lk)
			kernelLowerSystem(lk, a, g, n, 0.61, b, eta)
			inGo(func() { LowerSystem(lg, a, g, n, 0.61, b, eta) })
			if !bitsEqual(lk, lg) {
				t.Errorf("lower system of %d (eta %v) differs", n, eta)
			}
		}
		rk, rg := slices.Clone(a), slices.Clone(a)
		kernelRankOneLower(rk, w, 1.7)
		inGo(func() { RankOneLower(rg, w, 1.7) })
		if !bitsEqual(rk, rg) {
			t.Errorf("rank-one update of %d differs", n)
		}
		// SymEigen, whose reduction, reflections and rotations call the
		// kernels: of a random symmetric matrix, of one already
		// tridiagonal in places (rows without a reflection) and of a
		// graded one (reordered first).
		for _, sym := range []func(int, int) float64{
			func(i, j int) float64 { return a[i*n+j] },
			func(i, j int) float64 {
				if j-i > 1 && (i+j)%3 == 0 {
					return 0
				}
				return a[i*n+j]
			},
			func(i, j int) float64 { return a[i*n+j] * math.Ldexp(1, 3*(i+j)) },
		} {
			m := make([]float64, n*n)
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					m[i*n+j], m[j*n+i] = sym(i, j), sym(i, j)
				}
			}
			vk, zk := SymEigen(slices.Clone(m), n)
			var vg, zg []float64
			inGo(func() { vg, zg = SymEigen(slices.Clone(m), n) })
			if !bitsEqual(vk, vg) || !bitsEqual(zk, zg) {
				t.Errorf("eigendecomposition of %d differs", n)
			}
		}
		// Products of a vector of n with 2 to 11 rows of a matrix wider
		// than n.
		rows, stride := 2+n%10, n+n%3
		m := randVec(rng, rows*stride)
		dk, dg := make([]float64, rows), make([]float64, rows)
		kernelDots(dk, b, m, stride)
		inGo(func() { Dots(dg, b, m, stride) })
		if !bitsEqual(dk, dg) {
			t.Errorf("dots of %d with %d rows differ", n, rows)
		}
		// A pivot that is negative, infinite or NaN: both refuse.
		j := rng.IntN(n)
		for _, v := range []float64{-1, math.Inf(1), math.NaN()} {
			bad := slices.Clone(a)
			bad[j*n+j] = v
			inGo(func() { ok = Cholesky(slices.Clone(bad), n) })
			if kernelCholesky(bad, n) || ok {
				t.Errorf("cholesky of %d with a pivot %v at %d not refused by both", n, v, j)
			}
		}
	}
}
