package app

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
)

// scored is a candidate model's summary and the grid it was chosen from.
type scored struct {
	model ModelScore
	grid  []gridPoint
}

// search runs the two stages of Tune: every baseline over ρ × κ, then
// every self-paced version over multiples of the automatic λ0 at its
// baseline's chosen (ρ, κ) (a coordinate search: the full three-way grid
// would cost |λ0| times more). It returns the candidates, simplest first.
func (tu *tuner) search(fams []family, icpt []float64) ([]scored, error) {
	var bases []string
	nsp := 0
	for _, f := range fams {
		if len(bases) == 0 || bases[len(bases)-1] != f.key {
			bases = append(bases, f.key)
		}
		if f.selfPaced {
			nsp++
		}
	}
	per := len(tu.opt.Rho) * len(icpt)
	tu.total = len(bases)*per + nsp*len(tu.opt.Kappa)
	cfgs := baselineGrid(tu.d, tu.opt, bases, icpt)
	simpler := make([]float64, len(cfgs))
	for i := range cfgs {
		simpler[i] = cfgs[i].Rho
	}
	pts := tu.scoreAll(cfgs)
	if err := tu.ctx.Err(); err != nil {
		return nil, err
	}
	base := map[string]scored{}
	for b, key := range bases {
		grid := pts[b*per : (b+1)*per]
		base[key] = scored{summarize(tu.metric, family{key: key}, grid, simpler[b*per:(b+1)*per]), grid}
	}
	cfgs = nil
	for _, f := range fams {
		if !f.selfPaced {
			continue
		}
		for _, k := range tu.opt.Kappa {
			c := base[f.key].model.Config
			c.SelfPaced, c.AutoLambda0, c.Lambda0 = true, k, 0
			cfgs = append(cfgs, c)
		}
	}
	pts = tu.scoreAll(cfgs)
	if err := tu.ctx.Err(); err != nil {
		return nil, err
	}
	var out []scored
	n := len(tu.opt.Kappa)
	for _, f := range fams {
		if !f.selfPaced {
			out = append(out, base[f.key])
			continue
		}
		grid := pts[:n]
		pts = pts[n:]
		if b := base[f.key].model; !b.Best.OK() {
			// No chosen (ρ, κ) to pace from.
			for i := range grid {
				grid[i].est = eval.Undefined()
				grid[i].err = fmt.Errorf("its baseline %s could not be scored: %s", b.Name, b.Failure)
			}
		}
		out = append(out, scored{summarize(tu.metric, f, grid, nil), grid})
	}
	return out, nil
}

// baselineGrid is the first stage's configurations, base by base, ρ
// slowest: the options' fixed settings, the family, ρ and κ, and on a
// visitor's own data the own-data profile, so that the folds and the refit
// agree.
func baselineGrid(d *Data, opt TuneOptions, bases []string, icpt []float64) []mtl.Config {
	var cfgs []mtl.Config
	for _, key := range bases {
		for _, rho := range opt.Rho {
			for _, k := range icpt {
				c := opt.Config
				c.Model, c.SelfPaced = key, false
				c = configFor(d, c)
				c.Rho, c.Intercept = rho, k
				cfgs = append(cfgs, c)
			}
		}
	}
	return cfgs
}

// TuneCandidates returns the configurations the first stage of Tune scores
// on d (every baseline over ρ × κ, own-data profile applied), so that a
// pool of workers (the page's) can score them with TuneScores. The
// self-paced stage depends on the choices of this one: its configurations
// are a baseline's chosen one with SelfPaced and AutoLambda0 set to each
// of opt.Kappa (default TuneKappa).
func TuneCandidates(d *Data, opt TuneOptions) ([]mtl.Config, error) {
	fams, err := families(opt)
	if err != nil {
		return nil, err
	}
	if opt.Rho == nil {
		opt.Rho = TuneRho
	}
	var bases []string
	for _, f := range fams {
		if len(bases) == 0 || bases[len(bases)-1] != f.key {
			bases = append(bases, f.key)
		}
	}
	return baselineGrid(d, opt, bases, interceptGrid(d, opt)), nil
}

