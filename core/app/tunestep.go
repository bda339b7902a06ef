package app

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/internal/words"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/reml"
)

// TuneSearch is Tune's search (docs/algorithms.md §14) as a sequence of
// batches, so that the scoring can happen anywhere: Tune scores each batch
// in goroutines, the page in its pool of workers. Next returns the
// configurations to score next (all of them independent of each other),
// Feed takes their results in the same order, and Result gives the choice
// once Next returns nil.
type TuneSearch struct {
	d          *Data
	opt        TuneOptions
	fams       []family
	left       []string
	icpt       []float64
	metric     eval.Metric
	defaultRho bool
	rhos       []float64
	k0         float64
	// likelyWhy says why no baseline has a likelihood estimate, when one
	// could have had it; "" otherwise.
	likelyWhy string
	// moved is set when this search moved the features' origin to their
	// means (Data.Centre), before anything was scored.
	moved bool
	// vary is how much lower MMTL's REML criterion is than the pooled
	// model's (reml.Pooled), when the likelihood was estimated; 0 when
	// it was not. Above reml.VaryMargin the tasks differ by the
	// likelihood, and the pooled STL is not the simpler choice when it
	// ties with MMTL (chooseModelPaired's order).
	vary float64

	bases    []*baseSearch
	byKey    map[string]*baseSearch
	paceFrom map[string]string

	stage   int
	pending []pendingPoint
	base    map[string]scored // the baselines' summaries, after their stages
	behind  map[string]string
	spPts   map[string][]gridPoint
	done    int
	total   int
}

// pendingPoint is a configuration handed out by Next: a baseline's point
// (owner set) or a self-paced version's (sp set).
type pendingPoint struct {
	cfg   mtl.Config
	owner *baseSearch
	sp    string
}

// The stages: ρ, two edge extensions, κ, two rounds around the best, then
// the self-paced versions.
const (
	stageRho = iota
	stageEdge1
	stageEdge2
	stageKappa
	stageAround1
	stageAround2
	stageSelfPaced
	stageDone
)

// NewTuneSearch plans a tuning of d with opt: its candidates, grids and
// stages, without scoring anything.
func NewTuneSearch(d *Data, opt TuneOptions) (*TuneSearch, error) {
	if d == nil {
		return nil, errors.New("tune: no data set")
	}
	fams, err := families(opt)
	if err != nil {
		return nil, err
	}
	if opt.Config.Model != "" {
		m, _ := method.Lookup(opt.Config.Model) // families looked it up
		if err := tuneMemory(d, m, opt.Memory); err != nil {
			return nil, fmt.Errorf("tune: %w", err)
		}
	}
	if opt.Folds == 0 {
		opt.Folds = DefaultTuneFolds
	}
	s := &TuneSearch{d: d, defaultRho: opt.Rho == nil, byKey: map[string]*baseSearch{}, paceFrom: map[string]string{}, spPts: map[string][]gridPoint{}}
	if opt.Rho == nil {
		opt.Rho = TuneRho
	}
	if opt.Kappa == nil {
		opt.Kappa = TuneKappa
	}
	s.opt = opt
	cls := d.All.Kind == data.Classification
	s.metric = eval.TuneMetric(d.All.Kind, configFor(d, opt.Config).Defaults(cls).Loss == mtl.Logistic)
	s.fams, s.left = prune(d, opt, fams)
	if len(s.fams) == 0 {
		return nil, fmt.Errorf("tune: no model can be tuned on this data: %s", strings.Join(s.left, "; "))
	}
	// Folds that could test nothing are refused now, not after every
	// point was fitted (the page's pool makes the folds itself).
	if err := foldsCanTest(d, opt.Folds, opt.NewTasks); err != nil {
		return nil, err
	}
	s.icpt = interceptGrid(d, opt)
	s.k0 = s.icpt[0]
	if len(s.icpt) > 1 {
		s.k0 = s.icpt[len(s.icpt)/2] // the middle of the κ grid while ρ is searched
	}
	s.rhos = opt.Rho
	if s.defaultRho {
		s.rhos = TuneRho[:5] // up to 10; extended only at an edge
	}
	s.plan()
	if err := s.lossesFit(); err != nil {
		return nil, err
	}
	s.likelihood()
	return s, nil
}

