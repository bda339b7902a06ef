package eval

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
)

// Experiment is one data set of the protocol: how to split it per run and
// into folds, and the settings and grids its fits use (docs/algorithms.md §10,
// §12).
type Experiment struct {
	Name string
	Data *data.Dataset
	// Split returns run r's training and test sets (r = 1, 2, ...).
	Split func(r int) (train, test *data.Dataset, err error)
	// Folds splits a training set for cross-validation.
	Folds func(train *data.Dataset, k int, seed uint64) ([]Fold, error)
	Loss  mtl.Loss
	// MaxIter is the outer iteration cap (maxOutIter).
	MaxIter int
	// H is the MTASO subspace dimension.
	H int
	// RhoGrid and Lambda0Grid are the cross-validation grids: baselines
	// search ρ, self-paced methods (ρ, λ0) jointly.
	RhoGrid, Lambda0Grid []float64
}

// Options control a reproduction.
type Options struct {
	Runs    int // default 10
	Folds   int // default 3
	Variant mtl.Variant
	// Solver overrides the variant's default W-step solver when set.
	Solver mtl.Solver
	// CodeBugs reproduces the authors' MTASO √ρ scaling (mtl.Config).
	CodeBugs bool
	Workers  int // parallel fits; default GOMAXPROCS
	// Methods are the table's rows; default method.PaperTable(Variant).
	Methods []method.Row
	// Progress, when set, receives a line per finished cell and run.
	Progress func(msg string)
}

// Cell is one (method, data set) entry of the table.
type Cell struct {
	Method  string    `json:"method"`
	Dataset string    `json:"dataset"`
	Metric  Metric    `json:"metric"`
	Scores  []float64 `json:"scores"` // test score per run
	Mean    float64   `json:"mean"`
	Std     float64   `json:"std"`
	SE      float64   `json:"se"`
	// Rho and Lambda0 are the hyperparameters CV chose in each run
	// (Lambda0 only for self-paced methods).
	Rho     []float64 `json:"rho"`
	Lambda0 []float64 `json:"lambda0,omitempty"`
	// T, P compare a self-paced method with its baseline (paired t-test
	// over runs); Better (Worse) is set when it is better (worse) at the 5%
	// level; neither is a tie.
	T      float64 `json:"t,omitempty"`
	P      float64 `json:"p,omitempty"`
	Better bool    `json:"better"`
	Worse  bool    `json:"worse"`
	// Tested is set when the t-test ran (it needs two runs or more).
	Tested  bool    `json:"tested"`
	Seconds float64 `json:"seconds"`
}

// Table is the reproduced table: Cells[method][dataset].
type Table struct {
	Variant  mtl.Variant        `json:"variant"`
	Solver   mtl.Solver         `json:"solver"`
	CodeBugs bool               `json:"codeBugs,omitempty"`
	Runs     int                `json:"runs"`
	Folds    int                `json:"folds"`
	Methods  []string           `json:"methods"`
	Datasets []string           `json:"datasets"`
	Cells    map[string][]*Cell `json:"cells"` // by method, in Datasets order
	// Seconds is the wall time per data set.
	Seconds map[string]float64 `json:"seconds"`
}

// Cell returns the cell of a method and data set, or nil.
func (t *Table) Cell(method, dataset string) *Cell {
	for i, d := range t.Datasets {
		if d == dataset && t.Cells[method] != nil {
			return t.Cells[method][i]
		}
	}
	return nil
}

// Reproduce runs the protocol on each experiment: for every run, split,
// choose each method's hyperparameters by k-fold cross-validation on the
// training set (first best in grid order, NaN worst), refit on the whole
// training set and score on the test set. The per-task statistics of each
// fold are computed once and shared by every method and grid point.
func Reproduce(ctx context.Context, exps []Experiment, opt Options) (*Table, error) {
	opt = opt.withDefaults()
	tab := &Table{Variant: opt.Variant, Solver: opt.Solver, CodeBugs: opt.CodeBugs, Runs: opt.Runs, Folds: opt.Folds,
		Cells: map[string][]*Cell{}, Seconds: map[string]float64{}}
	if tab.Solver == "" {
		tab.Solver = mtl.Config{Variant: opt.Variant}.Defaults(false).Solver
	}
	for _, m := range opt.Methods {
		tab.Methods = append(tab.Methods, m.Name)
	}
	for _, e := range exps {
		start := time.Now()
		cells, err := runExperiment(ctx, e, opt)
		if err != nil {
			return tab, fmt.Errorf("%s: %w", e.Name, err)
		}
		tab.Datasets = append(tab.Datasets, e.Name)
		for i, m := range opt.Methods {
			tab.Cells[m.Name] = append(tab.Cells[m.Name], cells[i])
		}
		tab.Seconds[e.Name] = time.Since(start).Seconds()
		if opt.Progress != nil {
			opt.Progress(fmt.Sprintf("%s done in %.1fs", e.Name, tab.Seconds[e.Name]))
		}
	}
	return tab, nil
}

