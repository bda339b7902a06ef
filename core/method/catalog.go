// Package method is the catalogue of the learners spmtl offers: one table
// that names every method once, with its label in the paper's table, how it
// trains (all tasks at once, or one task after another), whether the
// self-paced trainer can wrap it, how to build it, what a run of it is
// compared with, the shared knowledge its model saves and how tuning ranks
// it. The command line, the evaluation, the model files, the tuning, the
// session behind the page and, through the wasm bridge, the page itself ask
// this table; outside it, a method's name is spelled only in its own file
// of core/mtl or core/seq (and the self-paced trainer's list of them).
//
// Adding a method is one file that implements mtl.Learner (or, for a
// method the self-paced trainer wraps, the structure of core/mtl, with its
// Θ) and one entry below (docs/architecture.md, "Adding a method").
package method

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/seq"
)

// Kind says how a method trains.
type Kind string

// The kinds of method.
const (
	// Parallel methods fit all tasks together; a self-paced version runs
	// them inside the self-paced trainer.
	Parallel Kind = "parallel"
	// Sequential methods learn one task after another in an order they
	// choose (the paper's landmine comparison of task orderings).
	Sequential Kind = "sequential"
)

// Method is one entry of the catalogue.
type Method struct {
	// Key names the method on the command line (-model), in the JS API and
	// in links.
	Key string `json:"key"`
	// Label is its row in the paper's table; a self-paced run is
	// "sp"+Label.
	Label string `json:"label"`
	// Kind is Parallel or Sequential.
	Kind Kind `json:"kind"`
	// SelfPaced is set when the self-paced trainer can wrap the method.
	SelfPaced bool `json:"selfPaced"`
	// Fixed is set when the paper fixes the method's settings (CL, ELLA):
	// the evaluation does not cross-validate it and ρ, λ0 do not apply.
	Fixed bool `json:"fixed"`
	// Rules are the choices of Config.Select (ELLA's task selection).
	Rules []string `json:"rules,omitempty"`
	// Summary is one line for help texts and menus.
	Summary string `json:"summary"`
	// Shares, for a method whose model keeps no shared knowledge Θ to
	// show, says what its tasks share (if anything), as a sentence that
	// follows the model's name ("ELLA-random learns a shared basis …").
	Shares string `json:"shares,omitempty"`
	// Theta is the kind of shared knowledge its model saves (mtl.Theta's
	// Kind); empty when it saves none.
	Theta string `json:"-"`
	// Simplicity ranks the method among the candidates of a search over
	// every model (app.Tune), simplest first: where scores tie within one
	// standard error, the simpler is chosen. Zero: never a candidate.
	Simplicity int `json:"-"`
	// TunedAs names the method whose single fit is this one's optimum
	// without self-pacing (the joint MMTL for the alternating MMTL): a
	// search over every model tunes that one in its place, and the
	// self-paced version paces from its choice.
	TunedAs string `json:"-"`
	// Likelihood is set when the method's model, under the summed squared
	// loss, is a linear mixed model's (MMTL: tasks' deviations from a
	// shared mean under a Gaussian prior), so that a search can estimate ρ
	// and κ by restricted maximum likelihood (core/reml,
	// docs/algorithms.md §15).
	Likelihood bool `json:"-"`
	// NewTask is set when the method's model predicts a task it was not
	// trained on (STL's pooled predictor, MMTL's and MTFL-mean's shared
	// mean: app.ModelFile.NewTaskPredictor); the others' predict only
	// their own tasks.
	NewTask bool `json:"-"`
	// Pooled is set when the method fits one predictor to the pooled rows
	// (STL): the shared intercept's strength κ, a pull of the tasks'
	// intercepts towards their mean, has no effect on it, and a search
	// does not try it.
	Pooled bool `json:"-"`
	// Memory is what its learner keeps beside the weights, for the memory
	// estimate of a fit (mtl.Estimate).
	Memory mtl.Memory `json:"-"`
	// idle, when set, says why the method shares nothing on data of d
	// features under cfg (defaults filled in), "" when it shares.
	idle func(cfg mtl.Config, d int) string
	// new builds a learner for cfg (defaults filled in) on p.
	new func(p *mtl.Problem, cfg mtl.Config) (mtl.Learner, error)
	// compare lists the runs a run of this method is compared with.
	compare func(cfg mtl.Config) []Comparison
}