// lossesFit refuses a search whose scored points' held-out row losses
// (gridPoint.losses, kept for the paired comparisons: 8 bytes per row and
// point) would not fit the budget beside the rows themselves, which the
// fits' estimate (tuneMemory) does not count: a file of 6.5 million rows,
// tuned at 111 points, took 12 GB and was killed, where the fits' estimate
// said 200 MB.
func (s *TuneSearch) lossesFit() error {
	budget := budgetOf(s.opt.Memory)
	if budget < 0 {
		return nil
	}
	rows := int64(s.d.All.Rows())
	need := int64(s.total)*rows*8 + mtl.Estimate(mtl.ShapeOf(s.d.All), mtl.NoExtra, mtl.EstimateRuns).Bytes
	if need <= budget {
		return nil
	}
	return fmt.Errorf("tune: its about %d settings each keep a held-out loss for every one of the %s rows, to compare the settings on the same rows: about %s in all with the rows, and the learner's budget is %s. Remedy: tune on a sample of the rows and train the chosen setting on all of them (spmtl train with its rho and intercept), or raise the budget with the command line's -memory flag (spmtl tune -memory GB; 0 for no limit)",
		s.total, words.Grouped(rows), mtl.Bytes(need), mtl.Bytes(budget))
}

// likelihood adds to each baseline whose model is a mixed model's
// (method.Likelihood: MMTL) its restricted maximum likelihood estimate of
// (ρ, κ), as a point of its grid that the one-SE rule prefers to every
// other (docs/algorithms.md §15): on a visitor's dense regression file
// with the summed squared loss, and κ left to the search. The estimate
// reads every row of d, the folds' held-out rows too, as a mixed model's
// fit on the file would; it uses two numbers of them, which CV then scores.
func (s *TuneSearch) likelihood() {
	if !s.d.Own || s.opt.Intercept != nil || len(s.icpt) < 2 || s.d.All.Kind != data.Regression || s.d.All.Sparse() {
		return
	}
	var est *reml.Estimate
	for _, b := range s.bases {
		if !s.readsLikelihood(b.key) || s.likelyWhy != "" {
			continue
		}
		if est == nil {
			e, err := s.estimate()
			if err != nil {
				s.likelyWhy = strings.TrimPrefix(err.Error(), "reml: ")
				continue
			}
			est = &e
			if pooled, err := reml.Pooled(s.d.All.Tasks, s.d.All.Features); err == nil {
				s.vary = pooled - e.Criterion
			}
		}
		b.likely = likelySetting(*est)
		b.likelyNote = likelyNote(*est)
	}
	if est == nil && s.likelyWhy == "" && s.readsLikelihood("mmtl-joint") {
		// No candidate is a mixed model's (tune -model mtfl): the origin
		// is still chosen as the search over every model chooses it, so
		// that a model tuned alone is tuned on the same data as its row
		// in that table. The estimate itself is MMTL's and is not used;
		// when it fails, the origin stays as written, as it does there.
		_, _ = s.estimate()
	}
}

// readsLikelihood reports whether the model of this key is a mixed
// model's on this file (method.Likelihood, and its configuration here has
// the summed squared loss), so that the search estimates its setting by
// the likelihood and chooses the features' origin with it.
func (s *TuneSearch) readsLikelihood(key string) bool {
	m, err := method.Lookup(key) // the families are the catalogue's
	c := s.opt.Config
	c.Model, c.SelfPaced = key, false
	c = configFor(s.d, c).Defaults(false)
	return err == nil && m.Likelihood && c.Loss == mtl.Squared && c.Scale == mtl.SumLoss
}

