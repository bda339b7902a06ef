package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/eval"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// times masks what varies from run to run: durations and wall times.
var times = regexp.MustCompile(`\b\d+(\.\d+)?(ns|µs|ms|s)\b|"seconds": [0-9.e+-]+`)

// long matches numbers printed at full precision (JSON), whose last digits
// differ between native and js/wasm builds (math.Exp and math.Log are
// implemented differently); mask rounds them to 9 significant digits.
var long = regexp.MustCompile(`-?\d+\.\d{9,}(e[-+]?\d+)?`)

func mask(s string) string {
	s = times.ReplaceAllString(s, "<time>")
	return long.ReplaceAllStringFunc(s, func(v string) string {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return v
		}
		return strconv.FormatFloat(f, 'g', 9, 64)
	})
}

// golden compares got with testdata/name (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run go test -update after checking):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// spmtl runs the command line with args and returns stdout, stderr.
func spmtl(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(args, &out, &errOut)
	return out.String(), errOut.String(), err
}

// TestGoldenOutputs runs every command on small data and compares what it
// prints with the golden files (durations masked).
func TestGoldenOutputs(t *testing.T) {
	tmp := t.TempDir() // the tune case saves a model there for predict and inspect
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"help.golden", []string{"help"}},
		{"train-spmtfl.golden", []string{"train", "-data", "testdata/toy.csv", "-model", "mtfl", "-selfpaced", "-train", "10", "-lambda0", "0.5"}},
		{"train-mmtl-joint.golden", []string{"train", "-data", "testdata/toy.csv", "-model", "mmtl-joint", "-train", "10"}},
		{"train-ella.golden", []string{"train", "-data", "testdata/toyclass.csv", "-model", "ella", "-select", "infomax", "-train", "10"}},
		{"train-json.golden", []string{"train", "-data", "testdata/toyclass.csv", "-model", "cl", "-train", "10", "-json", "-"}},
		{"reproduce-syn1.golden", []string{"reproduce", "-quick", "-runs", "1", "-datasets", "syn1"}},
		{"train-exam.golden", []string{"train", "-data", "testdata/exam.csv", "-task", "school", "-label", "score", "-drop", "student", "-model", "mtfl", "-selfpaced", "-lambda0", "auto"}},
		{"tune-exam.golden", []string{"tune", "-data", "testdata/exam.csv", "-task", "school", "-label", "score", "-drop", "student", "-model", "mmtl", "-selfpaced", "-save", "$TMP/exam-model.json"}},
		{"predict-exam.golden", []string{"predict", "-model", "$TMP/exam-model.json", "-data", "testdata/exam-new.csv"}},
		{"inspect-exam.golden", []string{"inspect", "-model", "$TMP/exam-model.json"}},
		{"reproduce-sequential.golden", []string{"reproduce", "-sequential", "-quick", "-runs", "1", "-data-dir", "../../../web/data"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = strings.ReplaceAll(a, "$TMP", tmp)
			}
			out, _, err := spmtl(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tc.golden, mask(strings.ReplaceAll(out, tmp, "$TMP")))
		})
	}
}

