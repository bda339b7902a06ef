package app

import (
	"errors"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/reml"
)

// flatGrid makes a self-paced grid over the multiples ks whose held-out
// row losses are base shifted by shift(j, i) for point j, row i, scored
// by their mean (the pooled score of eval.RowLosses' rows).
func flatGrid(ks []float64, shift func(j, i int) float64) []gridPoint {
	base := make([]float64, 300)
	for i := range base {
		base[i] = 1 + float64(i%10)/5 // a spread over rows: SE of the mean ≈ 0.033
	}
	var grid []gridPoint
	for j, k := range ks {
		l := make([]float64, len(base))
		var s float64
		for i := range base {
			l[i] = base[i] + shift(j, i)
			s += l[i]
		}
		grid = append(grid, gridPoint{cfg: mtl.Config{Model: "mtfl", SelfPaced: true, AutoLambda0: k}, est: est(s/float64(len(l)), 0.03), losses: l})
	}
	return grid
}

// TestFlatLambda0: a λ0 grid whose every multiple ties with the best on
// the same rows is reported flat, with the simplest multiple (the largest,
// the most even weighting) chosen; a grid where one multiple is
// consistently worse, or one that failed, or one without row losses, is
// not reported flat.
func TestFlatLambda0(t *testing.T) {
	ks := []float64{0.125, 1, 8}
	for _, c := range []struct {
		name   string
		grid   []gridPoint
		chosen float64 // the multiple summarize chooses
		want   string  // a part of the report; "" for none
	}{
		{"every λ0 the same", flatGrid(ks, func(int, int) float64 { return 0 }), 8,
			"flat: every λ0 from auto*0.125 to auto*8 scored the same, within one standard error"},
		{"differences drowned in row noise", flatGrid(ks, func(j, i int) float64 { return 0.002 * float64(j) * float64(1-2*(i%2)) }), 8,
			"λ0 = auto*8 is chosen as the simplest"},
		{"a small pace consistently better", flatGrid(ks, func(j, _ int) float64 { return 0.05 * float64(j) }), 0.125, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := summarize(eval.RMSEMetric, family{key: "mtfl", selfPaced: true}, c.grid, nil)
			if got := s.model.Config.AutoLambda0; got != c.chosen {
				t.Errorf("chose λ0 = auto*%v, want auto*%v", got, c.chosen)
			}
			if (c.want == "") != (s.model.Flat == "") || !strings.Contains(s.model.Flat, c.want) {
				t.Errorf("flat report %q, want %q", s.model.Flat, c.want)
			}
		})
	}
	// The report needs every multiple scored, with its rows' losses, and a self-paced grid.
	failed := flatGrid(ks, func(int, int) float64 { return 0 })
	failed[1].err, failed[1].est, failed[1].losses = errors.New("no fit"), eval.Undefined(), nil
	noLosses := flatGrid(ks, func(int, int) float64 { return 0 })
	for i := range noLosses {
		noLosses[i].losses = nil
	}
	baseline := flatGrid([]float64{0, 0}, func(int, int) float64 { return 0 })
	for name, grid := range map[string][]gridPoint{"a failed multiple": failed, "no row losses": noLosses, "a baseline's grid": baseline} {
		if got := flatLambda0(grid, 0, len(grid)-1); got != "" {
			t.Errorf("%s: reported flat: %q", name, got)
		}
	}
	if s := summarize(eval.RMSEMetric, family{key: "mtfl"}, flatGrid([]float64{0, 0}, func(int, int) float64 { return 0 }), []float64{1, 2}); s.model.Flat != "" {
		t.Errorf("a baseline's summary reports a flat λ0: %q", s.model.Flat)
	}
}

// rowLosses is 300 held-out rows' losses spread as flatGrid's, each
// moved by shift(i); mean is their mean.
func rowLosses(shift func(i int) float64) (l []float64, mean float64) {
	l = make([]float64, 300)
	for i := range l {
		l[i] = 1 + float64(i%10)/5 + shift(i)
		mean += l[i]
	}
	return l, mean / float64(len(l))
}

