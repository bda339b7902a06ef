package app

import (
	"testing"

	"github.com/spmtl/spmtl/core/mtl"
)

// TestChosenBy: a model search chose a run's settings when they fit the
// same model on the same rows: settings the run does not use (the pace's,
// without self-pacing; λ0 resolved from a multiple) do not count, another
// multiple of λ0 or another ρ does, and a search that moved the features'
// origin after the run was made chose nothing for it.
func TestChosenBy(t *testing.T) {
	text := "g,y,x,kind\na,1,0.5,u\na,2,1.5,v\na,2.5,2,u\nb,3,0.2,v\nb,5,1.1,u\nb,4,2.2,v\nc,2,0.1,u\nc,3,1,v\nc,3.5,1.9,u\n"
	d, err := Load([]byte(text), LoadOptions{Name: "own.csv", TaskColumn: "g", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	sp := mtl.Config{Model: "mtfl", SelfPaced: true, Rho: 0.3, AutoLambda0: 2, Tau: mtl.Softmax}
	plain := mtl.Config{Model: "mmtl-joint", Rho: 1, Intercept: 0.5}
	runOf := func(cfg mtl.Config) *Run {
		t.Helper()
		r, err := NewRun(d, TrainOptions{Config: cfg, All: true})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	spRun, plainRun := runOf(sp), runOf(plain)
	with := func(c mtl.Config, f func(*mtl.Config)) *TuneResult { f(&c); return &TuneResult{Config: c} }
	for _, c := range []struct {
		name string
		run  *Run
		res  *TuneResult
		want bool
	}{
		{"no search", spRun, nil, false},
		{"the same settings", spRun, &TuneResult{Config: sp}, true},
		{"λ0 resolved beside its multiple", spRun, with(sp, func(c *mtl.Config) { c.Lambda0 = 1.7 }), true},
		{"another multiple of λ0", spRun, with(sp, func(c *mtl.Config) { c.AutoLambda0 = 4 }), false},
		{"not self-paced", spRun, with(sp, func(c *mtl.Config) { c.SelfPaced = false }), false},
		{"another ρ", spRun, with(sp, func(c *mtl.Config) { c.Rho = 0.31 }), false},
		{"another model", spRun, with(sp, func(c *mtl.Config) { c.Model = "mtfl-mean" }), false},
		{"a pace the run does not use", plainRun, with(plain, func(c *mtl.Config) { c.Tau, c.Pace, c.AutoLambda0 = mtl.Hard, 2, 1 }), true},
		{"another κ", plainRun, with(plain, func(c *mtl.Config) { c.Intercept = 0.25 }), false},
	} {
		if got := c.run.ChosenBy(c.res); got != c.want {
			t.Errorf("%s: ChosenBy %v, want %v", c.name, got, c.want)
		}
	}
	o, err := ParseOrigin("means")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Centre(o, ""); err != nil {
		t.Fatal(err)
	}
	if spRun.ChosenBy(&TuneResult{Config: sp}) {
		t.Error("a run made before the features' origin moved was chosen by a search after it")
	}
	if !runOf(sp).ChosenBy(&TuneResult{Config: sp}) {
		t.Error("a run made after the origin moved was not chosen by the search")
	}
}
