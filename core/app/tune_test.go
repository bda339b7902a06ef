package app

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/spmtl/spmtl/core/mtl"
)

// TestTuneResultJSON: a failed grid point (NaN) travels as null and comes
// back as NaN, the worst score — never as 0, which for RMSE would be best.
func TestTuneResultJSON(t *testing.T) {
	res := TuneResult{Metric: "rmse", Rho: []float64{0.1, 1}, Scores: [][]float64{{math.NaN()}, {0.7}}}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back TuneResult
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(back.Scores[0][0]) || back.Scores[1][0] != 0.7 {
		t.Fatalf("scores %v from %s", back.Scores, b)
	}
	if err := back.Choose(mtl.Config{Model: "mtfl"}); err != nil || back.Best != [2]int{1, 0} {
		t.Errorf("chose %v (%v), want the scored point", back.Best, err)
	}
}
