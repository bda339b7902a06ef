package linalg

import "math"

// SymEigen returns the eigenvalues of the symmetric n×n row-major matrix a
// in descending order, and the matching orthonormal eigenvectors as the
// columns of vecs (n×n row-major). a is destroyed; only its upper triangle
// is read. It keeps gonum's LAPACK eigensolver (and its share of the wasm
// binary) out.
//
// It reduces a to tridiagonal form with Householder reflections, keeping
// the product of the reflections, and then diagonalizes the tridiagonal
// matrix with implicit QR steps under Wilkinson's shift (Golub & Van Loan,
// Matrix Computations, algorithms 8.3.1 and 8.3.3). That takes a fixed
// O(n³) amount of work, a few times less than the sweeps of cyclic Jacobi,
// which is why it is here: the Jacobi solver it replaced was a third of
// a syn2 run under js/wasm.
//
// The reduction works from the top-left corner down and the QR steps chase
// their bulge the same way, and the rows and columns are first ordered by
// decreasing |a_ii| (when these span more than a factor 2¹⁰), so that a
// graded matrix (D A D with D diagonal of widely spread scales and A well
// conditioned, as the Gram matrices of task vectors of very different
// norms are) has its large entries at the top-left whatever the order of
// its tasks. Its small eigenvalues then come out to good relative
// accuracy in practice (TestSymEigenGraded: 7e-13 over 20 orders of
// magnitude, in any order of the rows, against errors of up to 2e+6
// relative without the ordering), but unlike Jacobi this is not
// guaranteed: the error of an eigenvalue is bounded by a small multiple of
// ε‖a‖, not of ε|λ|.
func SymEigen(a []float64, n int) (vals, vecs []float64) {
	if n <= 0 {
		return nil, nil
	}
	a = a[:n*n]
	vals = make([]float64, n)
	vecs = make([]float64, n*n)
	idx := make([]int, 2*n)
	perm, order := idx[:n], idx[n:]
	// The phases are separate functions: under js/wasm the whole took 5–7%
	// longer as one function body (node; its optimizer seems to do less
	// with a long function). vecs is not needed until the very end, so
	// it serves as scratch, and its first row holds the off-diagonal of
	// the tridiagonal matrix (e[k] couples k and k+1).
	d, e := vals, vecs[:n]
	permuteByDiagonal(a, n, perm, vecs)
	tridiagonalize(a, n, d, e, vecs)
	accumulateReflections(a, n)
	shift := scaleTridiagonal(d, e)
	tridiagonalQR(d, e, a, n)

	// Sort descending: insertion sort of indices, stable, so that equal
	// eigenvalues keep the order in which QR left them.
	for i := range order {
		order[i] = i
		for j := i; j > 0 && d[order[j-1]] < d[i]; j-- {
			order[j], order[j-1] = order[j-1], i
		}
	}
	tmp := vecs[:n]
	for k, i := range order {
		tmp[k] = d[i]
	}
	copy(vals, tmp)
	if shift != 0 {
		f := math.Ldexp(1, -shift)
		for k, t := range vals {
			vals[k] = t * f
		}
	}
	// Row i of Z is an eigenvector of the permuted matrix: its entry j
	// belongs to row perm[j] of the eigenvector of a.
	for k, i := range order {
		for j, t := range a[i*n : i*n+n] {
			vecs[perm[j]*n+k] = t
		}
	}
	return vals, vecs
}

