package app

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/spmtl/spmtl/core/data"
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
}

// best returns the index of the best scored point; -1 when none is.
func (b *baseSearch) best(m eval.Metric) int {
	ests := make([]eval.Estimate, len(b.pts))
	for i, p := range b.pts {
		ests[i] = p.est
	}
	return bestOf(m, ests)
}

// search runs Tune's stages (docs/algorithms.md §14): every baseline over
// ρ at the first κ of the grid; over κ at its best ρ; then around its best
// (ρ, κ) by half a decade and a quarter of one in each; then every
// self-paced version over multiples of the automatic λ0 at its baseline's
// chosen (ρ, κ). A coordinate search: the full grids would cost several
// times more, and each stage's points of all the baselines are scored in
// one batch, so the worker pool stays busy. It returns the candidates,
// simplest first.
func (tu *tuner) search(fams []family, icpt []float64) ([]scored, error) {
	var bases []*baseSearch
	byKey := map[string]*baseSearch{}
	addBase := func(key string) {
		if byKey[key] == nil {
			b := &baseSearch{key: key, tried: map[[2]float64]bool{}}
			bases = append(bases, b)
			byKey[key] = b
		}
	}
	for _, f := range fams {
		if !f.selfPaced {
			addBase(f.key)
		}
	}
	paceFrom := map[string]string{}
	for _, f := range fams {
		if f.selfPaced {
			paceFrom[f.key] = f.key
			if byKey[f.key] == nil && f.key == "mmtl" && byKey["mmtl-joint"] != nil {
				// MMTL's optimum without self-pacing is the joint one.
				paceFrom[f.key] = "mmtl-joint"
			}
			addBase(paceFrom[f.key])
		}
	}
	k0 := icpt[0]
	if len(icpt) > 1 {
		k0 = icpt[len(icpt)/2] // the middle of the κ grid while ρ is searched
	}
	rhos := tu.opt.Rho
	if tu.defaultRho {
		rhos = TuneRho[:5] // up to 10; extend only at an edge
	}
	edge := func(b *baseSearch, at mtl.Config) [][2]float64 {
		if !tu.defaultRho {
			return nil
		}
		lo, hi := math.Inf(1), 0.0
		for _, p := range b.pts {
			lo, hi = math.Min(lo, p.cfg.Rho), math.Max(hi, p.cfg.Rho)
		}
		switch {
		case at.Rho == hi && hi < 1e4:
			return [][2]float64{{hi * 10, at.Intercept}}
		case at.Rho == lo && lo > 1e-5:
			return [][2]float64{{lo / 10, at.Intercept}}
		}
		return nil
	}
	stages := []func(b *baseSearch, at mtl.Config) [][2]float64{
		func(*baseSearch, mtl.Config) [][2]float64 {
			var out [][2]float64
			for _, r := range rhos {
				out = append(out, [2]float64{r, k0})
			}
			return out
		},
		edge, edge,
		func(_ *baseSearch, at mtl.Config) [][2]float64 {
			var out [][2]float64
			for _, k := range icpt {
				out = append(out, [2]float64{at.Rho, k})
			}
			return out
		},
		around(0.5, len(icpt) > 1), around(0.25, len(icpt) > 1),
	}
	// The plan, an upper bound: a point a stage would repeat is counted done
	// without a fit, so that progress ends at its total.
	per := len(rhos) + 2 + 2
	if tu.defaultRho {
		per += 2
	}
	if len(icpt) > 1 {
		per += len(icpt) - 1 + 2 + 2
	}
	nsp := 0
	for _, f := range fams {
		if f.selfPaced {
			nsp++
		}
	}
	tu.total = len(bases)*per + nsp*len(tu.opt.Kappa)
	for si, stage := range stages {
		var cfgs []mtl.Config
		var owner []*baseSearch
		for _, b := range bases {
			at := mtl.Config{Rho: rhos[0], Intercept: k0}
			if i := b.best(tu.metric); i >= 0 {
				at = b.pts[i].cfg
			}
			want := stage(b, at)
			if (si == 1 || si == 2) && tu.defaultRho && len(want) == 0 {
				tu.tick() // an edge stage with no edge to extend
			}
			for _, rk := range want {
				if b.tried[rk] || !(rk[0] > 0) {
					tu.tick()
					continue
				}
				b.tried[rk] = true
				c := tu.opt.Config
				c.Model, c.SelfPaced = b.key, false
				c = configFor(tu.d, c)
				c.Rho, c.Intercept = rk[0], rk[1]
				cfgs = append(cfgs, c)
				owner = append(owner, b)
			}
		}
		for i, p := range tu.scoreAll(cfgs) {
			owner[i].pts = append(owner[i].pts, p)
		}
		if err := tu.ctx.Err(); err != nil {
			return nil, err
		}
	}
	base := map[string]scored{}
	for _, b := range bases {
		base[b.key] = summarize(tu.metric, family{key: b.key}, b.pts, simplerBase(b.pts))
	}
	return tu.selfPaced(fams, base, paceFrom)
}

