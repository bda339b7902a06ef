package eval

import (
	"context"
	"testing"

	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/synth"
)

// TestSweepOverPace: one curve per value of c, in order, each starting from
// the same first iterate (c only changes λ after the first τ).
func TestSweepOverPace(t *testing.T) {
	res, err := synth.Syn2(synth.Syn2Options{Seed: 1, Tasks: 10, Features: 10})
	if err != nil {
		t.Fatal(err)
	}
	values := []float64{1.01, 1.1, 1.5, 2}
	curves, err := Sweep(context.Background(), res.Train, res.Test, mtl.Config{Model: "mtfl", SelfPaced: true, Rho: 0.01, Lambda0: 1, MaxIter: 8}, "c", values)
	if err != nil {
		t.Fatal(err)
	}
	if len(curves) != len(values) {
		t.Fatalf("%d curves for %d values", len(curves), len(values))
	}
	for i, c := range curves {
		if c.Param != "c" || c.Value != values[i] || len(c.Objective) == 0 || len(c.Objective) != len(c.Test) || len(c.Tau) != len(c.Objective) {
			t.Fatalf("curve %d: %+v", i, c)
		}
		if c.Objective[0] != curves[0].Objective[0] || c.Test[0] != curves[0].Test[0] {
			t.Errorf("c = %v starts at objective %v (test %v), c = %v at %v (test %v)", c.Value, c.Objective[0], c.Test[0], values[0], curves[0].Objective[0], curves[0].Test[0])
		}
	}
	if _, err := Sweep(context.Background(), res.Train, res.Test, mtl.Config{}, "nope", values); err == nil {
		t.Error("unknown parameter: no error")
	}
}
