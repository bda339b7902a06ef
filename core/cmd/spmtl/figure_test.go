package main

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// TestFigureRefusals: a figure refuses what it would not use as given:
// -values the learner would replace or refuse (λ0 0 trained λ0 = 1 and
// labelled the rows 0), the swept parameter's own flag, -values for a
// figure without a sweep, and -train all where the figure plots test
// scores.
func TestFigureRefusals(t *testing.T) {
	dir := t.TempDir()
	fig := func(kind string, args ...string) []string {
		return append([]string{"figure", kind, "-data", "testdata/toy.csv", "-maxiter", "2", "-out", dir}, args...)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{fig("lambda", "-values", "0"), "-values: λ0 0: want a number more than 0 and at most 1e+300"},
		{fig("lambda", "-values", "1,10,-1"), "-values: λ0 -1: want a number more than 0"},
		{fig("lambda", "-values", "1,nope"), `-values: "nope" is not a number`},
		{fig("pace", "-values", "0.5"), "-values: c 0.5: want a number at least 1 and at most 1e+06"},
		{fig("pace", "-values", "1.1,0"), "-values: c 0: want a number at least 1"},
		{fig("lambda", "-lambda0", "auto"), "figure lambda trains one model per λ0 of -values; leave out -lambda0"},
		{fig("pace", "-c", "1.2"), "figure pace trains one model per c of -values; leave out -c"},
		{fig("tau", "-values", "1,2"), "-values applies to figure lambda and figure pace"},
		{fig("scatter", "-train", "all"), "figure scatter plots test errors, and -train all leaves no test rows"},
		{fig("lambda", "-train", "all"), "figure lambda plots test errors, and -train all leaves no test rows"},
		{fig("sequential", "-train", "all"), "figure sequential plots test errors"},
	} {
		_, _, err := spmtl(t, tc.args...)
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("spmtl %s: error %v, want a usage error containing %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "lambda.csv")); err == nil {
		t.Errorf("a refused figure wrote lambda.csv")
	}
}

// TestFigureTauTrainAll: figure tau honours -train all: its τ are those of
// train -selfpaced -train all (they were those of the default split).
func TestFigureTauTrainAll(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := spmtl(t, "figure", "tau", "-data", "testdata/toy.csv", "-train", "all", "-out", dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "tau.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(b)), "\n")
	last := strings.Split(rows[len(rows)-1], ",")[1:]
	// Figures draw the paper's settings; a file's train takes the own-data
	// profile unless told otherwise (docs/algorithms.md §14).
	out, _, err := spmtl(t, "train", "-data", "testdata/toy.csv", "-selfpaced", "-train", "all", "-scale", "mean", "-pace-cost", "train", "-lambda0", "1", "-maxiter", "10", "-json", "-")
	if err != nil {
		t.Fatal(err)
	}
	var run struct {
		History []struct{ Tau []float64 }
	}
	if err := json.Unmarshal([]byte(out[:strings.LastIndex(out, "}")+1]), &run); err != nil {
		t.Fatal(err)
	}
	if len(rows)-1 != len(run.History) {
		t.Fatalf("tau.csv has %d iterations, the run %d", len(rows)-1, len(run.History))
	}
	want := run.History[len(run.History)-1].Tau
	for i, s := range last {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Abs(v-want[i]) > 1e-7 {
			t.Errorf("task %d: τ %s in tau.csv, %v in the run on every row", i, s, want[i])
		}
	}
}
