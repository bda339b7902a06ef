package mtl

// Tests of the computations the solvers repeat in their inner loops, each
// against the same quantity written out entry by entry.

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/internal/linalg"
	"gonum.org/v1/gonum/mat"
)

// TestKernelProjections: the span form's projections XU and its kernel
// Xc M⁻¹ Xcᵀ (docs/algorithms.md §1.1 eq. (3)) match products written out
// entry by entry, for a dense task (XU from long dots against Uᵀ) and the
// same task in sparse form (XU accumulated row by row of U).
func TestKernelProjections(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	const n, r = 7, 3
	d := primalMaxDim + 5
	dense := randTask(rng, n, d, false)
	for i := 0; i < n; i++ {
		dense.X.Set(i, 2, 0) // a zero feature, which the sparse form skips
	}
	rw := randRowWeights(rng, n)
	m := randMetric(rng, d, r)
	x := func(i, j int) float64 { return dense.X.At(i, j) }
	for _, c := range []struct {
		name     string
		sparse   bool
		centered bool
		rw       []float64
	}{
		{"dense", false, false, nil},
		{"dense centered", false, true, nil},
		{"dense centered weighted", false, true, rw},
		{"sparse centered weighted", true, true, rw},
	} {
		tk := dense
		if c.sparse {
			tk = toSparse(dense)
		}
		td := newWeightedTaskData(&tk, d, c.rw)
		if td.primal {
			t.Fatalf("%s: a task with more features than rows should take the span form", c.name)
		}
		k, xu := td.kernel(m, c.centered)
		// The rows as the kernel sees them: centered by the weighted mean.
		rows := make([][]float64, n)
		for i := range rows {
			rows[i] = make([]float64, d)
			for j := range rows[i] {
				rows[i][j] = x(i, j)
				if c.centered {
					rows[i][j] -= td.xbar[j]
				}
			}
		}
		for i := 0; i < n; i++ {
			for q := 0; q < r; q++ {
				var want float64
				for j := 0; j < d; j++ {
					want += rows[i][j] * m.u[j*r+q]
				}
				if got := xu[i*r+q]; math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
					t.Errorf("%s: (XU)[%d,%d] = %v, want %v", c.name, i, q, got, want)
				}
			}
			for l := 0; l < n; l++ {
				// M⁻¹ = βI + U diag(γ) Uᵀ.
				var want float64
				for a := 0; a < d; a++ {
					minv := m.beta * rows[l][a]
					for q := 0; q < r; q++ {
						var uq float64
						for b := 0; b < d; b++ {
							uq += m.u[b*r+q] * rows[l][b]
						}
						minv += m.u[a*r+q] * m.gamma[q] * uq
					}
					want += rows[i][a] * minv
				}
				if c.centered && c.rw != nil {
					want *= math.Sqrt(c.rw[i] * c.rw[l])
				}
				if got := k[i*n+l]; math.Abs(got-want) > 1e-10*(1+math.Abs(want)) {
					t.Errorf("%s: K[%d,%d] = %v, want %v", c.name, i, l, got, want)
				}
			}
		}
	}
}

// TestPrimalMoments: the primal form's C = Σ_i rw_i (x_i − x̄)(x_i − x̄)ᵀ,
// built from its upper triangle, is exactly symmetric and matches the sum
// written out.
func TestPrimalMoments(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	const n, d = 30, 6
	tk := randTask(rng, n, d, false)
	rw := randRowWeights(rng, n)
	for _, w := range [][]float64{nil, rw} {
		td := newWeightedTaskData(&tk, d, w)
		if !td.primal {
			t.Fatal("a task with more rows than features should take the primal form")
		}
		for a := 0; a < d; a++ {
			for b := 0; b < d; b++ {
				var want float64
				for i := 0; i < n; i++ {
					wi := 1.0
					if w != nil {
						wi = w[i]
					}
					want += wi * (tk.X.At(i, a) - td.xbar[a]) * (tk.X.At(i, b) - td.xbar[b])
				}
				if got := td.c[a*d+b]; math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
					t.Errorf("weights %v: C[%d,%d] = %v, want %v", w != nil, a, b, got, want)
				}
				if td.c[a*d+b] != td.c[b*d+a] {
					t.Errorf("C[%d,%d] = %v but C[%d,%d] = %v", a, b, td.c[a*d+b], b, a, td.c[b*d+a])
				}
			}
		}
	}
}