// permuteByDiagonal sets perm[i] to the row and column of a moved to i.
// When the diagonal's magnitudes span more than a factor 2¹⁰ it orders the
// rows and columns by decreasing |a_ii| (a stable insertion sort) and
// permutes a's upper triangle, through scratch (n×n); closer than that,
// the order could change the small eigenvalues' relative errors by no
// more than about that factor, and the move cost 7% of SymEigen's time
// under js/wasm.
func permuteByDiagonal(a []float64, n int, perm []int, scratch []float64) {
	dmin, dmax := math.Inf(1), 0.0
	for i := range perm {
		perm[i] = i
		// Comparisons, not the max builtin: under js/wasm that is a
		// call to the runtime.
		if t := math.Abs(a[i*n+i]); t < dmin {
			dmin = t
		}
		if t := math.Abs(a[i*n+i]); t > dmax {
			dmax = t
		}
	}
	if dmax > 0x1p10*dmin {
		for i := range perm {
			di := math.Abs(a[i*n+i])
			for j := i; j > 0 && math.Abs(a[perm[j-1]*n+perm[j-1]]) < di; j-- {
				perm[j], perm[j-1] = perm[j-1], i
			}
		}
		for i, pi := range perm {
			for j := i; j < n; j++ {
				if pj := perm[j]; pi <= pj {
					scratch[i*n+j] = a[pi*n+pj]
				} else {
					scratch[i*n+j] = a[pj*n+pi]
				}
			}
		}
		copy(a, scratch)
	}
}

// tridiagonalize reduces the symmetric matrix held by a's upper triangle
// to the tridiagonal (d, e) by Householder reflections, and leaves each
// reflection's vector in its row of a, right of the diagonal. scratch
// (n×n) gives room for one vector at its end; e is its first row.
//
// Step k reflects row k right of the diagonal, x = a[k][k+1:], onto a
// multiple of its first unit vector with P = I − v vᵀ, vᵀv = 2, and
// applies P on both sides of the trailing block. Only the upper triangle
// is kept up to date, so every inner loop runs along a row. v overwrites
// x, which is not needed again.
func tridiagonalize(a []float64, n int, d, e, scratch []float64) {
	for k := 0; k < n-2; k++ {
		x := a[k*n+k+1 : k*n+n]
		d[k] = a[k*n+k]
		// The squared norm is taken plainly unless the entries are far
		// enough from 1 for their squares to underflow or overflow.
		var tail, big float64
		for _, t := range x[1:] {
			tail += t * t
			if t := math.Abs(t); t > big {
				big = t
			}
		}
		if big == 0 {
			// Already tridiagonal in this row: no reflection. A zero v
			// tells accumulateReflections to skip the step.
			e[k] = x[0]
			x[0] = 0
			continue
		}
		x0 := x[0]
		var alpha float64
		if scale := max(big, math.Abs(x0)); scale > 0x1p-450 && scale < 0x1p450 {
			alpha = math.Sqrt(x0*x0 + tail)
		} else {
			var s float64
			for _, t := range x {
				t /= scale
				s += t * t
			}
			alpha = scale * math.Sqrt(s)
		}
		// v = (x − σ e₁)/√(α(α+|x₀|)) with σ = −sign(x₀)α, so that no
		// cancellation happens in v₀ and vᵀv = 2.
		sigma := -math.Copysign(alpha, x0)
		e[k] = sigma
		// (Two square roots: the product could overflow or underflow.)
		inv := 1 / (math.Sqrt(alpha) * math.Sqrt(alpha+math.Abs(x0)))
		x[0] = x0 - sigma
		for j := range x {
			x[j] *= inv
		}
		v := x
		m := len(v)
		// p = A′ v for the trailing block A′ held by its upper
		// triangle; then P A′ P = A′ − v wᵀ − w vᵀ with
		// w = p − (vᵀp/2) v.
		off := (k+1)*n + k + 1
		p := scratch[n*n-m:]
		trailingProduct(a, n, off, m, v, p)
		var vp float64
		for j, t := range v {
			vp += t * p[j]
		}
		half := vp / 2
		w := p
		for j, t := range v {
			w[j] -= half * t
		}
		trailingUpdate(a, n, off, m, v, w)
	}
	if n >= 2 {
		d[n-2] = a[(n-2)*n+n-2]
		e[n-2] = a[(n-2)*n+n-1]
	}
	d[n-1] = a[n*n-1]
	e[n-1] = 0 // unused, but scaleTridiagonal reads it
}