// Comparison is a run that a run of a method is shown against: its
// baseline (self-paced runs: the same method with τ uniform; sequential
// runs: self-paced MTFL, as in the paper's landmine figure) and ITL.
type Comparison struct {
	// Role is "baseline" or "itl".
	Role string `json:"role"`
	// Label names the comparison in tables and charts ("MTFL", "ITL").
	Label string `json:"label"`
	// Config trains it.
	Config mtl.Config `json:"config"`
}

// catalog is the table. Its order is the order of menus and help texts.
// The simplicity ranks, in steps of 5 or 10 to leave room for a method
// between two, go by how much of what the tasks share a model keeps,
// from the most to the least: one pooled predictor; tasks pulled to their
// mean (joint, then alternating), as a mixed model pulls its groups; a
// mean under a learned metric; then no pooling at all, each task its own
// ridge pulled to 0 (ITL), alone or under a learned metric or subspace.
// ITL is not the simpler of ITL and MMTL: its T·d weights are each task's
// own, where MMTL's are a shared mean and deviations pulled to it, and on
// real grouped files it lost held out where the order put it second
// (docs/findings.md, "Real grouped data"). A self-paced version comes
// right after its baseline.
var catalog = []Method{
	{Key: "stl", Label: "STL", Kind: Parallel, Summary: "single task learning on the pooled data: one predictor for every task",
		Shares:     "fits one predictor to every task's rows: its weights, the same for every task, are all it learns.",
		Simplicity: 10, NewTask: true, Pooled: true, new: trainer, compare: againstITL},
	{Key: "itl", Label: "ITL", Kind: Parallel, Summary: "independent task learning: one ridge (or logistic) model per task",
		Shares:     "learns each task on its own: nothing is shared.",
		Simplicity: 55, new: trainer, compare: none},
	{Key: "mmtl", Label: "MMTL", Kind: Parallel, SelfPaced: true, Summary: "mean-regularized MTL, w_t pulled to the tasks' mean (alternating)",
		Theta: "mmtl", Simplicity: 40, TunedAs: "mmtl-joint", Likelihood: true, NewTask: true, Memory: mtl.FeatureMatrix, new: trainer, compare: parallel},
	{Key: "mmtl-joint", Label: "MMTL", Kind: Parallel, Summary: "mean-regularized MTL solved as one joint problem (the authors' MMTL row)",
		Theta: "mmtl", Simplicity: 30, Likelihood: true, NewTask: true, new: joint, compare: againstITL},
	{Key: "mtfl", Label: "MTFL", Kind: Parallel, SelfPaced: true, Summary: "multitask feature learning: a shared feature metric D",
		Theta: "mtfl", Simplicity: 60, Memory: mtl.FeatureMatrix, new: trainer, compare: parallel},
	{Key: "mtfl-mean", Label: "MTFL-mean", Kind: Parallel, SelfPaced: true, Summary: "a shared mean w0 with task deviations under a learned feature metric D (random slopes, learned)",
		Theta: "mtfl-mean", Simplicity: 50, NewTask: true, Memory: mtl.FeatureMatrix, new: trainer, compare: parallel},
	{Key: "mtaso", Label: "MTASO", Kind: Parallel, SelfPaced: true, Summary: "alternating structure optimization: a shared h-dimensional subspace",
		Theta: "mtaso", Simplicity: 70, idle: subspaceHoldsAll, new: trainer, compare: parallel},
	{Key: "cl", Label: "CL", Kind: Sequential, Fixed: true, Summary: "curriculum learning: the easiest remaining task next, anchored at the last (rho 0.01)",
		Shares: "shares no Θ: it passes knowledge from task to task, each anchored at the task learned before.",
		new:    newCL, compare: sequential},
	{Key: "ella", Label: "ELLA", Kind: Sequential, Fixed: true, Rules: []string{seq.SelectRandom, seq.SelectInfoMax, seq.SelectDiversity, seq.SelectDiversityPP},
		Summary: "lifelong learning with a shared sparse basis; the next task by a selection rule (k 5)",
		Shares:  "learns a shared basis L (each task's weights ≈ L times the task's own sparse code), but the model file keeps only the tasks' weights: there is no basis to show.",
		Memory:  mtl.TaskCurvature, new: newELLA, compare: sequential},
}