// TestFigure writes a figure's files.
func TestFigure(t *testing.T) {
	dir := t.TempDir()
	out, _, err := spmtl(t, "figure", "tau", "-data", "syn2", "-maxiter", "3", "-out", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"tau.csv", "tau.svg"} {
		if !strings.Contains(out, filepath.Join(dir, f)) {
			t.Errorf("output %q does not name %s", out, f)
		}
	}
	csv, err := os.ReadFile(filepath.Join(dir, "tau.csv"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "figure-tau.csv", string(csv))
}

// TestErrors: refusals are sentences that name the problem (and the file,
// line and column where there is one); -h prints help.
func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-data", "testdata/bad.csv"}, "testdata/bad.csv:3:3"},
		{[]string{"train", "-data", "testdata/stray.csv", "-loss", "logistic"}, "testdata/stray.csv:14:2: y has 3 distinct values (0, 1, 2): read as regression: the logistic loss needs two classes"},
		{[]string{"predict", "-model", "testdata/exam-model.json", "-data", "testdata/exam-nosex.csv"}, `no column "sex" in header (school, intake, hours): the model was trained with it`},
		{[]string{"predict", "-model", "testdata/toy.csv", "-data", "testdata/toy.csv"}, "read model testdata/toy.csv"},
		{[]string{"tune", "-data", "testdata/toy.csv", "-rho", "1"}, "tune chooses rho and lambda0 itself"},
		{[]string{"train"}, "-data is required"},
		// A device is never read whole: /dev/zero grew the process to the
		// machine's memory (hunt10).
		{[]string{"train", "-data", "/dev/null"}, "read data: /dev/null is not a regular file (a device, a pipe or a socket): give the path of a file"},
		{[]string{"predict", "-model", "/dev/null", "-data", "testdata/toy.csv"}, "read model: /dev/null is not a regular file"},
		{[]string{"train", "-data", "nonesuch.csv"}, "unknown data set"},
		{[]string{"train", "-data", "testdata/toy.csv", "-model", "nope"}, `unknown model "nope"`},
		{[]string{"train", "-data", "testdata/toy.csv", "-model", "itl", "-selfpaced"}, "itl has no self-paced version"},
		{[]string{"train", "-data", "testdata/toy.csv", "-model", "mtfl", "-select", "infomax"}, "mtfl has no task-selection rule"},
		{[]string{"reproduce", "-datasets", "nope"}, `unknown data set "nope"`},
		{[]string{"figure", "nope"}, `unknown kind "nope"`},
		{[]string{"nope"}, `unknown command "nope"`},
	} {
		_, _, err := spmtl(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("spmtl %s: error %v, want one containing %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
	_, stderr, err := spmtl(t, "train", "-h")
	if !errors.Is(err, flag.ErrHelp) || !strings.Contains(stderr, "-aso-h") || !strings.Contains(stderr, "-model") {
		t.Errorf("train -h: error %v, help %q", err, stderr)
	}
}

// TestHelpSaysEachDefaultOnce: no flag's help repeats its default (the
// flag package adds "(default X)" to a usage that already said it:
// predict's -missing and -new-tasks did).
func TestHelpSaysEachDefaultOnce(t *testing.T) {
	twice := regexp.MustCompile(`(\(default [^)]*\)) *\(default [^)]*\)`)
	for _, cmd := range []string{"train", "tune", "predict", "inspect", "reproduce", "pack", "publish", "generate"} {
		_, help, _ := spmtl(t, cmd, "-h")
		if m := twice.FindString(help); m != "" {
			t.Errorf("%s -h says a default twice: %q", cmd, m)
		}
	}
}

// TestBundledDataFromAnyFolder: -data names a bundled data set, found in
// the binary whatever the working folder.
func TestBundledDataFromAnyFolder(t *testing.T) {
	t.Chdir(t.TempDir())
	out, _, err := spmtl(t, "train", "-data", "landmine", "-model", "itl", "-maxiter", "2")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "19 tasks") || !strings.Contains(out, "mean test AUC") {
		t.Errorf("landmine from a temporary folder:\n%s", out)
	}
}

// TestPackTrainsLikeTheCSV: a packed CSV trains to the same output as the
// CSV, and pack refuses a file that is not a CSV table.
func TestPackTrainsLikeTheCSV(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "toy.packed")
	out, _, err := spmtl(t, "pack", "-data", "testdata/toy.csv", "-out", dst)
	if err != nil || !strings.Contains(out, dst) {
		t.Fatalf("pack: %v, %q", err, out)
	}
	// toy.csv's numbers have a few digits each: packed, it is larger, and says so.
	if !strings.Contains(out, "note: the packed file is 314 bytes larger than the CSV") {
		t.Errorf("pack of a small CSV does not say the packed file is larger: %q", out)
	}
	args := []string{"-model", "mtfl", "-selfpaced", "-rho", "0.1", "-lambda0", "1", "-train", "0.75", "-seed", "3"}
	fromCSV, _, err := spmtl(t, append([]string{"train", "-data", "testdata/toy.csv"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	fromPacked, _, err := spmtl(t, append([]string{"train", "-data", dst}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := mask(strings.ReplaceAll(fromPacked, dst, "DATA")), mask(strings.ReplaceAll(fromCSV, "testdata/toy.csv", "DATA")); a != b {
		t.Errorf("train on the packed file:\n%s\non the CSV:\n%s", a, b)
	}
	if _, _, err := spmtl(t, "pack", "-data", "testdata/bad.csv", "-out", dst); err == nil || !strings.Contains(err.Error(), "testdata/bad.csv:3:3") {
		t.Errorf("pack of a bad CSV: %v", err)
	}
	// Other columns: the packed file keeps them, and is read with them.
	exam := filepath.Join(t.TempDir(), "exam.packed")
	if _, _, err := spmtl(t, "pack", "-data", "testdata/exam.csv", "-task", "school", "-label", "score", "-drop", "student", "-out", exam); err != nil {
		t.Fatal(err)
	}
	examArgs := []string{"-task", "school", "-label", "score", "-drop", "student", "-model", "mtfl", "-rho", "0.1", "-seed", "2"}
	fromCSV, _, err = spmtl(t, append([]string{"train", "-data", "testdata/exam.csv"}, examArgs...)...)
	if err != nil {
		t.Fatal(err)
	}
	fromPacked, _, err = spmtl(t, append([]string{"train", "-data", exam}, examArgs...)...)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := mask(strings.ReplaceAll(fromPacked, exam, "DATA")), mask(strings.ReplaceAll(fromCSV, "testdata/exam.csv", "DATA")); a != b {
		t.Errorf("exam, packed:\n%s\nfrom the CSV:\n%s", a, b)
	}
	// Without -drop it reads as packed (as without -task), and the same.
	asPacked, _, err := spmtl(t, "train", "-data", exam, "-task", "school", "-label", "score", "-model", "mtfl", "-rho", "0.1", "-seed", "2")
	if err != nil {
		t.Fatal(err)
	}
	if a, b := mask(strings.ReplaceAll(asPacked, exam, "DATA")), mask(strings.ReplaceAll(fromCSV, "testdata/exam.csv", "DATA")); a != b {
		t.Errorf("exam, packed, read without -drop:\n%s\nfrom the CSV:\n%s", a, b)
	}
	if _, _, err := spmtl(t, "train", "-data", exam, "-task", "school", "-label", "score", "-drop", "hours"); err == nil || !strings.Contains(err.Error(), "student left out") {
		t.Errorf("a packed file read with other columns: %v", err)
	}
}

// TestPackedOmittedRefusesMissingRefuse: a table packed with its rows
// missing a value left out trains with them left out, saying so, unless
// -missing refuse is asked for: those rows are not in it to be refused,
// and the refusal says how to have them.
func TestPackedOmittedRefusesMissingRefuse(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "gaps.csv")
	if err := os.WriteFile(csv, []byte("task,y,x1\na,1,1\na,2,NA\na,3,2\na,2,1\nb,3,2\nb,NA,1\nb,1,3\nb,2,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	packed := filepath.Join(dir, "gaps.packed")
	if _, _, err := spmtl(t, "pack", "-data", csv, "-missing", "omit", "-out", packed); err != nil {
		t.Fatal(err)
	}
	for _, missing := range []string{"", "omit"} {
		args := []string{"train", "-data", packed, "-model", "stl", "-train", "all"}
		if missing != "" {
			args = append(args, "-missing", missing)
		}
		if out, _, err := spmtl(t, args...); err != nil || !strings.Contains(out, "2 of the 8 rows were left out for a missing value") {
			t.Errorf("-missing %q: %v\n%s", missing, err, out)
		}
	}
	_, _, err := spmtl(t, "train", "-data", packed, "-missing", "refuse")
	if err == nil || !strings.Contains(err.Error(), "-missing refuse: "+packed+" was packed with its rows that miss a value left out (2 of the 8 rows") ||
		!strings.Contains(err.Error(), "pack the CSV again without -missing omit, or leave -missing out") {
		t.Errorf("-missing refuse: %v", err)
	}
}

// TestFlagErrors: a bad flag or flag value is an error naming the flag,
// without the command's whole usage on stderr, and the command line prints
// it with the "spmtl:" prefix and a one-line hint to the command's -h.
func TestFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		want     string // in the error
		wantHint string // the hint line
	}{
		{[]string{"train", "-data", "testdata/toy.csv", "-train", "abc"}, `invalid value "abc" for flag -train`, "spmtl train -h for the flags"},
		{[]string{"train", "-nope"}, "flag provided but not defined: -nope", "spmtl train -h for the flags"},
		{[]string{"tune", "-folds", "x"}, `invalid value "x" for flag -folds`, "spmtl tune -h for the flags"},
		{[]string{"figure", "tau", "-lambda0", "0"}, `invalid value "0" for flag -lambda0`, "spmtl figure tau -h for the flags"},
		{[]string{"inspect", "-top", "many"}, `invalid value "many" for flag -top`, "spmtl inspect -h for the flags"},
		{[]string{"predict", "-x"}, "-x", "spmtl predict -h for the flags"},
		{[]string{"pack", "-x"}, "-x", "spmtl pack -h for the flags"},
		{[]string{"reproduce", "-runs", "x"}, `invalid value "x" for flag -runs`, "spmtl reproduce -h for the flags"},
		{[]string{"train", "-data", "testdata/toy.csv", "extra"}, `unexpected argument "extra"`, "spmtl train -h for the flags"},
	} {
		name := strings.Join(tc.args, " ")
		_, stderr, err := spmtl(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("spmtl %s: error %v, want one containing %q", name, err, tc.want)
			continue
		}
		if stderr != "" {
			t.Errorf("spmtl %s: stderr %q, want nothing before the error", name, stderr)
		}
		var b bytes.Buffer
		report(&b, err)
		want := "spmtl: " + err.Error() + "\n" + tc.wantHint + "\n"
		if b.String() != want {
			t.Errorf("spmtl %s: printed %q, want %q", name, b.String(), want)
		}
	}
	// Other errors get the prefix and no hint.
	var b bytes.Buffer
	report(&b, errors.New("read data: no such file"))
	if b.String() != "spmtl: read data: no such file\n" {
		t.Errorf("a plain error is printed %q", b.String())
	}
	// -h still prints the flags, and is not an error to report.
	_, stderr, err := spmtl(t, "figure", "tau", "-h")
	if !errors.Is(err, flag.ErrHelp) || !strings.HasPrefix(stderr, "Usage of figure tau:\n") || !strings.Contains(stderr, "-values") {
		t.Errorf("figure tau -h: error %v, help %q", err, stderr)
	}
}

// TestTuneRefusesSplitFlags: tune cross-validates on every row, so -train
// and -split (which it ignored) are refused with the reason, and -h does
// not list them.
func TestTuneRefusesSplitFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-train", "2"},
		{"-train", "all"},
		{"-split", "testdata/nonesuch.csv:1"},
	} {
		_, _, err := spmtl(t, append([]string{"tune", "-data", "testdata/toy.csv"}, args...)...)
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), args[0]+": tune uses every row") {
			t.Errorf("tune %v: error %v", args, err)
		}
	}
	_, help, _ := spmtl(t, "tune", "-h")
	if strings.Contains(help, "-train") || strings.Contains(help, "-split") || !strings.Contains(help, "-folds") || !strings.Contains(help, "-seed uint\n    \trandom seed for the split and the learner (default 1)") {
		t.Errorf("tune -h:\n%s", help)
	}
	// Without -model tune searches every model: its help must not give
	// train's default, which tunes that model alone (a helper typed it).
	if !strings.Contains(help, "(default: every model, and cross-validation chooses)") || strings.Contains(help, "(default mtfl)") {
		t.Errorf("tune -h on -model:\n%s", help)
	}
	_, help, _ = spmtl(t, "train", "-rho", "5", "-h")
	if !strings.Contains(help, "-train") || !strings.Contains(help, "-split") || !strings.Contains(help, "regularization rho (default 0.1, or the bundled data set's)\n") {
		t.Errorf("train -h:\n%s", help)
	}
}

