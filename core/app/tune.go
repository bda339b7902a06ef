package app

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
)

// The tuning grids for a visitor's own data (docs/algorithms.md §10): ρ,
// and λ0 as multiples κ of the automatic λ0 (§2.5), so that one grid
// carries over between data sets.
var (
	TuneRho   = []float64{1e-3, 1e-2, 1e-1, 1, 10, 100, 1000}
	TuneKappa = []float64{0.125, 0.25, 0.5, 1, 2, 4, 8}
)

// DefaultTuneFolds is how many folds a search cuts unless told (the
// command line's -folds, the page's Tune menu); TuneFoldChoices are the
// page's choices (a file of pairs needs 2).
const DefaultTuneFolds = 3

// TuneFoldChoices lists the folds the page's Tune menu offers.
var TuneFoldChoices = []int{2, 3, 5, 10}

// TuneOptions configure Tune.
type TuneOptions struct {
	// Config is the method and its fixed settings; ρ and λ0 are tuned.
	Config mtl.Config
	// Folds is k of k-fold cross-validation (0: DefaultTuneFolds); Seed
	// draws them.
	Folds int
	Seed  uint64
	// NewTasks holds out whole tasks instead of rows of every task: each
	// fold's tasks are predicted as tasks the model was not trained on
	// (its shared predictor, and the reading of their averages, §16), so
	// the search chooses for a visitor who will predict tasks the file
	// does not hold. Only models with a predictor for a new task
	// (method.Method.NewTask) are candidates.
	NewTasks bool
	// Rho and Kappa override the grids (Kappa applies to self-paced runs).
	Rho, Kappa []float64
	// Intercept overrides the grid of the shared intercept's strength κ
	// (default TuneIntercept on a visitor's dense data, else 0 alone).
	Intercept []float64
	// Workers fit grid points in parallel (default GOMAXPROCS).
	Workers int
	// Memory bounds each model's fits as TrainOptions.Memory bounds a
	// run's: 0 is mtl.DefaultBudget (the page's), a negative value no limit.
	Memory int64
}

// TuneResult is a cross-validation and its choice. Tune fills Models (every
// candidate model's best pooled score), Chosen and Reason; Rho, Kappa,
// Scores, Best and Config are the chosen model's own grid, the one table
// an older reader (and the page's per-family tune, through Choose) shows.
type TuneResult struct {
	// Metric names the scores: the pooled metric of Tune (rmse, logloss,
	// brier), or the mean over tasks of the page's grid (rmse, auc).
	Metric string    `json:"metric"`
	Folds  int       `json:"folds"`
	Rho    []float64 `json:"rho"`
	// Kappa are the multiples of the automatic λ0 (empty for a baseline).
	Kappa []float64 `json:"kappa,omitempty"`
	// Scores[i][j] is the mean CV score at Rho[i], Kappa[j] (one column for
	// a baseline); NaN where a fit failed.
	Scores [][]float64 `json:"scores"`
	// Best is the chosen point, Config its configuration.
	Best   [2]int     `json:"best"`
	Config mtl.Config `json:"config"`
	// Pooled is set when the scores are pooled over held-out rows (Tune)
	// rather than means over tasks.
	Pooled bool `json:"pooled,omitempty"`
	// NewTasks is set when the folds held out whole tasks, so that every
	// score is of tasks the fits were not trained on (TuneOptions.NewTasks).
	NewTasks bool `json:"newTasks,omitempty"`
	// Models are the candidates, simplest first (Simplicity); Chosen is
	// the index of the one chosen, Reason the sentence that says why, and
	// Search what was searched.
	Models []ModelScore `json:"models,omitempty"`
	Chosen int          `json:"chosen"`
	Reason string       `json:"reason,omitempty"`
	Search string       `json:"search,omitempty"`
	// LeftOut says which candidates a search that named no model left out,
	// and why.
	LeftOut []string `json:"leftOut,omitempty"`
	// Intercept is the grid of the shared intercept's strength κ the
	// baselines were tuned over.
	Intercept []float64 `json:"intercept,omitempty"`
	// Origin is the setting "origin" when the search moved the features'
	// origin (Origin.String: OriginMeans, t times the means, or one
	// column's value; the data set it was given is so from then on), and
	// OriginNote says why; empty otherwise.
	Origin     string `json:"origin,omitempty"`
	OriginNote string `json:"originNote,omitempty"`
}

