package app

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/mtl"
)

// TestSettingsStateEachRangeOnce: every range of mtl.Ranges is the range
// of exactly one setting (or of one form of one), as mtl.RangeOf gives it.
func TestSettingsStateEachRangeOnce(t *testing.T) {
	uses := map[string]int{}
	for _, s := range Settings() {
		ranges := []*mtl.Range{s.Range}
		for _, f := range s.Forms {
			ranges = append(ranges, f.Range)
		}
		for _, r := range ranges {
			if r == nil || r.Key == "" {
				continue
			}
			uses[r.Key]++
			if *r != mtl.RangeOf(r.Key) {
				t.Errorf("setting %s: range %+v, want mtl.RangeOf(%q) = %+v", s.Key, *r, r.Key, mtl.RangeOf(r.Key))
			}
		}
	}
	for _, r := range mtl.Ranges {
		if uses[r.Key] != 1 {
			t.Errorf("range %q is the range of %d settings, want 1", r.Key, uses[r.Key])
		}
	}
}

// TestSettingKeysAreConfigNames: a learner setting's key is the JSON name
// of the one mtl.Config field it sets (the learner's option, and the
// link's key), and no two settings set the same field.
func TestSettingKeysAreConfigNames(t *testing.T) {
	fields := func(c mtl.Config) map[string]any {
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	zero := fields(mtl.Config{})
	seen := map[string]bool{}
	for _, s := range Settings() {
		var c mtl.Config
		switch p := s.Field(&c).(type) {
		case nil:
			continue
		case *float64:
			*p = 0.5
		case *int:
			*p = 7
		case *string:
			*p = "x"
		case *bool:
			*p = true
		case interface{ Set(string) error }:
			if err := p.Set("2"); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("setting %s: a field of type %T", s.Key, p)
		}
		var changed []string
		for k, v := range fields(c) {
			if !reflect.DeepEqual(v, zero[k]) {
				changed = append(changed, k)
			}
		}
		if !slices.Equal(changed, []string{s.Key}) {
			t.Errorf("setting %s sets the configuration's %v", s.Key, changed)
		}
		if seen[s.Key] {
			t.Errorf("two settings set %s", s.Key)
		}
		seen[s.Key] = true
	}
}

// validText reports why text is not a value of s ("" when it is).
func validText(s Setting, text string) string {
	if text == "" && (s.Optional || s.Kind == KindColumns) {
		return ""
	}
	switch s.Kind {
	case KindNumber, KindInteger:
		if v, err := strconv.ParseFloat(text, 64); err != nil || !s.Range.Contains(v) {
			return fmt.Sprintf("not a number %s", s.Range)
		}
	case KindText, KindShare:
		if _, _, err := s.ParseForm(text); err != nil {
			return err.Error()
		}
	case KindChoice:
		if !slices.ContainsFunc(s.Choices, func(c Choice) bool { return c.Value == text }) {
			return "not one of the choices"
		}
	case KindBool:
		if text != "0" && text != "1" {
			return "not 0 or 1"
		}
	case KindColumn:
		if text == "" {
			return "no column"
		}
	}
	return ""
}

// TestPresetsParse: a preset sets only the settings the schema marks as
// set by presets, and every setting a data set (or a visitor's file)
// starts from is a valid value of that setting.
func TestPresetsParse(t *testing.T) {
	presets := map[string]TrainOptions{"own data": OwnPreset}
	starts := map[string]map[string]string{"own data": StartOf(nil)}
	for _, b := range Bundles() {
		presets[b.Name], starts[b.Name] = b.Preset, StartOf(&b)
	}
	for name, p := range presets {
		if got := WithPreset(p, TrainOptions{}); !reflect.DeepEqual(got, p) {
			t.Errorf("%s: the preset sets a setting that is not a preset's: %+v, merged %+v", name, p, got)
		}
		for _, s := range Settings() {
			text, ok := starts[name][s.Key]
			if why := validText(s, text); !ok || why != "" {
				t.Errorf("%s starts %s at %q: %s", name, s.Key, text, why)
			}
		}
	}
}

// TestWithPreset: a preset fills the settings left unset and keeps the
// ones given (λ0 given as a multiple of auto is given).
func TestWithPreset(t *testing.T) {
	b, err := LookupBundle("landmine")
	if err != nil {
		t.Fatal(err)
	}
	given := TrainOptions{Config: mtl.Config{Rho: 5, AutoLambda0: 2, Model: "itl"}, Seed: 3}
	got := WithPreset(b.Preset, given)
	want := given
	want.Config.MaxIter, want.Train = b.Preset.Config.MaxIter, b.Preset.Train
	if !reflect.DeepEqual(got, want) {
		t.Errorf("landmine's preset over %+v: %+v, want %+v", given, got, want)
	}
}

// TestStartOf: a bundle starts from its preset and the paper's defaults, a
// visitor's file from OwnPreset and the own-data profile.
func TestStartOf(t *testing.T) {
	own, paper := OwnData(mtl.Config{}).Defaults(false), mtl.Config{}.Defaults(false)
	school, err := LookupBundle("school")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		start map[string]string
		want  map[string]string
	}{
		{"own data", StartOf(nil), map[string]string{"lambda0": Lambda0Text(OwnPreset.Config), "maxIter": strconv.Itoa(own.MaxIter),
			"scale": string(own.Scale), "rho": fmt.Sprint(own.Rho), "train": fmt.Sprint(DefaultTrain), "intercept": "", "loss": ""}},
		{"school", StartOf(&school), map[string]string{"lambda0": Lambda0Text(school.Preset.Config), "maxIter": strconv.Itoa(school.Preset.Config.MaxIter),
			"scale": string(paper.Scale), "rho": fmt.Sprint(school.Preset.Config.Rho), "train": fmt.Sprint(school.Preset.Train), "seed": "1", "task": "task"}},
	} {
		for k, v := range c.want {
			if c.start[k] != v {
				t.Errorf("%s starts %s at %q, want %q", c.name, k, c.start[k], v)
			}
		}
	}
}

