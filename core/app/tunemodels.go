package app

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/internal/words"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
)

// TuneIntercept is the grid of κ, the shared intercept's strength
// (Config.Intercept, docs/algorithms.md §1.4), crossed with TuneRho for
// the baselines on a visitor's own data; 0 keeps free intercepts.
var TuneIntercept = []float64{0, 0.01, 0.1, 1}

// ModelScore is one candidate model of a tuning: the best pooled CV score
// over its grid and the configuration chosen for it.
type ModelScore struct {
	// Name is the model's label ("spMMTL"); Key and SelfPaced make it.
	Name      string `json:"name"`
	Key       string `json:"key"`
	SelfPaced bool   `json:"selfPaced"`
	// Best is the best pooled CV score over the model's grid, with its SE;
	// models are compared by it.
	Best eval.Estimate `json:"best"`
	// Config is the grid point chosen for the model: the one-SE rule's
	// (pickPoint), not always the best. Score is its score, Scores all of
	// its pooled scores.
	Config mtl.Config        `json:"config"`
	Score  eval.Estimate     `json:"score"`
	Scores eval.PooledScores `json:"scores"`
	// Points is the number of grid points tried; Failed of them could not
	// be scored. Failure is the first reason, when none could.
	Points  int    `json:"points"`
	Failed  int    `json:"failed"`
	Failure string `json:"failure,omitempty"`
	// FailedNote says, when some points failed and others scored, how
	// many and why the first did (failedNote): the table's count alone
	// said "1 of 17" and nothing else.
	FailedNote string `json:"failedNote,omitempty"`
	// CappedNote says, when the chosen setting's fits reached the
	// iteration cap on some fold, that its score is that of unfinished
	// fits, and at how many of the grid's points that happened
	// (cappedNote).
	CappedNote string `json:"cappedNote,omitempty"`
	// Flat says when a self-paced model's λ0 grid is flat (flatLambda0):
	// every multiple within one standard error of the best.
	Flat string `json:"flat,omitempty"`
	// BaselineTies says, with Flat, that the baseline without self-pacing
	// ties with this model on the same rows too (paceAgainstBaseline): then
	// self-pacing, not only λ0's value, makes no difference.
	BaselineTies bool `json:"baselineTies,omitempty"`
	// Setting says how Config was chosen when not by the one-SE rule
	// alone: SettingLikelihood; SettingNote says it in words.
	Setting     string `json:"setting,omitempty"`
	SettingNote string `json:"settingNote,omitempty"`
}

// SettingLikelihood is ModelScore.Setting for a model whose ρ and κ are
// their restricted maximum likelihood estimate (docs/algorithms.md §15),
// chosen because CV scored it within one standard error of the best point.
const SettingLikelihood = "reml"

// gridPoint is one configuration of a tuning and its pooled CV scores.
type gridPoint struct {
	cfg    mtl.Config
	scores eval.PooledScores
	est    eval.Estimate // the tuning metric's
	err    error
	// losses are the held-out rows' losses behind est (eval.RowLosses),
	// for paired comparisons.
	losses []float64
	// capped is how many folds' fits reached the iteration cap.
	capped int
}

// tuner scores a batch of configurations in a pool of goroutines on the
// folds it holds (Tune's own scorer; the page scores in its workers).
type tuner struct {
	ctx      context.Context
	opt      TuneOptions
	folds    *TuneFoldSet
	metric   eval.Metric
	progress func(finished int) // points of the batch finished so far
	done     int
	mu       sync.Mutex
}

// family is a candidate model: a method and whether it is self-paced.
type family struct {
	key       string
	selfPaced bool
}

