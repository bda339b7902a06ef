package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
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

// TestInspectWithoutTheta: a model without a saved Θ says truthfully why:
// ELLA learns a shared basis, but its model file does not keep it (it
// said ELLA had no shared knowledge).
func TestInspectWithoutTheta(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ model, want string }{
		{"ella", "ELLA-random learns a shared basis L (each task's weights ≈ L times the task's own sparse code), but the model file keeps only the tasks' weights: there is no basis to show."},
		{"cl", "CL shares no Θ: it passes knowledge from task to task, each anchored at the task learned before."},
		{"itl", "ITL learns each task on its own: nothing is shared."},
		{"stl", "STL fits one predictor to every task's rows: its weights, the same for every task, are all it learns."},
	} {
		path := filepath.Join(dir, tc.model+".json")
		if _, _, err := spmtl(t, "train", "-data", "testdata/toy.csv", "-model", tc.model, "-train", "all", "-save", path); err != nil {
			t.Fatal(err)
		}
		out, _, err := spmtl(t, "inspect", "-model", path)
		if err != nil || !strings.Contains(out, "\n\n"+tc.want+"\n") {
			t.Errorf("inspect %s: %v\n%s\nwant %q", tc.model, err, out, tc.want)
		}
	}
}

// TestInspectQuotesControlCharacters: a model file's own texts (its name,
// training file, stop reason) are printed quoted when they hold a control
// character, so that an escape sequence in an edited file does not reach
// the terminal (hunt10: a stop reason that set the terminal's title).
func TestInspectQuotesControlCharacters(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	if _, _, err := spmtl(t, "train", "-data", "testdata/toy.csv", "-model", "itl", "-train", "all", "-save", path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["stop"] = "done \x1b]0;pwned\x07"
	m["trained"].(map[string]any)["file"] = "toy\x1b[31m.csv"
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := spmtl(t, "inspect", "-model", path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(out, "\x1b\x07") || !strings.Contains(out, `"done \x1b]0;pwned\a"`) || !strings.Contains(out, `"toy\x1b[31m.csv"`) {
		t.Errorf("inspect printed the file's control characters:\n%q", out)
	}
}
