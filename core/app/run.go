package app

import (
	"fmt"
	"math"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
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
	problem *mtl.Problem // the prepared training set, shared with the comparisons
}

// NewRun splits d (unless it has a fixed split), prepares the training set
// and builds the learner; no step is taken yet.
func NewRun(d *Data, opt TrainOptions) (*Run, error) {
	if d == nil {
		return nil, fmt.Errorf("train: no data set")
	}
	train, test := d.Train, d.Test
	if train == nil {
		if opt.Train == 0 {
			opt.Train = DefaultTrain
		}
		var err error
		train, test, err = eval.SplitPerTask(d.All, opt.Train, d.All.Kind == data.Classification, opt.Seed)
		if err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
	}
	p, err := mtl.Prepare(train)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return newRunOn(p, test, opt.Config)
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

// Step advances the run by one step. A snapshot with a non-finite number
// is an error, so that NaN never reaches a chart.
func (r *Run) Step() (mtl.Snapshot, error) {
	snap, err := r.Learner.Step()
	if err != nil {
		return snap, fmt.Errorf("step: %w", err)
	}
	for name, v := range map[string][]float64{"tau": snap.Tau, "cost": snap.Cost, "loss": snap.Loss, "penalty": snap.Penalty} {
		for t, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return snap, fmt.Errorf("step: fit diverged: %s of task %s is %v", name, r.Train.Tasks[t].Name, x)
			}
		}
	}
	if math.IsNaN(snap.Objective) || math.IsInf(snap.Objective, 0) {
		return snap, fmt.Errorf("step: fit diverged: objective is %v", snap.Objective)
	}
	return snap, nil
}

// Finish steps the run until it is done and returns the last snapshot.
func (r *Run) Finish() (mtl.Snapshot, error) {
	var last mtl.Snapshot
	if h := r.Learner.History(); len(h) > 0 {
		last = h[len(h)-1]
	}
	for !r.Learner.Done() {
		s, err := r.Step()
		if err != nil {
			return s, err
		}
		last = s
	}
	return last, nil
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
	per, mean := eval.Score(r.Test.Kind, preds, r.Test)
	hist := r.Learner.History()
	ev := Evaluation{Metric: string(eval.MetricFor(r.Test.Kind)), Test: per, Mean: mean, Iter: len(hist), Done: r.Learner.Done(),
		EnteredAt: eval.EnteredAt(hist)}
	for i := range r.Test.Tasks {
		ev.Tasks = append(ev.Tasks, r.Test.Tasks[i].Name)
	}
	return ev, nil
}

// Comparisons returns the runs this run is compared with, built on the same
// training set and test set (method.Comparisons says which).
func (r *Run) Comparisons() ([]*Run, []method.Comparison, error) {
	cs, err := method.Comparisons(r.Config)
	if err != nil {
		return nil, nil, err
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
