package data

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestValidate names the first bad value of each kind, with its row.
func TestValidate(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	dense := func(kind Kind, x, y []float64) *Dataset {
		return &Dataset{Name: "d", Features: 2, Kind: kind, Tasks: []Task{
			{Name: "a", X: mat.NewDense(2, 2, []float64{1, 2, 3, 4}), Y: []float64{1, -1}},
			{Name: "b", X: mat.NewDense(len(y), 2, x), Y: y},
		}}
	}
	sparse := func(vals []float64) *Dataset {
		return &Dataset{Name: "d", Features: 3, Kind: Regression, Tasks: []Task{
			{Name: "s", S: &CSR{Rows: 2, Cols: 3, Indptr: []int{0, 1, 2}, Indices: []int{0, 2}, Values: vals}, Y: []float64{1, 2}},
		}}
	}
	cases := []struct {
		name string
		ds   *Dataset
		want string // "" for valid
	}{
		{"valid regression", dense(Regression, []float64{1, 2, 3, 4, 5, 6}, []float64{0.5, 2, -3}), ""},
		{"valid classification", dense(Classification, []float64{1, 2, 3, 4, 5, 6}, []float64{1, -1, 1}), ""},
		{"NaN feature", dense(Regression, []float64{1, 2, 3, 4, 5, nan}, []float64{0, 0, 0}), `task "b": non-finite feature value in row 2`},
		{"infinite label", dense(Regression, []float64{1, 2, 3, 4, 5, 6}, []float64{0, inf, nan}), `task "b": non-finite label in row 1`},
		{"label not ±1", dense(Classification, []float64{1, 2, 3, 4, 5, 6}, []float64{1, 0.5, nan}), `task "b": label 0.5 in row 1 is not -1 or +1`},
		{"NaN class label first", dense(Classification, []float64{1, 2, 3, 4, 5, 6}, []float64{1, nan, 0.5}), `task "b": non-finite label in row 1`},
		{"sparse valid", sparse([]float64{1, 2}), ""},
		{"sparse NaN", sparse([]float64{1, nan}), `task "s": non-finite feature value`},
	}
	for _, c := range cases {
		err := c.ds.Validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}