// families returns the candidates of opt, simplest first: every parallel
// method the catalogue ranks by simplicity (method.BySimplicity), with and
// without self-pacing, when opt names no model; the named one otherwise
// (its self-paced version with Config.SelfPaced). With SelfPaced and no
// model, the self-paced versions only.
func families(opt TuneOptions) ([]family, error) {
	if opt.Config.Model == "" {
		var out []family
		for _, m := range method.BySimplicity() {
			if m.Fixed || m.Kind != method.Parallel {
				continue
			}
			if !opt.Config.SelfPaced {
				out = append(out, family{key: m.Key})
			}
			if m.SelfPaced {
				out = append(out, family{key: m.Key, selfPaced: true})
			}
		}
		return out, nil
	}
	m, err := method.Lookup(opt.Config.Model)
	if err != nil {
		return nil, err
	}
	if m.Fixed {
		return nil, fmt.Errorf("tune: %s keeps the authors' fixed settings; there is nothing to tune", m.Key)
	}
	if err := m.Check(opt.Config); err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	if opt.NewTasks && !m.NewTask {
		return nil, fmt.Errorf("tune: %s predicts no task it was not trained on, so it cannot be tuned for new tasks: tune %s on held-out rows of the file's tasks, or tune for new tasks a model that predicts them (%s)", m.Name(opt.Config), m.Name(opt.Config), newTaskModels())
	}
	return []family{{key: m.Key, selfPaced: opt.Config.SelfPaced}}, nil
}

// newTaskModels names the tunable models that predict a task they were
// not trained on: "STL, MMTL and MTFL-mean".
func newTaskModels() string { return words.List(method.NewTaskLabels()) }

// interceptGrid is the κ grid for d: TuneIntercept on a visitor's own
// dense data, without 0 for a classifier or a file with task-level
// covariates; 0 alone on the bundled data sets
// (the paper's models) and where the squared loss's W-step takes its span
// form, which refuses κ > 0 (§1.4).
func interceptGrid(d *Data, opt TuneOptions) []float64 {
	if opt.Intercept != nil {
		return opt.Intercept
	}
	if !d.Own {
		return []float64{0}
	}
	if d.All.Kind == data.Classification {
		// A classifier on own data never has free intercepts (§1.4), and
		// the logistic loss takes κ in every form.
		return TuneIntercept[1:]
	}
	if d.All.Sparse() {
		return []float64{0}
	}
	if f := d.All.Features; f > 64 {
		for t := range d.All.Tasks {
			if d.All.Tasks[t].Rows() < f {
				return []float64{0}
			}
		}
	}
	if len(d.All.Fixed) > 0 {
		// A task-level covariate (constant within every task) is what free
		// intercepts take first: its shared weight then stays 0, and a
		// new task is predicted without it (nlme's BodyWeight with a
		// quarter of the rats held out: Diet lost, RMSE 139 against
		// lmer's 40; docs/findings.md). CV on known tasks cannot tell the
		// two apart, so free intercepts are not a candidate here.
		return TuneIntercept[1:]
	}
	return TuneIntercept
}

// scoreAll scores cfgs in the worker pool, in order; a point that cannot
// be scored keeps its reason. It stops early when ctx is done.
func (tu *tuner) scoreAll(cfgs []mtl.Config) []TunePointResult {
	tu.done = 0
	out := make([]TunePointResult, len(cfgs))
	jobs := make(chan int)
	var wg sync.WaitGroup
	workers := tu.opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				out[i] = tu.folds.Score(cfgs[i])
				tu.tick()
			}
		}()
	}
	for i := range cfgs {
		if tu.ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return out
}

// tick counts one point of the batch finished and reports it.
func (tu *tuner) tick() {
	tu.mu.Lock()
	defer tu.mu.Unlock()
	tu.done++
	if tu.progress != nil {
		tu.progress(tu.done)
	}
}

// TunePointResult is one configuration's pooled CV scores, the held-out
// rows' losses behind the tuning metric (nil when it could not be scored)
// and, when it could not, why.
type TunePointResult struct {
	Scores  eval.PooledScores `json:"scores"`
	Losses  []float64         `json:"-"`
	Failure string            `json:"failure,omitempty"`
	// Capped is how many of the folds' fits stopped at the iteration cap
	// without converging: the score is then that of unfinished fits.
	Capped int `json:"capped,omitempty"`
}

// Score scores cfg on the folds: what a worker of a tuning pool computes
// for each configuration a TuneSearch asks for. It is fitted on every
// fold's training part and the held-out rows of all the folds are scored
// together (pooled); a point that cannot be scored says why in Failure
// (the first fold whose fit failed, or no finite score).
func (fs *TuneFoldSet) Score(cfg mtl.Config) TunePointResult {
	s, losses, capped, err := fs.scores(cfg)
	r := TunePointResult{Scores: s, Losses: losses, Capped: capped}
	if err != nil {
		r.Failure, r.Losses = err.Error(), nil
	}
	return r
}

