package mtl

import (
	"math"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/internal/linalg"
	"gonum.org/v1/gonum/mat"
)

// Span reduction (docs/algorithms.md §11). Every method here puts its task
// vectors in the span S of the training rows: the loss sees only the part
// of w in S, and each penalty (w − a)ᵀM(w − a) has its anchor a in S and a
// metric M that maps S to S and its complement to the complement (the
// anchors and M are built from W itself), so a component outside S only
// adds penalty. With an orthonormal basis Q of S (d×k, k ≤ rows), the fit
// in the k coordinates z = Qᵀx is the same fit, and w = Q·w_z.
//
// Q comes from a pivoted Cholesky factorization of the rows' Gram matrix
// G = XXᵀ: with the k pivot rows X_K and the leading k×k block L1 of the
// factor, Q = X_Kᵀ L1⁻ᵀ, and the reduced rows are the rows of the factor
// itself (Z = XQ = G_{:,K} L1⁻ᵀ). A row whose remaining pivot is below
// spanTol of the largest diagonal is (to that tolerance) in the span of
// the others and gets no direction of its own.
//
// The reduction pays when the rows span far fewer dimensions than d
// (sentiment: 640 training rows in a cross-validation fold, 37,662
// features): every d-dimensional pass of the solvers becomes k-dimensional.
// MTFL's trace normalization and initial D still count all d dimensions.
// The authors' fista100 solver is not rotation invariant (its stopping test
// reads ‖W‖₁), so it keeps the original coordinates.

// spanTol is the relative pivot below which a row adds no direction.
const spanTol = 1e-12

// spanMaxRows bounds the rows whose Gram matrix the reduction forms
// (8·spanMaxRows² bytes).
const spanMaxRows = 3000

// reduction maps between the original coordinates and the span's.
type reduction struct {
	k    int
	rows []rowRef // the k pivot rows X_K, in pivot order
	// l1t is L1ᵀ (k×k upper triangular, row-major): toFull's back
	// substitution reads it a row at a time instead of down L1's columns
	// (the same products in the same order, a third of the sentiment
	// run's time when it strode through a 3 MB matrix).
	l1t   []float64
	dFull int
}

// rowRef names one training row: task t, row i.
type rowRef struct{ t, i int }

// wantReduction reports whether ds is worth reducing: more features than
// rows in all, many features, and few enough rows for a dense Gram matrix.
func wantReduction(ds *data.Dataset) bool {
	n := ds.Rows()
	return ds.Features > primalMaxDim && n < ds.Features/2 && n <= spanMaxRows
}

// reduce returns ds in span coordinates (dense, k features) and the map
// back, or nil when the rows' Gram matrix is zero.
func reduce(ds *data.Dataset) (*data.Dataset, *reduction) {
	var refs []rowRef
	for t := range ds.Tasks {
		for i := 0; i < ds.Tasks[t].Rows(); i++ {
			refs = append(refs, rowRef{t, i})
		}
	}
	n, d := len(refs), ds.Features
	g := make([]float64, n*n)
	dense := make([]float64, d)
	for a, ra := range refs {
		ta := &ds.Tasks[ra.t]
		scatter(ta, ra.i, dense, 1)
		for b := 0; b <= a; b++ {
			v := ds.Tasks[refs[b].t].Dot(refs[b].i, dense)
			g[a*n+b], g[b*n+a] = v, v
		}
		scatter(ta, ra.i, dense, 0)
	}
	piv, fac, k := pivotedCholesky(g, n)
	if k == 0 {
		return nil, nil
	}
	red := &reduction{k: k, dFull: d, l1t: make([]float64, k*k)}
	for j := 0; j < k; j++ {
		red.rows = append(red.rows, refs[piv[j]])
		for i := 0; i <= j; i++ {
			red.l1t[i*k+j] = fac[j*k+i]
		}
	}
	// Row piv[j] of Z is row j of the factor.
	z := make([][]float64, n)
	for j := 0; j < n; j++ {
		z[piv[j]] = fac[j*k : j*k+k]
	}
	out := &data.Dataset{Name: ds.Name, Features: k, Kind: ds.Kind, Positive: ds.Positive, Negative: ds.Negative}
	r := 0
	for t := range ds.Tasks {
		src := &ds.Tasks[t]
		x := mat.NewDense(src.Rows(), k, nil)
		for i := 0; i < src.Rows(); i++ {
			x.SetRow(i, z[r])
			r++
		}
		out.Tasks = append(out.Tasks, data.Task{Name: src.Name, X: x, Y: src.Y})
	}
	return out, red
}

