package mtl

import (
	"fmt"
	"sync"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/internal/linalg"
	"gonum.org/v1/gonum/mat"
)

// Problem is a training set prepared for the learners: the per-task
// statistics that every fit on the same data can share (sufficient
// statistics for the squared loss in low dimension, data Gram matrices in
// high dimension). Prepare it once and train any number of models on it;
// a Problem is safe for concurrent use by several trainers.
type Problem struct {
	// Data is the training set the problem was prepared from.
	Data *data.Dataset
	d    int // features of Data

	// tasks are in the coordinates of the exact solvers: the span of the
	// training rows when red is set (span.go), else the original ones.
	tasks   []*taskData
	red     *reduction
	redData *data.Dataset // Data in span coordinates, when red is set

	// orig are the tasks in the original coordinates (the same slice as
	// tasks without a reduction), for the fista100 solver and FitTask.
	origOnce sync.Once
	orig     []*taskData

	// The pooled task of STL per coordinate system (original, span), with
	// uniform row weights (a sum over all rows) and with each row weighted
	// by 1/N_t of its task (a sum of per-task means), built on first use.
	pools [2][2]struct {
		once sync.Once
		td   *taskData
		err  error
	}

	// held is the last held-out data set projected into span coordinates
	// (predict.go), shared by every fit scored on it.
	heldMu sync.Mutex
	held   *heldOut
}

// taskData holds one task's rows and the statistics its W-step needs.
//
// The primal form (small d, dense) keeps the centered moments
// C = XcᵀXc, q = Xcᵀyc, ycᵀyc and the means, so that the squared-loss
// W-step and loss never touch the rows. The span form (large d or
// sparse) keeps the N×N Gram K0 = XXᵀ and the feature means, so that the
// W-step is an N×N solve in the span of the task's data (docs/algorithms.md
// §1.1 eq. (3) and §11).
type taskData struct {
	name string
	n    int
	y    []float64
	x    *mat.Dense // dense rows, or nil
	s    *data.CSR  // sparse rows, or nil
	// xlen, for a dense task in the span form, is how much of each row
	// the solvers read: past its last nonzero, rounded up to a multiple of
	// 8 (at most d). Rows in span coordinates are rows of a pivoted
	// Cholesky factor (span.go), zero past their pivot's position: half
	// of sentiment's reduced coordinates are such zeros. A multiple of 8
	// keeps linalg.Dot's partial sums what they were over the whole row,
	// so every result is the same. nil: whole rows.
	xlen []int
	// rw weights each row's loss (nil: every row 1). Only STL's pooled
	// task has weights (1/N_t of the row's task); its data term is then
	// Σ_i rw_i·loss_i with scale 1. sumW is Σ_i rw_i (n without weights).
	rw   []float64
	sumW float64

	primal bool
	// primal statistics
	c    []float64 // XcᵀXc, d×d row-major
	q    []float64 // Xcᵀyc
	ycyc float64   // ycᵀyc
	ybar float64
	xbar []float64 // (weighted) feature means (both forms)
	k0   []float64 // XXᵀ, n×n row-major (span form)
	k0pi []float64 // K0·π with π_i = rw_i/sumW, for centering (span form)
	pipi float64   // πᵀK0π

	// Xᵀ (d×n row-major) of a dense task, formed on first use by the
	// logistic primal solver (columns), which fits run concurrently on one
	// Problem may share.
	xtOnce sync.Once
	xt     []float64
}

// columns returns Xᵀ, d×n row-major: row a holds feature a of every row.
func (td *taskData) columns() []float64 {
	td.xtOnce.Do(func() {
		if td.x == nil { // a task with no rows
			return
		}
		n, d := td.x.Dims()
		td.xt = make([]float64, d*n)
		for i := 0; i < n; i++ {
			for a, v := range td.x.RawRowView(i) {
				td.xt[a*n+i] = v
			}
		}
	})
	return td.xt
}

// primalMaxDim is the largest dimension for which a dense task is solved in
// the primal (d×d) form when it has fewer rows than features. Above it, and
// whenever d exceeds the row count by more, the N×N span form is cheaper.
const primalMaxDim = 64

// Prepare validates ds and computes the per-task statistics. The cost is one
// pass over the data per task (O(N d²) or O(N² nnz/N)); it is excluded from
// the per-fit cost the benchmarks measure.
func Prepare(ds *data.Dataset) (p *Problem, err error) {
	return prepare(ds, true)
}

