package mtl

import "fmt"

// TaskFit is the solution of one task's W-step.
type TaskFit struct {
	W []float64
	B float64
	// Loss is the task's data term l_t in the variant's scale (a sum for the
	// Reference squared loss, a mean otherwise).
	Loss float64
	// Penalty is ‖w − anchor‖².
	Penalty float64
}

// FitTask solves docs/algorithms.md §1 eq. (1) exactly for task t with the identity
// metric: min_{w,b} l_t(w, b) + rho·‖w − anchor‖² (anchor nil means 0), the
// loss scaled as the variant prescribes. It is the building block of the
// sequential learners (curriculum learning anchors each task at the
// previous one).
func (p *Problem) FitTask(t int, loss Loss, v Variant, rho float64, anchor []float64) (fit TaskFit, err error) {
	if t < 0 || t >= len(p.tasks) {
		return fit, fmt.Errorf("fit task: task index %d out of range [0, %d)", t, len(p.tasks))
	}
	if anchor != nil && len(anchor) != p.d {
		return fit, fmt.Errorf("fit task: anchor has length %d, want %d", len(anchor), p.d)
	}
	if !(rho > 0) {
		return fit, fmt.Errorf("fit task: rho must be positive, got %v", rho)
	}
	td := p.origTasks()[t]
	ws := &wstep{loss: loss, scale: lossScale(loss, v, MeanLoss, td), rho: rho, m: identityMetric(p.d), anchor: anchor}
	fit.W = make([]float64, p.d)
	if fit.Loss, fit.Penalty, err = td.solveExact(ws, fit.W, &fit.B, nil); err != nil {
		return fit, fmt.Errorf("fit task %s: %w", td.name, err)
	}
	return fit, nil
}

// lossScale returns the data-term scale: a sum under SumLoss (own data,
// docs/algorithms.md §14); otherwise the squared loss is a sum in the
// Reference variant and a mean in the Paper variant, and the logistic loss
// is always a mean (§0). A weighted task (STL's pool) has its scale in its
// row weights.
func lossScale(loss Loss, v Variant, sc Scale, td *taskData) float64 {
	if td.rw != nil {
		return 1 // the row weights carry the scale (STL's pooled task)
	}
	if !perTaskMean(loss, v, sc) {
		return 1
	}
	return 1 / float64(td.n)
}

// perTaskMean reports whether the loss is a per-task mean (every loss but
// the reference variant's squared loss, unless SumLoss asks for a sum),
// which is how STL weights its pooled rows.
func perTaskMean(loss Loss, v Variant, sc Scale) bool {
	return sc != SumLoss && !(loss == Squared && v == Reference)
}
