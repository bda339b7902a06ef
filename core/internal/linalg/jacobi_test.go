package linalg

import (
	"math"
	"sort"
)

// jacobiEigen is the cyclic Jacobi eigensolver that SymEigen replaced
// (same contract, plus an optional warm start), kept as an independent
// reference for SymEigen's tests and as BenchmarkJacobiEigen's subject.
// Jacobi finds tiny eigenvalues of graded matrices to high relative
// accuracy by construction; it was 3-4 times slower than SymEigen at
// n = 30 (docs/bench.md, "The table's kernels under js/wasm").
//
// start, when not nil, is an orthonormal basis (n×n, columns) close to the
// eigenvectors, such as the previous outer iteration's: the sweeps then run
// on startᵀ a start, which is nearly diagonal, and take about half as many
// passes (measured on MTFL fits: 43 sweeps in 10 iterations instead of 75).
func jacobiEigen(a []float64, n int, start []float64) (vals, vecs []float64) {
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