// scores is Score's work: the pooled scores, the held-out rows' losses
// behind the tuning metric (nil when the point could not be scored) and
// how many of the folds' fits reached the iteration cap.
func (fs *TuneFoldSet) scores(cfg mtl.Config) (eval.PooledScores, []float64, int, error) {
	kind := data.Regression
	if len(fs.Probs) > 0 {
		kind = fs.Probs[0].Data.Kind
	}
	logistic := cfg.Defaults(kind == data.Classification).Loss == mtl.Logistic
	undefined := eval.Pooled(kind, logistic, nil, nil)
	var held eval.Held
	var sizes []int // the held-out tasks' rows, when whole tasks are held out
	capped := 0
	for f := range fs.Folds {
		var preds [][]float64
		var stop mtl.StopReason
		var err error
		if fs.NewTasks {
			preds, stop, err = fs.predictNew(f, cfg, logistic)
		} else {
			preds, stop, err = eval.FitPredictStop(fs.Probs[f], cfg, fs.Folds[f].Test)
		}
		if err != nil {
			return undefined, nil, 0, fmt.Errorf("fold %d of %d: %w", f+1, len(fs.Folds), err)
		}
		if stop == mtl.StopCap {
			capped++
		}
		held.Add(preds, fs.Folds[f].Test)
		if fs.NewTasks {
			for t := range fs.Folds[f].Test.Tasks {
				sizes = append(sizes, fs.Folds[f].Test.Tasks[t].Rows())
			}
		}
	}
	if len(held.Y) == 0 {
		return undefined, nil, 0, fmt.Errorf("fold 1 of %d: %w", len(fs.Folds), unscored(fs.Folds[0].Test, math.NaN(), len(fs.Folds)))
	}
	s := eval.Pooled(kind, logistic, held.Margin, held.Y)
	if v := s.Of(s.Metric); !v.OK() {
		return s, nil, 0, fmt.Errorf("the pooled %s is %v: the fitted model's predictions are not finite numbers", s.Metric, v.Value)
	}
	losses := eval.RowLosses(s.Metric, logistic, held.Margin, held.Y)
	if fs.NewTasks {
		// A held-out task's rows share its level's error: the standard
		// errors, and the paired comparisons, count whole tasks (§17).
		s = eval.Clustered(s, logistic, held.Margin, held.Y, sizes)
		losses = eval.GroupLosses(losses, sizes)
	}
	return s, losses, capped, nil
}

// predictNew fits cfg on fold f's training tasks and predicts its held-out
// tasks as a saved model predicts a task it was not trained on: with the
// shared predictor (sharedPredictor), its intercept moved by the reading
// of the task's averages when the fit has one (fitBetween, §16). So a
// search for new tasks scores what the model it saves will do for them.
func (fs *TuneFoldSet) predictNew(f int, cfg mtl.Config, logistic bool) ([][]float64, mtl.StopReason, error) {
	l, last, err := eval.Fit(fs.Probs[f], cfg)
	if err != nil {
		return nil, "", err
	}
	m := l.Model()
	var theta *mtl.Theta
	if th, ok := l.(thetaHolder); ok {
		theta = th.Theta()
	}
	var tau []float64
	if cfg.SelfPaced {
		tau = last.Tau
	}
	w0, b0, _ := sharedPredictor(cfg.Model, m.W, m.B, theta, tau)
	if w0 == nil {
		mt, _ := method.Lookup(cfg.Model)
		return nil, "", fmt.Errorf("%s predicts no task it was not trained on", mt.Name(cfg))
	}
	var bt *Between
	if !logistic {
		bt = fitBetween(fs.Probs[f].Data, fs.enc, w0, b0)
	}
	// Each held-out task takes the shared weights and its own intercept.
	test := fs.Folds[f].Test
	fresh := &mtl.Model{Features: len(w0)}
	for t := range test.Tasks {
		b := b0
		if bt != nil {
			adj, _, _ := bt.adjust(&test.Tasks[t])
			b += adj
		}
		fresh.Names, fresh.W, fresh.B = append(fresh.Names, test.Tasks[t].Name), append(fresh.W, w0), append(fresh.B, b)
	}
	preds, err := fresh.PredictDataset(test)
	return preds, last.Stop, err
}