// trailingProduct sets p = A′v for the m×m trailing block A′ of the n×n a
// whose top-left entry is a[off], held by its upper triangle: row i gives
// its dot product with v to p_i and, as column i, its part right of the
// diagonal to the later p_j. This loop and trailingUpdate take four
// elements at a time for js/wasm, like the rotations in rotatePair; with
// the kernels (wasmkernels/eigen.go) they run as WebAssembly written by
// hand, the same arithmetic in the same order.
func trailingProduct(a []float64, n, off, m int, v, p []float64) {
	p = p[:m]
	if kernels {
		kernelTrailing(false, a, n, off, m, v, p)
		return
	}
	clear(p)
	for i := 0; i < m; i++ {
		r := a[off+i*n+i : off+i*n+m]
		vv, pp := v[i:], p[i:]
		vi := vv[0]
		s0, s1 := r[0]*vi, 0.0
		r, vv, pp = r[1:], vv[1:], pp[1:]
		for len(r) >= 4 && len(vv) >= 4 && len(pp) >= 4 {
			x, y, q := r[:4:4], vv[:4:4], pp[:4:4]
			x0, x1, x2, x3 := x[0], x[1], x[2], x[3]
			s0 += x0*y[0] + x2*y[2]
			s1 += x1*y[1] + x3*y[3]
			q[0] += x0 * vi
			q[1] += x1 * vi
			q[2] += x2 * vi
			q[3] += x3 * vi
			r, vv, pp = r[4:], vv[4:], pp[4:]
		}
		vv, pp = vv[:len(r)], pp[:len(r)]
		for j, x := range r {
			s0 += x * vv[j]
			pp[j] += x * vi
		}
		p[i] += s0 + s1
	}
}

// trailingUpdate sets the upper triangle of the trailing block (as in
// trailingProduct) to A′ − v wᵀ − w vᵀ.
func trailingUpdate(a []float64, n, off, m int, v, w []float64) {
	if kernels {
		kernelTrailing(true, a, n, off, m, v, w)
		return
	}
	for i := 0; i < m; i++ {
		r := a[off+i*n+i : off+i*n+m]
		vv, ww := v[i:], w[i:]
		vi, wi := vv[0], ww[0]
		for len(r) >= 4 && len(vv) >= 4 && len(ww) >= 4 {
			x, y, q := r[:4:4], vv[:4:4], ww[:4:4]
			x[0] -= vi*q[0] + wi*y[0]
			x[1] -= vi*q[1] + wi*y[1]
			x[2] -= vi*q[2] + wi*y[2]
			x[3] -= vi*q[3] + wi*y[3]
			r, vv, ww = r[4:], vv[4:], ww[4:]
		}
		vv, ww = vv[:len(r)], ww[:len(r)]
		for j, x := range r {
			r[j] = x - (vi*ww[j] + wi*vv[j])
		}
	}
}

// accumulateReflections overwrites a, which holds tridiagonalize's
// reflections, with Z = Qᵀ = P_{n-3} ⋯ P₀: the eigenvectors as rows, so
// that every rotation of tridiagonalQR updates two contiguous rows.
//
// The product is built backwards, Z ← Z P_k for k = n−3, …, 0: P_k acts
// on indices above k, so row k of a (v_k) is read while only rows past k
// are written, and those rows' reflections have been applied. Row k+1 of
// Z is still a unit row when P_k is applied.
func accumulateReflections(a []float64, n int) {
	clear(a[(n-1)*n:])
	a[n*n-1] = 1
	for k := n - 3; k >= 0; k-- {
		row := a[(k+1)*n : (k+1)*n+n]
		clear(row)
		row[k+1] = 1
		v := a[k*n+k+1 : k*n+n]
		if v[0] == 0 {
			continue
		}
		reflectRows(a[(k+1)*n+k+1:], n, n-k-1, v)
	}
	if n >= 2 {
		clear(a[:n])
		a[0] = 1
	}
}

