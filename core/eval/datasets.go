package eval

import (
	"fmt"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/synth"
)

// PaperDatasets are the data sets of the paper's table, in its column order.
var PaperDatasets = []string{"syn1", "syn2", "school", "cs", "sentiment", "landmine"}

// Sources holds the loaded real data sets the paper's experiments need
// (nil where not wanted). SchoolSplits are the shipped split masks
// (data.ReadSplitFile), one per run.
type Sources struct {
	School       *data.Dataset
	SchoolSplits [][]bool
	CS           *data.Dataset
	Sentiment    *data.Dataset
	Landmine     *data.Dataset
}

var (
	rhoGrid     = []float64{1e-3, 1e-2, 1e-1, 1, 10, 100, 1000}
	rhoGridHigh = []float64{1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000}
	quickRho    = []float64{1e-2, 1, 100}
	quickRhoHD  = []float64{1e-5, 1e-3, 1e-1}
)

// PaperExperiment returns the protocol of ALGORITHMS.md §10 and §12 for one
// of PaperDatasets. quick uses coarser grids (3 values of ρ, 3 of λ0).
func PaperExperiment(name string, src Sources, quick bool) (Experiment, error) {
	e := Experiment{Name: name, Loss: mtl.Squared, MaxIter: 10, H: 5, RhoGrid: rhoGrid}
	plainFolds := func(tr *data.Dataset, k int, seed uint64) ([]Fold, error) { return KFold(tr, k, false, seed) }
	stratFolds := func(tr *data.Dataset, k int, seed uint64) ([]Fold, error) { return KFold(tr, k, true, seed) }
	l0Quick := []float64{1e-2, 1, 100}
	switch name {
	case "syn1", "syn2":
		gen := func(r int) (*synth.Result, error) {
			if name == "syn1" {
				return synth.Syn1(synth.Syn1Options{Seed: uint64(r)})
			}
			return synth.Syn2(synth.Syn2Options{Seed: uint64(r)})
		}
		first, err := gen(1)
		if err != nil {
			return e, err
		}
		e.Data = first.Train
		e.Split = func(r int) (*data.Dataset, *data.Dataset, error) {
			res, err := gen(r)
			if err != nil {
				return nil, nil, err
			}
			return res.Train, res.Test, nil
		}
		e.Folds = plainFolds
		e.MaxIter = 50
		e.H = 2
		e.Lambda0Grid = []float64{1e-3, 1e-2, 1e-1, 1, 10, 100}
		if name == "syn2" {
			e.H = 5
			e.Lambda0Grid = []float64{1e-3, 1e-2, 1e-1, 1, 10, 100, 1000}
		}
	case "school":
		if src.School == nil || len(src.SchoolSplits) == 0 {
			return e, fmt.Errorf("school: data or split file not loaded")
		}
		e.Data = src.School
		e.Split = func(r int) (*data.Dataset, *data.Dataset, error) {
			return data.SplitByMask(src.School, src.SchoolSplits[(r-1)%len(src.SchoolSplits)])
		}
		e.Folds = plainFolds
		e.Lambda0Grid = []float64{1, 10, 25, 50, 75, 100}
		l0Quick = []float64{1, 25, 100}
	case "cs":
		if src.CS == nil {
			return e, fmt.Errorf("cs: data not loaded")
		}
		e.Data = src.CS
		e.Split = func(r int) (*data.Dataset, *data.Dataset, error) { return SplitSharedRows(src.CS, 15, uint64(r)) }
		e.Folds = func(tr *data.Dataset, k int, seed uint64) ([]Fold, error) { return KFoldShared(tr, k, seed) }
		e.MaxIter = 50
		e.H = 2
		e.Lambda0Grid = []float64{1e-3, 1e-2, 1e-1, 1, 10, 100}
	case "sentiment":
		if src.Sentiment == nil {
			return e, fmt.Errorf("sentiment: data not loaded")
		}
		e.Data = src.Sentiment
		e.Split = func(r int) (*data.Dataset, *data.Dataset, error) {
			return SplitPerTask(src.Sentiment, 120, true, uint64(r))
		}
		e.Folds = stratFolds
		e.RhoGrid = rhoGridHigh
		e.Lambda0Grid = []float64{1e-3, 1e-2, 1e-1, 1, 10, 100, 1000}
		if quick {
			e.RhoGrid = quickRhoHD
		}
	case "landmine":
		if src.Landmine == nil {
			return e, fmt.Errorf("landmine: data not loaded")
		}
		e.Data = src.Landmine
		e.Split = func(r int) (*data.Dataset, *data.Dataset, error) {
			return SplitPerTask(src.Landmine, 80, true, uint64(r))
		}
		e.Folds = stratFolds
		e.Loss = mtl.Logistic
		e.Lambda0Grid = []float64{0.01, 0.1, 0.2, 1, 2, 5, 10}
		l0Quick = []float64{0.1, 1, 10}
	default:
		return e, fmt.Errorf("unknown data set %q (want one of %v)", name, PaperDatasets)
	}
	if quick {
		if name != "sentiment" {
			e.RhoGrid = quickRho
		}
		e.Lambda0Grid = l0Quick
	}
	return e, nil
}