// prepare is Prepare, with the span reduction allowed or not (tests compare
// the two).
func prepare(ds *data.Dataset, allowReduction bool) (p *Problem, err error) {
	if ds == nil {
		return nil, fmt.Errorf("prepare: nil dataset")
	}
	if err := ds.Validate(); err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	p = &Problem{Data: ds, d: ds.Features}
	src := ds
	if allowReduction && wantReduction(ds) {
		if p.redData, p.red = reduce(ds); p.red != nil {
			src = p.redData
		}
	}
	for i := range src.Tasks {
		p.tasks = append(p.tasks, newTaskData(&src.Tasks[i], src.Features))
	}
	return p, nil
}

// tasksFor returns the tasks in the coordinates the solver works in, and
// whether they are the span's.
func (p *Problem) tasksFor(s Solver) ([]*taskData, bool) {
	if p.red != nil && s == Exact {
		return p.tasks, true
	}
	return p.origTasks(), false
}

// origTasks returns the tasks in the original coordinates.
func (p *Problem) origTasks() []*taskData {
	if p.red == nil {
		return p.tasks
	}
	p.origOnce.Do(func() {
		for i := range p.Data.Tasks {
			p.orig = append(p.orig, newTaskData(&p.Data.Tasks[i], p.d))
		}
	})
	return p.orig
}

// toFull maps a task vector of the given coordinates to the original ones.
func (p *Problem) toFull(w []float64, reduced bool) []float64 {
	if !reduced {
		return append([]float64(nil), w...)
	}
	return p.red.toFull(p.Data, w)
}

// toFullAll maps several task vectors at once (see reduction.toFullAll).
func (p *Problem) toFullAll(ws [][]float64, reduced bool) [][]float64 {
	if !reduced {
		out := make([][]float64, len(ws))
		for t, w := range ws {
			out[t] = append([]float64(nil), w...)
		}
		return out
	}
	return p.red.toFullAll(p.Data, ws)
}

// Tasks returns the number of tasks.
func (p *Problem) Tasks() int { return len(p.tasks) }

// Features returns the number of features d of the data (the learned
// models have d weights per task, whatever coordinates the solvers use).
func (p *Problem) Features() int { return p.d }

func newTaskData(t *data.Task, d int) *taskData { return newWeightedTaskData(t, d, nil) }

// newWeightedTaskData is newTaskData with row weights rw (nil: all 1); the
// means and moments are then weighted, and the span form's centering is by
// the weighted mean.
func newWeightedTaskData(t *data.Task, d int, rw []float64) *taskData {
	td := &taskData{name: t.Name, n: t.Rows(), y: t.Y, x: t.X, s: t.S, rw: rw}
	for i := 0; i < td.n; i++ {
		td.sumW += td.wt(i)
	}
	for i, v := range t.Y {
		td.ybar += td.wt(i) * v
	}
	td.ybar /= td.sumW
	td.primal = t.S == nil && (d <= td.n || d <= primalMaxDim)
	td.xbar = make([]float64, d)
	if td.primal {
		for i := 0; i < td.n; i++ {
			linalg.Axpy(td.xbar, td.wt(i)/td.sumW, t.X.RawRowView(i))
		}
		// C = Σ_i rw_i (x_i − x̄)(x_i − x̄)ᵀ and q = Σ_i rw_i (x_i − x̄)(y_i − ȳ),
		// one rank-1 update per row (once per task, so plain loops suffice).
		td.c = make([]float64, d*d)
		td.q = make([]float64, d)
		row := make([]float64, d)
		for i := 0; i < td.n; i++ {
			wi := td.wt(i)
			for j, v := range t.X.RawRowView(i) {
				row[j] = v - td.xbar[j]
			}
			yc := t.Y[i] - td.ybar
			td.ycyc += wi * yc * yc
			linalg.Axpy(td.q, wi*yc, row)
			// The upper triangle only (half the work: for a pooled STL
			// task this is the set-up's main cost), mirrored below.
			for a, ra := range row {
				if ra != 0 {
					linalg.Axpy(td.c[a*d+a:a*d+d], wi*ra, row[a:])
				}
			}
		}
		for a := 0; a < d; a++ {
			for b := a + 1; b < d; b++ {
				td.c[b*d+a] = td.c[a*d+b]
			}
		}
		return td
	}
	// Span form: Gram matrix of the rows and the feature means.
	n := td.n
	td.k0 = make([]float64, n*n)
	if t.S != nil {
		s := t.S
		dense := make([]float64, d)
		for i := 0; i < n; i++ {
			for k := s.Indptr[i]; k < s.Indptr[i+1]; k++ {
				dense[s.Indices[k]] = s.Values[k]
				td.xbar[s.Indices[k]] += td.wt(i) * s.Values[k]
			}
			for j := 0; j <= i; j++ {
				v := s.RowDot(j, dense)
				td.k0[i*n+j], td.k0[j*n+i] = v, v
			}
			for k := s.Indptr[i]; k < s.Indptr[i+1]; k++ {
				dense[s.Indices[k]] = 0
			}
		}
	} else {
		td.xlen = make([]int, n)
		for i := range td.xlen {
			td.xlen[i] = usedLength(t.X.RawRowView(i))
		}
		for i := 0; i < n; i++ {
			ri := td.row(i)
			linalg.Axpy(td.xbar[:len(ri)], td.wt(i), ri)
			for j := 0; j <= i; j++ {
				rj := td.row(j)
				m := min(len(ri), len(rj))
				v := linalg.Dot(ri[:m], rj[:m])
				td.k0[i*n+j], td.k0[j*n+i] = v, v
			}
		}
	}
	for j := range td.xbar {
		td.xbar[j] /= td.sumW
	}
	td.k0pi = make([]float64, n)
	for i := 0; i < n; i++ {
		var sum float64
		for j, v := range td.k0[i*n : i*n+n] {
			sum += v * td.wt(j)
		}
		td.k0pi[i] = sum / td.sumW
		td.pipi += td.wt(i) * td.k0pi[i] / td.sumW
	}
	return td
}

