package main

import (
	"errors"
	"flag"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/mtl"
)

// TestExplicitValuesOutOfRange: an explicit value the learner would not
// use as given is a flag error stating the range. 0 was taken for
// "unset" and silently replaced by the default (-rho 0 ran rho 0.1,
// -maxiter 0 ran 10 iterations, tune -folds 0 ran 3 folds).
func TestExplicitValuesOutOfRange(t *testing.T) {
	train := []string{"train", "-data", "testdata/toy.csv"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{append(train, "-rho", "0"), "-rho 0: want a number more than 0 and at most 1e+12 (or leave -rho out for the default)"},
		{append(train, "-rho", "1e300"), "-rho 1e+300: want a number more than 0 and at most 1e+12"},
		{append(train, "-rho", "-1"), "-rho -1: want a number more than 0"},
		{append(train, "-rho", "NaN"), "-rho NaN: want a number more than 0"},
		{append(train, "-c", "0"), "-c 0: want a number at least 1 and at most 1e+06"},
		{append(train, "-c", "1e300"), "-c 1e+300: want a number at least 1 and at most 1e+06"},
		{append(train, "-maxiter", "0"), "-maxiter 0: want a number at least 1 and at most 100000"},
		{append(train, "-delta", "0"), "-delta 0: want a number more than 0 and at most 1"},
		{append(train, "-aso-h", "0"), "-aso-h 0: want a number at least 1"},
		{append(train, "-eps", "0"), "-eps 0: want a number more than 0"},
		{append(train, "-eps", "+Inf"), "-eps +Inf: want a number more than 0"},
		{append(train, "-lambda0", "1e301"), "want a number more than 0 and at most 1e+300, auto or auto*K"},
		{append(train, "-lambda0", "auto*1e300"), "auto*K with K more than 0 and at most 1e+06"},
		{[]string{"tune", "-data", "testdata/toy.csv", "-folds", "0"}, "-folds 0: want a number at least 2"},
		{[]string{"tune", "-data", "testdata/toy.csv", "-maxiter", "0"}, "-maxiter 0: want"},
		{[]string{"figure", "tau", "-data", "testdata/toy.csv", "-c", "0", "-out", t.TempDir()}, "-c 0: want"},
		{[]string{"reproduce", "-quick", "-datasets", "syn1", "-runs", "0"}, "-runs 0: want a number at least 1"},
		{[]string{"reproduce", "-quick", "-datasets", "syn1", "-folds", "1"}, "-folds 1: want a number at least 2"},
	} {
		_, _, err := spmtl(t, tc.args...)
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("spmtl %s: error %v, want a usage error containing %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
	// The bounds themselves are accepted.
	for _, args := range [][]string{{"-rho", "1e12"}, {"-c", "1"}, {"-maxiter", "1"}, {"-delta", "1"}, {"-lambda0", "auto*0.5"}} {
		if _, _, err := spmtl(t, append(append(train, "-model", "mtfl", "-selfpaced", "-train", "10"), args...)...); err != nil {
			t.Errorf("train %v: %v", args, err)
		}
	}
}

// The ranges of -lambda0's number and of K in auto*K (app.ParseLambda0
// reads them from mtl.Ranges).
var (
	lambda0Range = flagRange{flag: "lambda0", Range: mtl.RangeOf("lambda0")}
	autoRange    = flagRange{flag: "lambda0", Range: mtl.RangeOf("autoLambda0")}
)

// TestFlagRangesAgreeWithValidate: each flag's range is the one
// mtl.Config.Validate enforces, so that the command line refuses what the
// learner refuses and nothing more.
func TestFlagRangesAgreeWithValidate(t *testing.T) {
	set := map[string]func(c *mtl.Config, v float64){
		"rho":       func(c *mtl.Config, v float64) { c.Rho = v },
		"c":         func(c *mtl.Config, v float64) { c.Pace = v },
		"delta":     func(c *mtl.Config, v float64) { c.Delta = v },
		"aso-h":     func(c *mtl.Config, v float64) { c.H = int(v) },
		"maxiter":   func(c *mtl.Config, v float64) { c.MaxIter = int(v) },
		"eps":       func(c *mtl.Config, v float64) { c.Eps = v },
		"intercept": func(c *mtl.Config, v float64) { c.Intercept = v },
	}
	valid := func(r flagRange, v float64) bool {
		c := mtl.Config{}.Defaults(false)
		switch r {
		case lambda0Range:
			c.Lambda0 = v
		case autoRange:
			c.AutoLambda0 = v
		default:
			set[r.flag](&c, v)
		}
		return c.Validate() == nil
	}
	for _, r := range append(modelRanges, lambda0Range, autoRange) {
		below := math.Nextafter(r.Lo, math.Inf(-1))
		if r.flag == "aso-h" || r.flag == "maxiter" {
			below = r.Lo - 1
		}
		if valid(r, below) {
			t.Errorf("-%s: Validate accepts %g, below the range %s", r.flag, below, r)
		}
		if got := valid(r, r.Lo); got != r.LoIncluded && r != autoRange { // AutoLambda0 0 is "not automatic"
			t.Errorf("-%s: Validate accepts %g: %v, the range %s", r.flag, r.Lo, got, r)
		}
		if r.Hi < mtl.NoBound {
			above := math.Nextafter(r.Hi, math.Inf(1))
			if r.flag == "maxiter" {
				above = r.Hi + 1
			}
			if !valid(r, r.Hi) || valid(r, above) {
				t.Errorf("-%s: Validate's upper bound is not %g", r.flag, r.Hi)
			}
		}
	}
}

// TestTrainFlag: -train reads a count, a fraction or all; 1 written as a
// decimal (1.0, which reads as 100% but is a count of one row per task)
// and counts that are not whole are refused with what to give instead.
func TestTrainFlag(t *testing.T) {
	for _, tc := range []struct {
		in    string
		train float64
		all   bool
		err   string
	}{
		{in: "all", all: true},
		{in: "1", train: 1},
		{in: " 10 ", train: 10},
		{in: "0.75", train: 0.75},
		{in: "20.0", train: 20},
		{in: "1.0", err: `ambiguous: 1.0 reads as 100%, but 1 or more is a count of rows: for every row give -train all (no test score); for one training row per task, -train 1; for a fraction, a number below 1 (0.8)`},
		{in: "1.", err: "ambiguous: 1. reads as 100%"},
		{in: "1e0", err: "ambiguous: 1e0 reads as 100%"},
		{in: "2.5", err: "a count of rows is a whole number, got 2.5; a fraction is below 1 (0.8)"},
		{in: "0", err: `want a count, a fraction or all, got "0"`},
		{in: "abc", err: `want a count, a fraction or all, got "abc"`},
	} {
		var f dataFlags
		err := trainFlag{&f}.Set(tc.in)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("-train %q: error %v, want %q", tc.in, err, tc.err)
			}
		case err != nil || f.train != tc.train || f.all != tc.all:
			t.Errorf("-train %q: %v, train %v, all %v", tc.in, err, f.train, f.all)
		}
	}
}

