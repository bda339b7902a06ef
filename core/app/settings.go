package app

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/seq"
)

// This file is the schema of a run's settings: every setting once, with
// the key the learner's JSON options and the page's links use, the
// command line's flag, the kind of text it takes, its range (mtl.Ranges),
// its choices, its defaults under the two profiles and whether a data
// set's preset sets it. The command line's flags, the page's form, checks
// and links and the embed protocol read it (the page through the
// catalogue); none of them states a setting again.

// Kind is the kind of text a setting takes.
type Kind string

// The kinds of setting.
const (
	// KindNumber is a number in the setting's Range.
	KindNumber Kind = "number"
	// KindInteger is a whole number in the setting's Range.
	KindInteger Kind = "integer"
	// KindChoice is one of the setting's Choices.
	KindChoice Kind = "choice"
	// KindBool is on or off: "1" or "0" as text, a flag without a value
	// on the command line.
	KindBool Kind = "bool"
	// KindText is text written in one of the setting's Forms, which the
	// learner reads as text: λ0 ("2", "auto", "auto*8").
	KindText Kind = "text"
	// KindShare is a training share written in one of the setting's
	// Forms (a whole count or a fraction), which the learner takes as a
	// number.
	KindShare Kind = "share"
	// KindColumn is the name of one column of the data.
	KindColumn Kind = "column"
	// KindColumns is a comma-separated list of column names.
	KindColumns Kind = "columns"
)

// Group says what a setting is a setting of.
type Group string

// The groups.
const (
	// LearnerGroup settings are fields of mtl.Config.
	LearnerGroup Group = "learner"
	// SplitGroup settings choose the training rows (TrainOptions).
	SplitGroup Group = "split"
	// DataGroup settings are the column roles of a file (LoadOptions),
	// and what to do with its rows that miss a value.
	DataGroup Group = "data"
)

// The values of the data setting "missing" (LoadOptions.OmitMissing).
const (
	MissingRefuse = "refuse"
	MissingOmit   = "omit"
)

// The values of the data setting "origin" (LoadOptions.Origin).
const (
	OriginAuto  = "auto"
	OriginZero  = "zero"
	OriginMeans = "means"
)

// OmitMissing reads the data setting "missing": "omit" leaves the rows
// with a missing value out, "refuse" (or "", the default) refuses them;
// anything else is an error naming the choices.
func OmitMissing(v string) (bool, error) {
	switch strings.TrimSpace(v) {
	case "", MissingRefuse:
		return false, nil
	case MissingOmit:
		return true, nil
	}
	return false, fmt.Errorf("missing: %q is not %s or %s", v, MissingRefuse, MissingOmit)
}

// An Origin is a value of the data setting "origin", read (ParseOrigin).
type Origin struct {
	// Set says an origin was chosen; unset ("auto"), tune may move it.
	Set bool
	// T puts the numeric features' origin at T times their means (0: as
	// written), when Column is empty.
	T float64
	// Column and At put the origin of that numeric column's feature at
	// the value At, in the file's units, the other features as written:
	// where tune's likelihood put it along the one feature whose slopes
	// vary by task (reml.OriginOf).
	Column string
	At     float64
}

