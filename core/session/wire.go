package session

import (
	"fmt"
	"math"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
)

// The page's requests and answers, as the WebAssembly bridge carries them
// in JSON: the names are the page's (web/js/api.js). A request starts from
// its SetDefaults, so that a member the page leaves out takes the default
// stated here.

// Handle names a data set, run or model: the request of compare, step,
// finish, evaluate, free and inspect.
type Handle struct {
	Handle int `json:"handle"`
}

// Search names a model search (the id TuneStart gave): tuneEnd's request.
type Search struct {
	ID int `json:"id"`
}

// Named is the request of header and importModel: the file's name, for
// messages (its text crosses beside the request).
type Named struct {
	Name string `json:"name"`
}

// SetDefaults names an unnamed file "data".
func (r *Named) SetDefaults() { r.Name = "data" }

// ModelName is importModel's request: Named, "model" by default.
type ModelName struct {
	Named
}

// SetDefaults names an unnamed model file "model".
func (r *ModelName) SetDefaults() { r.Name = "model" }

// PredictRequest is predict's: the model's (or finished run's) handle and
// the name of the file to predict (its text crosses beside the request),
// and what to do with a row missing a value: "refuse" (or nothing) or
// "omit", which predicts the others (app.PredictOptions.OmitMissing).
type PredictRequest struct {
	Handle
	Named
	Missing string `json:"missing,omitempty"`
	// NewTasks is what to do with a row of a task the model cannot
	// predict: "refuse" (or nothing) or "omit"
	// (app.PredictOptions.SkipUnknown).
	NewTasks string `json:"newTasks,omitempty"`
	// Tuned is the page's last model search on the data set (tune.js).
	Tuned *app.TuneResult `json:"tuned"`
}

// GenerateRequest makes one of the synthetic data sets.
type GenerateRequest struct {
	Name string `json:"name"`
	Seed uint64 `json:"seed"`
}

// SetDefaults seeds the generator with 1.
func (r *GenerateRequest) SetDefaults() { r.Seed = 1 }

// ExportRequest asks for a finished run's model file, with what the page
// says of its training data.
type ExportRequest struct {
	Handle
	app.Trained
	// Tuned is the page's last model search on the data set (tune.js).
	Tuned *app.TuneResult `json:"tuned"`
}

// SourceRequest registers a bundled data set for the reproduction (its
// data text crosses beside the request).
type SourceRequest struct {
	Name  string `json:"name"`
	Split string `json:"split"`
}

// TrainRequest is a run's options as the page sends them (train,
// tuneStart): the data set's handle, the learner's settings by the names
// of mtl.Config, and the split.
type TrainRequest struct {
	Data int `json:"data"`
	mtl.Config
	// Lambda0 is λ0 as a number, or as the text app.ParseLambda0 reads
	// ("auto", "auto*K" or a number).
	Lambda0 any `json:"lambda0"`
	// Seed draws the split and seeds the learner.
	Seed  uint64  `json:"seed"`
	Train float64 `json:"train"`
	All   bool    `json:"all"`
	// Folds is the model search's fold count (tuneStart; 0: app's default).
	Folds int `json:"folds"`
	// NewTasks tunes for tasks the file does not hold: the folds hold out
	// whole tasks (tuneStart; app.TuneOptions.NewTasks).
	NewTasks bool `json:"newTasks"`
	// ITLRho and ITLIntercept set the ITL the run is compared with
	// (app.TrainOptions.ITLRho): the page sends tune's choice for ITL.
	ITLRho       float64 `json:"itlRho"`
	ITLIntercept float64 `json:"itlIntercept"`
}

// SetDefaults seeds a run with 1.
func (r *TrainRequest) SetDefaults() { r.Seed = 1 }

// Options are the run's options. A λ0 text sets both of the config's λ0
// fields, except that an autoLambda0 the request gives stands when the
// text is a number.
func (r TrainRequest) Options() (TrainOptions, error) {
	c := r.Config
	switch v := r.Lambda0.(type) {
	case nil:
	case float64:
		c.Lambda0 = v
	case string:
		k := c.AutoLambda0
		if err := app.SetLambda0(&c, v); err != nil {
			return TrainOptions{}, fmt.Errorf("lambda0: %w", err)
		}
		if c.AutoLambda0 == 0 {
			c.AutoLambda0 = k
		}
	default:
		return TrainOptions{}, fmt.Errorf("lambda0: want a number, auto or auto*K, got %v", v)
	}
	if math.IsNaN(r.Train) {
		return TrainOptions{}, fmt.Errorf("train: want a number, got NaN")
	}
	c.Seed = int64(r.Seed)
	return TrainOptions{Dataset: r.Data, TrainOptions: app.TrainOptions{Config: c, Train: r.Train, Seed: r.Seed, All: r.All, ITLRho: r.ITLRho, ITLIntercept: r.ITLIntercept}}, nil
}

// ScoreRequest is tuneScore's: one configuration of a search's batch,
// scored on folds of a data set.
type ScoreRequest struct {
	Data   int        `json:"data"`
	Folds  int        `json:"folds"`
	Seed   uint64     `json:"seed"`
	Config mtl.Config `json:"config"`
	// NewTasks scores on folds of whole tasks (the search's NewTasks).
	NewTasks bool `json:"newTasks"`
}

