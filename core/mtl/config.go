package mtl

import (
	"fmt"
	"strings"
)

// Loss is a per-task data loss.
type Loss string

// The supported losses.
const (
	Squared  Loss = "squared"
	Logistic Loss = "logistic"
)

// Variant chooses between the paper's equations and the authors' code where
// the two disagree (docs/algorithms.md §13).
type Variant string

// The two variants.
const (
	Paper     Variant = "paper"
	Reference Variant = "reference"
)

// TauRule is the self-paced task-weighting rule.
type TauRule string

// The τ rules of docs/algorithms.md §2.
const (
	Softmax TauRule = "softmax" // τ_t ∝ exp(-cost_t/λ), the paper's reported rule
	Hard    TauRule = "hard"    // τ_t = 1 if cost_t < λ else δ
)

// Scale is how a task's data term adds up its rows.
type Scale string

// The data-term scales (docs/algorithms.md §0).
const (
	// MeanLoss is the paper's per-task mean: ρ weighs the penalty against
	// one average row, so the shrinkage a ρ implies grows as 1/N_t.
	MeanLoss Scale = "mean"
	// SumLoss sums the rows: ρ is a per-row prior strength, the same on
	// two thirds of the rows (a CV fold) and on all of them (the refit).
	SumLoss Scale = "sum"
)

// PaceCost is what the self-paced τ step reads as a task's difficulty.
type PaceCost string

// The pace costs (docs/algorithms.md §2.6).
const (
	// TrainCost is the paper's: the training loss plus ρ times the
	// penalty, which a task with very few rows drives to zero.
	TrainCost PaceCost = "train"
	// LOOCost replaces the training loss by the leave-one-out loss of the
	// task's W-step (exact for the squared loss, one Newton step for the
	// logistic loss), so a task cannot look easy by fitting its own rows.
	LOOCost PaceCost = "loo"
)

// Solver is the W-step solver.
type Solver string

// The W-step solvers.
const (
	Exact    Solver = "exact"    // closed form or Newton to a tight tolerance
	FISTA100 Solver = "fista100" // the authors' inexact accelerated gradient, 100 iterations
)

// Config holds every setting of a training run. The zero value of a field
// means its documented default; Defaults fills them in.
type Config struct {
	// Model names the method (core/method lists them). Default "mtfl".
	Model string `json:"model"`
	// SelfPaced turns on the τ re-weighting; without it τ is held uniform
	// (the MTL baseline).
	SelfPaced bool `json:"selfPaced"`
	// Tau is the τ rule. Default Softmax.
	Tau TauRule `json:"tau"`
	// Variant is Paper (default) or Reference.
	Variant Variant `json:"variant"`
	// Solver for the W-step. Default Exact for Paper, FISTA100 for Reference.
	Solver Solver `json:"solver"`
	// Loss is Squared or Logistic. Default: Logistic for classification
	// data, Squared for regression.
	Loss Loss `json:"loss"`
	// Rho is the regularization constant ρ (μ for STL/ITL). Default 0.1.
	Rho float64 `json:"rho"`
	// Lambda0 is the initial pace λ0. Default 1.
	Lambda0 float64 `json:"lambda0"`
	// AutoLambda0, when positive, replaces Lambda0 by AutoLambda0 times the
	// scale-free λ0 of docs/algorithms.md §2.5: the value at which the
	// easiest quarter of the tasks holds half of the total τ at the first
	// iteration. 1 is "-lambda0 auto"; tuning grids are its multiples. The
	// λ0 chosen is the first snapshot's Lambda. Softmax rule only.
	AutoLambda0 float64 `json:"autoLambda0,omitempty"`
	// Pace is c, with λ ← cλ each outer iteration. Default 1.1.
	Pace float64 `json:"c"`
	// Delta is the weight of a hard task under the Hard rule. Default 0.01.
	Delta float64 `json:"delta"`
	// H is the MTASO subspace dimension. Default 5 (capped at min(d, T)).
	H int `json:"h"`
	// MaxIter caps the outer iterations. Default 10.
	MaxIter int `json:"maxIter"`
	// TauTol is the paper's stopping threshold on ||Δτ||². Default 1e-6.
	TauTol float64 `json:"tauTol"`
	// ObjTol is the relative objective change that stops the reference
	// variant and the baselines. Default 1e-5.
	ObjTol float64 `json:"objTol"`
	// Eps is the MTFL perturbation ε. Default 1e-8.
	Eps float64 `json:"eps"`
	// Seed seeds a learner's random draws: ELLA's random task order and
	// initial basis. The trainer's methods (MTASO included) draw nothing,
	// so it does not change them. Default 0.
	Seed int64 `json:"seed"`
	// Select is a sequential learner's task-selection rule (ELLA: random,
	// infomax, diversity or diversity++; default random).
	Select string `json:"select,omitempty"`
	// Scale is MeanLoss (default, the paper's) or SumLoss.
	Scale Scale `json:"scale,omitempty"`
	// Intercept is κ, the strength of the shared intercept relative to ρ:
	// each task's intercept is penalised by ρκ(b_t − b̄)², with b̄ the
	// τ-weighted mean intercept, updated in the Θ-step (docs/algorithms.md
	// §1.4). 0 (default) keeps the free per-task intercepts.
	Intercept float64 `json:"intercept,omitempty"`
	// PaceCost is TrainCost (default, the paper's) or LOOCost.
	PaceCost PaceCost `json:"paceCost,omitempty"`
	// JointTheta makes MMTL's Θ-step minimize the τ-weighted objective
	// over Θ and W together (docs/algorithms.md §2.7): the limit of the
	// alternation for the current τ, reached in one outer iteration instead
	// of hundreds when ρ is large. Other methods ignore it.
	JointTheta bool `json:"jointTheta,omitempty"`
	// CodeBugs reproduces a bug of the authors' MTASO code that both
	// variants otherwise leave out (docs/algorithms.md §7.3): after each
	// W-step the task vectors are scaled by √ρ in place, so the next
	// targets and the returned model are √ρ·W (with an unscaled bias).
	// Off by default; only MTASO is affected.
	CodeBugs bool `json:"codeBugs,omitempty"`
}

