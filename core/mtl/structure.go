package mtl

import (
	"fmt"
	"math"
)

// structure is the shared knowledge Θ of an MTL method whose penalty splits
// over tasks, P(W, Θ) = Σ_t pen_t(w_t; Θ), with every pen_t of the form
// (w − a_t)ᵀ M (w − a_t) (docs/algorithms.md §1 table). The self-paced trainer is
// generic over it: adding a method is one short file that implements these
// four methods and registers a constructor in structures.
type structure interface {
	// metric returns M⁻¹ for the next W-step, shared by all tasks.
	metric() *metric
	// anchor returns a_t for the next W-step (nil means 0).
	anchor(t int) []float64
	// update is the Θ-step: the exact minimizer of Σ_t weight_t·pen_t(w_t; Θ)
	// given the new task vectors W and the normalized τ.
	update(W [][]float64, tau []float64) error
	// extra is any Θ-only term of the objective (MTFL's ε·tr(D⁻¹)).
	extra() float64
}

// penaltyKnower is implemented by structures whose Θ-step yields the
// penalties of the task vectors it was given (in update's order), or nil
// when it did not.
type penaltyKnower interface {
	penalties() []float64
}

// structureEnv is what a constructor may read.
type structureEnv struct {
	// d is the length of the task vectors (the span's dimension after a
	// reduction), dFull the number of features of the data.
	d, dFull  int
	T         int
	cfg       Config
	selfPaced bool
	// priorU is each feature's factor in the precision of MMTL's prior
	// (priorScales; nil: 1).
	priorU []float64
	// stl is set for the pooled task (STL), whose one weight vector is
	// penalized (itl).
	stl bool
}

// structureKind is one method of the self-paced trainer: how to build its
// structure, and what it saves.
type structureKind struct {
	new func(env structureEnv) structure
	// pooled fits one predictor to the pooled tasks (STL).
	pooled bool
	// theta is the kind of shared knowledge the structure saves (its
	// thetaExporter's), nil when it saves none.
	theta *thetaKind
}

// structures are the trainer's methods, by key (the catalogue's,
// core/method).
var structures = map[string]structureKind{
	"itl":       {new: newITL},
	"stl":       {new: newITL, pooled: true}, // STL is ITL on the pooled task
	"mmtl":      {new: newMMTL, theta: mmtlTheta},
	"mtfl":      {new: newMTFL, theta: mtflTheta},
	"mtfl-mean": {new: newMTFLMean, theta: mtflMeanTheta},
	"mtaso":     {new: newMTASO, theta: mtasoTheta},
}

// codeBugScaled is implemented by a structure whose Θ-step and model take
// √ρ·W under Config.CodeBugs (MTASO in the authors' code).
type codeBugScaled interface{ scaledByCodeBugs() }

// columnWeights returns the ω_t that scale the task columns in an MTFL or
// MTASO Θ-step. The baseline uses ω = 1. The paper's objective weights the
// penalties by τ, i.e. the columns by √τ; we scale τ by T first so that a
// uniform τ gives exactly the baseline's ω = 1 (this matters only through
// MTFL's absolute ε). The authors' code scales the columns by τ itself.
func columnWeights(env structureEnv, tau []float64) []float64 {
	w := make([]float64, len(tau))
	for t := range w {
		switch {
		case !env.selfPaced:
			w[t] = 1
		case env.cfg.Variant == Reference:
			w[t] = tau[t]
		default:
			w[t] = math.Sqrt(float64(len(tau)) * tau[t])
		}
	}
	return w
}

func validateWeights(tau []float64, who string) error {
	for _, v := range tau {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: invalid task weight %v", who, v)
		}
	}
	return nil
}