// ParseOrigin reads the data setting "origin": "auto" (or "") says
// nothing yet (tune may move the origin), "zero" keeps the features as
// written (t = 0), "means" moves the numeric features' origin to their
// means (t = 1), a number t to t times their means (where tune's
// likelihood put it: reml.Origin), and "column=value" one column's origin
// to that value (reml.OriginOf; the column is checked when the file is
// read). Anything else is an error naming the choices.
func ParseOrigin(v string) (Origin, error) {
	switch v = strings.TrimSpace(v); v {
	case "", OriginAuto:
		return Origin{}, nil
	case OriginZero:
		return Origin{Set: true}, nil
	case OriginMeans:
		return Origin{Set: true, T: 1}, nil
	}
	if i := strings.LastIndex(v, "="); i >= 0 {
		col := strings.TrimSpace(v[:i])
		at, err := strconv.ParseFloat(strings.TrimSpace(v[i+1:]), 64)
		if col == "" || err != nil || math.IsNaN(at) || math.IsInf(at, 0) {
			return Origin{}, fmt.Errorf("origin: %q is not a column's name, =, and a number (age=-3.05)", v)
		}
		return Origin{Set: true, Column: col, At: at}, nil
	}
	t, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(t) || math.Abs(t) > maxOriginScale {
		return Origin{}, fmt.Errorf("origin: %q is not %s, %s, %s, a number t from −%g to %g (t times the means) or a column's name = a number (age=-3.05)", v, OriginAuto, OriginZero, OriginMeans, maxOriginScale, maxOriginScale)
	}
	return Origin{Set: true, T: t}, nil
}

// String writes o as the setting's value (ParseOrigin's inverse).
func (o Origin) String() string {
	switch {
	case !o.Set:
		return OriginAuto
	case o.Column != "":
		return o.Column + "=" + strconv.FormatFloat(o.At, 'g', -1, 64)
	}
	return OriginValue(o.T)
}

// maxOriginScale bounds the origin's t (ParseOrigin): tune searches from
// −1 to 2 times the means.
const maxOriginScale = 10.0

// OriginValue is the setting "origin" for t times the means: "zero",
// "means", or the number.
func OriginValue(t float64) string {
	switch t {
	case 0:
		return OriginZero
	case 1:
		return OriginMeans
	}
	return strconv.FormatFloat(t, 'g', -1, 64)
}

// Choice is one value of a choice setting.
type Choice struct {
	Value string `json:"value"`
	// Label is the menu's text, when it is not the value.
	Label string `json:"label,omitempty"`
	// Note glosses the value in the command line's help.
	Note string `json:"note,omitempty"`
}

// Form is one way of writing a setting of kind KindText or KindShare:
// the words the text starts with (spaces allowed between them and after
// the last), then a number in Range; or, without a Range, the words alone,
// which mean Value. The forms whose words all match are tried, those with
// more words first; the first that takes the rest reads the text.
type Form struct {
	Words []string `json:"words,omitempty"`
	// Noun names the number in messages ("a number", "a fraction");
	// Param names it after the words ("K" in auto*K).
	Noun  string     `json:"noun,omitempty"`
	Param string     `json:"param,omitempty"`
	Range *mtl.Range `json:"range,omitempty"`
	Value float64    `json:"value,omitempty"`
	// Option is the learner's option (mtl.Config's JSON name) the number
	// goes to.
	Option string `json:"option"`
}

// Setting is one setting of a run.
type Setting struct {
	// Key names the setting in the learner's JSON options (mtl.Config's
	// JSON names) and, unless Link says otherwise, in links and embed
	// messages.
	Key string `json:"key"`
	// Link is its key in links where that differs from Key.
	Link string `json:"link,omitempty"`
	// Flag is the command line's flag ("" for none).
	Flag string `json:"flag,omitempty"`
	// Name is what messages call it ("ρ", "the pace c").
	Name  string `json:"name"`
	Group Group  `json:"group"`
	Kind  Kind   `json:"kind"`
	// Range is a number's range (mtl.Ranges for the learner's).
	Range   *mtl.Range `json:"range,omitempty"`
	Choices []Choice   `json:"choices,omitempty"`
	Forms   []Form     `json:"forms,omitempty"`
	// Optional settings may be left empty: the learner then chooses (from
	// the data, or another setting), as Unset says in words.
	Optional bool   `json:"optional,omitempty"`
	Unset    string `json:"unset,omitempty"`
	// Default is the value a run takes when the setting is not given
	// under the paper's profile (bundled data), Own under the own-data
	// profile (OwnData), as text; "" for an optional setting.
	Default string `json:"default"`
	Own     string `json:"own"`
	// Preset is set when a data set's preset (Bundle.Preset, OwnPreset)
	// sets the setting: choosing a data set resets it.
	Preset bool `json:"preset,omitempty"`
	// In and Word: a flag that has no text of its own is written as Word
	// in the text of the setting In (every row, "all", in the training
	// share's field, as the command line's -train all).
	In   string `json:"in,omitempty"`
	Word string `json:"word,omitempty"`
	// Usage is the command line's help, without the default (Help).
	Usage string `json:"-"`
	// cfg addresses a learner setting in a configuration; opt a split
	// setting in a run's options.
	cfg func(c *mtl.Config) any
	opt func(o *TrainOptions) any
}

