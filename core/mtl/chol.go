package mtl

import "math"

// The W-step systems are small (d ≤ 64 in the primal form, N_t in the span
// form) and solved once per task per outer iteration. gonum's Cholesky also
// estimates the condition number on every factorization, which cost more
// than the factorization itself here (BenchmarkFit/school), so these loops
// are written by hand.

// cholesky overwrites the symmetric positive definite n×n row-major matrix a
// with its lower Cholesky factor L (a = LLᵀ; the strict upper triangle is
// left as is). It reports false if a is not numerically positive definite.
func cholesky(a []float64, n int) bool {
	for j := 0; j < n; j++ {
		rj := a[j*n : j*n+j]
		s := a[j*n+j] - dotVec(rj, rj)
		if !(s > 0) || math.IsInf(s, 0) {
			return false
		}
		ljj := math.Sqrt(s)
		a[j*n+j] = ljj
		inv := 1 / ljj
		for i := j + 1; i < n; i++ {
			ri := a[i*n : i*n+j]
			a[i*n+j] = (a[i*n+j] - dotVec(ri, rj)) * inv
		}
	}
	return true
}

// cholSolve solves LLᵀx = b in place for the factor left by cholesky.
func cholSolve(l []float64, n int, b []float64) {
	for i := 0; i < n; i++ {
		b[i] = (b[i] - dotVec(l[i*n:i*n+i], b[:i])) / l[i*n+i]
	}
	for i := n - 1; i >= 0; i-- {
		s := b[i]
		for k := i + 1; k < n; k++ {
			s -= l[k*n+i] * b[k]
		}
		b[i] = s / l[i*n+i]
	}
}
