package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/app"
)

// TestInspectTop: -top below 0 is a flag error, 0 shows no bar.
func TestInspectTop(t *testing.T) {
	_, _, err := spmtl(t, "inspect", "-model", "testdata/exam-model.json", "-top", "-5")
	var ue *usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "-top must be 0 or more, got -5") {
		t.Errorf("-top -5: error %v, want a usage error", err)
	}
	out, _, err := spmtl(t, "inspect", "-model", "testdata/exam-model.json", "-top", "0")
	if err != nil || !strings.Contains(out, "(6 more; -top or -out for all)") {
		t.Errorf("-top 0: %v\n%s", err, out)
	}
}

// TestPrintBars: bars are at most 30 blocks long, however large the
// values (30·|v| overflowed to +Inf for |v| near the largest float and
// gave a negative repeat count), and the labels and values of a chart
// that do not pair up are not read past either's end.
func TestPrintBars(t *testing.T) {
	for _, tc := range []struct {
		name string
		ch   app.Chart
		n    int
	}{
		{"huge", app.Chart{Labels: []string{"a", "b", "c"}, Values: []float64{1e308, -1.7e308, 1}}, 15},
		{"tiny", app.Chart{Labels: []string{"a", "b"}, Values: []float64{5e-324, 0}}, 15},
		{"zero", app.Chart{Labels: []string{"a", "b"}, Values: []float64{0, 0}}, 15},
		{"more values", app.Chart{Labels: []string{"a"}, Values: []float64{1, 2, 3}}, 15},
		{"more labels", app.Chart{Labels: []string{"a", "b", "c"}, Values: []float64{1}}, 15},
		{"top 0", app.Chart{Labels: []string{"a"}, Values: []float64{1}}, 0},
		{"top negative", app.Chart{Labels: []string{"a"}, Values: []float64{1}}, -5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			printBars(&b, tc.ch, tc.n)
			for _, line := range strings.Split(b.String(), "\n") {
				if n := strings.Count(line, "█"); n > 30 {
					t.Errorf("a bar of %d blocks: %q", n, line)
				}
			}
		})
	}
}
