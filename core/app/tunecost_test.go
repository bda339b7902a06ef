package app

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
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

// BenchmarkTune2410 is the default tune (no -model) and the refit on a
// file of the acceptance check's size: 2,410 groups of 1–20 rows, about
// 25,000 rows, 4 features (docs/findings.md gives the figures).
// go test -run - -bench Tune2410 -benchtime 1x ./core/app
func BenchmarkTune2410(b *testing.B) {
	d, err := Load(groupedCSV(2410, 1), LoadOptions{Name: "grouped.csv", TaskColumn: "school", LabelColumn: "score"})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Tune(context.Background(), d, TuneOptions{Seed: 1}, nil)
		if err != nil {
			b.Fatal(err)
		}
		r, err := NewRun(d, TrainOptions{Config: res.Config, All: true})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Finish(); err != nil {
			b.Fatal(err)
		}
	}
}
