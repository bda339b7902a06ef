package data

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Kind says what the labels of a Dataset are.
type Kind int

const (
	// Regression labels are real numbers.
	Regression Kind = iota
	// Classification labels are binary, stored as -1 and +1.
	Classification
)

// String returns "regression" or "classification".
func (k Kind) String() string {
	if k == Classification {
		return "classification"
	}
	return "regression"
}

// CSR is a sparse matrix in compressed sparse row form. Row i holds the
// entries Values[Indptr[i]:Indptr[i+1]] at columns Indices[Indptr[i]:Indptr[i+1]]
// (0-based, strictly increasing within a row).
type CSR struct {
	Rows, Cols int
	Indptr     []int
	Indices    []int
	Values     []float64
}

// RowDot returns the dot product of row i with the dense vector w (len Cols).
func (s *CSR) RowDot(i int, w []float64) float64 {
	// Ranging over the row's own subslices leaves one bounds check (w's)
	// per term; under js/wasm that made the span reduction's Gram matrix
	// of sentiment's rows faster (the sums are the same).
	lo, hi := s.Indptr[i], s.Indptr[i+1]
	vals := s.Values[lo:hi]
	idx := s.Indices[lo:hi]
	idx = idx[:len(vals)]
	var sum float64
	for k, v := range vals {
		sum += v * w[idx[k]]
	}
	return sum
}

// Task is one task's examples: X (rows are examples) stored either dense
// (X != nil) or sparse (S != nil), and the labels Y. For classification Y
// holds -1 and +1.
type Task struct {
	Name string
	X    *mat.Dense
	S    *CSR
	Y    []float64
	// Source, when not nil, has one entry per example: the 0-based index
	// of the example's data row in the file it was read from, counting
	// data rows over all tasks in file order (header, blank and comment
	// lines are not counted). Split files and SplitByMask use it.
	Source []int
}

// Rows returns the number of examples of the task.
func (t *Task) Rows() int { return len(t.Y) }

// Dot returns x_i^T w for example i.
func (t *Task) Dot(i int, w []float64) float64 {
	if t.S != nil {
		return t.S.RowDot(i, w)
	}
	return dot(t.X.RawRowView(i), w)
}

// Subset returns a new task holding the examples idx, in that order. The
// feature values are copied, and Source is carried along when set. A dense
// task subset to no examples has X == nil (gonum has no empty matrices).
func (t *Task) Subset(idx []int) Task {
	out := Task{Name: t.Name, Y: make([]float64, len(idx))}
	for k, i := range idx {
		out.Y[k] = t.Y[i]
	}
	if t.Source != nil {
		out.Source = make([]int, len(idx))
		for k, i := range idx {
			out.Source[k] = t.Source[i]
		}
	}
	if t.S != nil {
		s := &CSR{Rows: len(idx), Cols: t.S.Cols, Indptr: make([]int, 1, len(idx)+1)}
		for _, i := range idx {
			lo, hi := t.S.Indptr[i], t.S.Indptr[i+1]
			s.Indices = append(s.Indices, t.S.Indices[lo:hi]...)
			s.Values = append(s.Values, t.S.Values[lo:hi]...)
			s.Indptr = append(s.Indptr, len(s.Indices))
		}
		out.S = s
		return out
	}
	if len(idx) == 0 || t.X == nil {
		return out
	}
	_, d := t.X.Dims()
	x := mat.NewDense(len(idx), d, nil)
	for k, i := range idx {
		x.SetRow(k, t.X.RawRowView(i))
	}
	out.X = x
	return out
}

// Dataset is a set of related tasks over the same features.
type Dataset struct {
	// Name is a label for messages, usually the file name.
	Name  string
	Tasks []Task
	// Features is the number of features d.
	Features int
	// FeatureNames has length Features when the source named them.
	FeatureNames []string
	Kind         Kind
	// Positive and Negative name the classes as they appeared in the
	// source (for example "1" and "0"); empty for regression.
	Positive, Negative string
	// Fixed lists the features that Encoding.Fix divided by FixedScale
	// (task-level covariates), in increasing order: a shared weight on one
	// is FixedScale times the effect per standard deviation.
	Fixed []int
	// SourceRows is the number of data rows in the file the dataset was
	// read from (0 when unknown). Task.Source indexes into those rows, and
	// SplitByMask checks a mask's length against it.
	SourceRows int
}

// Sparse reports whether the tasks store X in CSR form.
func (ds *Dataset) Sparse() bool {
	return len(ds.Tasks) > 0 && ds.Tasks[0].S != nil
}

// Rows returns the total number of examples over all tasks.
func (ds *Dataset) Rows() int {
	n := 0
	for i := range ds.Tasks {
		n += ds.Tasks[i].Rows()
	}
	return n
}

// Validate checks the invariants the learners rely on: at least one task,
// every task non-empty with matching X and Y sizes, finite values, and ±1
// labels for classification.
func (ds *Dataset) Validate() error {
	if len(ds.Tasks) == 0 {
		return fmt.Errorf("dataset %s: no tasks", ds.Name)
	}
	for ti := range ds.Tasks {
		t := &ds.Tasks[ti]
		n := t.Rows()
		if n == 0 {
			return fmt.Errorf("dataset %s: task %q has no examples", ds.Name, t.Name)
		}
		if t.Source != nil && len(t.Source) != n {
			return fmt.Errorf("dataset %s: task %q: %d source rows for %d examples", ds.Name, t.Name, len(t.Source), n)
		}
		switch {
		case t.S != nil:
			if t.S.Rows != n || t.S.Cols != ds.Features {
				return fmt.Errorf("dataset %s: task %q: X is %dx%d, want %dx%d", ds.Name, t.Name, t.S.Rows, t.S.Cols, n, ds.Features)
			}
			for _, v := range t.S.Values {
				if !finite(v) {
					return fmt.Errorf("dataset %s: task %q: non-finite feature value", ds.Name, t.Name)
				}
			}
		case t.X != nil:
			r, c := t.X.Dims()
			if r != n || c != ds.Features {
				return fmt.Errorf("dataset %s: task %q: X is %dx%d, want %dx%d", ds.Name, t.Name, r, c, n, ds.Features)
			}
			for i := 0; i < r; i++ {
				for _, v := range t.X.RawRowView(i) {
					if !finite(v) {
						return fmt.Errorf("dataset %s: task %q: non-finite feature value in row %d", ds.Name, t.Name, i)
					}
				}
			}
		default:
			return fmt.Errorf("dataset %s: task %q has no feature matrix", ds.Name, t.Name)
		}
		for i, y := range t.Y {
			if !finite(y) {
				return fmt.Errorf("dataset %s: task %q: non-finite label in row %d", ds.Name, t.Name, i)
			}
			if ds.Kind == Classification && y != 1 && y != -1 {
				return fmt.Errorf("dataset %s: task %q: label %v in row %d is not -1 or +1", ds.Name, t.Name, y, i)
			}
		}
	}
	return nil
}

func finite(v float64) bool { return v-v == 0 }

func dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}