// estimate returns the REML estimate of MMTL's setting. On a file whose
// features' origin was never chosen (no split file either: the likelihood
// reads every row's label), it first searches where the origin fits best
// and, when that fits better than the origin as written, moves the data's
// origin there (Data.Centre) for the whole search and the fit after it
// (docs/algorithms.md §15): along the one numeric feature whose slopes
// vary by task when there is one (reml.OriginOf: exactly lme4's correlated
// intercept and slope), else along the way to the numeric features' means
// (reml.Origin).
func (s *TuneSearch) estimate() (reml.Estimate, error) {
	d := s.d
	if d.Origin != "" || d.Train != nil || d.Encoding == nil {
		return reml.Fit(d.All.Tasks, d.All.Features)
	}
	varying, cols := varyingNumeric(d.Encoding)
	switch len(varying) {
	case 0:
		// Every numeric feature is constant within every task: no slope
		// varies by task, so where the origin is changes no task's
		// deviations, only how the held features' tiny ones (§14) split the
		// intercepts' variance (lme4's grouseticks: the criterion moved by
		// 22 and no prediction by more than 1.3e-5 of a standard deviation).
		return reml.Fit(d.All.Tasks, d.All.Features)
	case 1:
		return s.originAlong(varying[0], cols[0])
	}
	zero, best, t, moved, err := reml.Origin(d.All.Tasks, d.All.Features, d.Encoding.Centres(d.All))
	if err != nil || !moved {
		return zero, err
	}
	where, level := "to their means", "at the average row"
	if t != 1 {
		where, level = fmt.Sprintf("to %s times their means", strconv.FormatFloat(t, 'g', -1, 64)), "there"
	}
	if err := d.Centre(Origin{Set: true, T: t}, fmt.Sprintf("the numeric features' origin was moved %s, where a mixed model's restricted likelihood is highest (−2 log L %s, against %s at x = 0): each task's intercept is its level %s",
		where, minusSign(best.Criterion), minusSign(zero.Criterion), level)); err != nil {
		return zero, err
	}
	s.moved = true
	return best, nil
}

// originAlong is estimate's search along feature j, column col's: the
// origin is written in the column's units, to a hundredth of its spread.
func (s *TuneSearch) originAlong(j int, col string) (reml.Estimate, error) {
	d := s.d
	scale := featureScale(d.Encoding, j)
	round := func(x float64) float64 { return roundOrigin(x*scale, scale) / scale }
	zero, best, x0, moved, err := reml.OriginOf(d.All.Tasks, d.All.Features, j, round)
	if err != nil || !moved {
		return zero, err
	}
	o := Origin{Set: true, Column: col, At: roundOrigin(x0*scale, scale)}
	at := strings.Replace(strconv.FormatFloat(o.At, 'g', -1, 64), "-", "−", 1)
	if err := d.Centre(o, fmt.Sprintf("the origin of %s was moved to %s, where a mixed model's restricted likelihood is highest (−2 log L %s, against %s at x = 0): each task's intercept is its level at %s = %s, where it is uncorrelated with the task's slope on %s, as in a mixed model with a correlated intercept and slope",
		col, at, minusSign(best.Criterion), minusSign(zero.Criterion), col, at, col)); err != nil {
		return zero, err
	}
	s.moved = true
	return best, nil
}

// varyingNumeric returns the features and names of e's numeric columns
// whose slopes may vary by task (not a task-level feature,
// data.Encoding.Fixed).
func varyingNumeric(e *data.Encoding) (js []int, cols []string) {
	fixed := map[int]bool{}
	for _, f := range e.Fixed {
		fixed[f] = true
	}
	features, names := e.Numeric()
	for i, f := range features {
		if !fixed[f] {
			js, cols = append(js, f), append(cols, names[i])
		}
	}
	return js, cols
}