// settings is the schema, in the order of the page's form. It is built on
// first use, not when the package starts: the page's learner reaches its
// first τ without it (the catalogue comes from catalog.json), and building
// it at start cost 3-17 ms of a cold start in node (GODEBUG=inittrace=1:
// core/app's initializer 0.15 ms without it; docs/bench.md, "Sixth round").
func settings() []Setting {
	settingsOnce.Do(func() { settingsList = buildSettings() })
	return settingsList
}

var (
	settingsOnce sync.Once
	settingsList []Setting
)

// lambda0Setting is λ0: a number, "auto" (the scale-free λ0,
// docs/algorithms.md §2.5) or "auto*K" (K times it).
var lambda0Setting = Setting{Key: "lambda0", Flag: "lambda0", Name: "λ0", Kind: KindText, Preset: true,
	Forms: []Form{
		{Noun: "a number", Option: "lambda0", Range: rangeOf("lambda0")},
		{Words: []string{"auto"}, Option: "autoLambda0", Value: 1},
		{Words: []string{"auto", "*"}, Param: "K", Option: "autoLambda0", Range: rangeOf("autoLambda0")},
	},
	Usage: "initial pace lambda0: a number, auto (the pace at which the easiest quarter of the tasks holds half of tau at the first iteration) or auto*K",
	cfg:   func(c *mtl.Config) any { return lambda0Field{c} }}

// rangeOf returns the range of a learner setting (mtl.Ranges).
func rangeOf(key string) *mtl.Range {
	r := mtl.RangeOf(key)
	return &r
}

