package mtl

import (
	"fmt"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/internal/linalg"
)

// Predict returns l's scores for every task of test (matched to the
// trained tasks by name), like l.Model().PredictDataset(test).
//
// A learner whose problem is solved in the span of its training rows
// (span.go) scores a held-out set no larger than its training set in span
// coordinates instead: with w = Q·w_z, xᵀw = (Qᵀx)ᵀw_z, so it projects the
// test rows once per problem and test set, O(m·k·(k/2 + nnz)) for m rows,
// and never maps its task vectors back to all d features, O(T·k·(k/2 +
// nnz) + T·d) per fit. Cross-validation scores every fit of a fold on that
// fold's held-out rows (m about n/2), so the projection pays for itself
// after m/T fits and then saves the map's whole cost: it was a quarter of
// a sentiment run. A test set larger than the training set (a sentiment
// run's final test set: 2,880 rows, eight refits) is scored through the
// model. The choice depends only on the sizes, so the same
// fits give the same scores however the fits are spread over workers;
// the two ways agree to rounding.
func Predict(l Learner, test *data.Dataset) ([][]float64, error) {
	if s, ok := l.(spanScorer); ok {
		if m := s.spanModel(); m != nil && test.Rows() <= m.p.Data.Rows() {
			return m.predict(test)
		}
	}
	return l.Model().PredictDataset(test)
}

// spanScorer is a learner that can hand out its predictors in span
// coordinates (nil when it works in the original ones).
type spanScorer interface {
	spanModel() *spanModel
}

// spanModel is a Model whose weight vectors are in the span coordinates of
// problem p.
type spanModel struct {
	p     *Problem
	names []string
	w     [][]float64
	b     []float64
}

func (tr *Trainer) spanModel() *spanModel {
	if !tr.reduced {
		return nil
	}
	W := tr.modelW()
	m := &spanModel{p: tr.p, names: make([]string, len(tr.all)), w: make([][]float64, len(tr.all)), b: make([]float64, len(tr.all))}
	for t, td := range tr.all {
		src := t
		if tr.stl {
			src = 0
		}
		m.names[t], m.w[t], m.b[t] = td.name, W[src], tr.b[src]
	}
	return m
}

func (j *JointMMTL) spanModel() *spanModel {
	if !j.reduced {
		return nil
	}
	m := &spanModel{p: j.p, names: make([]string, len(j.tasks)), w: j.w, b: j.b}
	for t, td := range j.tasks {
		m.names[t] = td.name
	}
	return m
}

func (m *spanModel) predict(test *data.Dataset) ([][]float64, error) {
	if test.Features != m.p.d {
		return nil, fmt.Errorf("predict: data has %d features, model has %d", test.Features, m.p.d)
	}
	idx := make(map[string]int, len(m.names))
	for t, n := range m.names {
		idx[n] = t
	}
	z := m.p.project(test)
	k := m.p.red.k
	out := make([][]float64, len(test.Tasks))
	for i := range test.Tasks {
		t, ok := idx[test.Tasks[i].Name]
		if !ok {
			return nil, fmt.Errorf("predict: task %q was not trained", test.Tasks[i].Name)
		}
		out[i] = make([]float64, test.Tasks[i].Rows())
		for r := range out[i] {
			out[i][r] = linalg.Dot(z[i][r*k:r*k+k], m.w[t]) + m.b[t]
		}
	}
	return out, nil
}

// heldOut is a data set's rows in span coordinates, one k-column
// row-major block per task.
type heldOut struct {
	ds *data.Dataset
	z  [][]float64
}

// project returns test's rows in the span coordinates of p (p.red set),
// computing them on the first call for this test set. Only the last test
// set is kept: cross-validation scores every fit of a fold's problem on
// that fold's held-out rows.
func (p *Problem) project(test *data.Dataset) [][]float64 {
	p.heldMu.Lock()
	defer p.heldMu.Unlock()
	if p.held != nil && p.held.ds == test {
		return p.held.z
	}
	p.held = &heldOut{ds: test, z: p.red.project(p.Data, test)}
	return p.held.z
}

// project maps the rows x of test to z = Qᵀx = L1⁻¹ X_K x.
func (r *reduction) project(train, test *data.Dataset) [][]float64 {
	k := r.k
	dense := make([]float64, r.dFull)
	out := make([][]float64, len(test.Tasks))
	for ti := range test.Tasks {
		tk := &test.Tasks[ti]
		out[ti] = make([]float64, tk.Rows()*k)
		for i := 0; i < tk.Rows(); i++ {
			z := out[ti][i*k : i*k+k]
			scatter(tk, i, dense, 1)
			for j, ref := range r.rows {
				z[j] = train.Tasks[ref.t].Dot(ref.i, dense)
			}
			scatter(tk, i, dense, 0)
			// Forward substitution L1 z = v by columns: column j of L1
			// is row j of l1t, read contiguously.
			for j := 0; j < k; j++ {
				row := r.l1t[j*k : j*k+k]
				z[j] /= row[j]
				if zj := z[j]; zj != 0 {
					linalg.Axpy(z[j+1:], -zj, row[j+1:])
				}
			}
		}
	}
	return out
}
