package app

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/synth"
)

// Bundle is one of the data sets the app ships (as files under a data
// folder: web/data in the repository, data/ next to the page) or generates:
// the paper's six. This table is the only place that names them.
type Bundle struct {
	// Name identifies the data set on the command line, in links and in
	// the page's menu.
	Name string `json:"name"`
	// Title is a line for menus.
	Title string `json:"title"`
	// Data and Splits are file paths under the data folder; Splits is a
	// split file (row,split1,...) when the data set comes with fixed
	// splits. Both are empty for generated data sets.
	Data   string `json:"data,omitempty"`
	Splits string `json:"splits,omitempty"`
	// Generated is set for the synthetic sets (core/synth).
	Generated bool `json:"generated,omitempty"`
	// Preset are the starting settings for the data set (the settings the
	// schema marks Preset): the medians cross-validation chose in `spmtl
	// reproduce` (landmine: the authors' fixed ρ = 0.01, λ0 = 1). Front
	// ends merge it with WithPreset; the catalogue publishes the merged
	// settings as Start.
	Preset TrainOptions `json:"-"`
	// Start are the settings a run on the data set starts from, as text by
	// key (StartOf); set in the catalogue.
	Start map[string]string `json:"start,omitempty"`
	// protocol sets the paper's evaluation protocol (docs/algorithms.md
	// §12) on e, whose Data is set.
	protocol func(e *eval.Experiment, src *Source, quick bool)
}

// preset is a data set's starting point: ρ, λ0, the training size per
// task (a count, or a fraction below 1) and the iteration cap.
func preset(rho, lambda0, train float64, maxIter int) TrainOptions {
	return TrainOptions{Config: mtl.Config{Rho: rho, Lambda0: lambda0, MaxIter: maxIter}, Train: train}
}

// Source is a bundled data set read into memory: its data and, for data
// sets with fixed splits, the split masks (one per run).
type Source struct {
	Name   string
	Data   *data.Dataset
	Splits [][]bool
}

var (
	rhoGrid     = []float64{1e-3, 1e-2, 1e-1, 1, 10, 100, 1000}
	rhoGridHigh = []float64{1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000}
	quickRho    = []float64{1e-2, 1, 100}
	quickRhoHD  = []float64{1e-5, 1e-3, 1e-1}
)

var bundles = []Bundle{
	{Name: "syn1", Title: "syn1: 3 groups of 10 synthetic tasks", Generated: true,
		Preset: preset(0.01, 0.1, 15, 50),
		protocol: func(e *eval.Experiment, _ *Source, quick bool) {
			e.MaxIter, e.H = 50, 2
			e.Lambda0Grid = grid(quick, []float64{1e-3, 1e-2, 1e-1, 1, 10, 100}, []float64{1e-2, 1, 100})
		}},
	{Name: "syn2", Title: "syn2: 30 synthetic tasks, harder as t grows", Generated: true,
		Preset: preset(0.01, 1, 15, 50),
		protocol: func(e *eval.Experiment, _ *Source, quick bool) {
			e.MaxIter = 50
			e.Lambda0Grid = grid(quick, []float64{1e-3, 1e-2, 1e-1, 1, 10, 100, 1000}, []float64{1e-2, 1, 100})
		}},
	{Name: "school", Title: "school: exam scores of 139 schools", Data: "school/data.csv", Splits: "school/splits.csv",
		Preset: preset(0.01, 50, 0.75, 10),
		protocol: func(e *eval.Experiment, src *Source, quick bool) {
			e.Split = func(r int) (*data.Dataset, *data.Dataset, error) {
				return data.SplitByMask(src.Data, src.Splits[(r-1)%len(src.Splits)])
			}
			e.Lambda0Grid = grid(quick, []float64{1, 10, 25, 50, 75, 100}, []float64{1, 25, 100})
		}},
	{Name: "cs", Title: "cs: 190 students rate 20 computers", Data: "cs/data.csv",
		Preset: preset(0.1, 1, 15, 50),
		protocol: func(e *eval.Experiment, src *Source, quick bool) {
			e.Split = func(r int) (*data.Dataset, *data.Dataset, error) {
				return eval.SplitSharedRows(src.Data, 15, uint64(r))
			}
			e.Folds = func(tr *data.Dataset, k int, seed uint64) ([]eval.Fold, error) { return eval.KFoldShared(tr, k, seed) }
			e.MaxIter, e.H = 50, 2
			e.Lambda0Grid = grid(quick, []float64{1e-3, 1e-2, 1e-1, 1, 10, 100}, []float64{1e-2, 1, 100})
		}},
	{Name: "sentiment", Title: "sentiment: 8 product review tasks, 37,662 words", Data: "sentiment/data.svm",
		Preset: preset(0.001, 0.1, 120, 10),
		protocol: func(e *eval.Experiment, src *Source, quick bool) {
			e.Split = func(r int) (*data.Dataset, *data.Dataset, error) {
				return eval.SplitPerTask(src.Data, 120, true, uint64(r))
			}
			e.Folds = stratifiedFolds
			e.RhoGrid = grid(quick, rhoGridHigh, quickRhoHD)
			e.Lambda0Grid = grid(quick, []float64{1e-3, 1e-2, 1e-1, 1, 10, 100, 1000}, []float64{1e-2, 1, 100})
		}},
	{Name: "landmine", Title: "landmine: 19 mine fields", Data: "landmine/data.csv",
		Preset: preset(0.01, 1, 80, 10),
		protocol: func(e *eval.Experiment, src *Source, quick bool) {
			e.Split = func(r int) (*data.Dataset, *data.Dataset, error) {
				return eval.SplitPerTask(src.Data, 80, true, uint64(r))
			}
			e.Folds = stratifiedFolds
			e.Loss = mtl.Logistic
			e.Lambda0Grid = grid(quick, []float64{0.01, 0.1, 0.2, 1, 2, 5, 10}, []float64{0.1, 1, 10})
		}},
}

