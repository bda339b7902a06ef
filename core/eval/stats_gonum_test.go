package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// TestMeanStdDevMatchesGonum holds meanStdDev to gonum's stat.MeanStdDev
// bit for bit, on vectors of many lengths, scales and offsets (the
// comparisons and the reproduction's table were computed with gonum's).
func TestMeanStdDevMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		name          string
		scale, offset float64
	}{
		{"unit", 1, 0},
		{"small spread, large offset", 1e-6, 1e3},
		{"large", 1e8, -5e7},
		{"tiny", 1e-12, 0},
	}
	for _, c := range cases {
		for n := 2; n <= 60; n++ {
			x := make([]float64, n)
			for i := range x {
				x[i] = c.offset + c.scale*rng.NormFloat64()
			}
			gm, gs := stat.MeanStdDev(x, nil)
			m, s := meanStdDev(x)
			if m != gm || s != gs {
				t.Fatalf("%s, n=%d: meanStdDev = (%v, %v), gonum (%v, %v)", c.name, n, m, s, gm, gs)
			}
		}
	}
}

// TestTwoSidedTMatchesGonum holds twoSidedT to 2·distuv.StudentsT.Survival(|t|)
// over the degrees of freedom a paired test meets (runs or tasks less one:
// 1 to 60, and up to 1000)
// and t from 0 to far in the tail, to a relative error of 1e-11 (p as small
// as 1e-300 included).
func TestTwoSidedTMatchesGonum(t *testing.T) {
	dfs := []float64{1, 2, 3, 4, 5, 7, 9, 10, 14, 19, 29, 49, 99, 139, 200, 500, 1000}
	for df := 1.0; df <= 60; df++ {
		dfs = append(dfs, df)
	}
	ts := []float64{0, 1e-9, 1e-3, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 1, 1.3, 1.645, 1.96, 2, 2.5, 3, 4, 5, 7, 10, 20, 50, 100, 1e3, 1e4, 1e6}
	worst := 0.0
	for _, df := range dfs {
		for _, tv := range ts {
			for _, sign := range []float64{1, -1} {
				x := sign * tv
				want := 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(math.Abs(x))
				got := twoSidedT(x, df)
				if want < 1e-300 {
					if got > 1e-290 {
						t.Errorf("df=%v t=%v: %v, gonum %v", df, x, got, want)
					}
					continue
				}
				rel := math.Abs(got-want) / want
				worst = math.Max(worst, rel)
				if rel > 1e-11 {
					t.Errorf("df=%v t=%v: %v, gonum %v (relative error %.2g)", df, x, got, want, rel)
				}
			}
		}
	}
	t.Logf("largest relative error against gonum: %.3g", worst)
}

// TestTwoSidedTEdges checks the values that need no series: t = 0, an
// infinite t, and a bad argument.
func TestTwoSidedTEdges(t *testing.T) {
	tests := []struct {
		t, nu, want float64
	}{
		{0, 5, 1},
		{math.Inf(1), 5, 0},
		{math.Inf(-1), 5, 0},
		{1, 1, 0.5}, // Cauchy: P(|T| ≥ 1) = 1/2
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.t, "/", tc.nu), func(t *testing.T) {
			if got := twoSidedT(tc.t, tc.nu); math.Abs(got-tc.want) > 1e-15 {
				t.Errorf("twoSidedT(%v, %v) = %v, want %v", tc.t, tc.nu, got, tc.want)
			}
		})
	}
	for _, bad := range [][2]float64{{math.NaN(), 3}, {1, 0}, {1, -2}, {1, math.NaN()}} {
		if got := twoSidedT(bad[0], bad[1]); !math.IsNaN(got) {
			t.Errorf("twoSidedT(%v, %v) = %v, want NaN", bad[0], bad[1], got)
		}
	}
}
