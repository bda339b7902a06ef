package app

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
)

// scored is a candidate model's summary and the points it was chosen from.
type scored struct {
	model  ModelScore
	grid   []gridPoint
	losses []float64 // the chosen point's held-out row losses
}

// baseSearch is one baseline's points so far, and which it has tried.
type baseSearch struct {
	key   string
	pts   []gridPoint
	tried map[[2]float64]bool
	// likely is the restricted maximum likelihood estimate of (ρ, κ), a
	// point the one-SE rule prefers (TuneSearch.likelihood); zero when
	// there is none. likelyNote says it in words.
	likely     [2]float64
	likelyNote string
}

// best returns the index of the best scored point; -1 when none is.
func (b *baseSearch) best(m eval.Metric) int {
	ests := make([]eval.Estimate, len(b.pts))
	for i, p := range b.pts {
		ests[i] = p.est
	}
	return bestOf(m, ests)
}

// around is a search stage: the four neighbours of the best (ρ, κ) at
// step decades of a factor (κ only when it is tuned and positive).
func around(step float64, kappa bool) func(*baseSearch, mtl.Config) [][2]float64 {
	return func(_ *baseSearch, at mtl.Config) [][2]float64 {
		f := math.Pow(10, step)
		out := [][2]float64{{at.Rho * f, at.Intercept}, {at.Rho / f, at.Intercept}}
		if kappa && at.Intercept > 0 {
			out = append(out, [2]float64{at.Rho, at.Intercept * f}, [2]float64{at.Rho, at.Intercept / f})
		}
		return out
	}
}

// simplerBase orders a baseline's points by how much they shrink: a
// larger ρ, then a larger κ (the one-SE rule prefers more shrinkage).
func simplerBase(pts []gridPoint) []float64 {
	out := make([]float64, len(pts))
	for i, p := range pts {
		out[i] = math.Log10(p.cfg.Rho) + 1e-3*math.Log10(p.cfg.Intercept+1e-9)
	}
	return out
}

// summarize makes a candidate from its points: the best point, the one-SE
// choice (simpler says which points are simpler; empty: the multiples of
// λ0 in the points' configurations), how many points failed.
func summarize(m eval.Metric, f family, grid []gridPoint, simpler []float64) scored {
	ms := ModelScore{Key: f.key, SelfPaced: f.selfPaced, Points: len(grid), Best: eval.Undefined(), Score: eval.Undefined()}
	if mm, err := method.Lookup(f.key); err == nil {
		ms.Name = mm.Name(mtl.Config{SelfPaced: f.selfPaced})
	}
	if len(simpler) == 0 {
		simpler = make([]float64, len(grid))
		for i := range grid {
			simpler[i] = grid[i].cfg.AutoLambda0
		}
	}
	var first error
	for _, p := range grid {
		if p.err != nil || !p.est.OK() {
			ms.Failed++
			if first == nil {
				first = p.err
			}
		}
	}
	best, chosen := pickPaired(m, grid, simpler)
	if best < 0 {
		if first == nil {
			first = errors.New("no grid point was tried")
		}
		ms.Failure = first.Error()
		if len(grid) > 0 {
			ms.Config = grid[0].cfg
		}
		return scored{model: ms, grid: grid}
	}
	ms.Best = grid[best].est
	ms.Config, ms.Score, ms.Scores = grid[chosen].cfg, grid[chosen].est, grid[chosen].scores
	ms.FailedNote = failedNote(grid, f.selfPaced)
	ms.CappedNote = cappedNote(grid, chosen)
	if f.selfPaced {
		ms.Flat = flatLambda0(grid, best, chosen)
	}
	return scored{model: ms, grid: grid, losses: grid[chosen].losses}
}

// cappedNote says, when the fits of the chosen point reached the
// iteration cap on some fold, that its CV score is that of unfinished
// fits, and at how many of the grid's points some fold's fit did; "" when
// the chosen point's fits all converged.
func cappedNote(grid []gridPoint, chosen int) string {
	c := grid[chosen]
	if c.capped == 0 {
		return ""
	}
	points := 0
	for _, p := range grid {
		if p.capped > 0 && p.err == nil {
			points++
		}
	}
	folds := "fit of 1 fold"
	if c.capped > 1 {
		folds = fmt.Sprintf("fits of %d folds", c.capped)
	}
	return fmt.Sprintf("at the chosen setting the %s stopped at the iteration cap (%d) without converging (some fold's did at %d of the grid's %d points): its CV score is that of fits stopped at the cap, not of the model at its optimum",
		folds, c.cfg.Defaults(false).MaxIter, points, len(grid))
}

