package main

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/data"
)

// TestGenerate writes each kind of grouped data, reads the files back and
// trains on them from the command line, and checks the printed reference
// scores.
func TestGenerate(t *testing.T) {
	for _, tc := range []struct {
		kind     string
		args     []string
		groups   int
		features int
		dataKind data.Kind
		want     []string
	}{
		{"grouped", []string{"-groups", "40"}, 40, 3, data.Regression,
			[]string{"40 groups of 2 to 20 rows, 3 features", "GLS + BLUP (known variances)", "pooled regression", "oracle (true fixed effects + BLUP)"}},
		{"grouped", []string{"-groups", "30", "-min", "4", "-max", "8", "-features", "2", "-slope-sd", "0", "-seed", "5"}, 30, 2, data.Regression,
			[]string{"30 groups of 4 to 8 rows, 2 features", "σu = 0,", "true mean (the noise floor)"}},
		{"grouped-binary", []string{"-groups", "60"}, 60, 3, data.Classification,
			[]string{"60 groups", "log-loss", "oracle (true probabilities)", "pooled logistic regression"}},
	} {
		t.Run(tc.kind+strings.Join(tc.args, ""), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			out, _, err := spmtl(t, append(append([]string{"generate", tc.kind}, tc.args...), "-out", dir)...)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range append(tc.want, filepath.Join(dir, "train.csv"), filepath.Join(dir, "holdout.csv")) {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, f := range []string{"train.csv", "holdout.csv"} {
				text, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil {
					t.Fatal(err)
				}
				ds, err := data.ReadCSV(strings.NewReader(string(text)), f, data.CSVOptions{TaskColumn: "group"})
				if err != nil {
					t.Fatal(err)
				}
				if ds.Features != tc.features || ds.Kind != tc.dataKind || (f == "train.csv" && len(ds.Tasks) != tc.groups) {
					t.Errorf("%s: %d tasks, %d features, %v", f, len(ds.Tasks), ds.Features, ds.Kind)
				}
			}
			// The same flags write the same files.
			again := filepath.Join(t.TempDir(), "again")
			if _, _, err := spmtl(t, append(append([]string{"generate", tc.kind}, tc.args...), "-out", again)...); err != nil {
				t.Fatal(err)
			}
			a, _ := os.ReadFile(filepath.Join(dir, "train.csv"))
			b, _ := os.ReadFile(filepath.Join(again, "train.csv"))
			if string(a) != string(b) {
				t.Error("same seed, different train.csv")
			}
			// train reads the file with -task group.
			trained, _, err := spmtl(t, "train", "-data", filepath.Join(dir, "train.csv"), "-task", "group", "-model", "itl", "-maxiter", "2")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(trained, "mean test") {
				t.Errorf("train on the generated file:\n%s", trained)
			}
		})
	}
}

func TestGenerateErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args  []string
		want  string
		usage bool
	}{
		{[]string{"generate"}, "want a kind", false},
		{[]string{"generate", "nope"}, `unknown kind "nope"`, false},
		{[]string{"generate", "grouped"}, "-out is required", true},
		{[]string{"generate", "grouped", "-out", dir, "-min", "5", "-max", "3"}, "-max 3 is below -min 5", true},
		{[]string{"generate", "grouped", "-out", dir, "-groups", "0"}, "-groups 0", true},
		{[]string{"generate", "grouped", "-out", dir, "-min", "0"}, "-min 0", true},
		{[]string{"generate", "grouped", "-out", dir, "-features", "-1"}, "-features -1", true},
		{[]string{"generate", "grouped", "-out", dir, "-slope-sd", "-1"}, "-slope-sd -1", true},
		{[]string{"generate", "grouped", "-out", dir, "-max", "3"}, "give -max 4 or more", true},
		{[]string{"generate", "grouped", "-out", dir, "stray"}, `unexpected argument "stray"`, true},
	} {
		_, _, err := spmtl(t, tc.args...)
		var ue *usageError
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.As(err, &ue) != tc.usage {
			t.Errorf("spmtl %s: error %v (usage error %v), want one containing %q (usage error %v)", strings.Join(tc.args, " "), err, errors.As(err, &ue), tc.want, tc.usage)
		}
	}
	_, stderr, err := spmtl(t, "generate", "grouped", "-h")
	if !errors.Is(err, flag.ErrHelp) || !strings.Contains(stderr, "-slope-sd") || !strings.Contains(stderr, "-groups") {
		t.Errorf("generate grouped -h: error %v, help %q", err, stderr)
	}
}
