// Package session is the state behind the browser app, in pure Go: loaded
// data sets and training runs, addressed by integer handles, with every
// operation short enough to call once per animation frame. The wasm bridge
// only converts between JavaScript values and these types, so all of the
// app's behaviour is testable natively.
package session

import (
	"bytes"
	"fmt"
	"math"
	"sort"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/seq"
	"github.com/spmtl/spmtl/core/synth"
	"gonum.org/v1/gonum/mat"
)

// Session holds data sets and runs. It is not safe for concurrent use (the
// app runs it inside one Web Worker).
type Session struct {
	next     int
	datasets map[int]*dataset
	runs     map[int]*run
	sources  eval.Sources // real data sets for the reproduction
}

type dataset struct {
	all *data.Dataset
	// fixed train/test sets (generated data, or a split file)
	train, test *data.Dataset
	mask        []bool
}

type run struct {
	tr          *mtl.Trainer
	sq          seq.Learner // CL or ELLA instead of tr
	train, test *data.Dataset
}

// New returns an empty session.
func New() *Session {
	return &Session{datasets: map[int]*dataset{}, runs: map[int]*run{}}
}

// LoadOptions say how to read a data text.
type LoadOptions struct {
	// Name labels the data in messages (a file name). Default "data".
	Name string
	// Format is "csv", "sparse" or "" to detect it.
	Format string
	// TaskColumn and LabelColumn name the CSV columns (default task, y).
	TaskColumn, LabelColumn string
	// SplitText, when set, is a split file (row,split1,...) whose column
	// SplitColumn fixes the train/test split instead of a random one.
	SplitText, SplitColumn string
}

// TaskSummary describes one task of a loaded data set.
type TaskSummary struct {
	Name      string `json:"name"`
	Rows      int    `json:"rows"`
	Positives int    `json:"positives"`
}

// Summary describes a loaded data set.
type Summary struct {
	Handle       int           `json:"handle"`
	Name         string        `json:"name"`
	Tasks        []TaskSummary `json:"tasks"`
	Features     int           `json:"features"`
	Rows         int           `json:"rows"`
	Kind         string        `json:"kind"`
	Positive     string        `json:"positive"`
	Negative     string        `json:"negative"`
	FixedSplit   bool          `json:"fixedSplit"`
	FeatureNames []string      `json:"featureNames,omitempty"`
}

// Load reads a data text and returns its summary. Errors from the readers
// keep their "file:line:col: message" form.
func (s *Session) Load(text string, opt LoadOptions) (Summary, error) {
	if opt.Name == "" {
		opt.Name = "data"
	}
	ds, err := data.Read(bytes.NewReader([]byte(text)), opt.Name, data.Options{Format: opt.Format, TaskColumn: opt.TaskColumn, LabelColumn: opt.LabelColumn})
	if err != nil {
		return Summary{}, err
	}
	entry := &dataset{all: ds}
	if opt.SplitText != "" {
		mask, err := data.ReadSplitFile(bytes.NewReader([]byte(opt.SplitText)), opt.Name+" splits", opt.SplitColumn)
		if err != nil {
			return Summary{}, err
		}
		if entry.train, entry.test, err = data.SplitByMask(ds, mask); err != nil {
			return Summary{}, fmt.Errorf("split %s: %w", opt.Name, err)
		}
	}
	return s.add(entry), nil
}

// Generate makes one of the synthetic data sets ("syn1" or "syn2") with
// its own train/test split.
func (s *Session) Generate(name string, seed uint64) (Summary, error) {
	var res *synth.Result
	var err error
	switch name {
	case "syn1":
		res, err = synth.Syn1(synth.Syn1Options{Seed: seed})
	case "syn2":
		res, err = synth.Syn2(synth.Syn2Options{Seed: seed})
	default:
		err = fmt.Errorf("unknown generator %q (want syn1 or syn2)", name)
	}
	if err != nil {
		return Summary{}, err
	}
	all := &data.Dataset{Name: name, Features: res.Train.Features, Kind: data.Regression}
	for t := range res.Train.Tasks {
		a, b := &res.Train.Tasks[t], &res.Test.Tasks[t]
		ra, rb := a.X.RawMatrix(), b.X.RawMatrix()
		x := mat.NewDense(a.Rows()+b.Rows(), all.Features, append(append([]float64(nil), ra.Data...), rb.Data...))
		all.Tasks = append(all.Tasks, data.Task{Name: a.Name, X: x, Y: append(append([]float64(nil), a.Y...), b.Y...)})
	}
	return s.add(&dataset{all: all, train: res.Train, test: res.Test}), nil
}

