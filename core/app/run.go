package app

import (
	"fmt"
	"math"
	"strings"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/internal/words"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
)

// DefaultTrain is the training size per task when none is given: a
// fraction, stratified for classification.
const DefaultTrain = 0.75

// TrainOptions start a run on a loaded data set.
type TrainOptions struct {
	// Config is the learner's configuration; its zero fields take the
	// defaults of mtl.Config.Defaults.
	Config mtl.Config
	// Train is the training size per task: a count (≥ 1) or a fraction
	// (< 1), stratified for classification. Ignored when the data set has
	// a fixed split. Default DefaultTrain.
	Train float64
	// Seed draws the split. The learner's own seed is Config.Seed.
	Seed uint64
	// All trains on every row (no test set, so no test score): the fit a
	// user saves to predict new rows.
	All bool
	// Memory is the most memory, in bytes, the fit may need by
	// mtl.Estimate before it is refused: 0 is mtl.DefaultBudget (the
	// page's), a negative value no limit (the command line's -memory).
	Memory int64
	// ITLRho and ITLIntercept are the setting of the ITL the run is
	// compared with (Comparisons): tune's choice for ITL on this data set,
	// where there is one. 0 leaves ITL at the run's own ρ and κ, which is
	// no comparison when that ρ is a multitask model's: at the ρ of 5·10⁷
	// that tune can choose for MMTL (its tasks share their slopes), ITL's
	// tasks, each pulled to 0 alone, keep no slope at all.
	ITLRho, ITLIntercept float64
}

// Run is a training run: a learner of the catalogue on a training set, and
// the test set it is scored on.
type Run struct {
	// Method is the catalogue entry of the learner.
	Method method.Method
	// Config is the configuration in force (defaults filled in).
	Config      mtl.Config
	Train, Test *data.Dataset
	// Learner is the learner itself.
	Learner mtl.Learner
	// Untested are the tasks with no test rows: too small to split, they
	// trained on all their rows and the test score leaves them out.
	Untested []int
	// Rounded counts the tasks whose share of training rows (a fraction
	// below one) came to less than one row, so that they train on one row
	// (eval.SplitPerTask); fraction is that share.
	Rounded  int
	fraction float64
	// Data is the data set the run was made from, and encoding its
	// encoding then (tune may move the data set's origin later: Data.Centre).
	Data       *Data
	encoding   *data.Encoding
	problem    *mtl.Problem // the prepared training set, shared with the comparisons
	fixedSplit bool         // the split came with the data (a split file)
	// itl is the compared ITL's (ρ, κ) (TrainOptions.ITLRho); ρ 0 is the
	// run's own.
	itl [2]float64
}

// NewRun splits d (unless it has a fixed split), prepares the training set
// and builds the learner; no step is taken yet.
func NewRun(d *Data, opt TrainOptions) (*Run, error) {
	if d == nil {
		return nil, fmt.Errorf("train: no data set")
	}
	opt.Config = configFor(d, opt.Config)
	if err := checkLoss(d, opt.Config); err != nil {
		return nil, err
	}
	train, test := d.Train, d.Test
	if opt.All {
		train, test = d.All, emptyLike(d.All)
	} else if train == nil {
		if opt.Train == 0 {
			opt.Train = DefaultTrain
		}
		var err error
		train, test, err = eval.SplitPerTask(d.All, opt.Train, d.All.Kind == data.Classification, opt.Seed)
		if err != nil {
			return nil, fmt.Errorf("train %s: %w", d.All.Name, err)
		}
	}
	if err := checkMemory(train, opt); err != nil {
		return nil, err
	}
	p, err := mtl.Prepare(train)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	r, err := newRunOn(p, test, opt.Config)
	if err != nil {
		return nil, err
	}
	r.Data, r.encoding = d, d.Encoding
	if opt.ITLRho < 0 || opt.ITLIntercept < 0 || math.IsNaN(opt.ITLRho) || math.IsNaN(opt.ITLIntercept) || math.IsInf(opt.ITLRho, 0) || math.IsInf(opt.ITLIntercept, 0) {
		return nil, fmt.Errorf("train: the compared ITL's setting must be 0 or above and finite, not rho %v, intercept %v", opt.ITLRho, opt.ITLIntercept)
	}
	r.itl = [2]float64{opt.ITLRho, opt.ITLIntercept}
	if !opt.All {
		r.Untested = eval.Untested(test)
		r.fixedSplit = d.Train != nil
	}
	if train == d.All || d.Train != nil || opt.Train >= 1 {
		return r, nil
	}
	r.fraction = opt.Train
	for i := range d.All.Tasks {
		if n := d.All.Tasks[i].Rows(); n >= 2 && opt.Train*float64(n) < 0.5 {
			r.Rounded++
		}
	}
	return r, nil
}

