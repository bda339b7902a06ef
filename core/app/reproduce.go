package app

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/internal/tauscale"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
)

// Experiments returns the paper's protocol for each named bundle, reading
// the bundles' files from fsys (the data folder).
func Experiments(fsys fs.FS, names []string, quick bool) ([]eval.Experiment, error) {
	var exps []eval.Experiment
	for _, n := range names {
		n = strings.TrimSpace(n)
		src, err := ReadBundle(fsys, n)
		if err != nil {
			return nil, err
		}
		e, err := Experiment(n, src, quick)
		if err != nil {
			return nil, err
		}
		exps = append(exps, e)
	}
	return exps, nil
}

// Table names the tables `spmtl reproduce` and the page's Reproduce view
// can rerun: "paper" (the paper's Table 1) and "sequential" (its landmine
// comparison of task orderings).
type Table string

// The tables.
const (
	PaperTable      Table = "paper"
	SequentialTable Table = "sequential"
)

// TableRows returns a table's rows under a variant.
func TableRows(t Table, v mtl.Variant) ([]method.Row, error) {
	switch t {
	case PaperTable, "":
		return method.PaperTable(v), nil
	case SequentialTable:
		return method.SequentialTable(), nil
	}
	return nil, fmt.Errorf("unknown table %q (want %s or %s)", t, PaperTable, SequentialTable)
}

// Catalog is what the page asks for once to fill its menus: the methods,
// the bundled data sets with the settings each starts from, the schema of
// the settings and the rows of the paper's tables.
type Catalog struct {
	Methods []method.Method `json:"methods"`
	Bundles []Bundle        `json:"bundles"`
	// Defaults are the learner's defaults under the paper's profile
	// (mtl.Config.Defaults).
	Defaults mtl.Config `json:"defaults"`
	// Settings is the schema of a run's settings (Settings): the page's
	// form, checks, links and embed protocol read it.
	Settings []Setting `json:"settings"`
	// OwnStart are the settings a visitor's own file starts from
	// (StartOf(nil)), as each bundle's Start are its own.
	OwnStart map[string]string `json:"ownStart"`
	// Tables maps a variant to the rows of the paper's table.
	Tables map[mtl.Variant][]method.Row `json:"tables"`
	// TauScale is the τ heatmap's fixed colour scale (core/figure).
	TauScale TauScale `json:"tauScale"`
	// MetricNames are the scores' names as sentences and tables write them
	// (eval.Metric.Name), by key: the page names a tune's metric with them.
	MetricNames map[eval.Metric]string `json:"metricNames"`
	// NewTaskModels are the models a search for new tasks chooses among
	// (method.NewTaskLabels), simplest first: the page's Tune panel names
	// them.
	NewTaskModels []string `json:"newTaskModels"`
	// TuneFolds are the page's Tune menu of folds: its choices and the
	// one it starts at (DefaultTuneFolds, the command line's default).
	TuneFolds TuneFoldMenu `json:"tuneFolds"`
}

// TuneFoldMenu is a menu of folds: Choices, and Default among them.
type TuneFoldMenu struct {
	Default int   `json:"default"`
	Choices []int `json:"choices"`
}

// TauScale is the τ heatmaps' scale (core/internal/tauscale, which
// core/figure draws with) for the page: T·τ from Lo to Hi on a log
// scale, colours evenly spaced over log2(T·τ), ticks to label.
type TauScale struct {
	Lo    float64   `json:"lo"`
	Hi    float64   `json:"hi"`
	Stops []string  `json:"stops"`
	Ticks []float64 `json:"ticks"`
}

// GetCatalog returns the catalogue for the page.
func GetCatalog() Catalog {
	bs := Bundles()
	for i := range bs {
		bs[i].Start = StartOf(&bs[i])
	}
	return Catalog{Methods: method.All(), Bundles: bs, Defaults: mtl.Config{}.Defaults(false), Settings: Settings(), OwnStart: StartOf(nil),
		Tables:      map[mtl.Variant][]method.Row{mtl.Paper: method.PaperTable(mtl.Paper), mtl.Reference: method.PaperTable(mtl.Reference)},
		TauScale:    TauScale{Lo: tauscale.Tau.Lo, Hi: tauscale.Tau.Hi, Stops: tauscale.Tau.Stops, Ticks: tauscale.Tau.Ticks},
		MetricNames: metricNames(), NewTaskModels: method.NewTaskLabels(),
		TuneFolds: TuneFoldMenu{Default: DefaultTuneFolds, Choices: append([]int(nil), TuneFoldChoices...)}}
}

// metricNames names every score the page shows (eval.Metric.Name).
func metricNames() map[eval.Metric]string {
	out := map[eval.Metric]string{}
	for _, m := range []eval.Metric{eval.RMSEMetric, eval.AUCMetric, eval.LogLossMetric, eval.BrierMetric} {
		out[m] = m.Name()
	}
	return out
}
