package main

import (
	"testing"

	"github.com/spmtl/spmtl/core/eval"
)

// TestScatterRowsAreTheRunsScores: the scatter's points are exactly the
// per-task scores of the runs (as errors), and EasyAt follows τ.
func TestScatterRowsAreTheRunsScores(t *testing.T) {
	sp := eval.Curve{Tasks: []string{"a", "b", "c"}, PerTask: []float64{0.9, 0.7, 0.8},
		Tau: [][]float64{{0.5, 0.2, 0.3}, {0.4, 0.35, 0.25}, {0.3, 0.3, 0.4}}}
	base := eval.Curve{PerTask: []float64{0.85, 0.75, 0.6}}
	itl := eval.Curve{PerTask: []float64{0.8, 0.6, 0.7}}
	rows := ScatterRows(eval.AUCMetric, sp, base, itl)
	e := func(auc float64) float64 { return 1 - auc } // at run time, like the code
	want := []ScatterRow{{"a", e(0.9), e(0.85), e(0.8), 1}, {"b", e(0.7), e(0.75), e(0.6), 2}, {"c", e(0.8), e(0.6), e(0.7), 3}}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, rows[i], want[i])
		}
	}
	rmse := ScatterRows(eval.RMSEMetric, sp, base, itl)
	if rmse[0].SP != 0.9 || rmse[2].Base != 0.6 {
		t.Errorf("RMSE rows are not the raw scores: %+v", rmse)
	}
}
