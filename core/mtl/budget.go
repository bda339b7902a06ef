package mtl

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/internal/words"
)

// DefaultBudget is the memory, in bytes, that a fit may need before it is
// refused (1 GB). The browser's learner is wasm32: its whole memory is at
// most 4 GiB, Go's collector lets the heap grow to about twice what is live
// before it collects, and a phone's browser gives far less; a fit estimated
// at 1 GB keeps the heap within about 2 GB. The command line refuses the
// same fits by default, so that a fit refused by the page is refused
// natively with the same numbers, and its -memory flag raises the budget.
const DefaultBudget int64 = 1_000_000_000

// EstimateRuns is the number of learners a run trains on one prepared
// problem: the chosen model and the two it is compared with (its baseline
// and ITL).
const EstimateRuns = 3

// Shape is what the memory estimate reads of a training set.
type Shape struct {
	Tasks, Features int
	// Rows is the number of rows over all tasks, TaskRows each task's.
	Rows     int
	TaskRows []int
	// Sparse is set for the sparse format; NonZeros counts its stored values.
	Sparse   bool
	NonZeros int64
}

// ShapeOf returns the shape of ds.
func ShapeOf(ds *data.Dataset) Shape {
	s := Shape{Tasks: len(ds.Tasks), Features: ds.Features, Sparse: ds.Sparse(), TaskRows: make([]int, len(ds.Tasks))}
	for i := range ds.Tasks {
		t := &ds.Tasks[i]
		s.Rows += t.Rows()
		s.TaskRows[i] = t.Rows()
		if t.S != nil {
			s.NonZeros += int64(len(t.S.Values))
		}
	}
	return s
}

// Footprint is a fit's estimated memory: Bytes in all, and the term that
// dominates it, in words ("dense weights", "a 5,000 × 5,000 feature matrix
// per learner").
type Footprint struct {
	Bytes int64
	Shape Shape
	Main  string
}

// String says the estimate with the shape it comes from: "about 8.4 GB
// (500 tasks × 2,097,153 features, dense weights)".
func (f Footprint) String() string {
	return fmt.Sprintf("about %s (%s × %s, %s)", Bytes(f.Bytes), plural(f.Shape.Tasks, "task"), plural(f.Shape.Features, "feature"), f.Main)
}

// Memory names what a method keeps beyond the weights and the per-task
// statistics that every learner has; the catalogue (core/method) says it
// for each method.
type Memory int

// The structures Estimate counts beside the weights.
const (
	// NoExtra: nothing that grows faster than the weights.
	NoExtra Memory = iota
	// FeatureMatrix: a D×D shared matrix with its eigenvectors and the
	// solvers' work (MTFL, MMTL).
	FeatureMatrix
	// TaskCurvature: a (d+1)×(d+1) curvature per task and a basis's
	// information matrix (ELLA).
	TaskCurvature
)

// term is one part of an estimate: its bytes and what they hold.
type term struct {
	bytes int64
	what  string
}