// scatter writes row i of t into dense (val 1) or clears its entries
// (val 0).
func scatter(t *data.Task, i int, dense []float64, val float64) {
	if t.S != nil {
		s := t.S
		for p := s.Indptr[i]; p < s.Indptr[i+1]; p++ {
			dense[s.Indices[p]] = val * s.Values[p]
		}
		return
	}
	row := t.X.RawRowView(i)
	if val == 0 {
		for j := range dense {
			dense[j] = 0
		}
		return
	}
	copy(dense, row)
}

// pivotedCholesky factors the n×n PSD matrix g (destroyed) as
// P g Pᵀ ≈ L Lᵀ with diagonal pivoting, stopping when the largest
// remaining pivot falls below spanTol times the largest diagonal. It
// returns the pivot order, L (n×k row-major, in pivot order) and the rank
// k. Written by hand: gonum has no pivoted Cholesky, and this runs once per
// prepared problem.
func pivotedCholesky(g []float64, n int) (piv []int, l []float64, k int) {
	piv = make([]int, n)
	for i := range piv {
		piv[i] = i
	}
	diag := make([]float64, n)
	var maxDiag float64
	for i := 0; i < n; i++ {
		diag[i] = g[i*n+i]
		maxDiag = math.Max(maxDiag, diag[i])
	}
	if !(maxDiag > 0) {
		return piv, nil, 0
	}
	// lrow[q] holds row q (an original index) of L, filled column by
	// column, so that each new entry is one contiguous dot product.
	lrow := make([][]float64, n)
	for q := range lrow {
		lrow[q] = make([]float64, 0, n)
	}
	for k = 0; k < n; k++ {
		best := k
		for i := k + 1; i < n; i++ {
			if diag[piv[i]] > diag[piv[best]] {
				best = i
			}
		}
		if diag[piv[best]] <= spanTol*maxDiag {
			break
		}
		piv[k], piv[best] = piv[best], piv[k]
		p := piv[k]
		lkk := math.Sqrt(diag[p])
		lp := lrow[p]
		for i := k + 1; i < n; i++ {
			q := piv[i]
			v := (g[q*n+p] - linalg.Dot(lrow[q], lp)) / lkk
			lrow[q] = append(lrow[q], v)
			diag[q] -= v * v
		}
		lrow[p] = append(lp, lkk)
		for i := 0; i < k; i++ {
			lrow[piv[i]] = append(lrow[piv[i]], 0) // above the diagonal
		}
	}
	l = make([]float64, n*k)
	for j := 0; j < n; j++ {
		copy(l[j*k:j*k+k], lrow[piv[j]])
	}
	return piv, l, k
}

// toFull maps a task vector from span coordinates back: w = X_Kᵀ L1⁻ᵀ w_z.
func (r *reduction) toFull(ds *data.Dataset, wz []float64) []float64 {
	return r.toFullAll(ds, [][]float64{wz})[0]
}

// toFullAll maps every task vector of wz back at once: each row of L1ᵀ
// and each pivot row of the data is read once for all of them, while
// every vector gets the same products in the same order as alone
// (bit-identical to toFull per vector).
func (r *reduction) toFullAll(ds *data.Dataset, wz [][]float64) [][]float64 {
	k := r.k
	// Solve L1ᵀ c = w_z (back substitution; L1 lower triangular).
	cs := make([][]float64, len(wz))
	for t, w := range wz {
		cs[t] = append([]float64(nil), w...)
	}
	for i := k - 1; i >= 0; i-- {
		row := r.l1t[i*k : i*k+k]
		for _, c := range cs {
			s := c[i]
			for j := i + 1; j < k; j++ {
				s -= row[j] * c[j]
			}
			c[i] = s / row[i]
		}
	}
	out := make([][]float64, len(wz))
	for t := range out {
		out[t] = make([]float64, r.dFull)
	}
	for j, ref := range r.rows {
		for t, c := range cs {
			if c[j] != 0 {
				addRow(&ds.Tasks[ref.t], ref.i, c[j], out[t])
			}
		}
	}
	return out
}

// addRow adds a·x_i of task t to dst.
func addRow(t *data.Task, i int, a float64, dst []float64) {
	if t.S != nil {
		s := t.S
		for p := s.Indptr[i]; p < s.Indptr[i+1]; p++ {
			dst[s.Indices[p]] += a * s.Values[p]
		}
		return
	}
	linalg.Axpy(dst, a, t.X.RawRowView(i))
}