func buildSettings() []Setting {
	rng := rangeOf
	var rules []Choice
	for _, m := range method.All() {
		for _, r := range m.Rules {
			rules = append(rules, Choice{Value: r})
		}
	}
	var models []Choice
	for _, k := range method.Keys() {
		models = append(models, Choice{Value: k})
	}
	ss := []Setting{
		{Key: "model", Flag: "model", Name: "model", Kind: KindChoice, Choices: models, Usage: "model",
			cfg: func(c *mtl.Config) any { return &c.Model }},
		{Key: "select", Flag: "select", Name: "selection rule", Kind: KindChoice, Choices: rules, Default: seq.SelectRandom,
			Usage: "a sequential model's task selection rule", cfg: func(c *mtl.Config) any { return &c.Select }},
		{Key: "selfPaced", Link: "sp", Flag: "selfpaced", Name: "self-paced flag", Kind: KindBool,
			Usage: "self-paced task weighting (without it: the MTL baseline)", cfg: func(c *mtl.Config) any { return &c.SelfPaced }},
		{Key: "tau", Flag: "tau", Name: "τ rule", Kind: KindChoice, Usage: "tau rule",
			Choices: []Choice{{Value: string(mtl.Softmax)}, {Value: string(mtl.Hard), Label: "hard threshold"}},
			cfg:     func(c *mtl.Config) any { return (*string)(&c.Tau) }},
		{Key: "variant", Flag: "variant", Name: "variant", Kind: KindChoice, Usage: "variant",
			Choices: []Choice{{Value: string(mtl.Paper)}, {Value: string(mtl.Reference), Label: "reference (authors' code)", Note: "the authors' code"}},
			cfg:     func(c *mtl.Config) any { return (*string)(&c.Variant) }},
		{Key: "loss", Flag: "loss", Name: "loss", Kind: KindChoice, Optional: true, Unset: "logistic for binary labels", Usage: "loss",
			Choices: []Choice{{Value: string(mtl.Squared)}, {Value: string(mtl.Logistic)}},
			cfg:     func(c *mtl.Config) any { return (*string)(&c.Loss) }},
		{Key: "rho", Flag: "rho", Name: "ρ", Kind: KindNumber, Range: rng("rho"), Preset: true, Usage: "regularization rho",
			cfg: func(c *mtl.Config) any { return &c.Rho }},
		{Key: "intercept", Flag: "intercept", Name: "κ (shared intercept)", Kind: KindNumber, Range: rng("intercept"), Preset: true,
			Optional: true, Unset: "free intercepts for regression, 0.1 for a classifier on your own file; tune chooses it",
			Usage: "shared intercept strength kappa: each task's intercept is pulled to the shared one by rho*kappa*(b - b0)^2",
			cfg:   func(c *mtl.Config) any { return &c.Intercept }},
		lambda0Setting,
		{Key: "c", Flag: "c", Name: "the pace c", Kind: KindNumber, Range: rng("c"), Usage: "pace growth c, lambda <- c*lambda",
			cfg: func(c *mtl.Config) any { return &c.Pace }},
		{Key: "h", Flag: "aso-h", Name: "h", Kind: KindInteger, Range: rng("h"), Usage: "MTASO subspace dimension h",
			cfg: func(c *mtl.Config) any { return &c.H }},
		{Key: "maxIter", Flag: "maxiter", Name: "max iterations", Kind: KindInteger, Range: rng("maxIter"), Preset: true,
			Usage: "outer iteration cap", cfg: func(c *mtl.Config) any { return &c.MaxIter }},
		{Key: "train", Flag: "train", Name: "train rows/task", Group: SplitGroup, Kind: KindShare, Preset: true, Default: fmt.Sprint(DefaultTrain),
			Forms: []Form{
				{Noun: "a whole count", Option: "train", Range: &mtl.Range{Lo: 1, Hi: mtl.NoBound, LoIncluded: true, Integer: true}},
				{Noun: "a fraction", Option: "train", Range: &mtl.Range{Lo: 0, Hi: 1}},
			},
			Usage: "training rows per task: a whole count (>= 1), a fraction (< 1), stratified for classification, or all (every row; no test score)",
			opt:   func(o *TrainOptions) any { return &o.Train }},
		{Key: "seed", Flag: "seed", Name: "the seed", Group: SplitGroup, Kind: KindInteger, Default: "1",
			// The seeds every front end can carry: JavaScript's whole numbers.
			Range: &mtl.Range{Lo: 0, Hi: 1<<53 - 1, LoIncluded: true, Integer: true},
			Usage: "random seed for the split and the learner", opt: func(o *TrainOptions) any { return &o.Seed }},
		{Key: "all", Name: "all rows", Group: SplitGroup, Kind: KindBool, In: "train", Word: "all", Usage: "train on every row (no test score); the command line spells it -train all",
			opt: func(o *TrainOptions) any { return &o.All }},
		{Key: "solver", Flag: "solver", Name: "solver", Kind: KindChoice, Optional: true, Unset: "exact for paper, fista100 for reference",
			Choices: []Choice{{Value: string(mtl.Exact)}, {Value: string(mtl.FISTA100)}}, Usage: "W-step solver",
			cfg: func(c *mtl.Config) any { return (*string)(&c.Solver) }},
		{Key: "delta", Flag: "delta", Name: "δ", Kind: KindNumber, Range: rng("delta"), Usage: "weight of hard tasks under the hard rule",
			cfg: func(c *mtl.Config) any { return &c.Delta }},
		{Key: "eps", Flag: "eps", Name: "ε", Kind: KindNumber, Range: rng("eps"), Usage: "MTFL's perturbation epsilon",
			cfg: func(c *mtl.Config) any { return &c.Eps }},
		{Key: "scale", Flag: "scale", Name: "data term", Kind: KindChoice, Usage: "data term",
			Choices: []Choice{{Value: string(mtl.MeanLoss), Note: "per task, the paper's"}, {Value: string(mtl.SumLoss), Note: "per row"}},
			cfg:     func(c *mtl.Config) any { return (*string)(&c.Scale) }},
		{Key: "paceCost", Flag: "pace-cost", Name: "pace cost", Kind: KindChoice, Usage: "self-paced task cost",
			Choices: []Choice{{Value: string(mtl.TrainCost), Note: "the paper's training loss"}, {Value: string(mtl.LOOCost), Note: "leave-one-out"}},
			cfg:     func(c *mtl.Config) any { return (*string)(&c.PaceCost) }},
		{Key: "codeBugs", Flag: "code-bugs", Name: "the authors' MTASO bug", Kind: KindBool,
			Usage: "reproduce the authors' MTASO bug (W scaled by sqrt(rho) in place); off by default",
			cfg:   func(c *mtl.Config) any { return &c.CodeBugs }},
		// The column roles of a file. The defaults are core/data's (a
		// test checks that they agree).
		{Key: "task", Flag: "task", Name: "task column", Group: DataGroup, Kind: KindColumn, Default: "task", Usage: "CSV column naming the task"},
		{Key: "label", Flag: "label", Name: "label column", Group: DataGroup, Kind: KindColumn, Default: "y", Usage: "CSV column holding the label"},
		{Key: "drop", Flag: "drop", Name: "columns left out", Group: DataGroup, Kind: KindColumns,
			Usage: "comma-separated CSV `columns` to leave out (an id column, a free-text column); a name with a comma in double quotes"},
		{Key: "text", Flag: "text", Name: "columns read as words", Group: DataGroup, Kind: KindColumns,
			Usage: "comma-separated CSV `columns` to read as words, one-hot encoded, even when their values look like numbers (0,1,2,3+); a name with a comma in double quotes"},
		{Key: "missing", Flag: "missing", Name: "rows with a missing value", Group: DataGroup, Kind: KindChoice, Default: MissingRefuse,
			Choices: []Choice{{Value: MissingRefuse, Note: "refuse the file at the first, saying how many rows have one"},
				{Value: MissingOmit, Note: "leave them out, as R's na.omit does"}},
			Usage: "rows with a missing value (an empty cell, NA, ?) in the task, the label or a numeric feature"},
		{Key: "origin", Flag: "origin", Name: "features' origin", Group: DataGroup, Kind: KindChoice, Default: OriginAuto,
			Choices: []Choice{{Value: OriginAuto, Note: "as written, unless tune finds that a mixed model's likelihood prefers another origin: along the one numeric feature whose slopes vary by task, or else along the way to the numeric features' means"},
				{Value: OriginZero, Note: "as written: a task's intercept is its level at x = 0"},
				{Value: OriginMeans, Note: "at the numeric features' means: a task's intercept is its level at the average row"}},
			Usage: "where the features' origin is, which the shrinkage of the tasks' intercepts depends on; also a number t, for t times the numeric features' means, or column=value, for that column's origin at that value (where tune put it)"},
	}
	// A file starts from OwnPreset (not through WithPreset, which reads
	// this schema).
	paper, own := mtl.Config{}.Defaults(false), OwnData(OwnPreset.Config).Defaults(false)
	for i := range ss {
		s := &ss[i]
		if s.Group == "" {
			s.Group = LearnerGroup
		}
		if s.cfg != nil && s.Default == "" && !s.Optional {
			s.Default, s.Own = textOf(s.cfg(&paper)), textOf(s.cfg(&own))
		}
		if s.Kind == KindBool && s.Default == "" {
			s.Default, s.Own = "0", "0"
		}
		if s.Own == "" {
			s.Own = s.Default
		}
	}
	return ss
}