func (s *Session) add(entry *dataset) Summary {
	s.next++
	h := s.next
	s.datasets[h] = entry
	ds := entry.all
	sum := Summary{Handle: h, Name: ds.Name, Features: ds.Features, Rows: ds.Rows(), Kind: ds.Kind.String(),
		Positive: ds.Positive, Negative: ds.Negative, FixedSplit: entry.train != nil}
	if len(ds.FeatureNames) <= 200 {
		sum.FeatureNames = ds.FeatureNames
	}
	for i := range ds.Tasks {
		t := &ds.Tasks[i]
		ts := TaskSummary{Name: t.Name, Rows: t.Rows()}
		for _, y := range t.Y {
			if ds.Kind == data.Classification && y > 0 {
				ts.Positives++
			}
		}
		sum.Tasks = append(sum.Tasks, ts)
	}
	return sum
}

// TrainOptions start a run on a loaded data set.
type TrainOptions struct {
	Dataset int
	Config  mtl.Config
	// Train is the training size per task: a count (≥ 1) or a fraction
	// (< 1), stratified for classification. Ignored when the data set has a
	// fixed split. Default 0.75.
	Train float64
	// Seed draws the split. The learner's own seed is Config.Seed.
	Seed uint64
	// Select is ELLA's task-selection rule (Config.Model "ella").
	Select string
}

// RunInfo describes a started run.
type RunInfo struct {
	Handle    int        `json:"handle"`
	Tasks     []string   `json:"tasks"`
	TrainRows int        `json:"trainRows"`
	TestRows  int        `json:"testRows"`
	Config    mtl.Config `json:"config"`
}

// Train splits the data set and starts a run; no iteration is done yet.
func (s *Session) Train(opt TrainOptions) (RunInfo, error) {
	entry, ok := s.datasets[opt.Dataset]
	if !ok {
		return RunInfo{}, fmt.Errorf("train: no data set with handle %d", opt.Dataset)
	}
	train, test := entry.train, entry.test
	if train == nil {
		if opt.Train == 0 {
			opt.Train = 0.75
		}
		var err error
		train, test, err = eval.SplitPerTask(entry.all, opt.Train, entry.all.Kind == data.Classification, opt.Seed)
		if err != nil {
			return RunInfo{}, fmt.Errorf("train: %w", err)
		}
	}
	p, err := mtl.Prepare(train)
	if err != nil {
		return RunInfo{}, fmt.Errorf("train: %w", err)
	}
	r := &run{train: train, test: test}
	cfg := opt.Config
	switch cfg.Model {
	case "cl", "ella":
		// The sequential baselines keep the authors' fixed settings.
		loss := mtl.Config{Loss: cfg.Loss}.Defaults(train.Kind == data.Classification).Loss
		if cfg.Model == "cl" {
			r.sq, err = seq.NewCL(p, seq.CLConfig{Loss: loss})
		} else {
			r.sq, err = seq.NewELLA(train, seq.ELLAConfig{Select: opt.Select, Loss: loss, Seed: uint64(cfg.Seed)})
		}
		cfg = mtl.Config{Model: cfg.Model, Loss: loss, MaxIter: len(train.Tasks), Seed: cfg.Seed}
	default:
		r.tr, err = mtl.NewTrainer(p, cfg)
		if err == nil {
			cfg = r.tr.Config()
		}
	}
	if err != nil {
		return RunInfo{}, fmt.Errorf("train: %w", err)
	}
	s.next++
	h := s.next
	s.runs[h] = r
	info := RunInfo{Handle: h, TrainRows: train.Rows(), TestRows: test.Rows(), Config: cfg}
	for i := range train.Tasks {
		info.Tasks = append(info.Tasks, train.Tasks[i].Name)
	}
	return info, nil
}

