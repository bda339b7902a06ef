package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// FuzzCLIModel: predict and inspect (with -top and -out) on an arbitrary
// model file and data file never end in an internal error (a recovered
// panic), and a successful predict prints no NaN or Inf. It found the
// panic of inspect on a model whose Θ is longer than its features
// (testdata/fuzz/FuzzCLIModel/theta-longer-than-features).
//
// Run it with go test -run '^$' -fuzz FuzzCLIModel -fuzzminimizetime 200x:
// the default minimization takes most of the time on the 4 KB seed.
func FuzzCLIModel(f *testing.F) {
	m, err := os.ReadFile("testdata/exam-model.json")
	if err != nil {
		f.Fatal(err)
	}
	d, err := os.ReadFile("testdata/exam-new.csv")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(m, d, uint8(3))
	f.Fuzz(func(t *testing.T, model, data []byte, top uint8) {
		if len(model) > 1<<16 || len(data) > 1<<14 {
			return
		}
		dir := t.TempDir()
		mp, dp := filepath.Join(dir, "m.json"), filepath.Join(dir, "d.csv")
		if err := os.WriteFile(mp, model, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dp, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out, _, err := spmtl(t, "predict", "-model", mp, "-data", dp)
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("predict: %v", err)
		}
		if err == nil {
			for _, line := range strings.Split(out, "\n")[1:] {
				if i := strings.LastIndexByte(line, ','); i >= 0 {
					if v := line[i+1:]; strings.Contains(v, "NaN") || strings.Contains(v, "Inf") {
						t.Fatalf("predict printed %q", line)
					}
				}
			}
		}
		_, _, err = spmtl(t, "inspect", "-model", mp, "-top", strconv.Itoa(int(top%20)), "-out", filepath.Join(dir, "out"))
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("inspect: %v", err)
		}
	})
}
