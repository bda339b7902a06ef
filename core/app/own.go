package app

import (
	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
)

// OwnMaxIter is the iteration cap of a fit on a visitor's own data:
// generous, so that a fit stops because it converged; a run that reaches
// it says so in its status.
const OwnMaxIter = 1000

// OwnData returns cfg with the own-data profile (docs/algorithms.md §14)
// in the fields it leaves unset: a summed loss, so that ρ chosen on the
// folds means the same on all the rows; the leave-one-out pace, so that a
// task with few rows is not mistaken for an easy one; iterations to
// convergence; and MMTL's Θ-step solved jointly with W for the current τ. The bundled data sets and the reproduction keep the paper's
// settings: their presets and grids give these fields themselves.
func OwnData(cfg mtl.Config) mtl.Config {
	if cfg.Scale == "" {
		cfg.Scale = mtl.SumLoss
	}
	if cfg.PaceCost == "" {
		cfg.PaceCost = mtl.LOOCost
	}
	if cfg.MaxIter == 0 {
		cfg.MaxIter = OwnMaxIter
	}
	cfg.JointTheta = true
	return cfg
}

// OwnClassifierIntercept is κ of a classifier on own data when none is
// given: a free intercept is never sound there, since a task whose rows
// are all of one class drives it to ±∞ (a probability of exactly 0 or 1,
// docs/algorithms.md §14).
const OwnClassifierIntercept = 0.1

// configFor returns the configuration a run on d takes: cfg, with the
// own-data profile filling its unset fields when d is a visitor's file
// (and, for a classifier, a shared intercept in place of free ones).
func configFor(d *Data, cfg mtl.Config) mtl.Config {
	if d == nil || !d.Own {
		return cfg
	}
	// The page starts a file from OwnPreset; a caller that leaves those
	// settings unset (the command line's flags) gets the same.
	cfg = OwnData(WithPreset(OwnPreset, TrainOptions{Config: cfg}).Config)
	if m, err := method.Lookup(cfg.Model); err == nil && m.Kind == method.Sequential {
		return cfg // CL and ELLA keep their fixed settings (§8, §9)
	}
	if d.All.Kind == data.Classification && cfg.Intercept == 0 && cfg.Solver != mtl.FISTA100 && cfg.Variant != mtl.Reference {
		cfg.Intercept = OwnClassifierIntercept
	}
	return cfg
}