// withinOneSE reports whether e is within one standard error of best (the
// best's SE; an undefined SE counts as 0). An undefined e never is.
func withinOneSE(m eval.Metric, e, best eval.Estimate) bool {
	if !e.OK() || !best.OK() {
		return false
	}
	se := best.SE
	if math.IsNaN(se) {
		se = 0
	}
	if m.HigherIsBetter() {
		return e.Value >= best.Value-se
	}
	return e.Value <= best.Value+se
}

// bestOf returns the index of the first best estimate; -1 when none is
// defined.
func bestOf(m eval.Metric, ests []eval.Estimate) int {
	best := -1
	for i, e := range ests {
		if e.OK() && (best < 0 || m.Better(e.Value, ests[best].Value)) {
			best = i
		}
	}
	return best
}

// pickPoint applies the one-SE rule to a grid: best is the first best
// point; chosen is, among the points within one SE of it, the one with the
// largest simpler[i] (a larger ρ shrinks more; a larger multiple of λ0
// weighs the tasks more evenly), the better score on a tie. Both are -1
// when no point is scored.
func pickPoint(m eval.Metric, ests []eval.Estimate, simpler []float64) (best, chosen int) {
	best = bestOf(m, ests)
	if best < 0 {
		return -1, -1
	}
	chosen = best
	for i, e := range ests {
		if !withinOneSE(m, e, ests[best]) {
			continue
		}
		if simpler[i] > simpler[chosen] || (simpler[i] == simpler[chosen] && m.Better(e.Value, ests[chosen].Value)) {
			chosen = i
		}
	}
	return best, chosen
}

// ChooseModel chooses among candidate models listed simplest first: the
// simplest whose best score is within one standard error of the best
// model's. reason says so in a sentence. chosen is -1 when no model has a
// score.
func ChooseModel(m eval.Metric, models []ModelScore) (chosen int, reason string) {
	ests := make([]eval.Estimate, len(models))
	for i := range models {
		ests[i] = models[i].Best
	}
	best := bestOf(m, ests)
	if best < 0 {
		return -1, "no model could be scored"
	}
	for i := range models {
		if withinOneSE(m, ests[i], ests[best]) {
			chosen = i
			break
		}
	}
	return chosen, choiceReason(models[best], models[chosen], chosen == best, "", plusMinus(models[best].Best), "is within one standard error and")
}

// choiceReason is the sentence that says why a model was chosen: the
// best, or a simpler one that ties with it (within says how, ending in
// the words before "simpler"); at says which of a model's scores compete
// ("" or " at its chosen setting").
func choiceReason(best, chosen ModelScore, isBest bool, at, bestScore, within string) string {
	if isBest {
		return fmt.Sprintf("%s scored best%s (%s): chosen.", best.Name, at, bestScore)
	}
	return fmt.Sprintf("%s scored best%s (%s); %s %s simpler: chosen.", best.Name, at, bestScore, chosen.Name, within)
}

// chooseModelPaired is ChooseModel with ties judged on the held-out rows,
// paired (eval.PairedWithinOneSE), for the models whose row losses are
// known (losses[i], nil when not): the simplest model whose chosen point's
// losses are within one standard error of the difference from the best
// model's. order lists the models' indices in the order they are preferred
// (nil: as listed, simplest first; TuneSearch.preference moves STL after
// MMTL where the likelihood says the tasks differ).
func chooseModelPaired(m eval.Metric, models []ModelScore, losses [][]float64, order []int) (chosen int, reason string) {
	ests := make([]eval.Estimate, len(models))
	for i := range models {
		ests[i] = models[i].Score
	}
	best := bestOf(m, ests)
	if best < 0 || losses[best] == nil {
		return ChooseModel(m, models)
	}
	if order == nil {
		order = make([]int, len(models))
		for i := range order {
			order[i] = i
		}
	}
	chosen = best
	for _, i := range order {
		if i == best || (ests[i].OK() && losses[i] != nil && eval.PairedWithinOneSE(losses[i], losses[best])) {
			chosen = i
			break
		}
	}
	// The scores compared are at each model's chosen setting (the
	// table's "its CV" column), not its best point's ("best CV"): said,
	// as a lower best point elsewhere in the table read as a contradiction.
	reason = choiceReason(models[best], models[chosen], chosen == best, " at its chosen setting", plusMinus(models[best].Score)+printedTies(models, best),
		fmt.Sprintf("(%s) differs from it by less than one standard error of the difference on the same rows, and is", plusMinus(models[chosen].Score)))
	return chosen, reason + passedOver(m, models, losses, best, chosen, order)
}

