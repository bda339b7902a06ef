package main

import (
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
	webdata "github.com/spmtl/spmtl/web/data"
)

// dataFlags are the flags that read and split a data set, shared by the
// commands. Unset flags (zero values) take the defaults of core/app, or
// a bundled data set's preset.
type dataFlags struct {
	path, taskCol, labelCol, format string
	split, dataDir                  string
	train                           float64
	all                             bool // -train all
	drop, text                      string
	seed                            uint64
}

func (f *dataFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.path, "data", "", "data `file` (CSV or sparse text; the format is detected), or a bundled data set: "+strings.Join(app.BundleNames(), ", "))
	fs.StringVar(&f.format, "format", "", "data format: csv or sparse (default: detected from the text)")
	fs.StringVar(&f.taskCol, "task", "", "CSV column naming the task (default task)")
	fs.StringVar(&f.labelCol, "label", "", "CSV column holding the label (default y)")
	fs.StringVar(&f.split, "split", "", "split `file:column` (splits.csv:split1, or splits.csv:1) instead of a random split")
	fs.Var(trainFlag{f}, "train", fmt.Sprintf("training rows per task: a whole count (>= 1), a fraction (< 1), stratified for classification, or all (every row; no test score) (default %g, or the bundled data set's)", app.DefaultTrain))
	fs.StringVar(&f.drop, "drop", "", "comma-separated CSV `columns` to leave out (an id column, a free-text column)")
	fs.StringVar(&f.text, "text", "", "comma-separated CSV `columns` to read as words, one-hot encoded, even when their values look like numbers (0,1,2,3+)")
	fs.Uint64Var(&f.seed, "seed", 1, "random seed for the split and the learner")
	fs.StringVar(&f.dataDir, "data-dir", "", "read the bundled data sets from this `folder` instead of the copies built into spmtl")
}

// bundleFS is where the bundled data sets are read from.
func (f *dataFlags) bundleFS() fs.FS {
	if f.dataDir != "" {
		return os.DirFS(f.dataDir)
	}
	return webdata.FS
}

// load reads -data: a file, or (when no such file exists) a bundled data
// set, whose preset then fills the unset training size. It returns the
// bundle when -data named one.
func (f *dataFlags) load() (*app.Data, *app.Bundle, error) {
	if f.path == "" {
		return nil, nil, fmt.Errorf("-data is required: a data file or one of %s", strings.Join(app.BundleNames(), ", "))
	}
	if _, statErr := os.Stat(f.path); statErr != nil {
		b, err := app.LookupBundle(f.path)
		if err != nil {
			return nil, nil, fmt.Errorf("read data: %w (and %v)", statErr, err)
		}
		d, err := f.loadBundle(b)
		if err != nil {
			return nil, nil, err
		}
		if f.train == 0 {
			f.train = b.Preset.Train
		}
		return d, &b, nil
	}
	text, err := os.ReadFile(f.path)
	if err != nil {
		return nil, nil, fmt.Errorf("read data: %w", err)
	}
	opt := app.LoadOptions{Name: f.path, Format: f.format, TaskColumn: f.taskCol, LabelColumn: f.labelCol, Drop: f.dropped(), Text: columnList(f.text)}
	if f.split != "" {
		path, col := splitFlag(f.split)
		if opt.Splits, err = os.ReadFile(path); err != nil {
			return nil, nil, fmt.Errorf("split file: %w", err)
		}
		opt.SplitColumn, opt.SplitName = col, path
	}
	d, err := app.Load(text, opt)
	return d, nil, err
}

// loadBundle reads or generates a bundled data set; a bundle with split
// files uses column split1 unless -split names another column.
func (f *dataFlags) loadBundle(b app.Bundle) (*app.Data, error) {
	if b.Generated {
		return app.Generate(b.Name, f.seed)
	}
	text, err := fs.ReadFile(f.bundleFS(), b.Data)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", b.Data, err)
	}
	opt := app.LoadOptions{Name: b.Data, Bundled: true}
	if b.Splits != "" {
		if opt.Splits, err = fs.ReadFile(f.bundleFS(), b.Splits); err != nil {
			return nil, fmt.Errorf("read %s: %w", b.Splits, err)
		}
		opt.SplitColumn, opt.SplitName = "split1", b.Splits
		if f.split != "" {
			_, opt.SplitColumn = splitFlag(f.split)
		}
	}
	return app.Load(text, opt)
}

