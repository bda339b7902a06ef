package main

import (
	"testing"

	"github.com/spmtl/spmtl/core/mtl"
)

// TestShownIterations: a run of up to 12 iterations shows them all; a
// longer one shows 12, strictly increasing, from its first to its last.
func TestShownIterations(t *testing.T) {
	for _, n := range []int{0, 1, 12, 13, 32, 56, 1000} {
		hist := make([]mtl.Snapshot, n)
		for i := range hist {
			hist[i].Iter = i + 1
		}
		got := shownIterations(hist)
		if want := min(n, tableIterations); len(got) != want {
			t.Fatalf("%d iterations: %d shown, want %d", n, len(got), want)
		}
		if n == 0 {
			continue
		}
		if got[0].Iter != 1 || got[len(got)-1].Iter != n {
			t.Errorf("%d iterations: shown from %d to %d", n, got[0].Iter, got[len(got)-1].Iter)
		}
		for k := 1; k < len(got); k++ {
			if got[k].Iter <= got[k-1].Iter {
				t.Errorf("%d iterations: %d shown after %d", n, got[k].Iter, got[k-1].Iter)
			}
		}
	}
}