// reflectRows applies I − v vᵀ from the right to k rows of a row-major
// matrix of row stride n, the first at z[0], each len(v) long: z_i less
// (z_i·v)·v where that product is not zero. Dot and Axpy take eight
// elements at a time (see Dot); the calls cost less under js/wasm than the
// same loops inline unrolled by four (7 µs more on the benchmark matrix).
func reflectRows(z []float64, n, k int, v []float64) {
	if kernels && k > 0 && len(v) > 0 {
		kernelReflect(z, n, k, v)
		return
	}
	for i := 0; i < k; i++ {
		row := z[i*n : i*n+len(v)]
		if s := Dot(row, v); s != 0 {
			Axpy(row, -s, v)
		}
	}
}

// scaleTridiagonal multiplies (d, e) by a power of two, 2^shift, when they
// are far from 1 in magnitude, exactly: tridiagonalQR's squares and
// products must neither overflow nor underflow, and its deflation test's
// floor (safmin) must be negligible against ε‖a‖. This takes O(n), where
// scaling a took 4% of the time under js/wasm; tridiagonalize is safe at
// any scale.
func scaleTridiagonal(d, e []float64) (shift int) {
	var tmax float64
	for k, t := range d {
		if t := math.Abs(t); t > tmax {
			tmax = t
		}
		if t := math.Abs(e[k]); t > tmax {
			tmax = t
		}
	}
	if _, ex := math.Frexp(tmax); tmax != 0 && (ex < -400 || ex > 400) {
		shift = min(max(-ex, -1000), 1000)
		f := math.Ldexp(1, shift)
		for k := range d {
			d[k] *= f
			e[k] *= f
		}
	}
	return shift
}