// TestPaceAgainstBaseline: a flat λ0 grid says only that λ0's value does
// not matter; whether self-pacing does is the paced fit against its
// baseline on the same rows, and the clause says which way they differ.
func TestPaceAgainstBaseline(t *testing.T) {
	sp, _ := rowLosses(func(int) float64 { return 0 })
	noisy, _ := rowLosses(func(i int) float64 { return 0.002 * float64(1-2*(i%2)) })
	worse, _ := rowLosses(func(int) float64 { return 0.01 })
	better, _ := rowLosses(func(int) float64 { return -0.01 })
	for _, c := range []struct {
		name string
		base []float64
		ties bool
		want string
	}{
		{"the same fit", sp, true, "self-pacing makes no difference here"},
		{"noise only", noisy, true, "ties with it on the same rows too"},
		{"baseline consistently worse", worse, false, "MMTL, without self-pacing, scores worse by more than one standard error"},
		{"baseline consistently better", better, false, "scores better by more than one standard error"},
		{"no baseline losses", nil, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ties, clause := paceAgainstBaseline(sp, c.base, "MMTL")
			if ties != c.ties || !strings.Contains(clause, c.want) || (c.want == "") != (clause == "") {
				t.Errorf("ties %v, clause %q; want %v, %q", ties, clause, c.ties, c.want)
			}
			if !c.ties && strings.Contains(clause, "makes no difference") {
				t.Errorf("a baseline that differs is said to make no difference: %q", clause)
			}
		})
	}
}

// TestChooseModelPassedOver: a simpler model whose score is within the
// best's standard error, but consistently behind on the same rows, is not
// chosen, and the reason says why rather than leaving the one-SE rule
// looking unapplied; one that ties on the rows is chosen with no such
// sentence.
func TestChooseModelPassedOver(t *testing.T) {
	stl, stlMean := rowLosses(func(int) float64 { return 2 })
	sp, spMean := rowLosses(func(int) float64 { return 0 })
	for _, c := range []struct {
		name  string
		shift func(int) float64
		want  int
		says  string
	}{
		{"behind on every row", func(int) float64 { return 0.01 }, 2, "MMTL (1.910 ± 0.030) is simpler and within one standard error of spMMTL, but behind spMMTL on the same held-out rows by more than one standard error of their difference: not chosen."},
		{"noise only", func(i int) float64 { return 0.001 + 0.002*float64(1-2*(i%2)) }, 1, "MMTL (1.901 ± 0.030) differs from it by less than one standard error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mm, mmMean := rowLosses(c.shift)
			models := []ModelScore{{Name: "STL", Score: est(stlMean, 0.03)}, {Name: "MMTL", Score: est(mmMean, 0.03)}, {Name: "spMMTL", Score: est(spMean, 0.03)}}
			got, reason := chooseModelPaired(eval.RMSEMetric, models, [][]float64{stl, mm, sp}, nil)
			if got != c.want || !strings.Contains(reason, c.says) {
				t.Errorf("chose %d: %q; want %d saying %q", got, reason, c.want, c.says)
			}
			if c.want == 1 && strings.Contains(reason, "not chosen") {
				t.Errorf("a chosen tie is also said passed over: %q", reason)
			}
		})
	}
}

// TestChooseModelPassedOverMany: every simpler model passed over is named,
// not only the first (hunt hF's cml with new centres passed over MMTL and
// MTFL-mean and named MMTL alone).
func TestChooseModelPassedOverMany(t *testing.T) {
	stl, stlMean := rowLosses(func(int) float64 { return 0.02 })
	mm, mmMean := rowLosses(func(int) float64 { return 0.01 })
	sp, spMean := rowLosses(func(int) float64 { return 0 })
	models := []ModelScore{{Name: "STL", Score: est(stlMean, 0.03)}, {Name: "MMTL", Score: est(mmMean, 0.03)}, {Name: "spMMTL", Score: est(spMean, 0.03)}}
	got, reason := chooseModelPaired(eval.RMSEMetric, models, [][]float64{stl, mm, sp}, nil)
	want := "STL (" + plusMinus(models[0].Score) + ") and MMTL (" + plusMinus(models[1].Score) + ") are simpler and within one standard error of spMMTL, but behind spMMTL on the same held-out rows by more than one standard error of their difference: not chosen."
	if got != 2 || !strings.Contains(reason, want) {
		t.Errorf("chose %d: %q; want 2 saying %q", got, reason, want)
	}
}

