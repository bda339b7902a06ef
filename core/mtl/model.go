package mtl

import (
	"fmt"

	"github.com/spmtl/spmtl/core/data"
)

const dataClassification = data.Classification

// Model is a trained set of per-task linear predictors f_t(x) = w_tᵀx + b_t.
type Model struct {
	// Names are the task names, in training order.
	Names []string `json:"names"`
	// W holds one weight vector (length Features) per task.
	W [][]float64 `json:"w"`
	// B holds the per-task intercepts.
	B        []float64 `json:"b"`
	Features int       `json:"features"`
	Kind     data.Kind `json:"kind"`
}

// Model returns a copy of the current predictors (for STL, the pooled
// predictor repeated for every task).
func (tr *Trainer) Model() *Model {
	T := len(tr.all)
	W := tr.modelW()
	m := &Model{Features: tr.p.d, Kind: tr.p.Data.Kind, Names: make([]string, T), W: make([][]float64, T), B: make([]float64, T)}
	if tr.stl {
		W = W[:1]
	}
	full := tr.p.toFullAll(W, tr.reduced)
	for t, td := range tr.all {
		src := t
		if tr.stl {
			src = 0
		}
		m.Names[t] = td.name
		if tr.stl && t > 0 {
			m.W[t] = append([]float64(nil), m.W[0]...)
		} else {
			m.W[t] = full[src]
		}
		m.B[t] = tr.b[src]
	}
	return m
}

// Predict returns the scores w_tᵀx + b_t for every example of tk, using the
// predictor of task index t.
func (m *Model) Predict(t int, tk *data.Task) []float64 {
	out := make([]float64, tk.Rows())
	if t < 0 || t >= len(m.W) {
		return out
	}
	for i := range out {
		out[i] = tk.Dot(i, m.W[t]) + m.B[t]
	}
	return out
}

// PredictDataset returns the scores for every task of ds, matching tasks to
// predictors by name.
func (m *Model) PredictDataset(ds *data.Dataset) ([][]float64, error) {
	if ds.Features != m.Features {
		return nil, fmt.Errorf("predict: data has %d features, model has %d", ds.Features, m.Features)
	}
	idx := make(map[string]int, len(m.Names))
	for t, n := range m.Names {
		idx[n] = t
	}
	out := make([][]float64, len(ds.Tasks))
	for i := range ds.Tasks {
		t, ok := idx[ds.Tasks[i].Name]
		if !ok {
			return nil, fmt.Errorf("predict: task %q was not trained", ds.Tasks[i].Name)
		}
		out[i] = m.Predict(t, &ds.Tasks[i])
	}
	return out, nil
}
