package app

import (
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/data"
)

// TestPredictMessages: a file predict cannot read is told that it must
// have the columns the model was trained with; predict has no columns to
// choose or leave out, so its errors advise neither and carry no remedy.
func TestPredictMessages(t *testing.T) {
	d, err := Load([]byte("school,score,sex,hours\nS1,1,M,2\nS1,2,F,3\nS2,3,M,4\n"), LoadOptions{Name: "train.csv", TaskColumn: "school", LabelColumn: "score"})
	if err != nil {
		t.Fatal(err)
	}
	m := &ModelFile{Format: ModelFormat, Version: ModelVersion, Kind: "regression", Encoding: d.Encoding, Tasks: []string{"S1", "S2"},
		W: [][]float64{{1, 0, 1}, {0, 1, 1}}, B: []float64{0, 0}}
	for _, tc := range []struct{ name, text, want string }{
		{"no task column", "task,sex,hours\nS1,M,1\n", `new.csv:1:1: no task column "school" in header [task sex hours]: the file must have the columns the model was trained with`},
		{"no feature column", "school,sex\nS1,M\n", `new.csv:1:1: no column "hours" in header [school sex]: the model was trained with it, so the file must have it too`},
		{"missing value", "school,sex,hours\nS1,M,\n", "new.csv:2:3: missing value in column hours, which the model was trained with: fill it in, or delete the row"},
		{"a word", "school,sex,hours\nS1,M,n.d.\n", `new.csv:2:3: non-numeric value "n.d." in column hours`},
		{"NA", "school,sex,hours\nS1,M,NA\n", `new.csv:2:3: missing value ("NA") in column hours, which the model was trained with: fill it in, or delete the row`},
		{"too large", "school,sex,hours\nS1,M,1e200\n", "new.csv:2:3: value 1e+200 in column hours is beyond ±1e100, too large to compute with: correct the value, or delete the row"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Predict(m, []byte(tc.text), "new.csv")
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			for _, w := range []string{"choose", "leave", "-drop", "-task", "menu"} {
				if strings.Contains(err.Error(), w) {
					t.Errorf("advises %q", w)
				}
			}
			if r := data.RemedyOf(err); r != (data.Remedy{}) {
				t.Errorf("remedy %+v", r)
			}
		})
	}
}
