package mtl

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/spmtl/spmtl/core/data"
)

// TestFirstWStepShared: fits on one Problem whose first W-steps match (the
// λ0 points of a grid, and the baseline of the same structure) take the
// first fit's solution instead of solving again, and every fit's history
// is bit for bit the one it has on a Problem of its own. Settings that move
// the first W-step (ρ, the structure, the loss) are not shared.
func TestFirstWStepShared(t *testing.T) {
	dsPrimal, _ := randDataset(21, 5, 30, 6, 3, false, 0.4) // primal form
	dsSpan, _ := randDataset(22, 4, 12, 40, 3, false, 0.4)  // d > N: span form
	dsLogit, _ := randDataset(23, 4, 40, 5, 3, true, 0.4)   // logistic, Newton from w = 0
	base := Config{MaxIter: 6, H: 2}
	for _, tc := range []struct {
		name     string
		ds       *data.Dataset
		cfgs     []Config
		wantHits int
	}{
		{"λ0 grid and baseline, primal", dsPrimal, []Config{
			{Model: "mtfl", Rho: 0.1}, {Model: "mtfl", Rho: 0.1, SelfPaced: true, Lambda0: 0.01},
			{Model: "mtfl", Rho: 0.1, SelfPaced: true, Lambda0: 10}}, 2},
		{"λ0 grid, span form", dsSpan, []Config{
			{Model: "mtaso", Rho: 1, SelfPaced: true, Lambda0: 0.1}, {Model: "mtaso", Rho: 1, SelfPaced: true, Lambda0: 1}}, 1},
		{"λ0 grid, logistic", dsLogit, []Config{
			{Model: "mmtl", Loss: Logistic, Rho: 0.5, SelfPaced: true, Lambda0: 0.2},
			{Model: "mmtl", Loss: Logistic, Rho: 0.5, SelfPaced: true, Lambda0: 5}}, 1},
		{"another ρ, another structure", dsPrimal, []Config{
			{Model: "mtfl", Rho: 0.1}, {Model: "mtfl", Rho: 1}, {Model: "mtaso", Rho: 1}}, 0},
		{"fista100 is not shared", dsPrimal, []Config{
			{Model: "mtfl", Rho: 0.1, Variant: Reference}, {Model: "mtfl", Rho: 0.1, Variant: Reference, SelfPaced: true, Lambda0: 1}}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shared, err := Prepare(tc.ds)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range tc.cfgs {
				c.MaxIter, c.H = base.MaxIter, base.H
				got := fitHistory(t, shared, c)
				own, err := Prepare(tc.ds)
				if err != nil {
					t.Fatal(err)
				}
				if want := fitHistory(t, own, c); !bytes.Equal(got, want) {
					t.Fatalf("%+v: the fit on the shared problem differs from its own", c)
				}
			}
			if shared.firstHits != tc.wantHits {
				t.Errorf("%d fits took a stored first W-step, want %d", shared.firstHits, tc.wantHits)
			}
		})
	}
}

// fitHistory runs cfg on p and returns its snapshots and final weights as
// JSON (every float64 in the digits that read back to its bits).
func fitHistory(t *testing.T, p *Problem, cfg Config) []byte {
	t.Helper()
	tr, err := NewTrainer(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), tr); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal([]any{tr.History(), tr.Model().W})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFirstStepKeepsFew: the problem keeps at most firstKeep first
// W-steps, dropping the oldest.
func TestFirstStepKeepsFew(t *testing.T) {
	p := &Problem{}
	for i := 0; i < firstKeep+3; i++ {
		p.keepFirstW(Config{Rho: float64(i)}, [][]float64{{1}}, []float64{0}, []float64{0}, []float64{0})
	}
	if len(p.first) != firstKeep || p.first[0].key.Rho != 3 {
		t.Fatalf("kept %d, oldest ρ %v; want %d, oldest 3", len(p.first), p.first[0].key.Rho, firstKeep)
	}
	if p.firstW(Config{Rho: 0}) != nil || p.firstW(Config{Rho: firstKeep + 2}) == nil {
		t.Fatal("the oldest entry is still there, or the newest is not")
	}
}