// roundOrigin rounds v, an origin in a column's units, to a hundredth of
// the column's spread (scale) at most, a power of ten: no finer choice is
// told apart by the likelihood (reml.OriginOf stops there), and the
// setting then reads as the file writes numbers.
func roundOrigin(v, scale float64) float64 {
	k := math.Ceil(-math.Log10(scale / 100))
	if k >= 0 {
		p := math.Pow(10, k)
		return math.Round(v*p) / p
	}
	q := math.Pow(10, -k)
	return math.Round(v/q) * q
}

// minusSign writes a criterion to a tenth, with a typeset minus.
func minusSign(v float64) string { return strings.Replace(fmt.Sprintf("%.1f", v), "-", "−", 1) }

// plan sets the baselines to search (a self-paced version paces from its
// baseline's choice; MMTL's from the joint MMTL's) and the total number of
// points, an upper bound: a point a stage would repeat counts as done.
func (s *TuneSearch) plan() {
	add := func(key string) {
		if s.byKey[key] == nil {
			b := &baseSearch{key: key, tried: map[[2]float64]bool{}}
			s.bases = append(s.bases, b)
			s.byKey[key] = b
		}
	}
	for _, f := range s.fams {
		if !f.selfPaced {
			add(f.key)
		}
	}
	nsp := 0
	for _, f := range s.fams {
		if f.selfPaced {
			nsp++
			s.paceFrom[f.key] = f.key
			if m, _ := method.Lookup(f.key); s.byKey[f.key] == nil && m.TunedAs != "" && s.byKey[m.TunedAs] != nil {
				s.paceFrom[f.key] = m.TunedAs // the optimum without self-pacing (the catalogue's TunedAs)
			}
			add(s.paceFrom[f.key])
		}
	}
	per := len(s.rhos) + 2 + 2
	if s.defaultRho {
		per += 2
	}
	if len(s.icpt) > 1 {
		per += len(s.icpt) - 1 + 2 + 2
	}
	s.total = len(s.bases)*per + nsp*len(s.opt.Kappa)
}

// Progress returns the points scored (or skipped) so far and the planned
// total, at least the points scored and asked for (Next).
func (s *TuneSearch) Progress() (done, total int) { return s.done, max(s.total, s.done) }

// Metric is the pooled score the search chooses by.
func (s *TuneSearch) Metric() eval.Metric { return s.metric }

// Origin is the features' origin this search moved the data to before
// anything was scored (the setting "origin", Origin.String), or "": the
// folds must be read so too.
func (s *TuneSearch) Origin() string {
	if s.moved {
		return s.d.Origin
	}
	return ""
}

// Next returns the next batch of configurations to score, or nil when the
// search is over. A batch must be fed before the next is asked for.
func (s *TuneSearch) Next() []mtl.Config {
	if s.pending != nil {
		return s.configs()
	}
	for s.stage < stageDone {
		if s.stage == stageSelfPaced {
			s.summarizeBases()
			s.pending = s.selfPacedBatch()
		} else {
			s.pending = s.baseBatch()
		}
		if len(s.pending) > 0 {
			// The plan is an estimate: a grid extended past an edge
			// (grouseticks: 142 points of 136) raises it, so that the
			// progress never counts past its total.
			s.total = max(s.total, s.done+len(s.pending))
			return s.configs()
		}
		s.pending = nil
		s.stage++
	}
	// The plan is an upper bound; the search is over, so every point it
	// will score is scored (the progress once ended at 134 of 136).
	s.total = s.done
	return nil
}

func (s *TuneSearch) configs() []mtl.Config {
	out := make([]mtl.Config, len(s.pending))
	for i, p := range s.pending {
		out[i] = p.cfg
	}
	return out
}

