// Package linalg holds the few dense kernels the learners run in their
// inner loops, written by hand where a benchmark showed gonum's general
// routines costing more than the arithmetic at these sizes (d ≤ 64 systems,
// Gram matrices of a few hundred rows), and to keep gonum's LAPACK out of
// the WebAssembly build. Matrices are row-major []float64.
package linalg

import (
	"math"
)

// The learner's WebAssembly kernels (kernels_js.go), written as a Go file.
//go:generate go run ./wasmkernels/write kernels_module_js.go

// kernelLen is the shortest Dot or Axpy handed to the WebAssembly kernels
// (kernels_js.go): below it the call through the host costs more than
// the loop saves.
const kernelLen = 64

// Dot returns aᵀb, with four independent partial sums: this is the
// innermost loop of every solver. It is written by hand because the
// compiler's code for it decides the solvers' speed under js/wasm, where
// gonum has no assembly: the main loop takes eight elements at a time from
// fixed-length subslices (a[:8:8]), whose constant indices need no bounds
// checks. Under js/wasm (node 20, BenchmarkDot) that ran 1.5x faster than
// the unrolled-by-four indexed loop it replaced (1,000 elements: 1,115-1,742
// → 724-803 ns; 120: 155-178 → 104-122 ns) and natively at the same speed.
// The partial sums take the elements in the same order as that loop, so
// every result is bit for bit the same.
func Dot(a, b []float64) float64 {
	if kernels && len(a) >= kernelLen {
		return kernelDot(a, b)
	}
	var s0, s1, s2, s3 float64
	for len(a) >= 8 && len(b) >= 8 {
		x, y := a[:8:8], b[:8:8]
		s0 += x[0] * y[0]
		s1 += x[1] * y[1]
		s2 += x[2] * y[2]
		s3 += x[3] * y[3]
		s0 += x[4] * y[4]
		s1 += x[5] * y[5]
		s2 += x[6] * y[6]
		s3 += x[7] * y[7]
		a, b = a[8:], b[8:]
	}
	b = b[:len(a)]
	i := 0
	if len(a) >= 4 {
		s0 += a[0] * b[0]
		s1 += a[1] * b[1]
		s2 += a[2] * b[2]
		s3 += a[3] * b[3]
		i = 4
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// Axpy sets dst += a·x, eight elements at a time like Dot (under js/wasm
// 1.2x faster at 1,000 elements and 1.6x at 120 than the unrolled-by-four
// indexed loop).
func Axpy(dst []float64, a float64, x []float64) {
	if kernels && len(x) >= kernelLen {
		kernelAxpy(dst, a, x)
		return
	}
	dst = dst[:len(x)]
	for len(x) >= 8 {
		d, y := dst[:8:8], x[:8:8]
		d[0] += a * y[0]
		d[1] += a * y[1]
		d[2] += a * y[2]
		d[3] += a * y[3]
		d[4] += a * y[4]
		d[5] += a * y[5]
		d[6] += a * y[6]
		d[7] += a * y[7]
		dst, x = dst[8:], x[8:]
	}
	for i := range x {
		dst[i] += a * x[i]
	}
}

// QuadForm returns wᵀCw for the d×d row-major matrix c, as Σ_i w_i·(c_i·w)
// over its rows (d = len(w)).
func QuadForm(c []float64, w []float64) float64 {
	d := len(w)
	if kernels && d > 0 {
		return kernelQuadForm(c, w)
	}
	var s float64
	for i, wi := range w {
		s += wi * Dot(c[i*d:i*d+d], w)
	}
	return s
}

// Dots sets out[c] = Dot(x, rows[c*stride:c*stride+len(x)]) for each c:
// the products of one vector with rows of a row-major matrix. Under
// js/wasm the kernels compute four at a time (wasmkernels, simd.go).
func Dots(out, x, rows []float64, stride int) {
	if kernels && len(out) > 1 && len(x) > 0 {
		kernelDots(out, x, rows, stride)
		return
	}
	for c := range out {
		out[c] = Dot(x, rows[c*stride:c*stride+len(x)])
	}
}

// LowerSystem sets the lower triangle and diagonal of the d×d row-major
// l to c + rho·m (entry by entry), and then, when eta is not zero, adds
// eta·x xᵀ to it (row a gains (eta·x_a)·x[:a+1]): the primal W-step's
// system. The strict upper triangle of l is left as it was.
func LowerSystem(l, c, m []float64, d int, rho float64, x []float64, eta float64) {
	if kernels && d > 0 {
		kernelLowerSystem(l, c, m, d, rho, x, eta)
		return
	}
	for a := 0; a < d; a++ {
		row, ca, ma := l[a*d:a*d+a+1], c[a*d:a*d+a+1], m[a*d:a*d+a+1]
		for b, v := range ca {
			row[b] = v + rho*ma[b]
		}
		if eta != 0 {
			Axpy(row, eta*x[a], x[:a+1])
		}
	}
}

// RankOneLower adds s·w wᵀ to the lower triangle and diagonal of the d×d
// row-major a, d = len(w): row i gains (s·w_i)·w[:i+1], and is skipped
// where w_i is zero.
func RankOneLower(a []float64, w []float64, s float64) {
	d := len(w)
	if kernels && d > 0 {
		kernelRankOneLower(a, w, s)
		return
	}
	for i, wi := range w {
		if wi != 0 {
			Axpy(a[i*d:i*d+i+1], s*wi, w[:i+1])
		}
	}
}

// Combine sets c = Σ_j w_j·u_j, the rows u_j = u[j*r:j*r+r] of a
// len(w)×r row-major matrix weighted by w (Uᵀw), skipping the rows whose
// weight is zero.
func Combine(c, u []float64, r int, w []float64) {
	c = c[:r]
	if kernels && r > 0 && len(w) > 0 {
		kernelCombine(c, u, r, w)
		return
	}
	clear(c)
	if r == 0 {
		return
	}
	for j, wj := range w {
		if wj != 0 {
			Axpy(c, wj, u[j*r:j*r+r])
		}
	}
}

// The W-step systems are small (d ≤ 64 in the primal form, N_t in the span
// form) and solved once per task per outer iteration. gonum's Cholesky also
// estimates the condition number on every factorization, which cost more
// than the factorization itself here (BenchmarkFit/school), so these loops
// are written by hand.

// Cholesky overwrites the symmetric positive definite n×n row-major matrix a
// with its lower Cholesky factor L (a = LLᵀ). It reads only the lower
// triangle and the diagonal, so a caller may fill just those; the strict
// upper triangle is left as is, and CholSolve does not read it either. It
// reports false if a is not numerically positive definite.
func Cholesky(a []float64, n int) bool {
	if kernels && n > 0 {
		return kernelCholesky(a, n)
	}
	for j := 0; j < n; j++ {
		rj := a[j*n : j*n+j]
		s := a[j*n+j] - Dot(rj, rj)
		if !(s > 0) || math.IsInf(s, 0) {
			return false
		}
		ljj := math.Sqrt(s)
		a[j*n+j] = ljj
		inv := 1 / ljj
		for i := j + 1; i < n; i++ {
			ri := a[i*n : i*n+j]
			a[i*n+j] = (a[i*n+j] - Dot(ri, rj)) * inv
		}
	}
	return true
}

// LowerSolve solves Lx = b in place for the factor left by Cholesky: the
// first half of CholSolve.
func LowerSolve(l []float64, n int, b []float64) {
	if kernels && n > 0 {
		kernelLowerSolve(l, n, b)
		return
	}
	for i := 0; i < n; i++ {
		b[i] = (b[i] - Dot(l[i*n:i*n+i], b[:i])) / l[i*n+i]
	}
}

// LowerNormSq returns ‖L⁻¹b‖² = bᵀ(LLᵀ)⁻¹b for the factor left by
// Cholesky, overwriting b with L⁻¹b: half the work of CholSolve and a Dot,
// and never negative. It serves the leverages of a leave-one-out loss.
func LowerNormSq(l []float64, n int, b []float64) float64 {
	LowerSolve(l, n, b)
	return Dot(b[:n], b[:n])
}

// InverseDiagonal sets out[i] = [(LLᵀ)⁻¹]_ii = ‖L⁻¹e_i‖² for the factor
// left by Cholesky, with y (length n) as scratch. L⁻¹e_i is zero above
// entry i, so column i costs (n−i)²/2 products: n³/6 in all, where n
// CholSolves of unit vectors cost n³.
func InverseDiagonal(l []float64, n int, out, y []float64) {
	for i := 0; i < n; i++ {
		y[i] = 1 / l[i*n+i]
		s := y[i] * y[i]
		for k := i + 1; k < n; k++ {
			y[k] = -Dot(l[k*n+i:k*n+k], y[i:k]) / l[k*n+k]
			s += y[k] * y[k]
		}
		out[i] = s
	}
}

// CholSolve solves LLᵀx = b in place for the factor left by Cholesky.
func CholSolve(l []float64, n int, b []float64) {
	if kernels && n > 0 {
		kernelCholSolve(l, n, b)
		return
	}
	LowerSolve(l, n, b)
	// Lᵀx = y by rows of L: once x_i is known, row i of L takes its share
	// off every earlier entry. This reads L contiguously (Axpy) where the
	// column form strode down it; under js/wasm it halved the solve.
	for i := n - 1; i >= 0; i-- {
		b[i] /= l[i*n+i]
		Axpy(b[:i], -b[i], l[i*n:i*n+i])
	}
}

// GaussSolve solves the general n×n row-major system a x = b in place (a is
// overwritten) by Gaussian elimination with partial pivoting. It reports
// false for a numerically singular a. It serves the one non-symmetric
// system (the kernel Newton step), where gonum's LU would also estimate the
// condition number and add its LAPACK routines to the wasm binary.
func GaussSolve(a []float64, n int, b []float64) bool {
	for k := 0; k < n; k++ {
		p, best := k, math.Abs(a[k*n+k])
		for i := k + 1; i < n; i++ {
			if v := math.Abs(a[i*n+k]); v > best {
				p, best = i, v
			}
		}
		if !(best > 0) || math.IsInf(best, 0) {
			return false
		}
		if p != k {
			rk, rp := a[k*n:k*n+n], a[p*n:p*n+n]
			for j := range rk {
				rk[j], rp[j] = rp[j], rk[j]
			}
			b[k], b[p] = b[p], b[k]
		}
		inv := 1 / a[k*n+k]
		pivot := a[k*n+k+1 : k*n+n]
		for i := k + 1; i < n; i++ {
			f := a[i*n+k] * inv
			if f == 0 {
				continue
			}
			a[i*n+k] = 0
			Axpy(a[i*n+k+1:i*n+n], -f, pivot)
			b[i] -= f * b[k]
		}
	}
	for i := n - 1; i >= 0; i-- {
		b[i] = (b[i] - Dot(a[i*n+i+1:i*n+n], b[i+1:])) / a[i*n+i]
	}
	return true
}

// SolveSPD solves the symmetric positive definite system a x = b in place
// (a is overwritten by its factor); it reports false if a is not
// numerically positive definite.
func SolveSPD(a []float64, n int, b []float64) bool {
	if !Cholesky(a, n) {
		return false
	}
	CholSolve(a, n, b)
	return true
}
