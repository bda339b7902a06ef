// Package linalg holds the few dense kernels the learners run in their
// inner loops, written by hand where a benchmark showed gonum's general
// routines costing more than the arithmetic at these sizes (d ≤ 64 systems,
// Gram matrices of a few hundred rows), and to keep gonum's LAPACK out of
// the WebAssembly build. Matrices are row-major []float64.
package linalg

import (
	"math"
	"sort"
)

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

// The W-step systems are small (d ≤ 64 in the primal form, N_t in the span
// form) and solved once per task per outer iteration. gonum's Cholesky also
// estimates the condition number on every factorization, which cost more
// than the factorization itself here (BenchmarkFit/school), so these loops
// are written by hand.

// Cholesky overwrites the symmetric positive definite n×n row-major matrix a
// with its lower Cholesky factor L (a = LLᵀ; the strict upper triangle is
// left as is). It reports false if a is not numerically positive definite.
func Cholesky(a []float64, n int) bool {
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

// CholSolve solves LLᵀx = b in place for the factor left by Cholesky.
func CholSolve(l []float64, n int, b []float64) {
	for i := 0; i < n; i++ {
		b[i] = (b[i] - Dot(l[i*n:i*n+i], b[:i])) / l[i*n+i]
	}
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

// SymEigen returns the eigenvalues of the symmetric n×n row-major matrix a
// in descending order, and the matching orthonormal eigenvectors as the
// columns of vecs (n×n row-major). a is destroyed. It uses the cyclic
// Jacobi method: the matrices here are at most min(d, T) on a side, Jacobi
// is accurate to working precision even for tiny eigenvalues, and it keeps
// gonum's LAPACK eigensolver (and its share of the wasm binary) out.
//
// start, when not nil, is an orthonormal basis (n×n, columns) close to the
// eigenvectors, such as the previous outer iteration's: the sweeps then run
// on startᵀ a start, which is nearly diagonal, and take about half as many
// passes (measured on MTFL fits: 43 sweeps in 10 iterations instead of 75).
func SymEigen(a []float64, n int, start []float64) (vals, vecs []float64) {
	// vt holds the eigenvectors as rows (Vᵀ), so that a rotation updates
	// two contiguous rows instead of striding down two columns: under
	// js/wasm SymEigen was 39% of a syn2 run (node's profile), and this
	// made it faster with the same arithmetic, element for element.
	vt := make([]float64, n*n)
	var tmp []float64 // the warm start's product, then the output's storage
	if len(start) == n*n {
		// a ← startᵀ a start, vt ← startᵀ.
		tmp = make([]float64, n*n)
		for i := 0; i < n; i++ {
			for k := 0; k < n; k++ {
				if aik := a[i*n+k]; aik != 0 {
					Axpy(tmp[i*n:i*n+n], aik, start[k*n:k*n+n])
				}
			}
		}
		for i := range a {
			a[i] = 0
		}
		for k := 0; k < n; k++ {
			for i := 0; i < n; i++ {
				if ski := start[k*n+i]; ski != 0 {
					Axpy(a[i*n:i*n+n], ski, tmp[k*n:k*n+n])
				}
			}
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				vt[j*n+i] = start[i*n+j]
			}
		}
	} else {
		for i := 0; i < n; i++ {
			vt[i*n+i] = 1
		}
	}
	var norm float64
	for _, x := range a {
		norm += x * x
	}
	// Only the upper triangle is kept up to date: a rotation in the (p, q)
	// plane changes rows and columns p and q, and the upper triangle holds
	// each changed pair once (two thirds of the work of rotating full rows
	// and columns). The loops over k are split where the pair moves from a
	// column of the triangle to a row.
	for sweep := 0; sweep < 60; sweep++ {
		var off float64
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				off += a[p*n+q] * a[p*n+q]
			}
		}
		if off <= 1e-32*norm || off == 0 {
			break
		}
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				apq := a[p*n+q]
				app, aqq := a[p*n+p], a[q*n+q]
				// A pair already below round-off relative to its own
				// diagonal is set to zero without a rotation (the
				// relative criterion keeps tiny eigenvalues accurate).
				if math.Abs(apq) <= 1e-18*math.Sqrt(math.Abs(app*aqq)) {
					a[p*n+q] = 0
					continue
				}
				// Rotation that zeroes a_pq (Golub & Van Loan, sym.schur2).
				theta := (aqq - app) / (2 * apq)
				t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				if theta < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				a[p*n+p] = app - t*apq
				a[q*n+q] = aqq + t*apq
				a[p*n+q] = 0
				for k := 0; k < p; k++ { // (k, p) and (k, q): columns
					akp, akq := a[k*n+p], a[k*n+q]
					a[k*n+p] = c*akp - s*akq
					a[k*n+q] = s*akp + c*akq
				}
				for k := p + 1; k < q; k++ { // (p, k) in row p, (k, q) in column q
					akp, akq := a[p*n+k], a[k*n+q]
					a[p*n+k] = c*akp - s*akq
					a[k*n+q] = s*akp + c*akq
				}
				rp, rq := a[p*n+q+1:p*n+n], a[q*n+q+1:q*n+n] // (p, k), (q, k): rows
				rq = rq[:len(rp)]
				for k, akp := range rp {
					akq := rq[k]
					rp[k] = c*akp - s*akq
					rq[k] = s*akp + c*akq
				}
				vp, vq := vt[p*n:p*n+n], vt[q*n:q*n+n]
				for k, vkp := range vp {
					vkq := vq[k]
					vp[k] = c*vkp - s*vkq
					vq[k] = s*vkp + c*vkq
				}
			}
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(x, y int) bool { return a[order[x]*n+order[x]] > a[order[y]*n+order[y]] })
	vals = make([]float64, n)
	vecs = tmp
	if vecs == nil {
		vecs = make([]float64, n*n)
	}
	for k, i := range order {
		vals[k] = a[i*n+i]
		for j, x := range vt[i*n : i*n+n] {
			vecs[j*n+k] = x
		}
	}
	return vals, vecs
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