// TestPreferenceWhenTasksDiffer: where the likelihood says the tasks differ
// (TuneSearch.vary above reml.VaryMargin), the pooled STL is preferred
// after MMTL, so a three-way tie on the same rows goes to MMTL; elsewhere
// the listed order stands and the tie goes to STL.
func TestPreferenceWhenTasksDiffer(t *testing.T) {
	noise := func(k float64) func(int) float64 {
		return func(i int) float64 { return k * float64(1-2*(i%2)) }
	}
	stl, stlMean := rowLosses(noise(0.002))
	mm, mmMean := rowLosses(noise(0.001))
	sp, spMean := rowLosses(func(int) float64 { return 0 })
	models := []ModelScore{{Name: "STL", Key: "stl", Score: est(stlMean, 0.03)}, {Name: "MMTL", Key: "mmtl-joint", Score: est(mmMean, 0.03)},
		{Name: "spMMTL", Key: "mmtl", SelfPaced: true, Score: est(spMean-0.0001, 0.03)}}
	losses := [][]float64{stl, mm, sp}
	for _, c := range []struct {
		vary float64
		want int
	}{{0, 0}, {reml.VaryMargin - 0.1, 0}, {reml.VaryMargin + 0.1, 1}, {212, 1}} {
		s := &TuneSearch{vary: c.vary}
		order := s.preference(models)
		if got, reason := chooseModelPaired(eval.RMSEMetric, models, losses, order); got != c.want {
			t.Errorf("vary %v: order %v chose %d (%q), want %d", c.vary, order, got, reason, c.want)
		}
	}
}

// TestPassedOverBetterThanChosen: a simpler model passed over for being
// behind the best on the same rows, whose score is better than the chosen
// model's, is said to be compared with the best, not with the chosen one
// (Indometh's STL beside MMTL read as a rule contradicting the table).
func TestPassedOverBetterThanChosen(t *testing.T) {
	sp, spMean := rowLosses(func(int) float64 { return 0 })
	stl, stlMean := rowLosses(func(int) float64 { return 0.005 })
	mm, mmMean := rowLosses(func(i int) float64 { return 0.008 + 0.2*float64(1-2*(i%2)) })
	models := []ModelScore{{Name: "STL", Score: est(stlMean, 0.03)}, {Name: "MMTL", Score: est(mmMean, 0.03)}, {Name: "spMMTL", Score: est(spMean, 0.03)}}
	got, reason := chooseModelPaired(eval.RMSEMetric, models, [][]float64{stl, mm, sp}, nil)
	if want := "not chosen (each model is compared with spMMTL on the same rows, not with MMTL)."; got != 1 || !strings.Contains(reason, want) {
		t.Errorf("chose %d: %q; want MMTL, saying %q", got, reason, want)
	}
}

// TestPassedOverAfterThePreference: where the preference puts STL after
// MMTL (the likelihood says the tasks differ) and MMTL is chosen, an STL
// listed first and behind the best on the same rows is still said passed
// over, and why (one_row_tasks.csv, tuned for new tasks, left it unsaid).
func TestPassedOverAfterThePreference(t *testing.T) {
	sp, spMean := rowLosses(func(int) float64 { return 0 })
	stl, stlMean := rowLosses(func(int) float64 { return 0.005 })
	mm, mmMean := rowLosses(func(i int) float64 { return 0.008 + 0.2*float64(1-2*(i%2)) })
	models := []ModelScore{{Name: "STL", Key: "stl", Score: est(stlMean, 0.03)}, {Name: "MMTL", Key: "mmtl-joint", Score: est(mmMean, 0.03)},
		{Name: "spMMTL", Key: "mmtl", SelfPaced: true, Score: est(spMean, 0.03)}}
	order := (&TuneSearch{vary: reml.VaryMargin + 1}).preference(models)
	got, reason := chooseModelPaired(eval.RMSEMetric, models, [][]float64{stl, mm, sp}, order)
	if want := "STL (" + plusMinus(models[0].Score) + ") is simpler and within one standard error of spMMTL, but behind spMMTL on the same held-out rows"; got != 1 || !strings.Contains(reason, want) {
		t.Errorf("order %v chose %d: %q; want MMTL, saying %q", order, got, reason, want)
	}
}