// DefaultKey is the method of a configuration that names none.
var DefaultKey = mtl.Config{}.Defaults(false).Model

// All returns the catalogue, in menu order.
func All() []Method { return append([]Method(nil), catalog...) }

// Keys returns every method's key, in menu order.
func Keys() []string {
	keys := make([]string, len(catalog))
	for i, m := range catalog {
		keys[i] = m.Key
	}
	return keys
}

// Lookup returns the method with the given key.
func Lookup(key string) (Method, error) {
	k := strings.ToLower(strings.TrimSpace(key))
	if k == "" {
		k = DefaultKey
	}
	for _, m := range catalog {
		if m.Key == k {
			return m, nil
		}
	}
	return Method{}, fmt.Errorf("unknown model %q (want one of %s)", key, strings.Join(Keys(), ", "))
}

// BySimplicity returns the methods a search over every model may try
// (Simplicity above zero), simplest first.
func BySimplicity() []Method {
	var out []Method
	for _, m := range catalog {
		if m.Simplicity > 0 {
			out = append(out, m)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Simplicity < out[b].Simplicity })
	return out
}

// NewTaskLabels names, simplest first, the models a search for new tasks
// chooses among: the tunable parallel methods with a predictor for a task
// they were not trained on (NewTask), each label once ("STL", "MMTL",
// "MTFL-mean"). Every message and help text that names them reads this
// list, so a method added to the catalogue is named everywhere at once.
func NewTaskLabels() []string {
	var names []string
	for _, m := range BySimplicity() {
		if m.NewTask && !m.Fixed && m.Kind == Parallel && !contains(names, m.Label) {
			names = append(names, m.Label)
		}
	}
	return names
}

// Idle says why the method would share nothing on data of d features
// under cfg (defaults filled in): a search over every model leaves it out.
// It is "" when the method shares.
func (m Method) Idle(cfg mtl.Config, d int) string {
	if m.idle == nil {
		return ""
	}
	return m.idle(cfg, d)
}

// subspaceHoldsAll: MTASO's subspace of h dimensions holds every one of d
// ≤ h features, where its penalty only slows the fit of independent tasks
// (docs/algorithms.md §14).
func subspaceHoldsAll(cfg mtl.Config, d int) string {
	if d > cfg.H {
		return ""
	}
	if d == 1 {
		return fmt.Sprintf("MTASO: its shared subspace of h = %d dimensions would hold the one feature, where it shares nothing", cfg.H)
	}
	return fmt.Sprintf("MTASO: its shared subspace of h = %d dimensions would hold all %d features, where it shares nothing", cfg.H, d)
}

// Name returns the label of a run of the method: "spMTFL", "MTFL",
// "ELLA-infomax".
func (m Method) Name(cfg mtl.Config) string {
	switch {
	case cfg.SelfPaced && m.SelfPaced:
		return "sp" + m.Label
	case len(m.Rules) > 0:
		return m.Label + "-" + m.rule(cfg)
	}
	return m.Label
}

func (m Method) rule(cfg mtl.Config) string {
	if cfg.Select == "" {
		return m.Rules[0]
	}
	return cfg.Select
}