// TestLogisticDataDerivatives: logisticData's gradient is the finite
// difference of its data term, its Hessian the finite difference of its
// gradient, and the term itself the sum of softplus losses written out, with
// and without row weights.
func TestLogisticDataDerivatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	const n, d, scale = 23, 5, 0.1
	tk := randTask(rng, n, d, true)
	for _, rw := range [][]float64{nil, randRowWeights(rng, n)} {
		td := newWeightedTaskData(&tk, d, rw)
		w, b := randVec(rng, d), 0.2
		at := func(w []float64, b float64) *logisticEval {
			e := newLogisticEval(d + 1)
			td.logisticData(scale, w, b, e)
			return e
		}
		e := at(w, b)
		var want float64
		for i := 0; i < n; i++ {
			wi := 1.0
			if rw != nil {
				wi = rw[i]
			}
			var f float64
			for j := 0; j < d; j++ {
				f += tk.X.At(i, j) * w[j]
			}
			want += wi * math.Log1p(math.Exp(-tk.Y[i]*(f+b)))
		}
		if math.Abs(e.f-scale*want) > 1e-12*math.Abs(scale*want) {
			t.Errorf("weights %v: data term %v, want %v", rw != nil, e.f, scale*want)
		}
		const h = 1e-6
		for j := 0; j <= d; j++ {
			wp, wm := append([]float64(nil), w...), append([]float64(nil), w...)
			bp, bm := b, b
			if j < d {
				wp[j] += h
				wm[j] -= h
			} else {
				bp += h
				bm -= h
			}
			ep, em := at(wp, bp), at(wm, bm)
			if fd := (ep.f - em.f) / (2 * h); math.Abs(fd-e.grad[j]) > 1e-6*math.Max(1, math.Abs(fd)) {
				t.Errorf("weights %v: gradient %d = %v, finite difference %v", rw != nil, j, e.grad[j], fd)
			}
			for k := 0; k <= d; k++ {
				fd := (ep.grad[k] - em.grad[k]) / (2 * h)
				if got := e.h[k*(d+1)+j]; math.Abs(fd-got) > 1e-6*math.Max(1, math.Abs(fd)) {
					t.Errorf("weights %v: Hessian [%d,%d] = %v, finite difference %v", rw != nil, k, j, got, fd)
				}
			}
		}
	}
}

// TestRowLengthsChangeNothing: reading a span-form row only up to its used
// length (taskData.xlen: past its last nonzero, rounded up to a multiple
// of 8) gives every result bit for bit as reading the whole row: the Gram
// matrix, the means, x_iᵀw, w += a·x_i and the projections XU. The rows
// are zero past a random point, as the rows of a pivoted Cholesky factor
// are; without the rounding to 8, Dot would sum some products in other
// partial sums and this fails.
func TestRowLengthsChangeNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	const n, d = 30, 100 // more features than rows and than primalMaxDim: span form
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < rng.IntN(d+1); j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	task := data.Task{Name: "t", X: x, Y: randVec(rng, n)}
	for _, rw := range [][]float64{nil, randRowWeights(rng, n)} {
		td := newWeightedTaskData(&task, d, rw)
		if td.primal || td.xlen == nil {
			t.Fatalf("primal %v, xlen %v: want the span form with row lengths", td.primal, td.xlen)
		}
		shorter := 0
		for _, l := range td.xlen {
			if l < d {
				shorter++
			}
		}
		if shorter < n/2 {
			t.Fatalf("only %d of %d rows are read short", shorter, n)
		}
		whole := newWeightedTaskData(&task, d, rw)
		whole.xlen = nil
		// k0 and xbar were built with the lengths; rebuild them whole.
		whole.k0, whole.xbar = make([]float64, n*n), make([]float64, d)
		for i := 0; i < n; i++ {
			linalg.Axpy(whole.xbar, whole.wt(i), x.RawRowView(i))
			for j := 0; j < n; j++ {
				whole.k0[i*n+j] = linalg.Dot(x.RawRowView(i), x.RawRowView(j))
			}
		}
		for j := range whole.xbar {
			whole.xbar[j] /= whole.sumW
		}
		same := func(what string, a, b []float64) {
			t.Helper()
			for i := range a {
				if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
					t.Fatalf("%s[%d]: %v with row lengths, %v whole", what, i, a[i], b[i])
				}
			}
		}
		same("k0", td.k0, whole.k0)
		same("xbar", td.xbar, whole.xbar)
		w := randVec(rng, d)
		for i := 0; i < n; i++ {
			same("dot", []float64{td.dot(i, w)}, []float64{whole.dot(i, w)})
			a, b := randVec(rng, d), []float64(nil)
			b = append(b, a...)
			td.addRowTo(a, i, 0.7)
			whole.addRowTo(b, i, 0.7)
			same("addRowTo", a, b)
		}
		m := randMetric(rng, d, 5)
		same("XU", td.projectRows(m), whole.projectRows(m))
	}
}