func runExperiment(ctx context.Context, e Experiment, opt Options) ([]*Cell, error) {
	var runs [][]RunResult
	for r := 1; r <= opt.Runs; r++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res, err := RunOnce(e, r, opt)
		if err != nil {
			return nil, err
		}
		runs = append(runs, res)
		if opt.Progress != nil {
			opt.Progress(fmt.Sprintf("%s run %d/%d", e.Name, r, opt.Runs))
		}
	}
	return Summarize(e, opt, runs), nil
}

// RunResult is one method's outcome in one run: the test score with the
// hyperparameters cross-validation chose.
type RunResult struct {
	Method  string  `json:"method"`
	Score   float64 `json:"score"`
	Rho     float64 `json:"rho"`
	Lambda0 float64 `json:"lambda0"`
	Seconds float64 `json:"seconds"`
}

// RunOnce runs the protocol for run r (1-based) of experiment e: split,
// cross-validate every method, refit and score. Independent runs can go to
// different workers; Summarize joins them. Reproduce is RunOnce for every
// run followed by Summarize, so both give the same numbers.
func RunOnce(e Experiment, r int, opt Options) ([]RunResult, error) {
	opt = opt.withDefaults()
	metric := MetricFor(e.Data.Kind)
	train, test, err := e.Split(r)
	if err != nil {
		return nil, fmt.Errorf("run %d: %w", r, err)
	}
	folds, err := e.Folds(train, opt.Folds, uint64(r))
	if err != nil {
		return nil, fmt.Errorf("run %d: %w", r, err)
	}
	probs := make([]*mtl.Problem, len(folds))
	for f := range folds {
		if probs[f], err = mtl.Prepare(folds[f].Train); err != nil {
			return nil, fmt.Errorf("run %d fold %d: %w", r, f+1, err)
		}
	}
	full, err := mtl.Prepare(train)
	if err != nil {
		return nil, fmt.Errorf("run %d: %w", r, err)
	}
	out := make([]RunResult, len(opt.Methods))
	for i, m := range opt.Methods {
		start := time.Now()
		if m.Fixed {
			// The paper fixes these methods' settings (docs/algorithms.md
			// §10): no cross-validation.
			cfg := m.Config
			cfg.Loss, cfg.Variant, cfg.Seed = e.Loss, opt.Variant, int64(r)
			score, err := FitScore(full, cfg, test)
			if err != nil {
				score = math.NaN()
			}
			out[i] = RunResult{Method: m.Name, Score: score, Seconds: time.Since(start).Seconds()}
			continue
		}
		cfgs := gridConfigs(e, m, opt)
		fit := func(point, fold int) (float64, error) {
			return FitScore(probs[fold], cfgs[point], folds[fold].Test)
		}
		best, _, err := GridSearch(len(cfgs), len(folds), fit, metric, opt.Workers)
		if err != nil {
			return nil, err
		}
		score, err := FitScore(full, cfgs[best], test)
		if err != nil {
			score = math.NaN()
		}
		out[i] = RunResult{Method: m.Name, Score: score, Rho: cfgs[best].Rho, Seconds: time.Since(start).Seconds()}
		if m.Config.SelfPaced {
			out[i].Lambda0 = cfgs[best].Lambda0
		}
	}
	return out, nil
}

