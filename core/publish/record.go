package publish

import (
	"encoding/json"
	"fmt"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/session"
)

// RunFormat names a recorded run: the page's "Download the run as JSON"
// and a published page's recorded run.
const RunFormat = "spmtl-run"

// RunFile is a recorded run as the page keeps it and saves it: the page's
// settings, the data set's summary, the run's description, every
// snapshot with the test score after it, the final results of the run
// and of the runs it is compared with, and the fitted model.
type RunFile struct {
	Format string `json:"format"`
	// Made is when the run was recorded (RFC 3339, UTC); By says by what.
	Made string `json:"made,omitempty"`
	By   string `json:"by,omitempty"`
	// Settings are the page's settings (web/js/state.js: model, sp, rho,
	// lambda0, train, seed, ...), as text.
	Settings  map[string]string `json:"settings"`
	Data      session.Summary   `json:"data"`
	Run       RunInfo           `json:"run"`
	Snapshots []Snapshot        `json:"snapshots"`
	// Evals are the test score after each snapshot.
	Evals []StepEval `json:"evals"`
	// Results are keyed by role: "main", and "baseline" and "itl" when
	// the run is compared with them.
	Results map[string]Result `json:"results"`
	// Model is the model file (app.ModelFile, as spmtl train -save writes it).
	Model json.RawMessage `json:"model,omitempty"`
}

// RunInfo describes the run as the page's worker answers "start".
type RunInfo struct {
	session.RunInfo
	Comparisons []Comparison `json:"comparisons"`
}

// Comparison names a run the main run is compared with.
type Comparison struct {
	Role  string `json:"role"`
	Label string `json:"label"`
	// Config is the comparison's configuration, its ρ and κ among them
	// (ITL's may be its own: app.TrainOptions.ITLRho), as the page's
	// worker records it.
	Config *mtl.Config `json:"config,omitempty"`
}

// Snapshot is one step, with the line the page's status shows at the end.
type Snapshot struct {
	mtl.Snapshot
	StopMessage string `json:"stopMessage"`
}

// StepEval is the test score after a step: the mean and when each task
// was let in.
type StepEval struct {
	Metric    string    `json:"metric"`
	Mean      mtl.Float `json:"mean"`
	EnteredAt []int     `json:"enteredAt"`
}

// Result is a run's final test score (app.Evaluation, NaN written as null)
// and its label.
type Result struct {
	Label     string      `json:"label"`
	Metric    string      `json:"metric"`
	Tasks     []string    `json:"tasks"`
	Test      []mtl.Float `json:"test"`
	Mean      mtl.Float   `json:"mean"`
	Iter      int         `json:"iter"`
	Done      bool        `json:"done"`
	EnteredAt []int       `json:"enteredAt"`
	// Over is the mean over tasks with its standard error; Versus, for a
	// comparison, how the run compares with it, paired over tasks.
	Over   eval.TaskMean `json:"over"`
	Versus *eval.Versus  `json:"versus,omitempty"`
	// Config is a comparison's configuration (Comparison.Config); nil for
	// the run's own result.
	Config *mtl.Config `json:"config,omitempty"`
}

func resultOf(ev session.Evaluation, label string) Result {
	r := Result{Label: label, Metric: ev.Metric, Tasks: ev.Tasks, Mean: mtl.Float(ev.Mean), Iter: ev.Iter, Done: ev.Done, EnteredAt: ev.EnteredAt,
		Over: ev.Over, Versus: ev.Versus}
	for _, v := range ev.Test {
		r.Test = append(r.Test, mtl.Float(v))
	}
	return r
}

// Record trains a run on the data set with handle data in s as the page's
// worker does (web/js/worker.js): the run and the runs the catalogue
// compares it with on the same split, the run one step at a time with its
// test score after each, then the comparisons to their end. after, when
// set, is called after every step. The model file records trained, with
// the run's count of training rows.
func Record(s *session.Session, data int, opt app.TrainOptions, trained app.Trained, after func(mtl.Snapshot)) (*RunFile, error) {
	info, err := s.Train(session.TrainOptions{Dataset: data, TrainOptions: opt})
	if err != nil {
		return nil, err
	}
	defer s.Free(info.Handle)
	cs, err := s.Compare(info.Handle)
	if err != nil {
		return nil, err
	}
	rf := &RunFile{Format: RunFormat, Run: RunInfo{RunInfo: info}, Results: map[string]Result{}}
	for _, c := range cs {
		defer s.Free(c.Run.Handle)
		rf.Run.Comparisons = append(rf.Run.Comparisons, Comparison{Role: c.Role, Label: c.Label, Config: &c.Run.Config})
	}
	var ev session.Evaluation
	for done := false; !done; {
		snap, err := s.Step(info.Handle)
		if err != nil {
			return nil, err
		}
		if ev, err = s.Evaluate(info.Handle); err != nil {
			return nil, err
		}
		// ELLA's basis and codes are the model's, not the page's views'.
		if snap.Seq != nil {
			seq := *snap.Seq
			seq.L, seq.S = nil, nil
			snap.Seq = &seq
		}
		rf.Snapshots = append(rf.Snapshots, Snapshot{Snapshot: snap, StopMessage: snap.StopMessage()})
		rf.Evals = append(rf.Evals, StepEval{Metric: ev.Metric, Mean: mtl.Float(ev.Mean), EnteredAt: ev.EnteredAt})
		if after != nil {
			after(snap)
		}
		done = snap.Done
	}
	rf.Results["main"] = resultOf(ev, info.Name)
	for _, c := range cs {
		if _, err := s.Finish(c.Run.Handle); err != nil {
			return nil, fmt.Errorf("%s: %w", c.Label, err)
		}
		cev, err := s.Evaluate(c.Run.Handle)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Label, err)
		}
		res := resultOf(cev, c.Label)
		res.Config = &c.Run.Config
		rf.Results[c.Role] = res
	}
	trained.Rows = info.TrainRows
	m, err := s.ExportModel(info.Handle, trained, nil)
	if err != nil {
		return nil, err
	}
	if rf.Model, err = m.JSON(); err != nil {
		return nil, err
	}
	return rf, nil
}