// passedOver explains a simpler model that the scores' own standard
// errors would call a tie with the best (ests within one SE) but that
// the paired rule passed over: the same rows say it is behind. Without
// this, "0.0535 ± 0.007" beside a chosen "0.0534 ± 0.007" reads as a rule
// not applied. "" when there is none.
func passedOver(m eval.Metric, models []ModelScore, losses [][]float64, best, chosen int, order []int) string {
	// The models preferred to the chosen one, and those listed before it
	// (simpler), which a preference order may have put after it (STL
	// after MMTL: one_row_tasks.csv passed over STL unsaid).
	var before []int
	for _, i := range order {
		if i == chosen {
			break
		}
		before = append(before, i)
	}
	for i := 0; i < chosen; i++ {
		if !slices.Contains(before, i) {
			before = append(before, i)
		}
	}
	// Every such model is named: cml with new centres passed over MMTL and
	// MTFL-mean, and only MMTL was said (hunt hF).
	var named []string
	also := ""
	for _, i := range before {
		if losses[i] != nil && losses[best] != nil && withinOneSE(m, models[i].Score, models[best].Score) && !eval.PairedWithinOneSE(losses[i], losses[best]) {
			named = append(named, fmt.Sprintf("%s (%s)", models[i].Name, plusMinus(models[i].Score)))
			// Named, not "it": the comparison is with the best model,
			// and a passed-over score better than the chosen one's read
			// as the rule contradicting the table (Indometh's STL).
			if m.Better(models[i].Score.Value, models[chosen].Score.Value) {
				also = fmt.Sprintf(" (each model is compared with %s on the same rows, not with %s)", models[best].Name, models[chosen].Name)
			}
		}
	}
	if len(named) == 0 {
		return ""
	}
	return fmt.Sprintf(" %s simpler and within one standard error of %s, but behind %s on the same held-out rows by more than one standard error of their difference: not chosen%s.",
		agreeing(named, "is", "are"), models[best].Name, models[best].Name, also)
}

// printedTies says, when other models' scores print as the best one's
// (four significant digits), by how much the best is ahead of them: three
// rows of "0.4354 ± 0.027" beside "spMTFL scored best" read as a choice
// made at random. "" when none does.
func printedTies(models []ModelScore, best int) string {
	b := models[best].Score
	var ahead []string
	for i, m := range models {
		if i != best && m.Score.OK() && digits(m.Score.Value, 4) == digits(b.Value, 4) {
			ahead = append(ahead, fmt.Sprintf("%s by %.2g", m.Name, math.Abs(m.Score.Value-b.Value)))
		}
	}
	if len(ahead) == 0 {
		return ""
	}
	return "; ahead of " + strings.Join(ahead, ", of ") + ", which print the same"
}

// plusMinus writes an estimate as "2.281 ± 0.012".
func plusMinus(e eval.Estimate) string {
	// Four significant digits with their zeros (0.6100, not 0.61): the
	// reason sits beside the table's four digits, and 0.61 next to 0.6097
	// read as a contradiction. The error keeps its two digits' zeros too
	// (± 0.020, not ± 0.02, which reads as known to one).
	// Without the point %#g leaves on a whole number (12. for 12, 1234.
	// for 1234.4), which reads as a typing slip.
	if math.IsNaN(e.SE) {
		return digits(e.Value, 4)
	}
	return digits(e.Value, 4) + " ± " + digits(e.SE, 2)
}

// digits writes x to n significant digits, keeping their zeros, without
// a trailing point.
func digits(x float64, n int) string {
	if a := math.Abs(x); a >= math.Pow(10, float64(n)) && a < 1e15 {
		// Past n digits before the point %g writes an exponent (a price's
		// RMSE as 6.997e+04 ± 5.7e+03): the n digits, then zeros.
		p := math.Pow(10, math.Floor(math.Log10(a))-float64(n)+1)
		return strconv.FormatFloat(math.Round(x/p)*p, 'f', 0, 64)
	}
	return strings.TrimSuffix(fmt.Sprintf("%#.*g", n, x), ".")
}