// Bundles returns the table of bundled data sets, in the paper's column
// order.
func Bundles() []Bundle { return append([]Bundle(nil), bundles...) }

// BundleNames returns the bundled data sets' names, in order.
func BundleNames() []string {
	out := make([]string, len(bundles))
	for i, b := range bundles {
		out[i] = b.Name
	}
	return out
}

// LookupBundle returns the bundled data set with the given name.
func LookupBundle(name string) (Bundle, error) {
	for _, b := range bundles {
		if b.Name == name {
			return b, nil
		}
	}
	return Bundle{}, fmt.Errorf("unknown data set %q (want one of %s)", name, strings.Join(BundleNames(), ", "))
}

// generate makes run r's train and test sets of a synthetic bundle.
func (b Bundle) generate(r uint64) (*synth.Result, error) {
	if b.Name == "syn1" {
		return synth.Syn1(synth.Syn1Options{Seed: r})
	}
	return synth.Syn2(synth.Syn2Options{Seed: r})
}

// ReadBundle reads a bundled data set's files from fsys (the data folder).
// Generated bundles need no files and give a Source without Data.
func ReadBundle(fsys fs.FS, name string) (*Source, error) {
	b, err := LookupBundle(name)
	if err != nil {
		return nil, err
	}
	if b.Generated {
		return &Source{Name: name}, nil
	}
	text, err := fs.ReadFile(fsys, b.Data)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", b.Data, err)
	}
	var splits []byte
	if b.Splits != "" {
		if splits, err = fs.ReadFile(fsys, b.Splits); err != nil {
			return nil, fmt.Errorf("read %s: %w", b.Splits, err)
		}
	}
	return ParseBundle(name, text, splits)
}

// ParseBundle reads a bundled data set from its files' contents (the page's
// reproduction workers fetch them) through the intake, as Load reads it for
// a run (a packed table too); every split column of the split file is
// read.
func ParseBundle(name string, text, splits []byte) (*Source, error) {
	b, err := LookupBundle(name)
	if err != nil {
		return nil, err
	}
	src := &Source{Name: name}
	if b.Generated {
		return src, nil
	}
	d, err := Load(text, LoadOptions{Name: b.Data, Bundled: true})
	if err != nil {
		return nil, err
	}
	src.Data = d.All
	if b.Splits != "" {
		if len(splits) == 0 {
			return nil, fmt.Errorf("%s: the split file %s is missing", name, b.Splits)
		}
		cols, err := data.SplitColumns(bytes.NewReader(splits), b.Splits)
		if err != nil {
			return nil, err
		}
		for _, c := range cols {
			m, err := data.ReadSplitFile(bytes.NewReader(splits), b.Splits, c)
			if err != nil {
				return nil, err
			}
			src.Splits = append(src.Splits, m)
		}
	}
	return src, nil
}

// Experiment returns the paper's protocol (docs/algorithms.md §10, §12) for
// a bundled data set read into src (nil for generated ones). quick uses
// coarse grids (3 values of ρ and of λ0).
func Experiment(name string, src *Source, quick bool) (eval.Experiment, error) {
	b, err := LookupBundle(name)
	if err != nil {
		return eval.Experiment{}, err
	}
	e := eval.Experiment{Name: name, Loss: mtl.Squared, MaxIter: 10, H: 5, RhoGrid: grid(quick, rhoGrid, quickRho),
		Folds: plainFolds}
	if b.Generated {
		first, err := b.generate(1)
		if err != nil {
			return e, err
		}
		e.Data = first.Train
		e.Split = func(r int) (*data.Dataset, *data.Dataset, error) {
			res, err := b.generate(uint64(r))
			if err != nil {
				return nil, nil, err
			}
			return res.Train, res.Test, nil
		}
	} else {
		if src == nil || src.Data == nil {
			return e, fmt.Errorf("%s: data not loaded", name)
		}
		if b.Splits != "" && len(src.Splits) == 0 {
			return e, fmt.Errorf("%s: split file not loaded", name)
		}
		e.Data = src.Data
	}
	b.protocol(&e, src, quick)
	return e, nil
}

func grid(quick bool, full, coarse []float64) []float64 {
	if quick {
		return coarse
	}
	return full
}

func plainFolds(tr *data.Dataset, k int, seed uint64) ([]eval.Fold, error) {
	return eval.KFold(tr, k, false, seed)
}

func stratifiedFolds(tr *data.Dataset, k int, seed uint64) ([]eval.Fold, error) {
	return eval.KFold(tr, k, true, seed)
}
