package app

import "github.com/spmtl/spmtl/core/mtl"

// OwnMaxIter is the iteration cap of a fit on a visitor's own data:
// generous, so that a fit stops because it converged; a run that reaches
// it says so in its status.
const OwnMaxIter = 1000

// OwnData returns cfg with the own-data profile (docs/algorithms.md §14)
// in the fields it leaves unset: a summed loss, so that ρ chosen on the
// folds means the same on all the rows; the leave-one-out pace, so that a
// task with few rows is not mistaken for an easy one; and iterations to
// convergence. The bundled data sets and the reproduction keep the paper's
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
	return cfg
}

// configFor returns the configuration a run on d takes: cfg, with the
// own-data profile filling its unset fields when d is a visitor's file.
func configFor(d *Data, cfg mtl.Config) mtl.Config {
	if d != nil && d.Own {
		return OwnData(cfg)
	}
	return cfg
}
