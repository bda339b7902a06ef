package mtl

import (
	"errors"
	"fmt"
	"math"

	"github.com/spmtl/spmtl/core/internal/linalg"
)

// ErrNumeric marks a fit that broke down numerically (a singular system, a
// non-finite value). Test with errors.Is.
var ErrNumeric = errors.New("numerical failure")

func errNumeric(msg string) error { return fmt.Errorf("%s: %w", msg, ErrNumeric) }

// wstep is one W-step problem (docs/algorithms.md §1 eq. (1)) for a task:
//
//	min_{w,b} scale·Σ_i loss_i(w,b) + rho·(w−a)ᵀM(w−a)
//
// with a = anchor (nil means 0) and M given by its inverse m.
type wstep struct {
	loss   Loss
	scale  float64 // 1 (sum) or 1/N (mean) on the data term
	rho    float64
	m      *metric
	anchor []float64
	// kappa is κ of the shared intercept (docs/algorithms.md §1.4): the
	// intercept is penalised by rho·kappa·(b − b0)²; 0 leaves it free.
	kappa, b0 float64
	// scratch is a d-vector that penalty and the squared W-step reuse,
	// so that a fit's thousands of W-steps do not allocate one each
	// (under js/wasm the collector runs on the fitting thread; see
	// docs/bench.md, "The table's kernels under js/wasm").
	scratch []float64
	// dev, when set (a d-vector) with an anchor, receives the solution's
	// deviation w − a as the squared W-step solves for it, not as the
	// difference of w and a: at a large ρ every w sits close to a, and the
	// difference loses the digits that MMTL's value function reads
	// (docs/algorithms.md §2.7).
	dev []float64
}

// buf returns ws.scratch with length n, allocated on first use. Its
// contents are the last user's.
func (ws *wstep) buf(n int) []float64 {
	if cap(ws.scratch) < n {
		ws.scratch = make([]float64, n)
	}
	return ws.scratch[:n]
}

// lossValue returns scale·Σ_i loss_i(w, b) for the task.
func (td *taskData) lossValue(loss Loss, scale float64, w []float64, b float64) float64 {
	if loss == Squared && td.primal {
		// ½‖y − Xw − b‖² = ½(ycᵀyc − 2wᵀq + wᵀCw + N(ȳ − x̄ᵀw − b)²) from
		// the centered moments, so the rows are not read.
		wcw := linalg.QuadForm(td.c, w)
		e := td.ybar - linalg.Dot(td.xbar, w) - b
		v := td.ycyc - 2*linalg.Dot(w, td.q) + wcw + td.sumW*e*e
		return scale * 0.5 * math.Max(v, 0)
	}
	var sum float64
	for i := 0; i < td.n; i++ {
		f := td.dot(i, w) + b
		if loss == Squared {
			r := td.y[i] - f
			sum += 0.5 * td.wt(i) * r * r
		} else {
			sum += td.wt(i) * softplus(-td.y[i]*f)
		}
	}
	return scale * sum
}

// penalty returns (w−a)ᵀM(w−a).
func (ws *wstep) penalty(w []float64) float64 {
	if ws.anchor == nil {
		return ws.m.quad(w)
	}
	return ws.m.quad(ws.diffInto(ws.buf(len(w)), w))
}

// diff returns a new vector w − a.
func (ws *wstep) diff(w []float64) []float64 {
	return ws.diffInto(make([]float64, len(w)), w)
}

// diffInto sets dst = w − a (w when there is no anchor) and returns it.
func (ws *wstep) diffInto(dst, w []float64) []float64 {
	copy(dst, w)
	for j, a := range ws.anchor {
		dst[j] -= a
	}
	return dst
}

// solveExact solves the W-step to machine precision (closed form for the
// squared loss, Newton for the logistic loss). w and b hold the warm start
// and receive the solution. It returns the data term scale·Σ loss_i and the
// penalty (w−a)ᵀM(w−a) at the solution. cache, when non-nil, carries work
// from one call to the next for the same task (a trainer keeps one per
// task); nil is fine.
func (td *taskData) solveExact(ws *wstep, w []float64, b *float64, cache *taskCache) (loss, pen float64, err error) {
	if cache == nil {
		cache = new(taskCache)
	}
	if ws.kappa > 0 && !td.primal && ws.loss == Squared {
		return 0, 0, fmt.Errorf("task %s: the shared intercept is computed for dense tasks with at most %d features or at least as many rows as features; this task has %d rows of %d features: leave the intercept free (the logistic loss takes it in every form)", td.name, primalMaxDim, td.n, len(w))
	}
	switch {
	case ws.loss == Squared && td.primal:
		if err = td.squaredPrimal(ws, w, b, cache); err == nil {
			loss = td.lossValue(ws.loss, ws.scale, w, *b)
		}
	case ws.loss == Squared:
		// The span solver knows its loss and penalty from α (no pass over
		// the rows, nor an O(d·r) one over w).
		return td.squaredSpan(ws, w, b, cache)
	case td.primal:
		loss, err = td.logisticPrimal(ws, w, b, cache)
	default:
		loss, pen, err = td.logisticSpan(ws, w, b)
		return loss, pen + ws.interceptPenalty(*b), err
	}
	if err != nil {
		return 0, 0, err
	}
	return loss, ws.penalty(w) + ws.interceptPenalty(*b), nil
}

// solveOnly is solveExact without the data term and penalty at the
// solution, which the squared primal form computes in about as many
// products as its solve; the other forms get them with the solution.
func (td *taskData) solveOnly(ws *wstep, w []float64, b *float64, cache *taskCache) error {
	if ws.loss == Squared && td.primal {
		if cache == nil {
			cache = new(taskCache)
		}
		return td.squaredPrimal(ws, w, b, cache)
	}
	_, _, err := td.solveExact(ws, w, b, cache)
	return err
}

// interceptPenalty is κ(b − b0)², the shared intercept's part of a task's
// penalty (0 for a free intercept).
func (ws *wstep) interceptPenalty(b float64) float64 {
	if ws.kappa == 0 {
		return 0
	}
	return ws.kappa * (b - ws.b0) * (b - ws.b0)
}

// taskCache is the work a trainer keeps per task between outer iterations:
// the Cholesky factor of XcᵀXc + 2ρ'M (primal form) or of
// Xc M⁻¹ Xcᵀ + 2ρ'I (span form) while the metric and ρ' stay the same (ITL,
// MMTL and MTASO never change M), and the logistic data term with its
// derivatives at the last solution, where the next Newton run starts.
type taskCache struct {
	m     *metric
	rho   float64
	kappa float64 // κ the primal factor was made with (it adds η x̄x̄ᵀ)
	l     []float64
	xu    []float64 // the span form's row projections XcU

	dataOK      bool
	dw          []float64
	db          float64
	data, spare *logisticEval
	// newton is logisticPrimal's scratch, kept so that a fit's W-steps do
	// not allocate it anew: a tuning point of VerbAgg (316 tasks, up to
	// 1,000 outer iterations) allocated 6.3 GB in them, which under js/wasm
	// grew the learner's memory to 500 MB between collections.
	newton *newtonScratch
}

// newtonScratch is one Newton run's work space for p = d + 1 unknowns.
type newtonScratch struct {
	cur, trial       *logisticEval
	fac, delta, step []float64
}