// Defaults returns c with every zero field replaced by its default. kind
// selects the default loss.
func (c Config) Defaults(classification bool) Config {
	if c.Model == "" {
		c.Model = "mtfl"
	}
	c.Model = strings.ToLower(c.Model)
	if c.Tau == "" {
		c.Tau = Softmax
	}
	if c.Variant == "" {
		c.Variant = Paper
	}
	if c.Solver == "" {
		c.Solver = Exact
		if c.Variant == Reference {
			c.Solver = FISTA100
		}
	}
	if c.Loss == "" {
		c.Loss = Squared
		if classification {
			c.Loss = Logistic
		}
	}
	if c.Rho == 0 {
		c.Rho = 0.1
	}
	if c.Lambda0 == 0 {
		c.Lambda0 = 1
	}
	if c.Pace == 0 {
		c.Pace = 1.1
	}
	if c.Delta == 0 {
		c.Delta = 0.01
	}
	if c.H == 0 {
		c.H = 5
	}
	if c.MaxIter == 0 {
		c.MaxIter = 10
	}
	if c.TauTol == 0 {
		c.TauTol = 1e-6
	}
	if c.ObjTol == 0 {
		c.ObjTol = 1e-5
	}
	if c.Eps == 0 {
		c.Eps = 1e-8
	}
	if c.Scale == "" {
		c.Scale = MeanLoss
	}
	if c.PaceCost == "" {
		c.PaceCost = TrainCost
	}
	return c
}

// Validate reports the first setting that is out of range (Ranges) or
// not one of its choices (the model name is the method catalogue's to
// check).
func (c Config) Validate() error {
	switch {
	case c.Tau != Softmax && c.Tau != Hard:
		return fmt.Errorf("unknown tau rule %q (want softmax or hard)", c.Tau)
	case c.Variant != Paper && c.Variant != Reference:
		return fmt.Errorf("unknown variant %q (want paper or reference)", c.Variant)
	case c.Solver != Exact && c.Solver != FISTA100:
		return fmt.Errorf("unknown solver %q (want exact or fista100)", c.Solver)
	case c.Loss != Squared && c.Loss != Logistic:
		return fmt.Errorf("unknown loss %q (want squared or logistic)", c.Loss)
	case c.Scale != "" && c.Scale != MeanLoss && c.Scale != SumLoss:
		return fmt.Errorf("unknown loss scale %q (want mean or sum)", c.Scale)
	case c.PaceCost != "" && c.PaceCost != TrainCost && c.PaceCost != LOOCost:
		return fmt.Errorf("unknown pace cost %q (want train or loo)", c.PaceCost)
	case !(c.TauTol >= 0) || !(c.ObjTol >= 0):
		return fmt.Errorf("tolerances must be non-negative")
	}
	for _, f := range []struct {
		key, name string
		v         float64
	}{
		{"rho", "rho", c.Rho}, {"lambda0", "lambda0", c.Lambda0}, {"c", "pace c", c.Pace}, {"delta", "delta", c.Delta},
		{"h", "h", float64(c.H)}, {"maxIter", "maxIter", float64(c.MaxIter)}, {"eps", "eps", c.Eps},
		{"intercept", "the shared intercept's strength", c.Intercept},
	} {
		if err := check(f.key, f.name, f.v); err != nil {
			return err
		}
	}
	if c.AutoLambda0 != 0 {
		if err := check("autoLambda0", "the multiple of the automatic lambda0", c.AutoLambda0); err != nil {
			return err
		}
	}
	switch {
	case c.AutoLambda0 > 0 && c.Tau == Hard:
		return fmt.Errorf("lambda0 auto applies to the softmax rule, not the hard rule: give lambda0 a number")
	case c.Intercept > 0 && c.Solver == FISTA100:
		return fmt.Errorf("the shared intercept is solved exactly; it does not apply to the fista100 solver")
	}
	return nil
}
