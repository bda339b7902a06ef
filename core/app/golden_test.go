package app

import (
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"testing"

	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGoldenTable reproduces a small seeded table (syn1, quick grids, two
// runs) and compares it with testdata/syn1-quick.json. The golden file was
// written natively (go test -run GoldenTable -update); the same test under
// js/wasm checks that the WebAssembly build gives the same table.
func TestGoldenTable(t *testing.T) {
	e, err := Experiment("syn1", nil, true)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := eval.Reproduce(context.Background(), []eval.Experiment{e}, eval.Options{Runs: 2, Folds: 3, Variant: mtl.Paper, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	type golden struct {
		Method            string
		Scores, Rho, Lam0 []float64
		P                 float64
	}
	var got []golden
	for _, m := range tab.Methods {
		c := tab.Cells[m][0]
		got = append(got, golden{Method: m, Scores: c.Scores, Rho: c.Rho, Lam0: c.Lambda0, P: c.P})
	}
	const path = "testdata/syn1-quick.json"
	if *update {
		b, _ := json.MarshalIndent(got, "", " ")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []golden
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	if len(got) != len(want) {
		t.Fatalf("%d methods, golden has %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Method != w.Method || len(g.Scores) != len(w.Scores) || !close(g.P, w.P) {
			t.Errorf("%s: got %+v, want %+v", w.Method, g, w)
			continue
		}
		for r := range w.Scores {
			if !close(g.Scores[r], w.Scores[r]) || g.Rho[r] != w.Rho[r] {
				t.Errorf("%s run %d: score %v (rho %v), golden %v (rho %v)", w.Method, r+1, g.Scores[r], g.Rho[r], w.Scores[r], w.Rho[r])
			}
		}
		for r := range w.Lam0 {
			if g.Lam0[r] != w.Lam0[r] {
				t.Errorf("%s run %d: lambda0 %v, golden %v", w.Method, r+1, g.Lam0[r], w.Lam0[r])
			}
		}
	}
}