// UnmarshalJSON reads a result whose failed points are null (JSON has no
// NaN) back as NaN, the worst score, never as 0.
func (res *TuneResult) UnmarshalJSON(b []byte) error {
	type plain TuneResult
	var in struct {
		plain
		Scores [][]*float64 `json:"scores"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*res = TuneResult(in.plain)
	res.Scores = make([][]float64, len(in.Scores))
	for i, row := range in.Scores {
		res.Scores[i] = make([]float64, len(row))
		for j, v := range row {
			res.Scores[i][j] = math.NaN()
			if v != nil {
				res.Scores[i][j] = *v
			}
		}
	}
	return nil
}

// MarshalJSON writes NaN scores (failed points) as null.
func (res TuneResult) MarshalJSON() ([]byte, error) {
	type plain TuneResult
	out := struct {
		plain
		Scores [][]*float64 `json:"scores"`
	}{plain: plain(res)}
	out.Scores = make([][]*float64, len(res.Scores))
	for i, row := range res.Scores {
		out.Scores[i] = make([]*float64, len(row))
		for j := range row {
			if v := row[j]; !math.IsNaN(v) && !math.IsInf(v, 0) {
				out.Scores[i][j] = &v
			}
		}
	}
	return json.Marshal(out)
}

// TuneFoldSet is what a search's points are scored on: its folds, their
// training parts prepared once for every point, and how a held-out part is
// predicted. The page's pool cuts the same set in every worker (the folds
// depend only on the data, their number, the seed and NewTasks).
type TuneFoldSet struct {
	Folds []eval.Fold
	Probs []*mtl.Problem
	// NewTasks says that each fold holds out whole tasks, predicted as
	// tasks the model was not trained on (TuneOptions.NewTasks).
	NewTasks bool
	// enc is how the data's features were made, for the reading of a new
	// task's averages (§16); nil for generated data.
	enc *data.Encoding
}

// NewTuneFoldSet cuts k folds of d and prepares their training parts:
// k folds of all of d's rows, per task (stratified for classification; a
// task with fewer than k rows trains in every fold and is scored in none),
// or with newTasks k folds of whole tasks (eval.TaskFolds).
func NewTuneFoldSet(d *Data, k int, seed uint64, newTasks bool) (*TuneFoldSet, error) {
	if k < 2 {
		return nil, fmt.Errorf("tune: %d folds, want 2 or more", k)
	}
	if err := foldsCanTest(d, k, newTasks); err != nil {
		return nil, err
	}
	fs := &TuneFoldSet{NewTasks: newTasks, enc: d.Encoding}
	var err error
	if fs.Folds, err = tuneFolds(d, k, seed, newTasks); err != nil {
		return nil, fmt.Errorf("tune %s: %w", d.All.Name, err)
	}
	fs.Probs = make([]*mtl.Problem, k)
	for f := range fs.Folds {
		if fs.Probs[f], err = mtl.Prepare(fs.Folds[f].Train); err != nil {
			return nil, fmt.Errorf("tune: fold %d: %w", f+1, err)
		}
	}
	return fs, nil
}

// tuneFolds cuts a search's k folds of d: of every task's rows
// (stratified for classification), or with newTasks of whole tasks.
func tuneFolds(d *Data, k int, seed uint64, newTasks bool) ([]eval.Fold, error) {
	if newTasks {
		return eval.TaskFolds(d.All, k, seed)
	}
	return eval.KFold(d.All, k, d.All.Kind == data.Classification, seed)
}

// foldsCanTest refuses, before any fit, k folds of which none would have
// a row to test on: eval.KFold deals a task's rows to the folds only when
// it has k rows or more. The search would otherwise fit every point and
// then find that none could be scored (2,000 tasks of one row took 20 s).
// With newTasks the folds hold out whole tasks, so there must be k tasks
// or more. It reads the tasks' sizes only: the page's learner plans a
// search without making its folds.
func foldsCanTest(d *Data, k int, newTasks bool) error {
	if newTasks {
		if T := len(d.All.Tasks); T < k {
			return fmt.Errorf("tune %s for new tasks: %s cannot make %d folds of whole tasks, each held out in turn (fewer folds, or tune on held-out rows of the tasks the file has)", d.All.Name, plural(T, "task"), k)
		}
		return nil
	}
	largest := 0
	for i := range d.All.Tasks {
		if d.All.Tasks[i].Rows() >= k {
			return nil
		}
		largest = max(largest, d.All.Tasks[i].Rows())
	}
	return &FoldsError{File: d.All.Name, Folds: k, Largest: largest}
}

// constantMargin is how much worse than a constant's (relatively) a
// chosen setting's CV score must be for tune's reason to say so: a fit
// that ties with one (0.7893 both, 1e-7 apart) is not worse.
const constantMargin = 0.005

// constantCV scores one value for every row on the search's folds
// (tuneFolds, as NewTuneFoldSet cuts them; the planner of the page's
// search holds no fold set, and cutting them is index work): each fold's held-out rows predicted by its
// training rows' mean label, or a classifier's by their share of the
// positive class, pooled by metric (RMSE or log-loss; ok is false for
// another metric, or a fold whose training rows hold one class). what
// names the value as a sentence does.
func constantCV(d *Data, opt TuneOptions, metric eval.Metric) (est eval.Estimate, what string, ok bool) {
	if metric != eval.RMSEMetric && metric != eval.LogLossMetric {
		return est, "", false
	}
	folds, err := tuneFolds(d, opt.Folds, opt.Seed, opt.NewTasks)
	if err != nil {
		return est, "", false
	}
	var pred, y []float64
	for _, f := range folds {
		var sum, n float64
		for i := range f.Train.Tasks {
			for _, v := range f.Train.Tasks[i].Y {
				if metric == eval.LogLossMetric && v > 0 || metric == eval.RMSEMetric {
					sum += v
				}
				n++
			}
		}
		if n == 0 {
			return est, "", false
		}
		c := sum / n
		if metric == eval.LogLossMetric {
			if c <= 0 || c >= 1 {
				return est, "", false
			}
			c = math.Log(c / (1 - c)) // the margin of the share
		}
		for i := range f.Test.Tasks {
			for _, v := range f.Test.Tasks[i].Y {
				pred, y = append(pred, c), append(y, v)
			}
		}
	}
	if len(y) == 0 {
		return est, "", false
	}
	if metric == eval.LogLossMetric {
		pos := "the positive class"
		if d.All.Positive != "" {
			pos = fmt.Sprintf("%q", d.All.Positive)
		}
		return eval.LogLoss(pred, y), fmt.Sprintf("the training rows' share of %s as its probability", pos), true
	}
	return eval.PooledRMSE(pred, y), "the training rows' mean", true
}

// FoldsError refuses k-fold cross-validation of a file whose every task
// has fewer than k rows (a file of matched pairs at 3 folds): no fold
// would have a row to test on. The command line names its -folds flag.
type FoldsError struct {
	File string
	// Folds is the k asked for; Largest the most rows a task has.
	Folds, Largest int
}

func (e *FoldsError) Error() string { return e.Text("") }

// Text is the refusal, naming flag (the command line's "-folds") where it
// says how many folds would serve; with flag "" it names the page's
// controls. A file of one-row tasks is sent to a search for new tasks,
// which holds out whole tasks: "train a chosen setting on every row" sent
// a matched-pairs file split into one-row tasks (lme4's twinstut) to
// train's defaults, whose log-loss was worse than one constant's.
func (e *FoldsError) Text(flag string) string {
	search := "Tune for tasks not in this file"
	if flag != "" {
		search = "tune -new-tasks"
	}
	fix := fmt.Sprintf("no task has two rows to hold one out; a search for new tasks (%s) scores the models on tasks held out whole, and each task's one row is what it predicts (is the task column the one that names each row's group?)", search)
	if e.Largest >= 2 {
		folds := fmt.Sprintf("%d folds", e.Largest)
		if flag != "" {
			folds += fmt.Sprintf(" (%s %d)", flag, e.Largest)
		}
		fix = fmt.Sprintf("%s would test the tasks of %d rows, or train a chosen setting on every row without a score", folds, e.Largest)
	}
	return fmt.Sprintf("tune %s: every task has fewer than %d rows, so no fold has a row to test on: %d-fold cross-validation needs tasks of %d rows or more; %s", e.File, e.Folds, e.Folds, e.Folds, fix)
}

// unscored says why a fit that succeeded gave no finite score on a test
// part (eval.Score is NaN when no task could be scored).
func unscored(test *data.Dataset, score float64, k int) error {
	switch {
	case test.Rows() == 0:
		// KFold deals a task's rows to the folds only when it has one per
		// fold; otherwise the task trains in every fold.
		return fmt.Errorf("every task has fewer than %d rows, so no fold has a row to test on: %d-fold cross-validation needs tasks of %d rows or more", k, k, k)
	default:
		return fmt.Errorf("the score is %v: the fitted model's predictions are not finite numbers", score)
	}
}
