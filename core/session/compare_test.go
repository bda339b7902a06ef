package session

import (
	"math"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
)

// TestEvaluateComparesPaired: a run's evaluation carries its mean over
// tasks with the standard error over tasks, and each run started by
// Compare carries how the run it was started for compares with it, paired
// over the same tasks (the difference is the mean of the per-task
// differences of the two evaluations); a run whose partner is freed has
// no comparison.
func TestEvaluateComparesPaired(t *testing.T) {
	s := New()
	sum, err := s.Generate("syn2", 1)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Train(TrainOptions{Dataset: sum.Handle, TrainOptions: app.TrainOptions{Config: mtl.Config{Model: "mtfl", SelfPaced: true, MaxIter: 5}}})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := s.Compare(info.Handle)
	if err != nil || len(cs) == 0 {
		t.Fatalf("compare: %v, %v", cs, err)
	}
	if _, err := s.Finish(info.Handle); err != nil {
		t.Fatal(err)
	}
	main, err := s.Evaluate(info.Handle)
	if err != nil {
		t.Fatal(err)
	}
	if main.Versus != nil {
		t.Errorf("the main run compares with %+v, want nothing", main.Versus)
	}
	if want := eval.MeanOverTasks(main.Test); main.Over != want || main.Over.N != len(main.Test) || !(main.Over.SE > 0) {
		t.Errorf("over tasks %+v, want %+v with an SE", main.Over, want)
	}
	for _, c := range cs {
		if _, err := s.Finish(c.Run.Handle); err != nil {
			t.Fatal(err)
		}
		ev, err := s.Evaluate(c.Run.Handle)
		if err != nil {
			t.Fatal(err)
		}
		v := ev.Versus
		if v == nil {
			t.Fatalf("%s: no comparison", c.Label)
		}
		var d float64
		for i := range ev.Test {
			d += main.Test[i] - ev.Test[i]
		}
		d /= float64(len(ev.Test))
		if v.Tasks != len(ev.Test) || math.Abs(v.Diff-d) > 1e-12 || !strings.HasPrefix(v.Text, info.Name+" vs "+c.Label+": ") {
			t.Errorf("%s: %+v, want %d tasks, diff %v, text naming both", c.Label, v, len(ev.Test), d)
		}
	}
	s.Free(info.Handle)
	ev, err := s.Evaluate(cs[0].Run.Handle)
	if err != nil || ev.Versus != nil {
		t.Errorf("after the main run is freed: %+v, %v; want no comparison", ev.Versus, err)
	}
}

// TestCompareITLAtItsSetting: the ITL a run is compared with trains at
// the run's ρ and κ unless the run's options give ITL's own (tune's
// choice for ITL); a bad setting is refused when the run is made.
func TestCompareITLAtItsSetting(t *testing.T) {
	s := New()
	sum, err := s.Generate("syn2", 1)
	if err != nil {
		t.Fatal(err)
	}
	cfg := mtl.Config{Model: "mmtl", Rho: 5e7, Intercept: 1e-8, MaxIter: 5}
	for _, c := range []struct {
		name          string
		rho, icpt     float64
		wantRho, want float64
		err           string
	}{
		{"the run's", 0, 0, 5e7, 1e-8, ""},
		{"its own", 0.316, 0.1, 0.316, 0.1, ""},
		{"negative", -1, 0, 0, 0, "the compared ITL's setting must be 0 or above"},
		{"infinite", math.Inf(1), 0, 0, 0, "the compared ITL's setting must be 0 or above"},
	} {
		t.Run(c.name, func(t *testing.T) {
			info, err := s.Train(TrainOptions{Dataset: sum.Handle, TrainOptions: app.TrainOptions{Config: cfg, ITLRho: c.rho, ITLIntercept: c.icpt}})
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("train: %v, want an error with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Free(info.Handle)
			cs, err := s.Compare(info.Handle)
			if err != nil {
				t.Fatal(err)
			}
			var itl *Comparison
			for i := range cs {
				defer s.Free(cs[i].Run.Handle)
				if cs[i].Role == "itl" {
					itl = &cs[i]
				}
			}
			if itl == nil {
				t.Fatalf("no ITL among %+v", cs)
			}
			if got := itl.Run.Config; got.Model != "itl" || got.Rho != c.wantRho || got.Intercept != c.want {
				t.Errorf("ITL trains with %s rho %v intercept %v, want rho %v intercept %v", got.Model, got.Rho, got.Intercept, c.wantRho, c.want)
			}
		})
	}
}
