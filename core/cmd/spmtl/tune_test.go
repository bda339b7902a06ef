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
		// A self-paced version whose baseline is far behind (or behind,
		// with its fits stopped at the iteration cap) is not tried,
		// and a line says why.
		scoredRow := regexp.MustCompile(`(?m)^[ *] ` + regexp.QuoteMeta(name) + `\s+\d+\.\d+ ± \d+\.\d+`).MatchString(out)
		notTried := regexp.MustCompile(`(?m)^[ *] `+regexp.QuoteMeta(name)+`\s+n/a`).MatchString(out) && strings.Contains(out, "\n"+name+": not tried: its baseline")
		if !scoredRow && !notTried {
			t.Errorf("no row with a score ± SE for %s:\n%s", name, out)
		}
	}
	// exam's REML puts ρ at its box's top: the table's "rho 5e+07 (REML)"
	// is said in words below it, as the page says it.
	if strings.Contains(out, "(REML)") && !regexp.MustCompile(`(?m)^MMTL: ρ and intercept: their REML estimate, as a mixed model's; `).MatchString(out) {
		t.Errorf("a REML setting without its note:\n%s", out)
	}
	// (A simpler model passed over may follow, with why: "STL … not chosen.")
	if strings.Count(out, "\n* ") != 1 || !regexp.MustCompile(`(?m)^\S+.* scored best at its chosen setting \(.*\).*: chosen\.( .*: not chosen\.)?$`).MatchString(out) {
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

// TestTuneForNewTasks: -new-tasks holds out whole tasks, says so in the
// table's heading and the search line, scores only the models that
// predict a new task, and says why the others were left out.
func TestTuneForNewTasks(t *testing.T) {
	dir := t.TempDir()
	out, _, err := spmtl(t, "tune", "-data", "testdata/exam.csv", "-task", "school", "-label", "score", "-drop", "student", "-new-tasks", "-save", filepath.Join(dir, "new.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"3-fold cross-validation of whole tasks, RMSE pooled over every row of the held-out tasks, each predicted as a new task",
		"searched: for new tasks: 3 folds of whole tasks", "left out: ITL: predicts no task it was not trained on", "left out: MTASO: predicts no task it was not trained on"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, name := range []string{"ITL", "MTFL", "spMTFL", "MTASO", "spMTASO"} {
		if regexp.MustCompile(`(?m)^[ *] ` + regexp.QuoteMeta(name) + `\s`).MatchString(out) {
			t.Errorf("%s has a row, but predicts no new task:\n%s", name, out)
		}
	}
	// A model tuned on rows says so when it predicts a new task; one
	// tuned for new tasks does not.
	newSchool := filepath.Join(dir, "school9.csv")
	if err := os.WriteFile(newSchool, []byte("school,sex,intake,student,hours\nSchool 9,F,mid 50%,1,4.2\nSchool 9,M,top 25%,2,6.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := spmtl(t, "tune", "-data", "testdata/exam.csv", "-task", "school", "-label", "score", "-drop", "student", "-model", "mmtl", "-save", filepath.Join(dir, "rows.json")); err != nil {
		t.Fatal(err)
	}
	const hint = "the model's settings were chosen on held-out rows of the tasks it was trained on; a search for new tasks (tune -new-tasks"
	for _, c := range []struct {
		model string
		says  bool
	}{{"rows.json", true}, {"new.json", false}} {
		_, errOut, err := spmtl(t, "predict", "-model", filepath.Join(dir, c.model), "-data", newSchool)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(errOut, hint) != c.says || !strings.Contains(errOut, `"School 9"`) {
			t.Errorf("predict with %s (want the hint: %v):\n%s", c.model, c.says, errOut)
		}
	}
	if _, _, err := spmtl(t, "tune", "-data", "testdata/exam.csv", "-task", "school", "-label", "score", "-drop", "student", "-new-tasks", "-model", "mtaso"); err == nil || !strings.Contains(err.Error(), "MTASO predicts no task it was not trained on, so it cannot be tuned for new tasks") {
		t.Errorf("MTASO tuned for new tasks: %v", err)
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

// TestTuneNamesTheFoldsThatServe: a file whose every task is a pair is
// refused at 3 folds with the number of folds that would test its tasks
// and the flag that sets it; a file of one-row tasks is told that no
// number of folds serves.
func TestTuneNamesTheFoldsThatServe(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, csv, want string }{
		{"pairs.csv", "g,y,x\na,1,1\na,2,2\nb,3,1\nb,1,0\nc,2,2\nc,3,1\n", "every task has fewer than 3 rows, so no fold has a row to test on: 3-fold cross-validation needs tasks of 3 rows or more; 2 folds (-folds 2) would test the tasks of 2 rows, or train a chosen setting on every row without a score"},
		{"ones.csv", "g,y,x\na,1,1\nb,2,2\nc,3,1\nd,1,0\n", "no task has two rows to hold one out; a search for new tasks (tune -new-tasks) scores the models on tasks held out whole, and each task's one row is what it predicts (is the task column the one that names each row's group?)"},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.csv), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := spmtl(t, "tune", "-data", path, "-task", "g", "-label", "y")
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("%s: %v\nwant it to end %q", tc.name, err, tc.want)
		}
	}
	if _, _, err := spmtl(t, "tune", "-data", filepath.Join(dir, "pairs.csv"), "-task", "g", "-label", "y", "-folds", "2"); err != nil {
		t.Errorf("pairs at -folds 2: %v", err)
	}
	// What the one-row refusal offers, serves.
	if _, _, err := spmtl(t, "tune", "-data", filepath.Join(dir, "ones.csv"), "-task", "g", "-label", "y", "-new-tasks", "-folds", "2"); err != nil {
		t.Errorf("one-row tasks, searched for new tasks: %v", err)
	}
}