// Feed takes the results of the batch Next returned, in its order.
func (s *TuneSearch) Feed(res []TunePointResult) error {
	if len(res) != len(s.pending) {
		return fmt.Errorf("tune: %d results for a batch of %d", len(res), len(s.pending))
	}
	for i, p := range s.pending {
		gp := gridPoint{cfg: p.cfg, scores: res[i].Scores, est: res[i].Scores.Of(s.metric), losses: res[i].Losses, capped: res[i].Capped}
		if res[i].Failure != "" {
			gp.err, gp.est, gp.losses = errors.New(res[i].Failure), eval.Undefined(), nil
		}
		if p.owner != nil {
			p.owner.pts = append(p.owner.pts, gp)
		} else {
			s.spPts[p.sp] = append(s.spPts[p.sp], gp)
		}
	}
	s.done += len(res)
	s.pending = nil
	s.stage++
	return nil
}

// baseBatch is the current baseline stage's new points.
func (s *TuneSearch) baseBatch() []pendingPoint {
	var out []pendingPoint
	for _, b := range s.bases {
		at := mtl.Config{Rho: s.rhos[0], Intercept: s.k0}
		if i := b.best(s.metric); i >= 0 {
			at = b.pts[i].cfg
		}
		want := s.stagePoints(b, at)
		if (s.stage == stageEdge1 || s.stage == stageEdge2) && s.defaultRho && len(want) == 0 {
			s.done++ // an edge stage with no edge to extend
		}
		for _, rk := range want {
			if b.tried[rk] || !(rk[0] > 0) {
				s.done++
				continue
			}
			b.tried[rk] = true
			c := s.opt.Config
			c.Model, c.SelfPaced = b.key, false
			c = configFor(s.d, c)
			c.Rho, c.Intercept = rk[0], rk[1]
			out = append(out, pendingPoint{cfg: c, owner: b})
		}
	}
	return out
}