// Check reports a configuration the method cannot run: a self-paced
// version it does not have, or an unknown selection rule.
func (m Method) Check(cfg mtl.Config) error {
	if cfg.SelfPaced && !m.SelfPaced {
		return fmt.Errorf("%s has no self-paced version (self-pacing wraps %s)", m.Key, strings.Join(selfPacedKeys(), ", "))
	}
	if cfg.Select != "" {
		if len(m.Rules) == 0 {
			return fmt.Errorf("%s has no task-selection rule (select applies to %s)", m.Key, strings.Join(ruleKeys(), ", "))
		}
		if !contains(m.Rules, cfg.Select) {
			return fmt.Errorf("unknown selection rule %q for %s (want one of %s)", cfg.Select, m.Key, strings.Join(m.Rules, ", "))
		}
	}
	return nil
}

// New builds a learner of cfg's method on p, with cfg's zero fields at
// their defaults (mtl.Config.Defaults).
func New(p *mtl.Problem, cfg mtl.Config) (mtl.Learner, error) {
	if p == nil {
		return nil, fmt.Errorf("new learner: nil problem")
	}
	m, err := Lookup(cfg.Model)
	if err != nil {
		return nil, err
	}
	cfg.Model = m.Key
	if err := m.Check(cfg); err != nil {
		return nil, err
	}
	return m.new(p, cfg)
}

// Comparisons returns the runs a run of cfg is compared with.
func Comparisons(cfg mtl.Config) ([]Comparison, error) {
	m, err := Lookup(cfg.Model)
	if err != nil {
		return nil, err
	}
	cfg.Model = m.Key
	return m.compare(cfg), nil
}

func trainer(p *mtl.Problem, cfg mtl.Config) (mtl.Learner, error) { return mtl.NewTrainer(p, cfg) }

func joint(p *mtl.Problem, cfg mtl.Config) (mtl.Learner, error) { return mtl.NewJointMMTL(p, cfg) }

// The sequential learners keep the authors' fixed settings (docs/
// algorithms.md §8, §9); of the configuration they take the loss, ELLA's
// rule and the seed.
func newCL(p *mtl.Problem, cfg mtl.Config) (mtl.Learner, error) {
	return seq.NewCL(p, seq.CLConfig{Loss: loss(p, cfg)})
}

func newELLA(p *mtl.Problem, cfg mtl.Config) (mtl.Learner, error) {
	return seq.NewELLA(p.Data, seq.ELLAConfig{Select: cfg.Select, Loss: loss(p, cfg), Seed: uint64(cfg.Seed)})
}

func loss(p *mtl.Problem, cfg mtl.Config) mtl.Loss {
	return cfg.Defaults(p.Data.Kind == data.Classification).Loss
}

func none(mtl.Config) []Comparison { return nil }

func itl(cfg mtl.Config) Comparison {
	c := cfg
	c.Model, c.SelfPaced, c.Select = "itl", false, ""
	return Comparison{Role: "itl", Label: "ITL", Config: c}
}

func againstITL(cfg mtl.Config) []Comparison { return []Comparison{itl(cfg)} }

// parallel: a self-paced run against its baseline (τ uniform) and ITL; a
// baseline run against ITL.
func parallel(cfg mtl.Config) []Comparison {
	if !cfg.SelfPaced {
		return againstITL(cfg)
	}
	base := cfg
	base.SelfPaced = false
	return []Comparison{{Role: "baseline", Label: strings.ToUpper(cfg.Model), Config: base}, itl(cfg)}
}

// sequential: CL and ELLA against self-paced MTFL (the paper's landmine
// figure) and ITL.
func sequential(cfg mtl.Config) []Comparison {
	sp := cfg
	sp.Model, sp.SelfPaced, sp.Select = "mtfl", true, ""
	return []Comparison{{Role: "baseline", Label: "spMTFL", Config: sp}, itl(cfg)}
}

func selfPacedKeys() []string {
	var k []string
	for _, m := range catalog {
		if m.SelfPaced {
			k = append(k, m.Key)
		}
	}
	return k
}

func ruleKeys() []string {
	var k []string
	for _, m := range catalog {
		if len(m.Rules) > 0 {
			k = append(k, m.Key)
		}
	}
	sort.Strings(k)
	return k
}

func contains(v []string, s string) bool {
	for _, x := range v {
		if x == s {
			return true
		}
	}
	return false
}