// SetDefaults cuts the folds with seed 1.
func (r *ScoreRequest) SetDefaults() { r.Seed = 1 }

// SetDefaults selects run 1 of the paper's table, 3 folds, the paper
// variant.
func (o *ReproduceOptions) SetDefaults() {
	o.Run, o.Folds, o.Variant, o.Table = 1, 3, mtl.Paper, app.PaperTable
}

// SummarizeRequest joins a data set's runs (ReproduceRun's results) into
// its cells.
type SummarizeRequest struct {
	ReproduceOptions
	Runs [][]eval.RunResult `json:"runs"`
}

// RunResults are one run of a data set in the reproduction.
type RunResults struct {
	Dataset string           `json:"dataset"`
	Run     int              `json:"run"`
	Results []eval.RunResult `json:"results"`
}

// HeaderInfo is a CSV's columns as the intake reads them, and its
// delimiter's name ("comma", "semicolon", "tab"); both empty for the
// sparse format.
type HeaderInfo struct {
	Header    []string `json:"header"`
	Delimiter string   `json:"delimiter"`
}

// Header reads the header of a data text (or a file's bytes: app.Header).
func Header(text []byte, name string) (HeaderInfo, error) {
	h, d, err := app.Header(text, name)
	if err != nil || h == nil {
		return HeaderInfo{}, err
	}
	return HeaderInfo{Header: h, Delimiter: data.DelimiterName(d)}, nil
}

// Snapshot is a step of a run as the page draws it: mtl.Snapshot with the
// line on why the run stopped. Lambda, Tau, Cost, Loss and Penalty are the
// self-paced trainer's (one entry per task; nil for a sequential
// learner), Seq a sequential learner's.
type Snapshot struct {
	Iter        int       `json:"iter"`
	Objective   float64   `json:"objective"`
	SPObjective float64   `json:"spObjective"`
	TauChange   float64   `json:"tauChange"`
	ObjChange   float64   `json:"objChange"`
	Converged   bool      `json:"converged"`
	Done        bool      `json:"done"`
	Stop        string    `json:"stop"`
	StopMessage string    `json:"stopMessage"`
	Lambda      *float64  `json:"lambda"`
	Tau         []float64 `json:"tau"`
	Cost        []float64 `json:"cost,omitempty"`
	Loss        []float64 `json:"loss,omitempty"`
	Penalty     []float64 `json:"penalty,omitempty"`
	Seq         *SeqStep  `json:"seq"`
}

// SeqStep is a sequential learner's step: the task it learned, the order
// so far, every task's selection score (NaN for those learned).
type SeqStep struct {
	Task   int       `json:"task"`
	Order  []int     `json:"order"`
	Scores []float64 `json:"scores"`
}

// SnapshotOf is s as the page draws it.
func SnapshotOf(s mtl.Snapshot) Snapshot {
	out := Snapshot{Iter: s.Iter, Objective: s.Objective, SPObjective: s.SPObjective, TauChange: float64(s.TauChange),
		ObjChange: float64(s.ObjChange), Converged: s.Converged, Done: s.Done, Stop: string(s.Stop), StopMessage: s.StopMessage()}
	if s.Seq == nil {
		out.Lambda, out.Tau, out.Cost, out.Loss, out.Penalty = &s.Lambda, s.Tau, s.Cost, s.Loss, s.Penalty
		return out
	}
	seq := &SeqStep{Task: s.Seq.Task, Order: append([]int{}, s.Seq.Order...), Scores: make([]float64, len(s.Seq.Scores))}
	for i, v := range s.Seq.Scores {
		seq.Scores[i] = float64(v)
	}
	out.Seq = seq
	return out
}

// TunePoint is a scored configuration as the page carries it from a pool
// worker to the search: the pooled scores as 12 numbers (value, SE and N
// of RMSE, log-loss, Brier and AUC, in that order), the metric, and why it
// failed. Its held-out row losses travel beside it.
type TunePoint struct {
	Scores  []float64   `json:"scores"`
	Metric  eval.Metric `json:"metric"`
	Failure string      `json:"failure"`
	// Capped is app.TunePointResult.Capped.
	Capped int `json:"capped,omitempty"`
}

// PointOf is r as the page carries it.
func PointOf(r app.TunePointResult) TunePoint {
	p := TunePoint{Metric: r.Scores.Metric, Failure: r.Failure, Capped: r.Capped}
	for _, e := range []eval.Estimate{r.Scores.RMSE, r.Scores.LogLoss, r.Scores.Brier, r.Scores.AUC} {
		p.Scores = append(p.Scores, e.Value, e.SE, float64(e.N))
	}
	return p
}

// Result is the point read back, with its row losses (nil: none).
func (p TunePoint) Result(losses []float64) (app.TunePointResult, error) {
	f := p.Scores
	if len(f) != 12 {
		return app.TunePointResult{}, fmt.Errorf("scores: want 12 numbers, got %d", len(f))
	}
	est := func(i int) eval.Estimate { return eval.Estimate{Value: f[i], SE: f[i+1], N: int(f[i+2])} }
	s := eval.PooledScores{Metric: p.Metric, RMSE: est(0), LogLoss: est(3), Brier: est(6), AUC: est(9)}
	return app.TunePointResult{Scores: s, Losses: losses, Failure: p.Failure, Capped: p.Capped}, nil
}
