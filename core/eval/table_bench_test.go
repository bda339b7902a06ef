package eval_test

import (
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
	webdata "github.com/spmtl/spmtl/web/data"
)

// BenchmarkRunOnce is one job of the page's Reproduce view: run 1 of a data
// set, paper variant, full grids, every row of the paper's table, one
// worker. Each row's seconds are reported beside the total, so a profile by
// data set and by model is `go test -bench RunOnce` natively or under
// js/wasm (docs/bench.md, "Fourth round").
func BenchmarkRunOnce(b *testing.B) {
	for _, name := range []string{"syn1", "syn2", "school", "cs", "landmine", "sentiment"} {
		b.Run(name, func(b *testing.B) {
			exps, err := app.Experiments(webdata.FS, []string{name}, false)
			if err != nil {
				b.Fatal(err)
			}
			opt := eval.Options{Folds: 3, Variant: mtl.Paper, Workers: 1}
			secs := map[string]float64{}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := eval.RunOnce(exps[0], 1, opt)
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range res {
					secs[r.Method] += r.Seconds
				}
			}
			for m, s := range secs {
				b.ReportMetric(s/float64(b.N), strings.ReplaceAll(m, " ", "_")+"-s/op")
			}
		})
	}
}