// Settings returns the schema, in the order of the page's form.
func Settings() []Setting { return append([]Setting(nil), settings()...) }

// LookupSetting returns the setting with the given key.
func LookupSetting(key string) (Setting, bool) {
	for _, s := range settings() {
		if s.Key == key {
			return s, true
		}
	}
	return Setting{}, false
}

// Field returns where a learner setting lives in c: a *float64, *int,
// *string, *bool, or (λ0) a value with String and Set methods that read
// and write the setting's text. It returns nil for a setting of another
// group.
func (s Setting) Field(c *mtl.Config) any {
	if s.cfg == nil {
		return nil
	}
	return s.cfg(c)
}

// field returns where s lives in o (nil for a column role).
func (s Setting) field(o *TrainOptions) any {
	switch {
	case s.cfg != nil:
		return s.cfg(&o.Config)
	case s.opt != nil:
		return s.opt(o)
	}
	return nil
}

// Help is the command line's help for s: its usage, its choices, and its
// default under each profile (and whether a preset may give another).
func (s Setting) Help() string {
	u := s.Usage
	if len(s.Choices) > 0 {
		var words []string
		for _, c := range s.Choices {
			w := c.Value
			if c.Note != "" {
				w += " (" + c.Note + ")"
			}
			words = append(words, w)
		}
		u += ": " + orList(words)
	}
	switch {
	case s.Optional:
		if s.Unset != "" {
			u += " (default: " + s.Unset + ")"
		}
	case s.Kind == KindBool || s.Default == "":
	case s.Own != s.Default && s.Preset:
		u += fmt.Sprintf(" (default %s for a file, %s or the preset's for a bundled data set)", s.Own, s.Default)
	case s.Own != s.Default:
		u += fmt.Sprintf(" (default %s for a file, %s for a bundled data set)", s.Own, s.Default)
	case s.Preset:
		u += fmt.Sprintf(" (default %s, or the bundled data set's)", s.Default)
	default:
		u += fmt.Sprintf(" (default %s)", s.Default)
	}
	return u
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// ParseForm reads text written in one of s's Forms: the index of the
// form and its number (the form's Value for words alone). The error says
// every form, with the range of the one the text was meant as (the first
// tried).
func (s Setting) ParseForm(text string) (form int, v float64, err error) {
	t := strings.TrimSpace(text)
	meant := -1
	for n := maxWords(s.Forms); n >= 0; n-- {
		for i, f := range s.Forms {
			rest, ok := afterWords(t, f.Words)
			if !ok || len(f.Words) != n {
				continue
			}
			if meant < 0 {
				meant = i
			}
			if f.Range == nil && rest == "" {
				return i, f.Value, nil
			}
			if v, err := strconv.ParseFloat(rest, 64); f.Range != nil && err == nil && f.Range.Contains(v) {
				return i, v, nil
			}
		}
	}
	return -1, 0, s.formError(text, meant)
}

// maxWords is the most words of a form.
func maxWords(forms []Form) int {
	n := 0
	for _, f := range forms {
		n = max(n, len(f.Words))
	}
	return n
}

// afterWords returns what follows words at the start of t (spaces after
// each word dropped), and whether t starts with them.
func afterWords(t string, words []string) (string, bool) {
	for _, w := range words {
		var ok bool
		if t, ok = strings.CutPrefix(t, w); !ok {
			return "", false
		}
		t = strings.TrimSpace(t)
	}
	return t, true
}

// formError says what s takes, with the range of form meant (-1: none).
func (s Setting) formError(text string, meant int) error {
	var words []string
	for i, f := range s.Forms {
		w := strings.Join(f.Words, "") + f.Param
		if f.Noun != "" {
			w = f.Noun
		}
		if i == meant && f.Range != nil {
			if f.Param != "" {
				w += " with " + f.Param
			}
			// The noun says whether the number is whole.
			w += " " + strings.TrimPrefix(f.Range.String(), "a whole number ")
		}
		words = append(words, w)
	}
	return fmt.Errorf("want %s, got %q", orList(words), text)
}

// FormText writes the number v of the learner's option as s's text: the
// words of the form that means v by itself, else v after the words of the
// option's form with a number ("" when s has no form for the option).
func (s Setting) FormText(option string, v float64) string {
	for _, f := range s.Forms {
		if f.Option == option && f.Range == nil && f.Value == v {
			return strings.Join(f.Words, " ")
		}
	}
	for _, f := range s.Forms {
		if f.Option == option && f.Range != nil {
			return strings.Join(f.Words, "") + strconv.FormatFloat(v, 'g', -1, 64)
		}
	}
	return ""
}

// textOf writes the value at a setting's field as text: "" for a number
// that is zero (not set), "1" or "0" for a flag.
func textOf(p any) string {
	switch v := p.(type) {
	case *float64:
		if *v != 0 {
			return strconv.FormatFloat(*v, 'g', -1, 64)
		}
	case *int:
		if *v != 0 {
			return strconv.Itoa(*v)
		}
	case *uint64:
		if *v != 0 {
			return strconv.FormatUint(*v, 10)
		}
	case *string:
		return *v
	case *bool:
		if *v {
			return "1"
		}
		return "0"
	case lambda0Field:
		return v.String()
	}
	return ""
}

// lambda0Field is the λ0 setting of a configuration, read and written as
// text (ParseLambda0, Lambda0Text); the command line's -lambda0 is one.
type lambda0Field struct{ c *mtl.Config }

func (f lambda0Field) String() string {
	if f.c == nil {
		return ""
	}
	return Lambda0Text(*f.c)
}

func (f lambda0Field) Set(text string) error { return SetLambda0(f.c, text) }

// unset reports whether the value at a setting's field is not set.
func unset(p any) bool {
	if b, ok := p.(*bool); ok {
		return !*b
	}
	return textOf(p) == ""
}

// assign copies the value at src to dst, two fields of one setting.
func assign(dst, src any) {
	switch d := dst.(type) {
	case *float64:
		*d = *src.(*float64)
	case *int:
		*d = *src.(*int)
	case *uint64:
		*d = *src.(*uint64)
	case *string:
		*d = *src.(*string)
	case *bool:
		*d = *src.(*bool)
	case lambda0Field:
		s := src.(lambda0Field)
		d.c.Lambda0, d.c.AutoLambda0 = s.c.Lambda0, s.c.AutoLambda0
	}
}

// WithPreset returns opt with each setting a preset sets (Setting.Preset)
// that opt leaves unset taken from the preset p. Every front end merges a
// data set's preset with it.
func WithPreset(p, opt TrainOptions) TrainOptions {
	for _, s := range settings() {
		if s.Preset && unset(s.field(&opt)) {
			assign(s.field(&opt), s.field(&p))
		}
	}
	return opt
}

// OwnPreset is where the page starts a visitor's own file: the automatic
// λ0, which fits any data set's scale (docs/algorithms.md §2.5); the
// own-data profile gives the rest.
var OwnPreset = TrainOptions{Config: mtl.Config{AutoLambda0: 1}}

// StartOf returns the settings a run on the bundled data set b (nil: a
// visitor's own file) starts from, as text by key: b's preset (OwnPreset)
// merged by WithPreset, and each setting's default under b's profile for
// the rest.
func StartOf(b *Bundle) map[string]string {
	p, own := OwnPreset, true
	if b != nil {
		p, own = b.Preset, false
	}
	opt := WithPreset(p, TrainOptions{})
	out := make(map[string]string, len(settings()))
	for _, s := range settings() {
		t := ""
		if f := s.field(&opt); f != nil && !unset(f) {
			t = textOf(f)
		}
		switch {
		case t != "":
		case own:
			t = s.Own
		default:
			t = s.Default
		}
		out[s.Key] = t
	}
	return out
}