// TestEveryFlagFromTheSchema: every flag of the shared data and learner
// flags but those naming where the data comes from is a setting of the
// schema (app.Settings), with the schema's help; every setting with a
// flag has one.
func TestEveryFlagFromTheSchema(t *testing.T) {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	var df dataFlags
	var mf modelFlags
	df.register(fs)
	mf.register(fs)
	byFlag := map[string]app.Setting{}
	for _, s := range app.Settings() {
		if s.Flag == "" {
			continue
		}
		byFlag[s.Flag] = s
		if fs.Lookup(s.Flag) == nil {
			t.Errorf("setting %s: no flag -%s", s.Key, s.Flag)
		}
	}
	fs.VisitAll(func(f *flag.Flag) {
		s, ok := byFlag[f.Name]
		switch {
		case slices.Contains(sourceFlags, f.Name):
		case !ok:
			t.Errorf("-%s is not a setting of the schema", f.Name)
		case f.Usage != s.Help() && f.Usage != s.Usage:
			t.Errorf("-%s: usage %q, want the schema's %q", f.Name, f.Usage, s.Help())
		}
	})
}

// TestFlagGivenTwice: a flag given twice with two values is refused,
// naming both (the flag package took the last unsaid); the same value
// twice is one value.
func TestFlagGivenTwice(t *testing.T) {
	train := []string{"train", "-data", "testdata/toy.csv", "-train", "10"}
	for _, tc := range []struct {
		args []string
		want string // "" when the command runs
	}{
		{append(train, "-seed", "1", "-seed", "2"), `-seed given twice, as "1" and as "2": give it once`},
		{append(train, "-rho", "1", "-model", "mmtl", "-rho=0.5"), `-rho given twice, as "1" and as "0.5"`},
		{append(train, "-selfpaced", "-model", "mtfl", "-selfpaced=false"), `-selfpaced given twice, as "true" and as "false"`},
		{[]string{"predict", "-model", "a.json", "-model", "b.json"}, `-model given twice`},
		{append(train, "-seed", "3", "-seed", "3"), ""},
		{append(train, "-selfpaced", "-model", "mtfl", "-selfpaced"), ""},
	} {
		_, _, err := spmtl(t, tc.args...)
		if tc.want == "" {
			if err != nil {
				t.Errorf("spmtl %s: %v", strings.Join(tc.args, " "), err)
			}
			continue
		}
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("spmtl %s: error %v, want a usage error containing %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
}
