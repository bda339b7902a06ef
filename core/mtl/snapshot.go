package mtl

// Snapshot is the state after one outer iteration of the trainer. Slices are
// indexed by task and are the caller's to keep (the trainer does not reuse
// them).
type Snapshot struct {
	// Iter is the 1-based outer iteration.
	Iter int `json:"iter"`
	// Lambda is the pace λ used for this iteration's τ (λ0·c^(Iter-1)).
	Lambda float64 `json:"lambda"`
	// Tau is the normalized task weight vector (sums to 1).
	Tau []float64 `json:"tau"`
	// Cost is the task difficulty the τ rule saw: mean loss plus ρ·penalty
	// (ALGORITHMS.md §2, step 2).
	Cost []float64 `json:"cost"`
	// Loss is the per-example mean training loss of each task.
	Loss []float64 `json:"loss"`
	// Penalty is pen_t(w_t; Θ) against the shared knowledge the W-step used.
	Penalty []float64 `json:"penalty"`
	// Objective is the unweighted MTL objective Σ_t l_t + ρ·P(W, Θ) after
	// the Θ-step (for MTFL it includes the ε·tr(D⁻¹) term of the
	// perturbed problem, so that it is exactly what the alternation
	// minimizes).
	Objective float64 `json:"objective"`
	// SPObjective is the self-paced objective Σ_t τ_t·cost_t + λ·r(τ), with
	// r the regularizer that yields the τ rule (−‖τ‖₁ for the hard rule,
	// the negative entropy Σ τ log τ for the softmax rule).
	SPObjective float64 `json:"spObjective"`
	// TauChange is ‖τ^(k) − τ^(k−1)‖² (NaN at the first iteration).
	TauChange float64 `json:"tauChange"`
	// Converged is true when the stopping rule fired (not the cap).
	Converged bool `json:"converged"`
	// Done is true when no further Step will change the model (converged or
	// at the iteration cap).
	Done bool `json:"done"`
}