// summarize makes a candidate's ModelScore from its grid: the best point,
// the one-SE choice (simpler says which points are simpler; empty: the
// multiples of λ0 in the points' configurations), how many points failed.
func summarize(m eval.Metric, f family, grid []gridPoint, simpler []float64) ModelScore {
	ms := ModelScore{Key: f.key, SelfPaced: f.selfPaced, Points: len(grid), Best: eval.Undefined(), Score: eval.Undefined()}
	if mm, err := method.Lookup(f.key); err == nil {
		ms.Name = mm.Name(mtl.Config{SelfPaced: f.selfPaced})
	}
	ests := make([]eval.Estimate, len(grid))
	if len(simpler) == 0 {
		simpler = make([]float64, len(grid))
		for i := range grid {
			simpler[i] = grid[i].cfg.AutoLambda0
		}
	}
	var first error
	for i, p := range grid {
		ests[i] = p.est
		if p.err != nil || !p.est.OK() {
			ms.Failed++
			if first == nil {
				first = p.err
			}
		}
	}
	best, chosen := pickPoint(m, ests, simpler)
	if best < 0 {
		if first == nil {
			first = errors.New("no grid point was tried")
		}
		ms.Failure = first.Error()
		if len(grid) > 0 {
			ms.Config = grid[0].cfg
		}
		return ms
	}
	ms.Best = ests[best]
	ms.Config, ms.Score, ms.Scores = grid[chosen].cfg, ests[chosen], grid[chosen].scores
	return ms
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
	fams, err := families(opt)
	if err != nil {
		return nil, err
	}
	if opt.Folds == 0 {
		opt.Folds = 3
	}
	if opt.Rho == nil {
		opt.Rho = TuneRho
	}
	if opt.Kappa == nil {
		opt.Kappa = TuneKappa
	}
	folds, err := TuneFolds(d, opt.Folds, opt.Seed)
	if err != nil {
		return nil, err
	}
	probs, err := PrepareFolds(folds)
	if err != nil {
		return nil, err
	}
	cls := d.All.Kind == data.Classification
	logistic := configFor(d, opt.Config).Defaults(cls).Loss == mtl.Logistic
	tu := &tuner{ctx: ctx, d: d, opt: opt, folds: folds, probs: probs, metric: eval.TuneMetric(d.All.Kind, logistic), progress: progress}
	icpt := interceptGrid(d, opt)
	cands, err := tu.search(fams, icpt)
	if err != nil {
		return nil, err
	}
	res := &TuneResult{Metric: string(tu.metric), Folds: opt.Folds, Intercept: icpt, Pooled: true}
	for _, c := range cands {
		res.Models = append(res.Models, c.model)
	}
	distinctNames(res.Models)
	chosen, reason := ChooseModel(tu.metric, res.Models)
	if chosen < 0 {
		return nil, fmt.Errorf("tune: no grid point could be scored, so there is nothing to choose: %s", res.Models[0].Failure)
	}
	res.Chosen, res.Reason = chosen, reason
	res.Search = searchText(opt, icpt, fams)
	res.legacyGrid(cands[chosen], opt, icpt)
	return res, nil
}

// legacyGrid fills Rho, Kappa, Scores, Best and Config, the single grid
// of the chosen model that readers of an older result show: a baseline's
// scores over ρ at its chosen κ, or a self-paced version's over the
// multiples of λ0 at its ρ.
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
	res.Rho = opt.Rho
	res.Scores = make([][]float64, len(opt.Rho))
	for i := range opt.Rho {
		res.Scores[i] = []float64{math.NaN()}
	}
	for k, p := range c.grid {
		if p.cfg.Intercept != cfg.Intercept {
			continue
		}
		i := k / len(icpt)
		res.Scores[i][0] = value(p.est)
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
func searchText(opt TuneOptions, icpt []float64, fams []family) string {
	s := fmt.Sprintf("baselines: %d values of rho", len(opt.Rho))
	if len(icpt) > 1 {
		s += fmt.Sprintf(" x %d of the shared intercept's strength", len(icpt))
	}
	for _, f := range fams {
		if f.selfPaced {
			return s + fmt.Sprintf("; self-paced versions: %d multiples of the automatic lambda0 at their baseline's chosen setting (a coordinate search, to bound the cost)", len(opt.Kappa))
		}
	}
	return s
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
