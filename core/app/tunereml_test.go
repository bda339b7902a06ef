package app

import (
	"context"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/reml"
)

// TestTuneLikelihoodPoint: on a visitor's regression file MMTL is also
// scored at its REML estimate of (ρ, κ), and the one-SE rule takes that
// point when CV puts it within one standard error of the best; a
// classifier's search, and a bundled data set's, have no such point
// (docs/algorithms.md §15).
func TestTuneLikelihoodPoint(t *testing.T) {
	d, err := Load(groupedCSV(40, 3), LoadOptions{Name: "own.csv", TaskColumn: "school", LabelColumn: "score"})
	if err != nil {
		t.Fatal(err)
	}
	est, err := reml.Fit(d.All.Tasks, d.All.Features)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Tune(context.Background(), d, TuneOptions{Config: mtl.Config{Model: "mmtl-joint"}, Seed: 1, Workers: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := res.Models[res.Chosen]
	if m.Setting != SettingLikelihood || m.Config.Rho != est.Rho || m.Config.Intercept != est.Kappa {
		t.Errorf("chosen %+v (setting %q), want the REML estimate rho %g, kappa %g", m.Config, m.Setting, est.Rho, est.Kappa)
	}
	if slopes, _ := est.Shared(); !strings.HasPrefix(m.SettingNote, "ρ and intercept: their REML estimate") || strings.Contains(m.SettingNote, "share") != slopes {
		t.Errorf("setting note %q for an estimate whose slopes are shared: %v", m.SettingNote, slopes)
	}
	if !strings.Contains(res.Search, "restricted maximum likelihood") {
		t.Errorf("search text %q does not say MMTL was tried at its likelihood estimate", res.Search)
	}

	binary := func(t, i int) string { return []string{"1", "0"}[(i*7+t*3)%5/3] }
	cls, err := Load(tuneCSV(6, 12, binary), LoadOptions{Name: "cls.csv", TaskColumn: "task", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	bundled, err := Load(groupedCSV(12, 3), LoadOptions{Name: "b.csv", TaskColumn: "school", LabelColumn: "score", Bundled: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		d    *Data
	}{{"classifier", cls}, {"bundled", bundled}} {
		ts, err := NewTuneSearch(c.d, TuneOptions{Config: mtl.Config{Model: "mmtl-joint"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range ts.bases {
			if b.likely != [2]float64{} {
				t.Errorf("%s: %s has a likelihood point %v", c.name, b.key, b.likely)
			}
		}
	}
}

// TestLikelihoodPointNotTakenWhenWorse: the REML point is preferred only
// within one standard error of the best point; scored clearly worse on the
// same rows, the one-SE rule's usual choice stands.
func TestLikelihoodPointNotTakenWhenWorse(t *testing.T) {
	rows := func(base float64) []float64 {
		out := make([]float64, 60)
		for i := range out {
			out[i] = base + 0.01*float64(i%7)
		}
		return out
	}
	point := func(rho, kappa, base float64) gridPoint {
		l := rows(base)
		return gridPoint{cfg: mtl.Config{Model: "mmtl-joint", Rho: rho, Intercept: kappa}, est: eval.Estimate{Value: base, SE: 0.01}, losses: l}
	}
	for _, c := range []struct {
		name      string
		remlLoss  float64
		wantRho   float64
		wantSetBy string
	}{
		{"within one SE", 1.0005, 0.7, SettingLikelihood},
		{"clearly worse", 1.2, 1, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := &baseSearch{key: "mmtl-joint", likely: [2]float64{0.7, 0.3}}
			b.pts = []gridPoint{point(0.1, 0.1, 1.05), point(1, 0.1, 1), point(10, 0.1, 1.3), point(0.7, 0.3, c.remlLoss)}
			s := &TuneSearch{metric: eval.Metric("rmse"), bases: []*baseSearch{b}, fams: []family{{key: "mmtl-joint"}}}
			s.summarizeBases()
			got := s.base["mmtl-joint"].model
			if got.Config.Rho != c.wantRho || got.Setting != c.wantSetBy {
				t.Errorf("chosen rho %g (setting %q), want %g (%q)", got.Config.Rho, got.Setting, c.wantRho, c.wantSetBy)
			}
		})
	}
	if m, _ := method.Lookup("mmtl-joint"); !m.Likelihood {
		t.Error("the joint MMTL is not marked as a mixed model's")
	}
}

// TestLikelySettingInRange: an estimate whose intercepts are shared and
// whose slopes vary freely has a κ above its range; the grid point keeps
// κ at the range's top, which a fit accepts, and the estimate's ρ.
func TestLikelySettingInRange(t *testing.T) {
	for _, e := range []reml.Estimate{{Rho: 6.2e-6, Kappa: 8.06e12}, {Rho: 5e7, Kappa: 1.4e-8}, {Rho: 3, Kappa: 0.2}} {
		p := likelySetting(e)
		cfg := mtl.Config{Model: "mmtl", Rho: p[0], Intercept: p[1]}.Defaults(false)
		if err := cfg.Validate(); err != nil || p[0] != e.Rho || p[1] > e.Kappa || (e.Kappa <= 1e12 && p[1] != e.Kappa) {
			t.Errorf("estimate %+v: grid point %v (%v)", e, p, err)
		}
	}
}
