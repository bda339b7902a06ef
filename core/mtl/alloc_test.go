package mtl

import (
	"testing"
)

// TestStepAllocationsIndependentOfT: an outer iteration allocates a fixed
// number of objects, not some per task. Under js/wasm the collector runs
// on the fitting thread, and the W-steps' per-task vectors (their
// penalties' differences, the anchors' M·a, the projections and the
// W-step problems themselves) were most of cs's 1.7 GB of allocations in
// one table run (docs/bench.md, "The table's kernels under
// js/wasm"). The count at 40 tasks may exceed the count at 10 by a few
// (the snapshot's slices grow with T, not in number), never by T.
func TestStepAllocationsIndependentOfT(t *testing.T) {
	for _, model := range []string{"mmtl", "mtfl", "mtaso"} {
		for _, sp := range []bool{false, true} {
			allocs := func(T int) float64 {
				ds, _ := randDataset(5, T, 12, 6, 3, false, 0.1)
				tr := mustTrainer(t, ds, Config{Model: model, SelfPaced: sp, Rho: 0.1, Lambda0: 1, MaxIter: 1000, ObjTol: 1e-300, TauTol: 1e-300})
				for i := 0; i < 3; i++ { // caches filled, buffers grown
					if _, err := tr.Step(); err != nil {
						t.Fatal(err)
					}
				}
				return testing.AllocsPerRun(5, func() {
					if _, err := tr.Step(); err != nil {
						t.Fatal(err)
					}
				})
			}
			a10, a40 := allocs(10), allocs(40)
			if a40 > a10+4 {
				t.Errorf("%s self-paced=%v: %.0f allocations per iteration at T=10, %.0f at T=40", model, sp, a10, a40)
			}
			t.Logf("%s self-paced=%v: %.0f allocations per iteration at T=10, %.0f at T=40", model, sp, a10, a40)
		}
	}
}