// Estimate bounds from above the memory a run needs on a training
// set of shape s with runs learners sharing its prepared problem
// (EstimateRuns for a page's or the command line's run). It counts, in
// float64s:
//   - the split's copy of the rows (dense N·d, sparse two words per value);
//   - the span reduction (problem.go, span.go) when the set has more
//     features than twice its rows: the N×N Gram matrix, its factor and the
//     reduced rows, after which the solvers work in D = N coordinates
//     instead of d;
//   - per task, the primal statistics (D×D moments) where the task is
//     solved in its primal form (problem.go: dense, and D ≤ N_t or
//     D ≤ 64), else the span form's N_t×N_t Gram matrix, with the D
//     feature means;
//   - per learner and task, the factor of the W-step's system and the
//     logistic Newton's two Hessians, of the task's form, and in the span
//     form the rows' projections on the metric;
//   - per learner, its T×D weights twice (the current and the last ones)
//     and, with extra FeatureMatrix (MTFL, MMTL), four D×D matrices (the
//     shared matrix, its eigenvectors, the solvers' work and inverse);
//   - with extra TaskCurvature (ELLA), a (d+1)×(d+1) curvature per task
//     and its basis's information matrix;
//   - the weights mapped back to the d original features (T×d), which a
//     model, its Θ and its predictions need.
//
// The test (budget_test.go) holds it above the peak heap measured for
// small fits and within a stated factor of it.
func Estimate(s Shape, extra Memory, runs int) Footprint {
	const w = 8 // bytes per float64
	t, d, n := int64(s.Tasks), int64(s.Features), int64(s.Rows)
	var terms []term
	add := func(b int64, what string) { terms = append(terms, term{b, what}) }
	if s.Sparse {
		add(2*w*s.NonZeros+2*w*n, "the rows")
	} else {
		add(w*n*d, "the dense rows")
	}
	dim := d
	if d > primalMaxDim && n < d/2 && n <= spanMaxRows {
		dim = n
		add(3*w*n*n+w*d, "the span reduction")
	}
	// Per task, the form problem.go solves it in. (The estimate once took
	// the larger of the two forms for every task, and so counted an
	// N_t×N_t matrix for a task of 100,000 rows and 20 features, which is
	// solved with a 20×20 one: 20 times a 50 MB file's peak.)
	// Each learner keeps, per task, the factor of its W-step system and
	// the logistic Newton's two Hessians (taskCache: solve.go), of the
	// task's form; the span form also its rows' projections on the metric.
	var perTask, perLearner int64
	for _, nt := range s.TaskRows {
		if m := int64(nt); !s.Sparse && (dim <= m || dim <= primalMaxDim) {
			perTask += dim*dim + 2*dim
			perLearner += 3 * (dim + 1) * (dim + 1)
		} else {
			perTask += m*m + m + dim
			perLearner += 3*(m+1)*(m+1) + m*min(t, dim)
		}
	}
	add(w*perTask, "per-task statistics")
	add(int64(runs)*w*perLearner, "per-task statistics")
	add(int64(runs)*2*w*t*dim, "dense weights")
	switch extra {
	case FeatureMatrix:
		add(int64(runs)*4*w*dim*dim, fmt.Sprintf("a %s × %s feature matrix per learner", grouped(dim), grouped(dim)))
	case TaskCurvature:
		// A (d+1)×(d+1) curvature per task and the (d+1)k × (d+1)k
		// information matrix of the basis (k = 5).
		p := d + 1
		add(w*t*p*p+w*25*p*p, "per-task curvature matrices")
	}
	add(w*t*d, "dense weights")
	f := Footprint{Shape: s}
	by := map[string]int64{}
	for _, x := range terms {
		f.Bytes += x.bytes
		by[x.what] += x.bytes
		if by[x.what] > by[f.Main] {
			f.Main = x.what
		}
	}
	return f
}

// CheckBudget refuses a fit whose estimate f exceeds budget bytes, with
// the numbers and the remedy; nil when it fits (or budget ≤ 0: no limit).
func CheckBudget(f Footprint, budget int64) error {
	if budget <= 0 || f.Bytes <= budget {
		return nil
	}
	return fmt.Errorf("this fit needs %s; the learner's budget is %s. Remedy: %s; or raise the budget with the command line's -memory flag (spmtl train -memory GB; 0 for no limit)", f.over(budget), Bytes(budget), f.remedy())
}

// over says the estimate as String does, with as many decimals as it
// takes not to read as the budget it exceeds ("about 1.04 GB", not
// "about 1 GB" against a budget of 1 GB).
func (f Footprint) over(budget int64) string {
	p := 1
	for p < 4 && bytesPrec(f.Bytes, p) == bytesPrec(budget, p) {
		p++
	}
	return strings.Replace(f.String(), "about "+Bytes(f.Bytes), "about "+bytesPrec(f.Bytes, p), 1)
}

// remedy is what makes the fit smaller, by the term that dominates it.
func (f Footprint) remedy() string {
	switch f.Main {
	case "the dense rows":
		return "a smaller file (fewer rows, or leave columns out)"
	case "per-task statistics":
		return "fewer rows in the largest tasks, or fewer features (leave columns out)"
	}
	return "fewer features (number a sparse file's features from 1 without gaps, or leave columns out) or fewer tasks"
}

// Bytes writes a size in decimal units: "8.4 GB", "512 MB", "1 GB".
func Bytes(b int64) string { return bytesPrec(b, 1) }

// bytesPrec is Bytes with p decimals (trailing zeros dropped).
func bytesPrec(b int64, p int) string {
	units := []string{"bytes", "kB", "MB", "GB", "TB"}
	v, u := float64(b), 0
	for v >= 1000 && u < len(units)-1 {
		v /= 1000
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%d bytes", b)
	}
	return trimmed(v, p) + " " + units[u]
}

// trimmed writes v with p decimals, dropping trailing zeros and a
// trailing point.
func trimmed(v float64, p int) string {
	s := strconv.FormatFloat(v, 'f', p, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// grouped and plural write counts (core/internal/words).
var grouped, plural = words.Grouped, words.Plural