// wt returns the weight of row i.
func (td *taskData) wt(i int) float64 {
	if td.rw == nil {
		return 1
	}
	return td.rw[i]
}

// usedLength returns the length of x past its last nonzero, rounded up to
// a multiple of 8 and at most len(x) (see taskData.xlen).
func usedLength(x []float64) int {
	last := len(x)
	for last > 0 && x[last-1] == 0 {
		last--
	}
	return min((last+7)/8*8, len(x))
}

// row returns the part of dense row i that the solvers read (taskData.xlen).
func (td *taskData) row(i int) []float64 {
	r := td.x.RawRowView(i)
	if td.xlen != nil {
		r = r[:td.xlen[i]]
	}
	return r
}

// dot returns x_iᵀw.
func (td *taskData) dot(i int, w []float64) float64 {
	if td.s != nil {
		return td.s.RowDot(i, w)
	}
	r := td.row(i)
	return linalg.Dot(r, w[:len(r)])
}

// addRowTo adds a·x_i to dst.
func (td *taskData) addRowTo(dst []float64, i int, a float64) {
	if td.s != nil {
		s := td.s
		for k := s.Indptr[i]; k < s.Indptr[i+1]; k++ {
			dst[s.Indices[k]] += a * s.Values[k]
		}
		return
	}
	r := td.row(i)
	linalg.Axpy(dst[:len(r)], a, r)
}

// pool returns the union of all tasks as one task (for STL). With
// perTaskMean each row is weighted by 1/N_t of its task, so that the pooled
// data term is Σ_t (1/N_t) Σ_i loss_i, the sum of the per-task mean losses
// of docs/algorithms.md §3; without it the rows are summed.
func (p *Problem) pool(perTaskMean, reduced bool) (*taskData, error) {
	c, w := 0, 0
	ds := p.Data
	if reduced {
		c, ds = 1, p.redData
	}
	if perTaskMean {
		w = 1
	}
	slot := &p.pools[c][w]
	slot.once.Do(func() {
		var all data.Task
		all.Name = "pooled"
		var rw []float64
		if perTaskMean {
			for i := range ds.Tasks {
				n := ds.Tasks[i].Rows()
				for k := 0; k < n; k++ {
					rw = append(rw, 1/float64(n))
				}
			}
		}
		if ds.Sparse() {
			s := &data.CSR{Cols: ds.Features, Indptr: []int{0}}
			for i := range ds.Tasks {
				ts := ds.Tasks[i].S
				base := len(s.Indices)
				s.Indices = append(s.Indices, ts.Indices...)
				s.Values = append(s.Values, ts.Values...)
				for r := 1; r <= ts.Rows; r++ {
					s.Indptr = append(s.Indptr, base+ts.Indptr[r])
				}
				s.Rows += ts.Rows
				all.Y = append(all.Y, ds.Tasks[i].Y...)
			}
			all.S = s
		} else {
			n := ds.Rows()
			x := mat.NewDense(n, ds.Features, nil)
			r := 0
			for i := range ds.Tasks {
				t := &ds.Tasks[i]
				for k := 0; k < t.Rows(); k++ {
					x.SetRow(r, t.X.RawRowView(k))
					r++
				}
				all.Y = append(all.Y, t.Y...)
			}
			all.X = x
		}
		if all.Rows() > 20000 && (ds.Sparse() || ds.Features > all.Rows()) {
			slot.err = fmt.Errorf("stl: %d pooled rows in %d dimensions is too large for the span solver", all.Rows(), ds.Features)
			return
		}
		slot.td = newWeightedTaskData(&all, ds.Features, rw)
	})
	return slot.td, slot.err
}
