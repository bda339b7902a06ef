package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrainMemoryBudget: train refuses a fit over the page's budget with
// its numbers, -memory sets another budget, and a bad -memory is refused.
func TestTrainMemoryBudget(t *testing.T) {
	var b strings.Builder
	for k := 0; k < 500; k++ {
		fmt.Fprintf(&b, "t%d %d 1:1\nt%d %d 2097152:1\n", k, k%2, k, (k+1)%2)
	}
	wide := filepath.Join(t.TempDir(), "wide.svm")
	if err := os.WriteFile(wide, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-data", wide}, "(500 tasks × 2,097,152 features, dense weights); the learner's budget is 1 GB. Remedy:"},
		{[]string{"train", "-data", "testdata/toy.csv", "-memory", "0.000001"}, "the learner's budget is 1 kB"},
		{[]string{"train", "-data", "testdata/toy.csv", "-memory", "-1"}, "-memory: want a number of GB, 0 or more, got -1"},
	} {
		_, _, err := spmtl(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("spmtl %s: error %v, want one containing %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
	if _, _, err := spmtl(t, "train", "-data", "testdata/toy.csv", "-memory", "0"); err != nil {
		t.Errorf("train -memory 0: %v", err)
	}
}