// failedNote says how many of a grid's points failed and why the first
// did, with its setting; "" when none did.
func failedNote(grid []gridPoint, selfPaced bool) string {
	failed, first := 0, -1
	for i, p := range grid {
		if p.err != nil || !p.est.OK() {
			failed++
			if first < 0 {
				first = i
			}
		}
	}
	if failed == 0 {
		return ""
	}
	p := grid[first]
	at := fmt.Sprintf("ρ %.3g", p.cfg.Rho)
	if p.cfg.Intercept > 0 {
		at += fmt.Sprintf(", κ %.3g", p.cfg.Intercept)
	}
	if selfPaced {
		at += ", λ0 " + Lambda0Text(p.cfg)
	}
	why := "its score is not defined"
	if p.err != nil {
		why = p.err.Error()
	}
	return fmt.Sprintf("%d of %d points could not be scored; the first (%s): %s", failed, len(grid), at, why)
}

// pickPaired is pickPoint with ties judged on the held-out rows, paired
// (eval.PairedWithinOneSE), when the points carry their row losses.
func pickPaired(m eval.Metric, grid []gridPoint, simpler []float64) (best, chosen int) {
	ests := make([]eval.Estimate, len(grid))
	for i, p := range grid {
		ests[i] = p.est
	}
	best = bestOf(m, ests)
	if best < 0 || grid[best].losses == nil {
		return pickPoint(m, ests, simpler)
	}
	chosen = best
	for i, p := range grid {
		if !p.est.OK() || p.losses == nil || !eval.PairedWithinOneSE(p.losses, grid[best].losses) {
			continue
		}
		if simpler[i] > simpler[chosen] || (simpler[i] == simpler[chosen] && m.Better(p.est.Value, grid[chosen].est.Value)) {
			chosen = i
		}
	}
	return best, chosen
}

// Tune cross-validates candidate models on all of d's rows and chooses one
// (docs/algorithms.md §10, §14). Without a model in opt.Config every family
// of Simplicity is a candidate, with and without self-pacing; with one,
// that family alone (its self-paced version with Config.SelfPaced). Every
// candidate is scored on the same folds by a pooled score of the held-out
// rows (eval.Pooled). A baseline's grid is ρ × κ, the shared intercept's
// strength (on a visitor's dense data; κ = 0 otherwise); a self-paced
// version's, multiples of the automatic λ0 at its baseline's chosen (ρ, κ).
// Within a grid, and then among the models, the one-SE rule prefers the
// simpler (pickPoint, ChooseModel). On a visitor's own data every
// candidate takes the own-data profile (OwnData), as the refit does.
// progress, when set, is told after every grid point. When no point could
// be scored, Tune fails with the first point's reason.
func Tune(ctx context.Context, d *Data, opt TuneOptions, progress func(done, total int)) (*TuneResult, error) {
	ts, err := NewTuneSearch(d, opt)
	if err != nil {
		return nil, err
	}
	folds, err := NewTuneFoldSet(d, ts.opt.Folds, ts.opt.Seed, ts.opt.NewTasks)
	if err != nil {
		return nil, err
	}
	tu := &tuner{ctx: ctx, opt: ts.opt, folds: folds, metric: ts.metric}
	for batch := ts.Next(); batch != nil; batch = ts.Next() {
		done, total := ts.Progress()
		tu.progress = func(k int) {
			if progress != nil {
				progress(min(done+k, total), total)
			}
		}
		pts := tu.scoreAll(batch)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := ts.Feed(pts); err != nil {
			return nil, err
		}
		if progress != nil {
			progress(ts.Progress())
		}
	}
	return ts.Result()
}

// legacyGrid fills Rho, Kappa, Scores, Best and Config, the single grid
// of the chosen model that readers of an older result show: a baseline's
// scores over the ρ it tried at its chosen κ (ascending), or a self-paced
// version's over the multiples of λ0 at its ρ.
func (res *TuneResult) legacyGrid(c scored, opt TuneOptions, icpt []float64) {
	cfg := c.model.Config
	res.Config = cfg
	if c.model.SelfPaced {
		res.Rho, res.Kappa = []float64{cfg.Rho}, opt.Kappa
		row := make([]float64, len(c.grid))
		for j, p := range c.grid {
			row[j] = value(p.est)
			if p.cfg.AutoLambda0 == cfg.AutoLambda0 {
				res.Best = [2]int{0, j}
			}
		}
		res.Scores = [][]float64{row}
		return
	}
	var pts []gridPoint
	for _, p := range c.grid {
		if p.cfg.Intercept == cfg.Intercept {
			pts = append(pts, p)
		}
	}
	sort.Slice(pts, func(a, b int) bool { return pts[a].cfg.Rho < pts[b].cfg.Rho })
	res.Rho, res.Scores = nil, nil
	for i, p := range pts {
		res.Rho = append(res.Rho, p.cfg.Rho)
		res.Scores = append(res.Scores, []float64{value(p.est)})
		if p.cfg.Rho == cfg.Rho {
			res.Best = [2]int{i, 0}
		}
	}
}

