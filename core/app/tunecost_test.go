package app

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spmtl/spmtl/core/mtl"
)

// groupedCSV writes a visitor's kind of file: groups of 1–20 rows, four
// numeric features, random intercepts and slopes (a mixed model's data).
func groupedCSV(groups int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	var sb strings.Builder
	sb.WriteString("school,score,x1,x2,x3,x4\n")
	beta := []float64{0.8, -0.5, 0.3, 0}
	for g := 0; g < groups; g++ {
		n := 1 + r.IntN(20)
		b0 := 2 + 0.7*r.NormFloat64()
		slope := []float64{0.3 * r.NormFloat64(), 0.2 * r.NormFloat64(), 0, 0}
		for i := 0; i < n; i++ {
			x := []float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
			y := b0 + r.NormFloat64()
			for j := range x {
				y += (beta[j] + slope[j]) * x[j]
			}
			fmt.Fprintf(&sb, "s%d,%.4f,%.4f,%.4f,%.4f,%.4f\n", g+1, y, x[0], x[1], x[2], x[3])
		}
	}
	return []byte(sb.String())
}

// TestTuneCost times Tune on a file of the acceptance check's size
// (2,410 groups, about 25,000 rows), family by family. It is slow, so it
// runs only with SPMTL_TUNE_COST=1; with SPMTL_TUNE_COST=all it times the
// whole default search instead.
func TestTuneCost(t *testing.T) {
	which := os.Getenv("SPMTL_TUNE_COST")
	if which == "" {
		t.Skip("set SPMTL_TUNE_COST=1 (per family) or all (the default search) to time tuning")
	}
	d, err := Load(groupedCSV(2410, 1), LoadOptions{Name: "grouped.csv", TaskColumn: "school", LabelColumn: "score"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d tasks, %d rows", len(d.All.Tasks), d.All.Rows())
	if which == "all" {
		start := time.Now()
		res, err := Tune(context.Background(), d, TuneOptions{Seed: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("default tune: %v; %s", time.Since(start), res.Reason)
		return
	}
	for _, f := range []struct {
		key string
		sp  bool
	}{{"stl", false}, {"itl", false}, {"mmtl-joint", false}, {"mmtl", false}, {"mtfl-mean", false}, {"mtfl", false}, {"mtaso", false},
		{"mmtl", true}, {"mtfl-mean", true}, {"mtfl", true}, {"mtaso", true}} {
		start := time.Now()
		res, err := Tune(context.Background(), d, TuneOptions{Config: mtl.Config{Model: f.key, SelfPaced: f.sp}, Intercept: []float64{0}, Seed: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-10s sp=%-5v %8v (7 rho; self-paced: + 7 lambda0) %s", f.key, f.sp, time.Since(start).Round(time.Millisecond), res.Reason)
	}
}
