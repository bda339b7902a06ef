package mtl

import (
	"encoding/json"
	"fmt"
	"math"
)

// StopReason says why a run ended.
type StopReason string

// The reasons a run ends.
const (
	// NotStopped: the run goes on.
	NotStopped StopReason = ""
	// StopConverged: the stopping rule fired (docs/algorithms.md §2.4).
	StopConverged StopReason = "converged"
	// StopCap: the iteration cap was reached before the rule fired.
	StopCap StopReason = "cap"
	// StopSingle: the method is one fit, not an alternation (STL, the
	// authors' ITL and joint MMTL).
	StopSingle StopReason = "single"
	// StopLearned: a sequential learner has learned every task.
	StopLearned StopReason = "learned"
)

// Snapshot is the state of a learner after one step: for the self-paced
// trainer an outer iteration (λ, τ, the task costs, the objective), for a
// sequential learner the task it learned (Seq). Slices are indexed by task
// and are the caller's to keep (learners do not reuse them).
type Snapshot struct {
	// Iter is the 1-based outer iteration (sequential learners: the step).
	Iter int `json:"iter"`
	// Lambda is the pace λ used for this iteration's τ (λ0·c^(Iter-1)).
	// Zero for sequential learners, which have no pace.
	Lambda float64 `json:"lambda"`
	// Tau is the normalized task weight vector (sums to 1); nil for
	// sequential learners, which do not weight tasks.
	Tau []float64 `json:"tau"`
	// Cost is the task difficulty the τ rule saw: mean loss plus ρ·penalty
	// (docs/algorithms.md §2).
	Cost []float64 `json:"cost"`
	// Loss is the per-example mean training loss of each task.
	Loss []float64 `json:"loss"`
	// Penalty is pen_t(w_t; Θ) against the shared knowledge the W-step used.
	Penalty []float64 `json:"penalty"`
	// Objective is the unweighted MTL objective Σ_t l_t + ρ·P(W, Θ) after
	// the Θ-step (for MTFL in the paper variant it includes the ε·tr(D⁻¹)
	// term of the perturbed problem, so that it is exactly what the
	// alternation minimizes).
	Objective float64 `json:"objective"`
	// SPObjective is the self-paced objective Σ_t τ_t·cost_t + λ·r(τ), with
	// r the regularizer that yields the τ rule (−‖τ‖₁ for the hard rule,
	// the negative entropy Σ τ log τ for the softmax rule).
	SPObjective float64 `json:"spObjective"`
	// TauChange is ‖τ^(k) − τ^(k−1)‖²; NaN (JSON null) at the first
	// iteration, where it is undefined.
	TauChange Float `json:"tauChange"`
	// ObjChange is the relative change of Objective from the previous
	// iteration; NaN (JSON null) at the first.
	ObjChange Float `json:"objChange"`
	// Converged is true when the stopping rule fired (not the cap).
	Converged bool `json:"converged"`
	// Done is true when no further Step will change the model (converged,
	// at the iteration cap, or a single-fit method).
	Done bool `json:"done"`
	// Stop says why the run ended (empty while it goes on).
	Stop StopReason `json:"stop,omitempty"`
	// SelfPaced is set when τ was re-weighted (a self-paced run); whether
	// the stopping rule also waits for τ to settle is TauRule.
	SelfPaced bool `json:"selfPaced"`
	// TauRule is set when the stopping rule also waits for τ to settle
	// (the paper variant's self-paced runs, docs/algorithms.md §2.4).
	TauRule bool `json:"tauRule,omitempty"`
	// Seq is what a sequential learner reports (nil for the others).
	Seq *SeqStep `json:"seq,omitempty"`
}

// SeqStep is one step of a sequential learner (core/seq): the task it
// learned and the scores it chose by.
type SeqStep struct {
	// Task is the index of the task learned at this step.
	Task int `json:"task"`
	// Order lists the tasks learned so far, in order.
	Order []int `json:"order"`
	// Scores is every task's selection score at this step, NaN (JSON null)
	// for tasks already learned: CL's regularized objective (lowest
	// learned), ELLA's log-determinant (InfoMax) or residual (Diversity,
	// Diversity++; highest learned or most likely), 0 for ELLA-random.
	Scores []Float `json:"scores"`
	// L is ELLA's basis after this step, row-major: L[r][j] is row r of
	// column j, d+1 rows of k entries, the last row being the bias. Nil
	// for CL.
	L [][]float64 `json:"L,omitempty"`
	// S holds ELLA's code s_t of every task after this step (k entries
	// each): frozen for learned tasks, the latest encoding for the others.
	// Nil for CL.
	S [][]float64 `json:"S,omitempty"`
}

// StopMessage is one line on why the run ended, for a status line: e.g.
// "converged: τ and objective settled at iteration 7". It is empty while
// the run goes on.
func (s Snapshot) StopMessage() string {
	switch s.Stop {
	case StopConverged:
		if s.TauRule {
			return fmt.Sprintf("converged: τ and objective settled at iteration %d", s.Iter)
		}
		return fmt.Sprintf("converged: objective settled at iteration %d", s.Iter)
	case StopCap:
		return fmt.Sprintf("iteration cap: stopped after %d iterations without converging", s.Iter)
	case StopSingle:
		return "done: a single fit"
	case StopLearned:
		return fmt.Sprintf("done: all %d tasks learned", s.Iter)
	}
	return ""
}

// Float is a float64 that is written to JSON as null when it is NaN or
// infinite (JSON has no such numbers) and read back from null as NaN.
type Float float64

// MarshalJSON writes null for NaN and ±Inf.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

// UnmarshalJSON reads null as NaN.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = Float(math.NaN())
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = Float(v)
	return nil
}