// splitFlag reads "file:column"; "file:3" means column split3.
func splitFlag(s string) (path, col string) {
	path, col, ok := strings.Cut(s, ":")
	if !ok {
		col = "split1"
	}
	if _, err := strconv.Atoi(col); err == nil {
		col = "split" + col
	}
	return path, col
}

// modelFlags are the learner settings; every flag defaults to "unset" (its
// zero value), which mtl.Config.Defaults fills in. An explicit value out
// of range, 0 included, is refused by check, never taken for "unset".
type modelFlags struct {
	cfg mtl.Config
}

func (m *modelFlags) register(fs *flag.FlagSet) {
	c := &m.cfg
	var names []string
	for _, mm := range method.All() {
		names = append(names, mm.Key)
	}
	def := mtl.Config{}.Defaults(false)
	fs.StringVar(&c.Model, "model", "", "model: "+strings.Join(names, ", ")+" (default "+def.Model+")")
	fs.StringVar(&c.Select, "select", "", "a sequential model's task selection rule (ella: random, infomax, diversity, diversity++)")
	fs.BoolVar(&c.SelfPaced, "selfpaced", false, "self-paced task weighting (without it: the MTL baseline)")
	fs.StringVar((*string)(&c.Tau), "tau", "", "tau rule: softmax or hard (default softmax)")
	fs.StringVar((*string)(&c.Variant), "variant", "", "paper or reference (the authors' code) (default paper)")
	fs.StringVar((*string)(&c.Solver), "solver", "", "W-step solver: exact or fista100 (default: exact for paper, fista100 for reference)")
	fs.StringVar((*string)(&c.Loss), "loss", "", "loss: squared or logistic (default: logistic for binary labels)")
	fs.Float64Var(&c.Rho, "rho", 0, fmt.Sprintf("regularization rho (default %g, or the bundled data set's)", def.Rho))
	fs.Var(lambda0Flag{c}, "lambda0", fmt.Sprintf("initial pace lambda0: a number, auto (the pace at which the easiest quarter of the tasks holds half of tau at the first iteration) or auto*K (default %g, or the bundled data set's)", def.Lambda0))
	fs.Float64Var(&c.Pace, "c", 0, fmt.Sprintf("pace growth c, lambda <- c*lambda (default %g)", def.Pace))
	fs.Float64Var(&c.Delta, "delta", 0, fmt.Sprintf("weight of hard tasks under the hard rule (default %g)", def.Delta))
	fs.IntVar(&c.H, "aso-h", 0, fmt.Sprintf("MTASO subspace dimension h (default %d)", def.H))
	fs.IntVar(&c.MaxIter, "maxiter", 0, fmt.Sprintf("outer iteration cap (default %d for a file, %d or the preset's for a bundled data set)", app.OwnMaxIter, def.MaxIter))
	fs.Float64Var(&c.Eps, "eps", 0, fmt.Sprintf("MTFL's perturbation epsilon (default %g)", def.Eps))
	fs.Float64Var(&c.Intercept, "intercept", 0, "shared intercept strength kappa: each task's intercept is pulled to the shared one by rho*kappa*(b - b0)^2 (default 0: free intercepts; tune chooses it)")
	fs.StringVar((*string)(&c.Scale), "scale", "", "data term: mean (per task, the paper's) or sum (per row) (default: sum for a file, mean for a bundled data set)")
	fs.StringVar((*string)(&c.PaceCost), "pace-cost", "", "self-paced task cost: train (the paper's training loss) or loo (leave-one-out) (default: loo for a file, train for a bundled data set)")
	fs.BoolVar(&c.CodeBugs, "code-bugs", false, "reproduce the authors' MTASO bug (W scaled by sqrt(rho) in place); off by default")
}

// flagRange is the range of a numeric flag: a finite number more than
// (or, with loIncluded, at least) lo and at most hi (+Inf: no bound).
type flagRange struct {
	flag string
	mtl.Range
}

// countFrom is the range of a count flag (-folds, -runs): a whole number
// of at least lo.
func countFrom(flag string, lo float64) flagRange {
	return flagRange{flag: flag, Range: mtl.Range{Lo: lo, Hi: mtl.NoBound, LoIncluded: true, Integer: true}}
}

// contains reports whether v is in the range (NaN and ±Inf are not).
func (r flagRange) contains(v float64) bool { return r.Contains(v) }

// String says the bounds ("at least 1 and at most 100000"), which the
// flag's message puts after "want a number".
func (r flagRange) String() string {
	lo := "more than"
	if r.LoIncluded {
		lo = "at least"
	}
	s := fmt.Sprintf("%s %g", lo, r.Lo)
	if r.Hi < mtl.NoBound {
		s += fmt.Sprintf(" and at most %g", r.Hi)
	}
	return s
}