// TestBundleRefusesFileFlags: a bundled data set is read with its own
// columns, split and settings, and the flags that would change them were
// silently ignored (school trained the same with -drop foo, -missing omit,
// a -split file that does not exist or -train 0.5); each is refused by
// name, and what a bundle does read (its split file's column, -train all,
// a share where its split is drawn) still works. A split file given for a
// file of one's own refuses a share the same way.
func TestBundleRefusesFileFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // "" when it trains
	}{
		{[]string{"-data", "school", "-drop", "foo"}, "-drop: school is a bundled data set, read with its own columns and settings; leave -drop out"},
		{[]string{"-data", "school", "-task", "foo", "-label", "y"}, "-task, -label: school is a bundled data set"},
		{[]string{"-data", "school", "-missing", "omit"}, "-missing: school is a bundled data set"},
		{[]string{"-data", "school", "-origin", "means"}, "-origin: school is a bundled data set"},
		{[]string{"-data", "school", "-split", "testdata/nonesuch.csv:1"}, "school is split by its own split file (school/splits.csv); name only its column"},
		{[]string{"-data", "school", "-train", "0.5"}, "-train 0.5: school's split file (school/splits.csv) says which rows train"},
		{[]string{"-data", "syn1", "-train", "0.5"}, "-train 0.5: syn1, generated with its own training and test rows, says which rows train"},
		{[]string{"-data", "syn1", "-split", ":2"}, "-split :2: syn1 is generated with its own training and test rows"},
		{[]string{"-data", "landmine", "-split", ":2"}, "-split :2: landmine has no split file"},
		{[]string{"-data", "testdata/toy.csv", "-split", "testdata/toy.csv:1", "-train", "0.5"}, "-train 0.5: the split file (-split testdata/toy.csv:1) says which rows train"},
		{[]string{"-data", "school", "-split", ":2"}, ""},
		{[]string{"-data", "school", "-train", "all"}, ""},
		{[]string{"-data", "landmine", "-train", "0.5"}, ""},
	} {
		_, _, err := spmtl(t, append([]string{"train", "-model", "itl", "-maxiter", "1"}, tc.args...)...)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("train %v: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

// TestTrainHeaderAutoLambda0: with -lambda0 auto the header gives the λ0
// the run used (its first iteration's λ), marked automatic, as tune does;
// it printed the unused default, 1.
func TestTrainHeaderAutoLambda0(t *testing.T) {
	exam := []string{"train", "-data", "testdata/exam.csv", "-task", "school", "-label", "score", "-drop", "student", "-model", "mtfl", "-selfpaced"}
	for _, tc := range []struct{ flag, mark string }{{"auto", "(auto)"}, {"auto*4", "(4 x auto)"}, {"0.5", ""}} {
		js, _, err := spmtl(t, append(exam, "-lambda0", tc.flag, "-json", "-")...)
		if err != nil {
			t.Fatal(err)
		}
		var run struct{ History []struct{ Lambda float64 } }
		if err := json.Unmarshal([]byte(js[:strings.Index(js, "\n}\n")+2]), &run); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("lambda0 %.4g %s,", run.History[0].Lambda, tc.mark)
		if tc.mark == "" {
			want = "lambda0 0.5,"
		}
		out, _, _ := spmtl(t, append(exam, "-lambda0", tc.flag)...)
		if !strings.Contains(out, want) {
			t.Errorf("-lambda0 %s: output\n%s\nwant %q in the model's line", tc.flag, out, want)
		}
	}
}

// TestNamesCannotBreakTables: a task or feature name holding a newline or
// a tab (quoted in the CSV) is printed quoted, so that it stays in its
// row and column of the τ table, the score table, the sequential order and
// inspect's bars and order; it broke the rows.
func TestNamesCannotBreakTables(t *testing.T) {
	var b strings.Builder
	b.WriteString("task,y,x1,c\n")
	for i, task := range []string{`"A` + "\n" + `B"`, `"C` + "\t" + `D"`, "E"} {
		for k := 0; k < 4; k++ {
			c := []string{`"u` + "\n" + `v"`, "w"}[k%2]
			fmt.Fprintf(&b, "%s,%d.%d,%d,%s\n", task, i+k, k, k*(i+1)%5, c)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "names.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(what, out string) {
		t.Helper()
		if strings.Contains(out, "\t") {
			t.Errorf("%s prints a tab:\n%s", what, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if l := strings.TrimSpace(line); strings.HasPrefix(l, "B") || strings.HasPrefix(l, `v"`) || strings.HasPrefix(l, "v ") {
				t.Errorf("%s: a name broke a row:\n%s", what, out)
				break
			}
		}
		if !strings.Contains(out, `"A\nB"`) {
			t.Errorf("%s does not print the task quoted:\n%s", what, out)
		}
	}
	model := filepath.Join(dir, "m.json")
	out, _, err := spmtl(t, "train", "-data", path, "-model", "mtfl", "-selfpaced", "-train", "3", "-save", model)
	if err != nil {
		t.Fatal(err)
	}
	check("train", out)
	if !strings.Contains(out, `"C\tD"`) {
		t.Errorf("train does not print the tab quoted:\n%s", out)
	}
	out, _, err = spmtl(t, "inspect", "-model", model)
	if err != nil {
		t.Fatal(err)
	}
	check("inspect", out)
	if !strings.Contains(out, `"c=u\nv"`) {
		t.Errorf("inspect does not print the feature quoted:\n%s", out)
	}
	out, _, err = spmtl(t, "train", "-data", path, "-model", "cl", "-train", "3")
	if err != nil {
		t.Fatal(err)
	}
	check("train -model cl", out)
}

// TestSplitFileNamedInErrors: a refusal of the split file names that file
// and the position in it, not the data file.
func TestSplitFileNamedInErrors(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "toy.csv")
	split := filepath.Join(dir, "mysplit.csv")
	var sb strings.Builder
	sb.WriteString("row,split1\n")
	for i := 0; i < 12; i++ {
		v := "train"
		if i == 3 {
			v = "validation"
		}
		fmt.Fprintf(&sb, "%d,%s\n", i, v)
	}
	toy, err := os.ReadFile(filepath.Join("testdata", "toy.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(toy), "\n")
	if err := os.WriteFile(data, []byte(strings.Join(lines[:13], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(split, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = spmtl(t, "train", "-data", data, "-split", split+":1")
	if err == nil || !strings.Contains(err.Error(), split+":5:2") || !strings.Contains(err.Error(), `"validation"`) {
		t.Errorf("a bad split value: %v, want it named at %s:5:2", err, split)
	}
}

// visitsFile writes a CSV whose column visits is a category written
// 0, 1, 2, 3+ and whose column student is an id (1..n), and returns its
// path.
func visitsFile(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("school,score,student,visits,hours\n")
	for i := 0; i < n; i++ {
		v := fmt.Sprint(i % 3)
		if i%4 == 3 {
			v = "3+"
		}
		fmt.Fprintf(&b, "S%d,%d.5,%d,%s,%d.25\n", i%2, (i*7)%5, i+1, v, i%7)
	}
	path := filepath.Join(t.TempDir(), "visits.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTextColumns: a category written with numbers and a word (3+) is
// refused, naming -text beside -drop; with -text it trains with one
// indicator per value, the saved model reads new rows the same way, and an
// id column is flagged with -drop.
func TestTextColumns(t *testing.T) {
	data := visitsFile(t, 24)
	cols := []string{"-data", data, "-task", "school", "-label", "score", "-model", "stl", "-rho", "0.1", "-lambda0", "1"}
	model := filepath.Join(t.TempDir(), "visits.json")
	for _, tc := range []struct {
		name     string
		args     []string
		err, out string // err: in the message as main prints it
	}{
		{"read as a category unasked", append([]string{"train"}, cols...), "", "visits holds whole numbers and 3+: it is read as a category, one indicator per value (0, 1, 2, 3+)"},
		{"read as words", append([]string{"train", "-text", "visits"}, cols...), "", "visits one-hot (4)"},
		{"an id flagged", append([]string{"train", "-text", "visits"}, cols...), "", "student holds a different whole number in every row, as an id does: it is used as a feature, which rarely means anything; leave it out unless its numbers measure something (-drop student)"},
		{"no id note when left out", append([]string{"train", "-text", "visits", "-drop", "student"}, cols...), "", "left out: student\n"},
		{"unknown column", append([]string{"train", "-text", "visit"}, cols...), `cannot read column "visit" as words: the header has (school, score, student, visits, hours)`, ""},
		{"left out and words", append([]string{"train", "-text", "visits", "-drop", "visits"}, cols...), `column "visits" is asked both to be left out and to be read as words: choose one`, ""},
		{"tune saves it", []string{"tune", "-data", data, "-task", "school", "-label", "score", "-model", "stl", "-text", "visits", "-folds", "2", "-save", model}, "", "visits one-hot (4)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := spmtl(t, tc.args...)
			if tc.err != "" {
				if err == nil || !strings.Contains(message(err), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, tc.out) {
				t.Errorf("output\n%s\nwant it to contain %q", out, tc.out)
			}
		})
	}
	saved, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(saved), `"text": [`) {
		t.Errorf("the saved model's encoding does not name the column read as words:\n%.600s", saved)
	}
	newRows := filepath.Join(t.TempDir(), "new.csv")
	if err := os.WriteFile(newRows, []byte("school,student,visits,hours\nS0,99,3+,1\nS1,98,1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := spmtl(t, "predict", "-model", model, "-data", newRows)
	if err != nil || strings.Count(out, "\n") != 3 || !strings.Contains(out, "S0,99,3+,1,") {
		t.Errorf("predict with the model: %v\n%s", err, out)
	}
}

// TestOutputNeverAnInput: an output flag that names one of the command's
// input files is refused before any work, and the file is left as it was
// (train -save once wrote the model over the training data). The same
// file by another path (./) is the same file.
func TestOutputNeverAnInput(t *testing.T) {
	dir := t.TempDir()
	toy, err := os.ReadFile("testdata/toy.csv")
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "d.csv")
	model := filepath.Join(dir, "m.json")
	if err := os.WriteFile(data, toy, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := spmtl(t, "train", "-data", data, "-save", model); err != nil {
		t.Fatal(err)
	}
	saved, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	again := dir + string(filepath.Separator) + "." + string(filepath.Separator) + "d.csv"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-data", data, "-save", again}, "-save " + again + " is the file -data reads"},
		{[]string{"train", "-data", data, "-json", data}, "-json " + data + " is the file -data reads"},
		{[]string{"tune", "-data", data, "-save", data}, "is the file -data reads"},
		{[]string{"predict", "-model", model, "-data", data, "-out", model}, "-out " + model + " is the file -model reads"},
		{[]string{"predict", "-model", model, "-data", data, "-out", data}, "is the file -data reads"},
		{[]string{"pack", "-data", data, "-out", data}, "is the file -data reads"},
		{[]string{"publish", "-data", data, "-o", data}, "-o " + data + " is the file -data reads"},
		// An output that cannot be written is refused before the fit, not
		// after minutes of tuning.
		{[]string{"tune", "-data", data, "-save", filepath.Join(dir, "nodir", "m.json")}, "its folder " + filepath.Join(dir, "nodir") + " does not exist"},
		{[]string{"train", "-data", data, "-save", dir}, "it is a folder"},
		{[]string{"predict", "-model", model, "-data", data, "-out", filepath.Join(dir, "nodir", "p.csv")}, "does not exist: create it"},
	} {
		_, _, err := spmtl(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("spmtl %s: error %v, want one containing %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
	if b, _ := os.ReadFile(data); !bytes.Equal(b, toy) {
		t.Errorf("the data file changed")
	}
	if b, _ := os.ReadFile(model); !bytes.Equal(b, saved) {
		t.Errorf("the model file changed")
	}
}

// TestMeanSaysWhichTasks: a mean AUC over only some of the tested tasks
// says over how many and why the others have no score.
func TestMeanSaysWhichTasks(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("task,y,x1\n")
	for task := 0; task < 4; task++ {
		for i := 0; i < 20; i++ {
			y := 0
			if task < 2 && i%2 == 1 { // t0 and t1 have both classes
				y = 1
			}
			fmt.Fprintf(&sb, "t%d,%d,%g\n", task, y, float64((i*7+task*3)%11)/10)
		}
	}
	path := filepath.Join(t.TempDir(), "some.csv")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := spmtl(t, "train", "-data", path, "-loss", "logistic")
	if err != nil {
		t.Fatal(err)
	}
	if want := "(over the 2 of 4 tested tasks that have a score; not scored: 2 with test rows of one class only, where an AUC is undefined)"; !strings.Contains(out, want) {
		t.Errorf("the mean's line does not say %q:\n%s", want, out)
	}
}

// TestUntestedNamesQuoted: the line naming the tasks too small to test
// quotes a name that holds a newline, as the tables do, so that it cannot
// break the line.
func TestUntestedNamesQuoted(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("task,y,x\n\"A\nB\",1.5,1\n")
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&sb, "c,%d.5,%d\nd,%d.25,%d\n", i%3, i, i%4, i+1)
	}
	path := filepath.Join(t.TempDir(), "tiny.csv")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := spmtl(t, "train", "-data", path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `too small to test, trained on all its rows: "A\nB" (1 row)`) {
		t.Errorf("the untested task is not named quoted:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "B") {
			t.Errorf("a name broke a line:\n%s", out)
		}
	}
}

// TestColumnListQuotes: a -drop or -text list is a CSV record, so a column
// whose name holds a comma is given in double quotes, and the hint after a
// refusal writes it so (a tester's "notes, free" could not be left out).
func TestColumnListQuotes(t *testing.T) {
	for _, tc := range []struct {
		list string
		want []string
	}{
		{"id,notes", []string{"id", "notes"}},
		{`"notes, free", id`, []string{"notes, free", "id"}},
		{`"say ""hi""",x`, []string{`say "hi"`, "x"}},
		{`"unclosed,x`, []string{`"unclosed`, "x"}},
		{" , id ,", []string{"id"}},
	} {
		if got := columnList(tc.list); !slices.Equal(got, tc.want) {
			t.Errorf("columnList(%q) = %q, want %q", tc.list, got, tc.want)
		}
	}
	dir := t.TempDir()
	var sb strings.Builder
	sb.WriteString("task,y,x,\"notes, free\"\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&sb, "t%d,%d,%d,%d\n", i%3, i%7, i%5, i)
	}
	sb.WriteString("t0,1,2,a word\n") // refused where it is, with -drop's hint
	data := filepath.Join(dir, "n.csv")
	if err := os.WriteFile(data, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := spmtl(t, "train", "-data", data)
	if err == nil || !strings.HasSuffix(message(err), `(-drop '"notes, free"')`) {
		t.Fatalf("refusal %v, want the hint -drop '\"notes, free\"'", err)
	}
	if _, _, err := spmtl(t, "train", "-data", data, "-drop", `"notes, free"`); err != nil {
		t.Errorf("with the hint's -drop: %v", err)
	}
}

// TestTrainShareRounded: a training share that comes to less than one row
// of a task says so (it trained on one row per task without a word), and
// a share that gives every task a row says nothing.
func TestTrainShareRounded(t *testing.T) {
	for _, c := range []struct {
		train, want string
	}{
		{"0.0001", "The training share 0.0001 is less than one row in 3 tasks of 3, which train on one row each"},
		{"0.03", "The training share 0.03 is less than one row in 3 tasks of 3"},
		{"0.1", ""},
		{"1", ""},
	} {
		out, _, err := spmtl(t, "train", "-data", "testdata/toy.csv", "-train", c.train)
		if err != nil {
			t.Fatalf("-train %s: %v", c.train, err)
		}
		if got := strings.Contains(out, "The training share"); got != (c.want != "") || c.want != "" && !strings.Contains(out, c.want) {
			t.Errorf("-train %s: want %q in:\n%s", c.train, c.want, out)
		}
	}
}

// TestOriginFlag: tune says when it moved the features' origin to their
// means (and how train fits so too); -origin takes auto, zero or means and
// refuses anything else with the choices.
func TestOriginFlag(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	var sb strings.Builder
	sb.WriteString("g,y,x1,x2\n")
	for g := 0; g < 50; g++ {
		b, w1, w2 := r.NormFloat64(), 1+0.5*r.NormFloat64(), -1+0.5*r.NormFloat64()
		for i := 0; i < 12; i++ {
			x1, x2 := 4+r.NormFloat64(), 4+r.NormFloat64()
			fmt.Fprintf(&sb, "g%d,%.4f,%.4f,%.4f\n", g, b+w1*(x1-4)+w2*(x2-4)+0.5*r.NormFloat64(), x1, x2)
		}
	}
	path := filepath.Join(t.TempDir(), "offset.csv")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := spmtl(t, "tune", "-data", path, "-task", "g", "-model", "mmtl-joint")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "origin: the numeric features' origin was moved to ") || !regexp.MustCompile(`train -origin (means|0\.9\d|1\.0\d) fits so too`).MatchString(out) {
		t.Errorf("tune does not say it moved the origin:\n%s", out)
	}
	if n := strings.Count(out, "origin was moved"); n != 1 {
		t.Errorf("tune says %d times that it moved the origin (the data's summary is not tune's to say):\n%s", n, out)
	}
	if out, _, err = spmtl(t, "tune", "-data", path, "-task", "g", "-model", "mmtl-joint", "-origin", "zero"); err != nil || strings.Contains(out, "origin:") {
		t.Errorf("tune -origin zero moved it (%v):\n%s", err, out)
	}
	if _, _, err := spmtl(t, "train", "-data", path, "-task", "g", "-origin", "means"); err != nil {
		t.Errorf("train -origin means: %v", err)
	}
	if _, _, err := spmtl(t, "train", "-data", path, "-task", "g", "-origin", "mean"); err == nil || !strings.Contains(err.Error(), `"mean" is not auto, zero, means, a number t`) {
		t.Errorf("-origin mean: %v", err)
	}

	// One numeric feature, centred as written, whose intercepts were drawn
	// independent of the slopes at x = −2: the origin moves along it, and
	// is written as the column's value.
	sb.Reset()
	sb.WriteString("g,y,x\n")
	for g := 0; g < 60; g++ {
		b, w := 1.5*r.NormFloat64(), 2+0.8*r.NormFloat64()
		for i := 0; i < 9; i++ {
			x := 2*r.Float64() - 1
			fmt.Fprintf(&sb, "g%d,%.4f,%.4f\n", g, 10+b+w*(x+2)+0.5*r.NormFloat64(), x)
		}
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err = spmtl(t, "tune", "-data", path, "-task", "g", "-model", "mmtl-joint")
	m := regexp.MustCompile(`origin: the origin of x was moved to −\d\.\d+, .* \(train -origin (x=-\d\.\d+) fits so too\)`).FindStringSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("tune on one feature does not say it moved x's origin (%v):\n%s", err, out)
	}
	if _, _, err := spmtl(t, "train", "-data", path, "-task", "g", "-origin", m[1]); err != nil {
		t.Errorf("train -origin %s: %v", m[1], err)
	}
	if _, _, err := spmtl(t, "train", "-data", path, "-task", "g", "-origin", "y=1"); err == nil || !strings.Contains(err.Error(), "origin y=1: y is not a numeric feature column (they are x)") {
		t.Errorf("-origin y=1: %v", err)
	}
}

// TestTrainLeavesOutDates: two columns of dates (too many values to read
// as words) are left out together, each with the reason and what would
// make it usable, where a refusal named one per run.
func TestTrainLeavesOutDates(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("task,y,x,born,weighed\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&sb, "t%d,%d,%d,2020-%02d-%02d,%d/%d/2021\n", i%3, i%7, i%5, 1+i%12, 1+i, 1+i%28, 1+i%12)
	}
	data := filepath.Join(t.TempDir(), "dates.csv")
	if err := os.WriteFile(data, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := spmtl(t, "train", "-data", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, col := range []string{"born", "weighed"} {
		if want := col + " (60 distinct values, more than 50 to encode; dates: written as days since a start, they could be used)"; !strings.Contains(out, want) {
			t.Errorf("the summary does not say %q:\n%s", want, out)
		}
	}
}

// TestTrainNotesOfQuotesAndConstants: a file that quotes every number (R's
// write.csv of a data frame of factors only: cbpp with a yes/no label)
// names its column of a few whole numbers, read as a number, with the flag
// that reads it as words; a constant column that is the only feature gets
// no advice to leave it out (which would leave no feature), and no empty
// "(-drop )".
func TestTrainNotesOfQuotesAndConstants(t *testing.T) {
	dir := t.TempDir()
	var quoted, constant strings.Builder
	quoted.WriteString("\"herd\",\"period\",\"y\"\n")
	constant.WriteString("g,y,one\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&quoted, "%q,%q,%q\n", fmt.Sprint(i%5), fmt.Sprint(1+i%4), []string{"no", "yes"}[(i/3)%2])
		fmt.Fprintf(&constant, "b%d,%d.5,1\n", i%5, (i*7)%13)
	}
	for _, tc := range []struct {
		name, text, task, label, want, not string
	}{
		{"quoted.csv", quoted.String(), "herd", "y", "period holds a few whole numbers, all in quotes as every number of the file is", ""},
		{"constant.csv", constant.String(), "g", "y", "one has the same value in every row: with no other feature", "(-drop"},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _, err := spmtl(t, "train", "-data", path, "-task", tc.task, "-label", tc.label, "-maxiter", "2")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !strings.Contains(out, tc.want) || (tc.not != "" && strings.Contains(out, tc.not)) {
			t.Errorf("%s: output lacks %q (or has %q):\n%s", tc.name, tc.want, tc.not, out)
		}
		if tc.name == "quoted.csv" && !strings.Contains(out, "read it as words (-text period)") {
			t.Errorf("%s: no -text for period:\n%s", tc.name, out)
		}
		// A label of words says which is the positive class before predict does.
		if tc.name == "quoted.csv" && !strings.Contains(out, `the positive class is "yes", against "no"`) {
			t.Errorf("%s: the positive class is not said:\n%s", tc.name, out)
		}
	}
}

// TestPredictScore: a file with the label column is scored: the sentence
// follows "wrote" on stdout with -out, and goes to stderr beside the
// warnings when stdout is the predictions' CSV, which it must not break.
func TestPredictScore(t *testing.T) {
	tmp := t.TempDir()
	model := filepath.Join(tmp, "m.json")
	if _, _, err := spmtl(t, "train", "-data", "testdata/exam.csv", "-task", "school", "-label", "score", "-drop", "student", "-model", "mmtl", "-train", "all", "-save", model); err != nil {
		t.Fatal(err)
	}
	out, _, err := spmtl(t, "predict", "-model", model, "-data", "testdata/exam.csv", "-out", filepath.Join(tmp, "p.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^wrote \d+ predictions .*\nscored against column score on \d+ rows: RMSE [0-9.]+ ± [0-9.]+; every row predicted by these rows' mean label would score [0-9.]+; the file has the name of the file the model was trained on`).MatchString(out) {
		t.Errorf("with -out:\n%s", out)
	}
	out, errOut, err := spmtl(t, "predict", "-model", model, "-data", "testdata/exam.csv")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "scored") || !strings.HasPrefix(errOut, "scored against column score") {
		t.Errorf("to stdout: the score %q on stderr, stdout starts %q", errOut, out[:min(len(out), 80)])
	}
	if _, errOut, _ := spmtl(t, "predict", "-model", model, "-data", "testdata/exam-new.csv"); strings.Contains(errOut, "scored") {
		t.Errorf("a file without the label column is scored: %q", errOut)
	}
}

// TestScoreDigits: a score is printed with four decimals, a large one
// with six significant digits, and a small one (a label near 1e-3) with
// four significant digits, so that models of a small-scale label do not
// all print 0.0009 ± 0.0000.
func TestScoreDigits(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0.43541, "0.4354"}, {12.3456, "12.3456"}, {3.99363e14, "3.99363e+14"},
		{0.00087912, "0.0008791"}, {2.746e-05, "2.746e-05"}, {0, "0.0000"}, {math.NaN(), "n/a"},
	} {
		if got := score(c.v); got != c.want {
			t.Errorf("score(%v) = %q, want %q", c.v, got, c.want)
		}
	}
	if got := plusMinus(eval.Estimate{Value: 0.00087912, SE: 2.746e-05}); got != "0.0008791 ± 2.746e-05" {
		t.Errorf("a small score with its SE: %q", got)
	}
}
