package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTuneChoosesAModel: tune without -model cross-validates every family,
// prints one row per candidate with its score ± SE, marks and explains the
// choice, and saves a model that predict reads.
func TestTuneChoosesAModel(t *testing.T) {
	model := filepath.Join(t.TempDir(), "exam.json")
	out, _, err := spmtl(t, "tune", "-data", "testdata/exam.csv", "-task", "school", "-label", "score", "-drop", "student", "-save", model)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"RMSE pooled over every held-out row", "best CV RMSE", "coordinate search", "saved the model to"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// MMTL without self-pacing is tuned once, jointly; the alternating
	// baseline is left out, and the output says so.
	if !strings.Contains(out, "left out: MMTL without self-pacing is the joint MMTL's optimum") {
		t.Errorf("output does not say what it left out:\n%s", out)
	}
	for _, name := range []string{"STL", "ITL", "MMTL", "spMMTL", "MTFL-mean", "spMTFL-mean", "MTFL", "spMTFL", "MTASO", "spMTASO"} {
		// A self-paced version whose baseline is far behind is not tried,
		// and a line says why.
		scoredRow := regexp.MustCompile(`(?m)^[ *] ` + regexp.QuoteMeta(name) + `\s+\d+\.\d+ ± \d+\.\d+`).MatchString(out)
		notTried := regexp.MustCompile(`(?m)^[ *] `+regexp.QuoteMeta(name)+`\s+n/a`).MatchString(out) && strings.Contains(out, "\n"+name+": not tried: its baseline scored")
		if !scoredRow && !notTried {
			t.Errorf("no row with a score ± SE for %s:\n%s", name, out)
		}
	}
	// exam's REML puts ρ at its box's top: the table's "rho 5e+07 (REML)"
	// is said in words below it, as the page says it.
	if strings.Contains(out, "(REML)") && !regexp.MustCompile(`(?m)^MMTL: ρ and intercept: their REML estimate, as a mixed model's; `).MatchString(out) {
		t.Errorf("a REML setting without its note:\n%s", out)
	}
	if strings.Count(out, "\n* ") != 1 || !regexp.MustCompile(`(?m)^\S+.* scored best at its chosen setting \(.*\).*: chosen\.$`).MatchString(out) {
		t.Errorf("want one chosen row and the reason:\n%s", out)
	}
	pred, _, err := spmtl(t, "predict", "-model", model, "-data", "testdata/exam-new.csv")
	if err != nil {
		t.Fatalf("predict with the tuned model: %v", err)
	}
	if !strings.Contains(pred, "School 1") {
		t.Errorf("predictions:\n%s", pred)
	}
}

// TestSavedModelNamesNoPath: a saved model names its training file, not
// the folder it lay in on the machine that trained it.
func TestSavedModelNamesNoPath(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.json")
	abs, err := filepath.Abs("testdata/toy.csv")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := spmtl(t, "train", "-data", abs, "-model", "stl", "-train", "all", "-save", model); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if dir := filepath.Dir(abs); strings.Contains(string(b), dir) {
		t.Errorf("the model file holds the folder %s", dir)
	}
	if !strings.Contains(string(b), `"toy.csv"`) {
		t.Errorf("the model file does not name toy.csv")
	}
}