// Step advances a run by one outer iteration. A snapshot with a non-finite
// number is an error, so that NaN never reaches a chart.
func (s *Session) Step(handle int) (mtl.Snapshot, error) {
	r, ok := s.runs[handle]
	if !ok {
		return mtl.Snapshot{}, fmt.Errorf("step: no run with handle %d", handle)
	}
	var snap mtl.Snapshot
	var err error
	if r.sq != nil {
		snap, err = seqSnapshot(r.sq)
	} else {
		snap, err = r.tr.Step()
	}
	if err != nil {
		return snap, fmt.Errorf("step: %w", err)
	}
	for name, v := range map[string][]float64{"tau": snap.Tau, "cost": snap.Cost, "loss": snap.Loss, "penalty": snap.Penalty} {
		for t, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return snap, fmt.Errorf("step: fit diverged: %s of task %d is %v", name, t, x)
			}
		}
	}
	if math.IsNaN(snap.Objective) || math.IsInf(snap.Objective, 0) {
		return snap, fmt.Errorf("step: fit diverged: objective is %v", snap.Objective)
	}
	return snap, nil
}

// Evaluation is a run's test score.
type Evaluation struct {
	Metric string    `json:"metric"`
	Tasks  []string  `json:"tasks"`
	Test   []float64 `json:"test"` // per task; NaN where undefined (single-class AUC)
	Mean   float64   `json:"mean"`
	// Iter is the iteration the model is from.
	Iter int  `json:"iter"`
	Done bool `json:"done"`
}

// Evaluate scores a run's current model on its test set.
func (s *Session) Evaluate(handle int) (Evaluation, error) {
	r, ok := s.runs[handle]
	if !ok {
		return Evaluation{}, fmt.Errorf("evaluate: no run with handle %d", handle)
	}
	model, iter, done := r.state()
	preds, err := model.PredictDataset(r.test)
	if err != nil {
		return Evaluation{}, fmt.Errorf("evaluate: %w", err)
	}
	per, mean := eval.Score(r.test.Kind, preds, r.test)
	ev := Evaluation{Metric: string(eval.MetricFor(r.test.Kind)), Test: per, Mean: mean, Iter: iter, Done: done}
	for i := range r.test.Tasks {
		ev.Tasks = append(ev.Tasks, r.test.Tasks[i].Name)
	}
	return ev, nil
}

// Free releases a data set or run handle (unknown handles are ignored).
func (s *Session) Free(handle int) {
	delete(s.datasets, handle)
	delete(s.runs, handle)
}

// Handles lists the live handles (for tests and leak checks).
func (s *Session) Handles() []int {
	var h []int
	for k := range s.datasets {
		h = append(h, k)
	}
	for k := range s.runs {
		h = append(h, k)
	}
	sort.Ints(h)
	return h
}

func (r *run) state() (*mtl.Model, int, bool) {
	if r.sq != nil {
		return r.sq.Model(), len(r.sq.History()), r.sq.Done()
	}
	return r.tr.Model(), len(r.tr.History()), r.tr.Done()
}

// seqSnapshot steps a sequential learner and reports it like a self-paced
// iteration: τ is 1 for the task learned at this step and 0 elsewhere, so
// the heatmap shows the order in which tasks were learned.
func seqSnapshot(l seq.Learner) (mtl.Snapshot, error) {
	s, err := l.Step()
	if err != nil {
		return mtl.Snapshot{}, err
	}
	T := len(s.Scores)
	snap := mtl.Snapshot{Iter: s.Step, Tau: make([]float64, T), Cost: make([]float64, T), Loss: make([]float64, T),
		Penalty: make([]float64, T), TauChange: mtl.Float(math.NaN()), ObjChange: mtl.Float(math.NaN()), Done: s.Done, Converged: s.Done}
	if s.Done {
		snap.Stop = mtl.StopSingle
	}
	snap.Tau[s.Task] = 1
	for t, v := range s.Scores {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			snap.Cost[t] = v
		}
	}
	return snap, nil
}