// modelRanges are the ranges of the numeric learner flags: those of
// mtl.Config.Validate (TestFlagRangesAgreeWithValidate checks it). They
// are checked here because an explicit 0 would otherwise be taken for
// "unset" and replaced by the default, and so that the message states
// the bound.
var modelRanges = []flagRange{
	{flag: "rho", Range: mtl.RangeOf("rho")},
	paceRange,
	{flag: "delta", Range: mtl.RangeOf("delta")},
	{flag: "aso-h", Range: mtl.RangeOf("h")},
	{flag: "maxiter", Range: mtl.RangeOf("maxIter")},
	{flag: "eps", Range: mtl.RangeOf("eps")},
	{flag: "intercept", Range: mtl.RangeOf("intercept")},
}

// paceRange is the range of -c (and of figure pace's -values).
var paceRange = flagRange{flag: "c", Range: mtl.RangeOf("c")}

// checkRanges refuses a flag of fs that was given a value outside its
// range.
func checkRanges(fs *flag.FlagSet, ranges []flagRange) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		for _, r := range ranges {
			if r.flag != f.Name || err != nil {
				continue
			}
			v, perr := strconv.ParseFloat(f.Value.String(), 64)
			if perr != nil || !r.contains(v) {
				err = usageErrorf(fs, "-%s %s: want a number %s (or leave -%s out for the default)", f.Name, f.Value, r, f.Name)
			}
		}
	})
	return err
}

// check refuses learner flags given a value out of range.
func (m *modelFlags) check(fs *flag.FlagSet) error { return checkRanges(fs, modelRanges) }

// config returns the configuration: the flags, a bundle's preset for the
// unset ρ, λ0 and iteration cap, and seed as the learner's seed.
func (m *modelFlags) config(b *app.Bundle, seed uint64) mtl.Config {
	c := m.cfg
	if b != nil {
		if c.Rho == 0 {
			c.Rho = b.Preset.Rho
		}
		if c.Lambda0 == 0 && c.AutoLambda0 == 0 {
			c.Lambda0 = b.Preset.Lambda0
		}
		if c.MaxIter == 0 {
			c.MaxIter = b.Preset.MaxIter
		}
	}
	c.Seed = int64(seed)
	return c
}

// lambda0Flag reads -lambda0: a number, "auto" or "auto*K" (app.ParseLambda0).
type lambda0Flag struct{ c *mtl.Config }

func (f lambda0Flag) String() string {
	if f.c == nil {
		return ""
	}
	return app.Lambda0Text(*f.c)
}

func (f lambda0Flag) Set(s string) error { return app.SetLambda0(f.c, s) }

// dropped returns the -drop columns.
func (f *dataFlags) dropped() []string { return columnList(f.drop) }

// columnList returns the columns of a comma-separated list (-drop, -text).
func columnList(list string) []string {
	var out []string
	for _, c := range strings.Split(list, ",") {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// trainOptions returns the split settings of the flags.
func (f *dataFlags) trainOptions(cfg mtl.Config) app.TrainOptions {
	return app.TrainOptions{Config: cfg, Train: f.train, Seed: f.seed, All: f.all}
}

// trainFlag reads -train: a count, a fraction or "all".
type trainFlag struct{ f *dataFlags }

func (t trainFlag) String() string {
	if t.f == nil {
		return ""
	}
	if t.f.all {
		return "all"
	}
	if t.f.train == 0 {
		return ""
	}
	return strconv.FormatFloat(t.f.train, 'g', -1, 64)
}

func (t trainFlag) Set(s string) error {
	if strings.TrimSpace(s) == "all" {
		t.f.all, t.f.train = true, 0
		return nil
	}
	s = strings.TrimSpace(s)
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil || !(v > 0) || math.IsInf(v, 0):
		return fmt.Errorf("want a count, a fraction or all, got %q", s)
	case v == 1 && strings.TrimPrefix(s, "+") != "1":
		// 1.0 looks like 100% but, being 1 or more, is a count: one
		// training row per task.
		return fmt.Errorf("ambiguous: %s reads as 100%%, but 1 or more is a count of rows: for every row give -train all (no test score); for one training row per task, -train 1; for a fraction, a number below 1 (0.8)", s)
	case v > 1 && v != math.Trunc(v):
		return fmt.Errorf("a count of rows is a whole number, got %s; a fraction is below 1 (0.8)", s)
	}
	t.f.train, t.f.all = v, false
	return nil
}