// ChosenBy reports whether res, a model search on the run's data set,
// chose the run's settings for the data as the run read it (a search that
// moved the features' origin after the run was made did not choose it for
// the run's rows). Settings a run does not use are not compared: the
// pace's when it is not self-paced, λ0 when it is a multiple of the
// automatic one (the run resolves it).
func (r *Run) ChosenBy(res *TuneResult) bool {
	if res == nil || r.Data == nil || r.encoding != r.Data.Encoding {
		return false
	}
	kind := r.Data.All.Kind == data.Classification
	return sameFit(r.Config.Defaults(kind), configFor(r.Data, res.Config).Defaults(kind))
}

// sameFit reports whether a and b (defaults filled in) fit the same model.
func sameFit(a, b mtl.Config) bool {
	for _, c := range []*mtl.Config{&a, &b} {
		if !c.SelfPaced {
			c.Tau, c.Lambda0, c.AutoLambda0, c.Pace, c.Delta, c.TauTol, c.PaceCost = "", 0, 0, 0, 0, 0, ""
		} else if c.AutoLambda0 > 0 {
			c.Lambda0 = 0
		}
	}
	return a == b
}

// RoundedText says when the share of training rows asked for came to less
// than one row in some tasks, which then train on one row: a fraction such
// as 0.0001 asked for a near-empty training set, and got one row per task
// without a word. Empty otherwise.
func (r *Run) RoundedText() string {
	if r.Rounded == 0 {
		return ""
	}
	noun := "tasks"
	if r.Rounded == 1 {
		noun = "task"
	}
	return fmt.Sprintf("The training share %g is less than one row in %d %s of %d, which train on one row each; give a count of rows (such as 10) for a small training set", r.fraction, r.Rounded, noun, len(r.Train.Tasks))
}

// checkMemory refuses a fit of train whose estimated memory (the run's
// model and the two it is compared with) is over opt.Memory, before any
// of it is allocated (docs/architecture.md, "Errors and panics").
func checkMemory(train *data.Dataset, opt TrainOptions) error {
	extra := mtl.NoExtra // a method not in the catalogue is refused later, by name
	if m, err := method.Lookup(opt.Config.Model); err == nil {
		extra = m.Memory
	}
	if err := fitsBudget(train, extra, opt.Memory); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}

// fitsBudget refuses the fits of a run on d (its model, of the extra
// memory given, and the two it is compared with) when their estimate is
// over budget bytes: 0 is mtl.DefaultBudget, a negative budget no limit.
func fitsBudget(d *data.Dataset, extra mtl.Memory, budget int64) error {
	return mtl.CheckBudget(mtl.Estimate(mtl.ShapeOf(d), extra, mtl.EstimateRuns), budgetOf(budget))
}

// budgetOf is the budget an option asks for: 0 for the default
// (mtl.DefaultBudget), below 0 for none.
func budgetOf(budget int64) int64 {
	if budget == 0 {
		return mtl.DefaultBudget
	}
	return budget
}

// checkLoss refuses the logistic loss on labels that are not two classes,
// naming where the third value first appears when the labels are a few
// small integers (a stray value among 0/1 labels).
func checkLoss(d *Data, cfg mtl.Config) error {
	if cfg.Loss != mtl.Logistic || d.All.Kind == data.Classification {
		return nil
	}
	if d.Table != nil && d.Table.Labels.Third != nil {
		th := d.Table.Labels.Third
		return &data.ParseError{File: th.File, Line: th.Line, Column: th.Column,
			Err: fmt.Errorf("%s: the logistic loss needs two classes; correct the labels or use the squared loss", d.Table.Labels.Note)}
	}
	return fmt.Errorf("train: the logistic loss needs two classes, and the labels of %s are numbers with more than two values (regression)", d.All.Name)
}