// value is an estimate's value, NaN when it is not finite.
func value(e eval.Estimate) float64 {
	if !e.OK() {
		return math.NaN()
	}
	return e.Value
}

// searchText says in one sentence what was searched.
func searchText(opt TuneOptions, icpt []float64, fams []family, defaultRho bool) string {
	s := fmt.Sprintf("baselines: %d values of rho", len(opt.Rho))
	if defaultRho {
		s = "baselines: rho from 0.001 to 10 by decades (further where the best is at an edge)"
	}
	if len(icpt) > 1 {
		s += fmt.Sprintf(", then %d of the shared intercept's strength at the best rho", len(icpt))
	}
	s += ", then around the best by half and a quarter of a decade"
	if opt.NewTasks {
		// Said first: it is what every score means.
		s = fmt.Sprintf("for new tasks: %d folds of whole tasks, each fold's tasks predicted as tasks the model was not trained on; ", opt.Folds) + s
	}
	for _, f := range fams {
		if f.selfPaced {
			return s + fmt.Sprintf("; self-paced versions: %d multiples of the automatic lambda0 at their baseline's chosen setting (a coordinate search, to bound the cost)", len(opt.Kappa))
		}
	}
	return s
}

// prune leaves out, from a search that names no model, the candidates that
// would only repeat another or cannot share anything here, and says why:
// a baseline whose optimum another candidate's single fit computes (the
// catalogue's TunedAs: the alternating MMTL without self-pacing, whose
// optimum is the joint MMTL's; spMMTL paces from the joint's setting), and
// a method that would share nothing on this data (the catalogue's Idle:
// MTASO when its subspace of h dimensions would hold every feature, where
// its penalty only slows the fit of independent tasks, docs/algorithms.md
// §14).
func prune(d *Data, opt TuneOptions, fams []family) ([]family, []string) {
	if opt.Config.Model != "" {
		return fams, nil
	}
	cfg := opt.Config.Defaults(false)
	var out []family
	var left []string
	for _, f := range fams {
		m, _ := method.Lookup(f.key) // the families are the catalogue's
		if opt.NewTasks && !m.NewTask {
			if !f.selfPaced {
				left = append(left, m.Name(mtl.Config{Model: m.Key})+": predicts no task it was not trained on")
			}
			continue
		}
		if why := tunedAs(m, f, fams); why != "" {
			left = append(left, why)
			continue
		}
		if why := m.Idle(cfg, d.All.Features); why != "" {
			if !f.selfPaced {
				left = append(left, why)
			}
			continue
		}
		if err := tuneMemory(d, m, opt.Memory); err != nil {
			if !f.selfPaced {
				left = append(left, fmt.Sprintf("%s: %v", m.Name(mtl.Config{Model: m.Key}), err))
			}
			continue
		}
		out = append(out, f)
	}
	return out, left
}

// tuneMemory refuses a tuning of m on d whose fits would not fit the
// budget, as a run of m on all of d would be refused (checkMemory): a
// fold's fit trains on fewer rows, but a search whose chosen model cannot
// then be trained is of no use, and a fit over the budget is what kills
// the page's learner.
func tuneMemory(d *Data, m method.Method, budget int64) error {
	return fitsBudget(d.All, m.Memory, budget)
}

// tunedAs says why a search leaves out f, of method m, when another of
// its candidates computes f's optimum in a single fit (the catalogue's
// TunedAs), and is "" otherwise.
func tunedAs(m method.Method, f family, fams []family) string {
	if m.TunedAs == "" || f.selfPaced || !slices.Contains(fams, family{key: m.TunedAs}) {
		return ""
	}
	as, _ := method.Lookup(m.TunedAs)
	return fmt.Sprintf("%s without self-pacing is the joint %s's optimum, reached by alternation: tuned once, as %s (%s)", m.Label, as.Label, as.Label, as.Key)
}

// distinctNames adds the method's key to a name that two candidates share
// (mmtl-joint and mmtl are both the paper's MMTL): "MMTL (mmtl-joint)".
func distinctNames(models []ModelScore) {
	count := map[string]int{}
	for _, m := range models {
		count[m.Name]++
	}
	for i, m := range models {
		if count[m.Name] > 1 && strings.ToLower(strings.TrimPrefix(m.Name, "sp")) != m.Key {
			models[i].Name += " (" + m.Key + ")"
		}
	}
}