// TestParseForm: the training share's forms (a whole count, a fraction)
// and λ0's, with the error naming the range of the form meant.
func TestParseForm(t *testing.T) {
	train, _ := LookupSetting("train")
	for _, c := range []struct {
		s    Setting
		text string
		form int
		v    float64
		err  string
	}{
		{train, "80", 0, 80, ""},
		{train, " 1 ", 0, 1, ""},
		{train, "1.0", 0, 1, ""},
		{train, "0.75", 1, 0.75, ""},
		{train, "2.5", -1, 0, "want a whole count at least 1 or a fraction, got"},
		{train, "0", -1, 0, "want a whole count"},
		{train, "all", -1, 0, "want a whole count"},
		{lambda0Setting, "auto", 1, 1, ""},
		{lambda0Setting, "auto *  3", 2, 3, ""},
		{lambda0Setting, "3", 0, 3, ""},
		{lambda0Setting, "auto3", -1, 0, "want a number, auto or auto*K, got"},
		{lambda0Setting, "auto*-1", -1, 0, "auto*K with K more than 0"},
	} {
		form, v, err := c.s.ParseForm(c.text)
		if form != c.form || v != c.v || (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s %q: form %d, %g, %v; want form %d, %g, error %q", c.s.Key, c.text, form, v, err, c.form, c.v, c.err)
		}
	}
	if got := lambda0Setting.FormText("autoLambda0", 1); got != "auto" {
		t.Errorf("λ0 for 1× auto written %q", got)
	}
}