// behind returns, for the self-paced versions whose baseline scored more
// than three standard errors of the difference (paired, on the same rows)
// worse than the best baseline, why they are not tried: self-pacing
// reweights the tasks of that model, and on no data set measured here
// (docs/findings.md) did it move a score by more than a fraction of one
// such error. This keeps MTASO's slow alternations out of a search it
// cannot win. Only a search that names no model prunes.
func (tu *tuner) behind(fams []family, base map[string]scored, paceFrom map[string]string) map[string]string {
	out := map[string]string{}
	if tu.opt.Config.Model != "" {
		return out
	}
	var best *scored
	for _, f := range fams { // in order, so that a tie is settled the same way every time
		b := base[paceFrom[f.key]]
		if !f.selfPaced {
			b = base[f.key]
		}
		if b.losses != nil && b.model.Score.OK() && (best == nil || tu.metric.Better(b.model.Score.Value, best.model.Score.Value)) {
			best = &b
		}
	}
	if best == nil {
		return out
	}
	for _, f := range fams {
		b := base[paceFrom[f.key]]
		if f.selfPaced && b.losses != nil && !eval.PairedWithin(b.losses, best.losses, 3) {
			out[f.key] = fmt.Sprintf("not tried: its baseline scored %s, more than three standard errors of the difference behind the best baseline (%s)", plusMinus(b.model.Score), plusMinus(best.model.Score))
		}
	}
	return out
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

// selfPaced is the last stage: each self-paced version over the multiples
// of the automatic λ0 at its baseline's chosen (ρ, κ). It returns every
// candidate, in the order of fams.
func (tu *tuner) selfPaced(fams []family, base map[string]scored, paceFrom map[string]string) ([]scored, error) {
	behind := tu.behind(fams, base, paceFrom)
	var cfgs []mtl.Config
	for _, f := range fams {
		if !f.selfPaced || behind[f.key] != "" {
			continue
		}
		for _, k := range tu.opt.Kappa {
			c := base[paceFrom[f.key]].model.Config
			c.Model = f.key
			c.SelfPaced, c.AutoLambda0, c.Lambda0 = true, k, 0
			cfgs = append(cfgs, c)
		}
	}
	pts := tu.scoreAll(cfgs)
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
		if why := behind[f.key]; why != "" {
			ms := ModelScore{Key: f.key, SelfPaced: true, Best: eval.Undefined(), Score: eval.Undefined(), Failure: why}
			if mm, err := method.Lookup(f.key); err == nil {
				ms.Name = mm.Name(mtl.Config{SelfPaced: true})
			}
			for range tu.opt.Kappa {
				tu.tick()
			}
			out = append(out, scored{model: ms})
			continue
		}
		grid := pts[:n]
		pts = pts[n:]
		if b := base[paceFrom[f.key]].model; !b.Best.OK() {
			// No chosen (ρ, κ) to pace from.
			for i := range grid {
				grid[i].est = eval.Undefined()
				grid[i].err = fmt.Errorf("its baseline %s could not be scored: %s", b.Name, b.Failure)
			}
		}
		out = append(out, summarize(tu.metric, f, grid, nil))
	}
	return out, nil
}

// baselineGrid is the configurations of a full ρ × κ grid, base by base,
// ρ slowest: the options' fixed settings, the family, ρ and κ, and on a
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
	return scored{model: ms, grid: grid, losses: grid[chosen].losses}
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
	fams, err := families(opt)
	if err != nil {
		return nil, err
	}
	if opt.Folds == 0 {
		opt.Folds = 3
	}
	defaultRho := opt.Rho == nil
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
	tu := &tuner{ctx: ctx, d: d, opt: opt, folds: folds, probs: probs, metric: eval.TuneMetric(d.All.Kind, logistic), progress: progress, defaultRho: defaultRho}
	fams, left := prune(d, opt, fams)
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
	losses := make([][]float64, len(cands))
	for i, c := range cands {
		losses[i] = c.losses
	}
	chosen, reason := chooseModelPaired(tu.metric, res.Models, losses)
	if chosen < 0 {
		return nil, fmt.Errorf("tune: no grid point could be scored, so there is nothing to choose: %s", res.Models[0].Failure)
	}
	res.Chosen, res.Reason = chosen, reason
	res.Search = searchText(opt, icpt, fams, defaultRho)
	res.LeftOut = left
	res.legacyGrid(cands[chosen], opt, icpt)
	return res, nil
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
	for _, f := range fams {
		if f.selfPaced {
			return s + fmt.Sprintf("; self-paced versions: %d multiples of the automatic lambda0 at their baseline's chosen setting (a coordinate search, to bound the cost)", len(opt.Kappa))
		}
	}
	return s
}

// prune leaves out, from a search that names no model, the candidates that
// would only repeat another or cannot share anything here, and says why:
// the alternating MMTL without self-pacing (the joint MMTL is its exact
// optimum; spMMTL paces from the joint's setting), and MTASO when its
// subspace of h dimensions would hold every feature, where its penalty
// only slows the fit of independent tasks (docs/algorithms.md §14).
func prune(d *Data, opt TuneOptions, fams []family) ([]family, []string) {
	if opt.Config.Model != "" {
		return fams, nil
	}
	h := opt.Config.Defaults(false).H
	var out []family
	var left []string
	joint := false
	for _, f := range fams {
		joint = joint || (f.key == "mmtl-joint" && !f.selfPaced)
	}
	for _, f := range fams {
		switch {
		case f.key == "mmtl" && !f.selfPaced && joint:
			left = append(left, "MMTL without self-pacing is the joint MMTL's optimum, reached by alternation: tuned once, as MMTL (mmtl-joint)")
		case f.key == "mtaso" && d.All.Features <= h:
			if !f.selfPaced {
				left = append(left, fmt.Sprintf("MTASO: its shared subspace of h = %d dimensions would hold all %d features, where it shares nothing", h, d.All.Features))
			}
		default:
			out = append(out, f)
		}
	}
	return out, left
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