// stagePoints are the (ρ, κ) the current stage asks of baseline b, whose
// best point so far is at. A pooled model (STL) has no use for κ: it is
// searched over ρ alone, at κ = 0 (its fits at any κ are the same).
func (s *TuneSearch) stagePoints(b *baseSearch, at mtl.Config) [][2]float64 {
	k0, kappa := s.k0, len(s.icpt) > 1
	if m, _ := method.Lookup(b.key); m.Pooled {
		k0, kappa = 0, false
	}
	switch s.stage {
	case stageRho:
		var out [][2]float64
		for _, r := range s.rhos {
			out = append(out, [2]float64{r, k0})
		}
		if b.likely[0] > 0 {
			out = append(out, b.likely)
		}
		return out
	case stageEdge1, stageEdge2:
		if !s.defaultRho {
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
	case stageKappa:
		if !kappa {
			return nil
		}
		var out [][2]float64
		for _, k := range s.icpt {
			out = append(out, [2]float64{at.Rho, k})
		}
		return out
	case stageAround1:
		return around(0.5, kappa)(b, at)
	case stageAround2:
		return around(0.25, kappa)(b, at)
	}
	return nil
}

// summarizeBases makes every baseline's summary once its stages are done,
// and decides which self-paced versions are too far behind to try.
func (s *TuneSearch) summarizeBases() {
	if s.base != nil {
		return
	}
	s.base = map[string]scored{}
	for _, b := range s.bases {
		simpler := simplerBase(b.pts)
		for i, p := range b.pts {
			if b.likely[0] > 0 && [2]float64{p.cfg.Rho, p.cfg.Intercept} == b.likely {
				simpler[i] = math.Inf(1)
			}
		}
		sc := summarize(s.metric, family{key: b.key}, b.pts, simpler)
		if b.likely[0] > 0 && [2]float64{sc.model.Config.Rho, sc.model.Config.Intercept} == b.likely {
			sc.model.Setting, sc.model.SettingNote = SettingLikelihood, b.likelyNote
		}
		s.base[b.key] = sc
	}
	s.behind = s.behindBases()
}

// selfPacedBatch is the last stage's points: each self-paced version over
// the multiples of the automatic λ0 at its baseline's chosen (ρ, κ).
func (s *TuneSearch) selfPacedBatch() []pendingPoint {
	var out []pendingPoint
	for _, f := range s.fams {
		if !f.selfPaced {
			continue
		}
		if s.behind[f.key] != "" {
			s.done += len(s.opt.Kappa)
			continue
		}
		for _, k := range s.opt.Kappa {
			c := s.base[s.paceFrom[f.key]].model.Config
			c.Model = f.key
			c.SelfPaced, c.AutoLambda0, c.Lambda0 = true, k, 0
			out = append(out, pendingPoint{cfg: c, sp: f.key})
		}
	}
	return out
}

// behindBases returns, for the self-paced versions whose baseline scored
// more than three standard errors of the difference (paired, on the same
// rows) worse than the best baseline, or more than one when the
// baseline's chosen fits stopped at the iteration cap, why they are not
// tried: self-pacing reweights the tasks of that model, and on no data set
// measured here (docs/findings.md) did it move a score by more than a
// fraction of one such error. This keeps MTASO's slow alternations out of
// a search they cannot win. Only a search that names no model prunes.
func (s *TuneSearch) behindBases() map[string]string {
	out := map[string]string{}
	if s.opt.Config.Model != "" {
		return out
	}
	var best *scored
	for _, b := range s.bases { // in order, so that a tie is settled the same way every time
		b := s.base[b.key]
		if b.losses != nil && b.model.Score.OK() && (best == nil || s.metric.Better(b.model.Score.Value, best.model.Score.Value)) {
			best = &b
		}
	}
	if best == nil {
		return out
	}
	for _, f := range s.fams {
		b := s.base[s.paceFrom[f.key]]
		if !f.selfPaced || b.losses == nil {
			continue
		}
		// Each score's own ± is wider than the difference's: both scores
		// rise and fall with the rows' difficulty, and the paired
		// difference leaves that out. Said, as "1.221 ± 0.0028" behind
		// "1.220 ± 0.0028" otherwise reads as no gap at all.
		switch {
		case !eval.PairedWithin(b.losses, best.losses, 3):
			out[f.key] = fmt.Sprintf("not tried: its baseline scored %s, behind the best baseline (%s) by more than three standard errors of their difference on the same held-out rows (paired, so narrower than each score's own ±)", plusMinus(b.model.Score), plusMinus(best.model.Score))
		case b.model.CappedNote != "" && !eval.PairedWithin(b.losses, best.losses, 1):
			// A baseline whose chosen setting's fits stopped at the
			// iteration cap: its self-paced version paces from that
			// setting, its fits stop at the same cap, and it cost most of
			// a search's time on small 0/1 files (MTASO, whose penalty
			// leaves span(Θ) free, §14) without being chosen on any
			// (docs/findings.md, "Tune's time on small 0/1 files").
			out[f.key] = fmt.Sprintf("not tried: its baseline's fits stopped at the iteration cap at its chosen setting, where a self-paced version would start, and it scored %s, behind the best baseline (%s) by more than one standard error of their difference on the same held-out rows (paired)", plusMinus(b.model.Score), plusMinus(best.model.Score))
		}
	}
	return out
}

// candidates returns every candidate, in the order of the families.
func (s *TuneSearch) candidates() []scored {
	var out []scored
	for _, f := range s.fams {
		switch {
		case !f.selfPaced:
			out = append(out, s.base[f.key])
		case s.behind[f.key] != "":
			ms := ModelScore{Key: f.key, SelfPaced: true, Best: eval.Undefined(), Score: eval.Undefined(), Failure: s.behind[f.key]}
			if mm, err := method.Lookup(f.key); err == nil {
				ms.Name = mm.Name(mtl.Config{SelfPaced: true})
			}
			out = append(out, scored{model: ms})
		default:
			grid := s.spPts[f.key]
			if b := s.base[s.paceFrom[f.key]].model; !b.Best.OK() {
				// No chosen (ρ, κ) to pace from.
				for i := range grid {
					grid[i].est, grid[i].losses = eval.Undefined(), nil
					grid[i].err = fmt.Errorf("its baseline %s could not be scored: %s", b.Name, b.Failure)
				}
			}
			sc := summarize(s.metric, f, grid, nil)
			if sc.model.Flat != "" {
				b := s.base[s.paceFrom[f.key]]
				ties, clause := paceAgainstBaseline(sc.losses, b.losses, b.model.Name)
				sc.model.BaselineTies, sc.model.Flat = ties, sc.model.Flat+clause
			}
			out = append(out, sc)
		}
	}
	return out
}

// likelySetting is an estimate's (ρ, κ) as a grid point: κ within its
// range (mtl.RangeOf). Intercepts shared at the box's top with slopes that
// vary freely (ρ under 5·10⁻⁵) make κ = 5·10⁷/ρ above 10¹², and the point
// failed in every fold ("1 of 17" in the table, no reason; lme4's
// grouseticks at a moved origin). At 10¹² the intercepts' deviations keep a
// variance of a ten-millionth of the noise's at most (ρ is 5·10⁻⁶ at the
// box's bottom): shared, as the likelihood says.
func likelySetting(e reml.Estimate) [2]float64 {
	return [2]float64{e.Rho, math.Min(e.Kappa, mtl.RangeOf("intercept").Hi)}
}

// likelyNote says in words what a REML setting is, and when the
// likelihood puts no variance between the tasks' slopes or intercepts,
// that they share them (a ρ of 5·10⁷ reads as a number, not as that).
func likelyNote(e reml.Estimate) string {
	s := "ρ and intercept: their REML estimate, as a mixed model's"
	switch slopes, icpt := e.Shared(); {
	case slopes && icpt:
		s += "; the likelihood puts no variance between the tasks: they share their slopes and intercepts"
	case slopes:
		s += "; the likelihood puts no variance between the tasks' slopes: they share them"
	case icpt:
		s += "; the likelihood puts no variance between the tasks' intercepts: they share them"
	}
	return s
}

// likelyText says, for the search's sentence, which baselines were also
// tried at their likelihood estimate, or why none was.
func (s *TuneSearch) likelyText() string {
	var names []string
	for _, b := range s.bases {
		if b.likely[0] > 0 {
			m, _ := method.Lookup(b.key)
			names = append(names, m.Label)
		}
	}
	switch {
	case len(names) > 0:
		return fmt.Sprintf("; %s also at the restricted maximum likelihood estimate of rho and intercept (REML, as a mixed model's variances), chosen where within one standard error of the best point", strings.Join(names, ", "))
	case s.likelyWhy != "":
		return "; no likelihood estimate of MMTL's setting: " + s.likelyWhy
	}
	return ""
}

// preference is the order in which the choice prefers the models (the
// simplest first, as listed), except that where the likelihood says the
// tasks differ (vary above reml.VaryMargin) the pooled STL comes after
// MMTL: STL is MMTL's limit with no task deviating, which the likelihood
// has just rejected, and MMTL's own choice already took its largest ρ
// within one standard error. nil keeps the listed order.
func (s *TuneSearch) preference(models []ModelScore) []int {
	if !(s.vary > reml.VaryMargin) {
		return nil
	}
	stl := slices.IndexFunc(models, func(m ModelScore) bool { return m.Key == "stl" })
	mm := slices.IndexFunc(models, func(m ModelScore) bool { return m.Key == "mmtl-joint" && !m.SelfPaced })
	if stl < 0 || mm < 0 || stl > mm {
		return nil
	}
	order := make([]int, 0, len(models))
	for i := range models {
		switch i {
		case stl:
		case mm:
			order = append(order, mm, stl)
		default:
			order = append(order, i)
		}
	}
	return order
}

// Result returns the tuning's result once Next has returned nil. When no
// point could be scored there is nothing to choose, and it fails with the
// first point's reason.
func (s *TuneSearch) Result() (*TuneResult, error) {
	if s.stage < stageDone {
		return nil, errors.New("tune: the search is not over")
	}
	cands := s.candidates()
	res := &TuneResult{Metric: string(s.metric), Folds: s.opt.Folds, Intercept: s.icpt, Pooled: true}
	losses := make([][]float64, len(cands))
	for i, c := range cands {
		res.Models = append(res.Models, c.model)
		losses[i] = c.losses
	}
	distinctNames(res.Models)
	order := s.preference(res.Models)
	chosen, reason := chooseModelPaired(s.metric, res.Models, losses, order)
	if was, _ := chooseModelPaired(s.metric, res.Models, losses, nil); order != nil && was != chosen && was >= 0 && res.Models[was].Key == "stl" {
		// The order changed the choice: the listed order would have taken
		// the pooled STL. Said in place of "simpler", which STL is as listed.
		why := fmt.Sprintf("the likelihood says the tasks differ (−2 log L %.1f lower with their deviations than with one pooled model, over %.2f at 5%%), and STL is MMTL with no task deviating", s.vary, reml.VaryMargin)
		ests := make([]eval.Estimate, len(res.Models))
		for i, m := range res.Models {
			ests[i] = m.Score
		}
		if bestOf(s.metric, ests) == was {
			reason = fmt.Sprintf("%s scored best at its chosen setting (%s); %s (%s) differs from it by less than one standard error of the difference on the same rows; %s: %s chosen.",
				res.Models[was].Name, plusMinus(res.Models[was].Score), res.Models[chosen].Name, plusMinus(res.Models[chosen].Score), why, res.Models[chosen].Name)
		} else {
			reason += fmt.Sprintf(" %s (%s) ties with it on the same rows and pools every task, but %s: %s comes first.", res.Models[was].Name, plusMinus(res.Models[was].Score), why, res.Models[chosen].Name)
		}
	}
	if chosen < 0 {
		return nil, fmt.Errorf("tune: no grid point could be scored, so there is nothing to choose: %s", res.Models[0].Failure)
	}
	if mm, err := method.Lookup(res.Models[chosen].Key); err == nil && !mm.NewTask {
		m := res.Models[chosen]
		// Said at the choice, not first at predict's refusal of a new
		// group (ohio: ITL chosen by 0.0001 of log-loss over MTFL, and
		// every held-out child refused).
		reason += fmt.Sprintf(" %s learns no predictor apart from the tasks', so its model predicts only these tasks; %s also predict a new one, and a search for new tasks scores them on tasks held out whole.", m.Name, newTaskModels())
	}
	if c, what, ok := constantCV(s.d, s.opt, s.metric); ok && res.Models[chosen].Score.Value > c.Value*(1+constantMargin) {
		// Said, not only shown: tune chose and saved such a model with no
		// word (infert's matched strata, backpain's pairs; predict says
		// what a constant would score, tune did not). A tie with the
		// constant (a ridge so strong that it is one) is not worse.
		reason += fmt.Sprintf(" At its chosen setting %s's CV %s (%.4g) is worse than one value for every row, %s, which scores %.4g on the same folds: the file may hold too little for these models to learn from (or each task too few rows for the folds).",
			res.Models[chosen].Name, s.metric.Name(), res.Models[chosen].Score.Value, what, c.Value)
	}
	res.Chosen, res.Reason, res.NewTasks = chosen, reason, s.opt.NewTasks
	res.Search = searchText(s.opt, s.icpt, s.fams, s.defaultRho) + s.likelyText()
	res.LeftOut = s.left
	if s.moved {
		res.Origin, res.OriginNote = s.d.Origin, s.d.OriginNote
	}
	res.legacyGrid(cands[chosen], s.opt, s.icpt)
	return res, nil
}