// TestColumnDefaultsAreTheIntakes: a file whose columns are named as the
// schema's defaults of the task and label columns loads without naming
// them, as the intake's own defaults would have it.
func TestColumnDefaultsAreTheIntakes(t *testing.T) {
	task, _ := LookupSetting("task")
	label, _ := LookupSetting("label")
	var b strings.Builder
	fmt.Fprintf(&b, "x1,%s,%s\n", label.Default, task.Default)
	for i := range 12 {
		fmt.Fprintf(&b, "%d,%d,t%d\n", i, i%3, i%2)
	}
	d, err := Load([]byte(b.String()), LoadOptions{Name: "roles.csv"})
	if err != nil {
		t.Fatalf("columns named %s and %s: %v", task.Default, label.Default, err)
	}
	if n := len(d.All.Tasks); n != 2 || d.All.Features != 1 {
		t.Errorf("read %d tasks and %d features, want 2 and 1", n, d.All.Features)
	}
}

// TestHelpStatesDefaults: the command line's help states each profile's
// default and whether a preset gives another.
func TestHelpStatesDefaults(t *testing.T) {
	for key, want := range map[string]string{
		"maxIter": fmt.Sprintf("(default %d for a file, 10 or the preset's for a bundled data set)", OwnMaxIter),
		"rho":     "regularization rho (default 0.1, or the bundled data set's)",
		"tau":     "tau rule: softmax or hard (default softmax)",
		"solver":  "W-step solver: exact or fista100 (default: exact for paper, fista100 for reference)",
		"label":   "CSV column holding the label (default y)",
	} {
		s, _ := LookupSetting(key)
		if h := s.Help(); !strings.HasSuffix(h, want) {
			t.Errorf("%s: help %q, want it to end %q", key, h, want)
		}
	}
}

// TestWordsInAnotherSetting: a flag written as a word in another setting's
// text (every row: "all" in the training share's field) names a setting
// of its own group that takes forms, is a flag with no flag of its own on
// the command line, and its word is no form of that setting, so that the
// text reads one way only.
func TestWordsInAnotherSetting(t *testing.T) {
	spelled := 0
	for _, s := range Settings() {
		if s.In == "" && s.Word == "" {
			continue
		}
		spelled++
		in, ok := LookupSetting(s.In)
		switch {
		case !ok:
			t.Errorf("%s is written in %q, which is no setting", s.Key, s.In)
		case s.Kind != KindBool || s.Flag != "" || s.Word == "":
			t.Errorf("%s: kind %s, flag %q, word %q; want a flag without a flag of its own, with a word", s.Key, s.Kind, s.Flag, s.Word)
		case in.Group != s.Group || len(in.Forms) == 0:
			t.Errorf("%s is written in %s (group %s, %d forms), want a setting of group %s with forms", s.Key, in.Key, in.Group, len(in.Forms), s.Group)
		default:
			if _, _, err := in.ParseForm(s.Word); err == nil {
				t.Errorf("%s's word %q is also a form of %s", s.Key, s.Word, in.Key)
			}
		}
	}
	if all, _ := LookupSetting("all"); spelled == 0 || all.In != "train" || all.Word != "all" {
		t.Errorf("every row is written %q in %q, want all in train", all.Word, all.In)
	}
}

// TestOmitMissingSetting: the data setting "missing" reads its two
// choices (and "" as the default) and refuses anything else, naming them;
// its schema entry offers the same choices.
func TestOmitMissingSetting(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
		err  string
	}{
		{"", false, ""}, {"refuse", false, ""}, {" omit ", true, ""},
		{"drop", false, `missing: "drop" is not refuse or omit`},
	} {
		got, err := OmitMissing(tc.in)
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
			t.Errorf("OmitMissing(%q) = %v, %v; want %v, %q", tc.in, got, err, tc.want, tc.err)
		}
	}
	s, ok := LookupSetting("missing")
	if !ok || s.Group != DataGroup || s.Default != MissingRefuse || len(s.Choices) != 2 || s.Choices[0].Value != MissingRefuse || s.Choices[1].Value != MissingOmit {
		t.Errorf("the schema's missing: %+v", s)
	}
}