// tridiagonalQR diagonalizes the tridiagonal (d, e) by implicit QR steps
// with Wilkinson's shift, applying each rotation to the rows of vt (n×n),
// and leaves the eigenvalues in d, unordered.
//
// The steps deflate at the bottom of the active block [lo, hi]. e_k
// counts as zero when e_k² ≤ ε² |d_k d_{k+1}|: relative to its neighbours
// rather than to ‖T‖, which keeps the small eigenvalues of a graded
// matrix.
func tridiagonalQR(d, e, vt []float64, n int) {
	const eps2 = 0x1p-106 // (2⁻⁵³)²
	const safmin = 0x1p-1022
	iter, maxIter := 0, 30*n
	var cs []float64 // a step's rotations, for the kernels
	if kernels {
		cs = make([]float64, 2*n)
	}
	hi := n - 1
	for hi > 0 {
		lo := hi
		for lo > 0 {
			el := e[lo-1]
			if el*el <= eps2*math.Abs(d[lo-1])*math.Abs(d[lo])+safmin {
				e[lo-1] = 0
				break
			}
			lo--
		}
		if lo == hi {
			hi--
			continue
		}
		// Wilkinson has never been seen to need more than a few steps
		// per eigenvalue; the cap only keeps a NaN input from looping.
		if iter == maxIter {
			break
		}
		iter++
		// Wilkinson shift: the eigenvalue of the trailing 2×2 block
		// closer to d_hi, written with g = (d_{hi−1} − d_hi)/2e as
		// μ = d_hi − e/(g + sign(g)√(g²+1)), which neither squares e nor
		// cancels in the denominator.
		eh := e[hi-1]
		g := (d[hi-1] - d[hi]) / (2 * eh)
		// √(g²+1) by Sqrt, which is correctly rounded everywhere, not
		// math.Hypot, which is assembly on amd64 and Go under js/wasm
		// (their last bits may differ, as math.Exp's do), so that the
		// page and the command line solve alike; past 2²⁷, g²+1 rounds
		// to g² anyway.
		hg := math.Abs(g)
		if hg < 0x1p500 {
			hg = math.Sqrt(g*g + 1)
		}
		mu := d[hi] - eh/(g+math.Copysign(hg, g))
		x, z := d[lo]-mu, e[lo]
		for k := lo; k < hi; k++ {
			// Rotation with c = x/r, s = z/r, r = ±√(x²+z²), taken
			// through the ratio of the smaller to the larger so that
			// nothing squares out of range.
			var c, s, r float64
			switch {
			case z == 0:
				c, s, r = 1, 0, x
			case math.Abs(z) > math.Abs(x):
				t := x / z
				h := math.Sqrt(1 + t*t)
				s = 1 / h
				c, r = t*s, z*h
			default:
				t := z / x
				h := math.Sqrt(1 + t*t)
				c = 1 / h
				s, r = t*c, x*h
			}
			if k > lo {
				e[k-1] = r // the bulge is gone
			}
			// The 2×2 block [p q; q t] becomes R [p q; q t] Rᵀ:
			// with h = s(t−p) + 2cq, the diagonal moves by ±s·h (the
			// trace is kept) and q becomes c·h − q.
			p, q, t := d[k], e[k], d[k+1]
			h := s*(t-p) + 2*c*q
			d[k] = p + s*h
			d[k+1] = t - s*h
			e[k] = c*h - q
			if k+1 < hi {
				f := e[k+1]
				x, z = e[k], s*f // z: the new bulge at (k, k+2)
				e[k+1] = c * f
			}
			// Rows k and k+1 of Z turn like the matrix's. Z is not read
			// by the step, so with the kernels its rotations wait for the
			// step's end and go in one call; the Go loop turns them here,
			// where a CPU overlaps them with the step's chain of divisions
			// and square roots (natively, SymEigen took 11% longer with
			// the rotations after the step).
			if kernels {
				cs[2*k], cs[2*k+1] = c, s
			} else if s != 0 {
				rotatePair(vt[k*n:k*n+n], vt[(k+1)*n:(k+1)*n+n], c, s)
			}
		}
		if kernels {
			kernelRotate(vt, n, lo, hi, cs)
		}
	}
}

// rotatePair turns two rows of Z, zk and zk1: u ← c·u + s·w,
// w ← c·w − s·u. This is a third of SymEigen's time in Go. Four elements
// at a time from fixed-length subslices, held in locals, as in Dot: under
// js/wasm every loop iteration costs a dispatch, and with this loop and
// the two in the reduction written so, the 30×30 benchmark matrix took
// 157–167 µs instead of 270–283 µs with plain range loops (node, best of
// 60 interleaved rounds); natively the same (73 µs). With the kernels, a
// step's rotations go in one call (wasmkernels.rotateRows: for k from lo
// to hi−1, rows k and k+1 by (cs[2k], cs[2k+1]), skipping s = 0).
func rotatePair(zk, zk1 []float64, c, s float64) {
	for len(zk) >= 4 && len(zk1) >= 4 {
		u, w := zk[:4:4], zk1[:4:4]
		u0, u1, u2, u3 := u[0], u[1], u[2], u[3]
		w0, w1, w2, w3 := w[0], w[1], w[2], w[3]
		u[0] = c*u0 + s*w0
		u[1] = c*u1 + s*w1
		u[2] = c*u2 + s*w2
		u[3] = c*u3 + s*w3
		w[0] = c*w0 - s*u0
		w[1] = c*w1 - s*u1
		w[2] = c*w2 - s*u2
		w[3] = c*w3 - s*u3
		zk, zk1 = zk[4:], zk1[4:]
	}
	zk1 = zk1[:len(zk)]
	for j, u := range zk {
		w := zk1[j]
		zk[j] = c*u + s*w
		zk1[j] = c*w - s*u
	}
}