// emptyLike returns a data set with ds's tasks and no rows.
func emptyLike(ds *data.Dataset) *data.Dataset {
	out := &data.Dataset{Name: ds.Name, Features: ds.Features, FeatureNames: ds.FeatureNames, Kind: ds.Kind, Positive: ds.Positive, Negative: ds.Negative, Fixed: ds.Fixed}
	for i := range ds.Tasks {
		out.Tasks = append(out.Tasks, ds.Tasks[i].Subset(nil))
	}
	return out
}

// ThinTestRows is the fewest test rows a task's score is read without a
// caution: below it, ThinText names the task.
const ThinTestRows = 3

// ThinText names the tasks scored on fewer than ThinTestRows test rows
// (one or two: tiny tasks of a random split), whose scores are noisy and
// count as much in the mean over tasks as any other's; "" when none is.
// (A task of one test row set a run's mean on a visitor's file, unsaid.)
// name writes a task's name (nil: as it is; the command line quotes one
// that holds a control character).
func (r *Run) ThinText(name func(string) string) string {
	if name == nil {
		name = func(s string) string { return s }
	}
	var parts []string
	n := 0
	for i := range r.Test.Tasks {
		k := r.Test.Tasks[i].Rows()
		if k == 0 || k >= ThinTestRows {
			continue
		}
		n++
		if len(parts) < 6 {
			parts = append(parts, fmt.Sprintf("%s (%d)", name(r.Test.Tasks[i].Name), k))
		}
	}
	switch {
	case n == 0:
		return ""
	case n > len(parts):
		parts = append(parts, "and "+words.Grouped(int64(n-len(parts)))+" more")
	}
	noun, verb := "tasks are", "their scores are"
	if n == 1 {
		noun, verb = "task is", "its score is"
	}
	return fmt.Sprintf("%s %s tested on fewer than %d rows: %s; %s noisy, and the mean over tasks counts each task alike", words.Grouped(int64(n)), noun, ThinTestRows, strings.Join(parts, ", "), verb)
}

// IdleText says, when the run's settings leave its method nothing to share
// on this data (method.Method.Idle: MTASO with h at least the number of
// features), why and what to change; empty otherwise. Tune leaves such a
// model out; a run asked for is trained all the same.
func (r *Run) IdleText() string {
	why := r.Method.Idle(r.Config, r.Train.Features)
	if why == "" {
		return ""
	}
	return fmt.Sprintf("%s; give h below %d to share a subspace", why, r.Train.Features)
}

// UntestedText names the tasks too small to test: "2 tasks too small to
// test: School 48 (2 rows), School 61 (1 row)"; empty when there are none.
// name writes a task's name, as for ThinText.
func (r *Run) UntestedText(name func(string) string) string {
	if len(r.Untested) == 0 {
		return ""
	}
	if name == nil {
		name = func(s string) string { return s }
	}
	var parts []string
	for k, t := range r.Untested {
		if k == 6 {
			parts = append(parts, "and "+words.Grouped(int64(len(r.Untested)-k))+" more")
			break
		}
		n := r.Train.Tasks[t].Rows()
		unit := "rows"
		if n == 1 {
			unit = "row"
		}
		parts = append(parts, fmt.Sprintf("%s (%d %s)", name(r.Train.Tasks[t].Name), n, unit))
	}
	noun, their := "tasks", "their"
	if len(r.Untested) == 1 {
		noun, their = "task", "its"
	}
	if r.fixedSplit {
		return fmt.Sprintf("%d %s with no test rows in the split file, left out of the test score: %s", len(r.Untested), noun, strings.Join(parts, ", "))
	}
	return fmt.Sprintf("%d %s too small to test, trained on all %s rows: %s", len(r.Untested), noun, their, strings.Join(parts, ", "))
}

// newRunOn builds a run of cfg on a prepared training set.
func newRunOn(p *mtl.Problem, test *data.Dataset, cfg mtl.Config) (*Run, error) {
	m, err := method.Lookup(cfg.Model)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	cfg.Model = m.Key
	l, err := method.New(p, cfg)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	cfg = cfg.Defaults(p.Data.Kind == data.Classification)
	if m.Kind == method.Sequential {
		cfg.MaxIter = p.Tasks() // one step per task
	}
	return &Run{Method: m, Config: cfg, Train: p.Data, Test: test, Learner: l, problem: p}, nil
}