// Summarize turns the per-run results of an experiment (runs[r][method], in
// opt.Methods order) into the table's cells: mean, standard deviation and
// error, and each self-paced method's paired t-test against its baseline.
func Summarize(e Experiment, opt Options, runs [][]RunResult) []*Cell {
	opt = opt.withDefaults()
	metric := MetricFor(e.Data.Kind)
	cells := make([]*Cell, len(opt.Methods))
	for i, m := range opt.Methods {
		c := &Cell{Method: m.Name, Dataset: e.Name, Metric: metric}
		for _, run := range runs {
			if i >= len(run) {
				continue
			}
			c.Scores = append(c.Scores, run[i].Score)
			c.Rho = append(c.Rho, run[i].Rho)
			if m.Config.SelfPaced {
				c.Lambda0 = append(c.Lambda0, run[i].Lambda0)
			}
			c.Seconds += run[i].Seconds
		}
		c.Mean, c.Std, c.SE = MeanStd(c.Scores)
		cells[i] = c
	}
	for i, m := range opt.Methods {
		if m.Baseline == "" {
			continue
		}
		for j, b := range opt.Methods {
			if b.Name != m.Baseline {
				continue
			}
			c := cells[i]
			t, _, p, err := PairedTTest(c.Scores, cells[j].Scores)
			if err == nil {
				c.T, c.P, c.Tested = t, p, true
				c.Better = p < 0.05 && metric.Better(c.Mean, cells[j].Mean)
				c.Worse = p < 0.05 && metric.Better(cells[j].Mean, c.Mean)
			}
		}
	}
	return cells
}

func (opt Options) withDefaults() Options {
	if opt.Runs <= 0 {
		opt.Runs = 10
	}
	if opt.Folds <= 0 {
		opt.Folds = 3
	}
	if opt.Variant == "" {
		opt.Variant = mtl.Paper
	}
	if opt.Methods == nil {
		opt.Methods = method.PaperTable(opt.Variant)
	}
	return opt
}

// gridConfigs lists a row's grid in order: ρ for baselines, (ρ, λ0) with ρ
// varying slowest for self-paced rows.
func gridConfigs(e Experiment, m method.Row, opt Options) []mtl.Config {
	base := m.Config
	base.Loss, base.Variant, base.Solver, base.MaxIter, base.H, base.CodeBugs = e.Loss, opt.Variant, opt.Solver, e.MaxIter, e.H, opt.CodeBugs
	var out []mtl.Config
	for _, rho := range e.RhoGrid {
		c := base
		c.Rho = rho
		if !m.Config.SelfPaced {
			out = append(out, c)
			continue
		}
		for _, l0 := range e.Lambda0Grid {
			c.Lambda0 = l0
			out = append(out, c)
		}
	}
	return out
}

// FitScore trains cfg on p and returns the task-averaged score on test
// (NaN with the error when the fit fails). Cross-validation and the
// table's refits score this way.
func FitScore(p *mtl.Problem, cfg mtl.Config, test *data.Dataset) (float64, error) {
	preds, err := FitPredict(p, cfg, test)
	if err != nil {
		return math.NaN(), err
	}
	_, mean := Score(p.Data.Kind, preds, test)
	return mean, nil
}

// FitPredict trains cfg on p and returns its predictions (margins) for
// test, one slice per task: FitScore's fit, for scores it does not
// compute (the pooled scores of tuning on own data).
func FitPredict(p *mtl.Problem, cfg mtl.Config, test *data.Dataset) ([][]float64, error) {
	preds, _, err := FitPredictStop(p, cfg, test)
	return preds, err
}

// FitPredictStop is FitPredict, with why the fit ended (mtl.StopCap when
// it reached the iteration cap before converging), which tuning reports
// beside a score of unfinished fits.
func FitPredictStop(p *mtl.Problem, cfg mtl.Config, test *data.Dataset) ([][]float64, mtl.StopReason, error) {
	l, last, err := Fit(p, cfg)
	if err != nil {
		return nil, "", err
	}
	preds, err := mtl.Predict(l, test)
	return preds, last.Stop, err
}

// Fit trains cfg's learner on p to its end and returns it with its last
// snapshot.
func Fit(p *mtl.Problem, cfg mtl.Config) (mtl.Learner, mtl.Snapshot, error) {
	l, err := method.New(p, cfg)
	if err != nil {
		return nil, mtl.Snapshot{}, err
	}
	last, err := mtl.Run(nil, l)
	if err != nil {
		return nil, mtl.Snapshot{}, err
	}
	return l, last, nil
}