// Name is the run's label: "spMTFL", "ELLA-infomax".
func (r *Run) Name() string { return r.Method.Name(r.Config) }

// Tasks returns the task names, in order.
func (r *Run) Tasks() []string {
	out := make([]string, len(r.Train.Tasks))
	for i := range r.Train.Tasks {
		out[i] = r.Train.Tasks[i].Name
	}
	return out
}

// Step advances the run by one step (mtl.Step, with the run's check): a
// snapshot with a non-finite number is an error, so that NaN never
// reaches a chart. The page steps its runs this way, one call per step.
func (r *Run) Step() (mtl.Snapshot, error) {
	snap, err := mtl.Step(r.Learner, r.check)
	if err != nil {
		return snap, fmt.Errorf("step: %w", err)
	}
	return snap, nil
}

// Finish steps the run until it is done (mtl.Run, with the run's check,
// then recs: the command line reports a long run's progress with one) and
// returns the last snapshot.
func (r *Run) Finish(recs ...mtl.Recorder) (mtl.Snapshot, error) {
	last, err := mtl.Run(nil, r.Learner, append([]mtl.Recorder{r.check}, recs...)...)
	if err != nil {
		return last, fmt.Errorf("step: %w", err)
	}
	return last, nil
}

// check is the recorder that refuses a snapshot holding a number that is
// not finite, naming the task.
func (r *Run) check(_ mtl.Learner, snap mtl.Snapshot) error {
	for name, v := range map[string][]float64{"tau": snap.Tau, "cost": snap.Cost, "loss": snap.Loss, "penalty": snap.Penalty} {
		for t, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("fit diverged: %s of task %s is %v", name, r.Train.Tasks[t].Name, x)
			}
		}
	}
	if math.IsNaN(snap.Objective) || math.IsInf(snap.Objective, 0) {
		return fmt.Errorf("fit diverged: objective is %v", snap.Objective)
	}
	return nil
}

// Evaluation is a run's test score.
type Evaluation struct {
	Metric string   `json:"metric"`
	Tasks  []string `json:"tasks"`
	// Test is the score per task; NaN where undefined (a single-class AUC).
	Test []float64 `json:"test"`
	Mean float64   `json:"mean"`
	// Iter is the step the model is from; Done is set when no further
	// step would change it.
	Iter int  `json:"iter"`
	Done bool `json:"done"`
	// EnteredAt is, per task, when the learner let the task in
	// (eval.EnteredAt; 0: not yet).
	EnteredAt []int `json:"enteredAt"`
}

// Evaluate scores the run's current model on its test set.
func (r *Run) Evaluate() (Evaluation, error) {
	preds, err := r.Learner.Model().PredictDataset(r.Test)
	if err != nil {
		return Evaluation{}, fmt.Errorf("evaluate: %w", err)
	}
	return r.Score(preds), nil
}

// Score scores predictions of the run's test set, preds[t][i] for row i of
// test task t (what the current model's PredictDataset gives), as Evaluate
// does; a caller that needs the predictions too predicts once.
func (r *Run) Score(preds [][]float64) Evaluation {
	per, mean := eval.Score(r.Test.Kind, preds, r.Test)
	hist := r.Learner.History()
	ev := Evaluation{Metric: string(eval.MetricFor(r.Test.Kind)), Test: per, Mean: mean, Iter: len(hist), Done: r.Learner.Done(),
		EnteredAt: eval.EnteredAt(hist)}
	for i := range r.Test.Tasks {
		ev.Tasks = append(ev.Tasks, r.Test.Tasks[i].Name)
	}
	return ev
}

// Comparisons returns the runs this run is compared with, built on the same
// training set and test set (method.Comparisons says which).
func (r *Run) Comparisons() ([]*Run, []method.Comparison, error) {
	cs, err := method.Comparisons(r.Config)
	if err != nil {
		return nil, nil, err
	}
	for i := range cs {
		if cs[i].Role == "itl" && r.itl[0] > 0 {
			cs[i].Config.Rho, cs[i].Config.Intercept = r.itl[0], r.itl[1]
		}
	}
	var runs []*Run
	for _, c := range cs {
		cr, err := newRunOn(r.problem, r.Test, c.Config)
		if err != nil {
			return nil, nil, fmt.Errorf("comparison %s: %w", c.Label, err)
		}
		runs = append(runs, cr)
	}
	return runs, cs, nil
}
