package eval

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spmtl/spmtl/core/internal/csvsafe"
)

// scale returns the factor the paper prints a metric with (AUC × 100).
func (m Metric) scale() float64 {
	if m == AUCMetric {
		return 100
	}
	return 1
}

// Markdown renders the table in the paper's layout: methods as rows, data
// sets as columns, "mean (se)" with AUC × 100, a * where a self-paced method
// beats its baseline in a paired t-test at 95%; then the selected
// hyperparameters and the wall time of every cell.
func (t *Table) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Variant %s, solver %s; %d runs, %d-fold CV. mean (standard error); AUC x 100; * = better than its baseline, † = worse (paired t-test, p < 0.05).\n\n", t.Variant, t.Solver, t.Runs, t.Folds)
	b.WriteString("| method |")
	for _, d := range t.Datasets {
		fmt.Fprintf(&b, " %s (%s) |", d, t.Cells[t.Methods[0]][t.dsIndex(d)].Metric)
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---|", len(t.Datasets)))
	b.WriteString("\n")
	for _, m := range t.Methods {
		fmt.Fprintf(&b, "| %s |", m)
		for i := range t.Datasets {
			c := t.Cells[m][i]
			mark := ""
			if c.Better {
				mark = " *"
			} else if c.Worse {
				mark = " †"
			}
			s := c.Metric.scale()
			fmt.Fprintf(&b, " %s (%s)%s |", fixed(c.Mean*s), fixed(c.SE*s), mark)
		}
		b.WriteString("\n")
	}
	if t.CodeBugs {
		b.WriteString("\nMTASO and spMTASO with the authors' in-place √ρ scaling of W (-code-bugs): the returned model is √ρ·W with an unscaled bias (docs/algorithms.md §7.3).\n")
	}
	if v := t.Verdicts(); v != "" {
		b.WriteString("\n" + v)
	}
	b.WriteString("\nSelected hyperparameters (median over runs), p-value against the baseline, and wall time:\n\n| method |")
	for _, d := range t.Datasets {
		fmt.Fprintf(&b, " %s |", d)
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---|", len(t.Datasets)))
	b.WriteString("\n")
	for _, m := range t.Methods {
		fmt.Fprintf(&b, "| %s |", m)
		for i := range t.Datasets {
			c := t.Cells[m][i]
			// CL and ELLA are not cross-validated (docs/algorithms.md §8-§9 fix
			// their settings); their results carry rho 0.
			if r := median(c.Rho); r > 0 {
				fmt.Fprintf(&b, " ρ %s", num(r, 3))
			} else {
				b.WriteString(" fixed settings")
			}
			if len(c.Lambda0) > 0 {
				p := "n/a"
				if c.Tested {
					p = num(c.P, 3)
				}
				fmt.Fprintf(&b, ", λ0 %s, p %s", num(median(c.Lambda0), 3), p)
			}
			fmt.Fprintf(&b, "; %.1fs |", c.Seconds)
		}
		b.WriteString("\n")
	}
	b.WriteString("\nWall time per data set:")
	var total float64
	for _, d := range t.Datasets {
		fmt.Fprintf(&b, " %s %.1fs;", d, t.Seconds[d])
		total += t.Seconds[d]
	}
	fmt.Fprintf(&b, " total %.1fs.\n", total)
	return b.String()
}

// Verdicts says for every self-paced method whether it beats, ties or
// loses to its baseline on each data set (paired t-test over runs, 95%),
// one line per method.
func (t *Table) Verdicts() string {
	var b strings.Builder
	for _, m := range t.Methods {
		var beats, ties, loses []string
		for i, d := range t.Datasets {
			c := t.Cells[m][i]
			if !c.Tested {
				continue // no baseline, or too few runs, to compare with
			}
			switch {
			case c.Better:
				beats = append(beats, d)
			case c.Worse:
				loses = append(loses, d)
			default:
				ties = append(ties, d)
			}
		}
		if len(beats)+len(ties)+len(loses) == 0 {
			continue
		}
		list := func(v []string) string {
			if len(v) == 0 {
				return "none"
			}
			return strings.Join(v, ", ")
		}
		fmt.Fprintf(&b, "- %s against its baseline: beats on %s; ties on %s; loses on %s.\n", m, list(beats), list(ties), list(loses))
	}
	return b.String()
}

func (t *Table) dsIndex(name string) int {
	for i, d := range t.Datasets {
		if d == name {
			return i
		}
	}
	return -1
}

// CSV renders one line per cell, made inert for a spreadsheet (csvsafe).
func (t *Table) CSV() string {
	rows := [][]string{{"variant", "solver", "method", "dataset", "metric", "mean", "std", "se", "t", "p", "better", "worse", "rho_median", "lambda0_median", "seconds", "scores"}}
	for _, m := range t.Methods {
		for i := range t.Datasets {
			c := t.Cells[m][i]
			var scores []string
			for _, s := range c.Scores {
				scores = append(scores, strconv.FormatFloat(s, 'g', 8, 64))
			}
			l0 := ""
			if len(c.Lambda0) > 0 {
				l0 = num(median(c.Lambda0), 6)
			}
			rows = append(rows, []string{string(t.Variant), string(t.Solver), m, c.Dataset, string(c.Metric), num(c.Mean, 6), num(c.Std, 6), num(c.SE, 6),
				num(c.T, 4), num(c.P, 4), strconv.FormatBool(c.Better), strconv.FormatBool(c.Worse), num(median(c.Rho), 6), l0, strconv.FormatFloat(c.Seconds, 'f', 2, 64), strings.Join(scores, " ")})
		}
	}
	return csvsafe.Text(rows)
}

// JSON renders the whole table (NaN as null).
func (t *Table) JSON() ([]byte, error) {
	clean := func(v float64) any {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return v
	}
	out := map[string]any{"variant": t.Variant, "solver": t.Solver, "codeBugs": t.CodeBugs, "runs": t.Runs, "folds": t.Folds,
		"methods": t.Methods, "datasets": t.Datasets, "seconds": t.Seconds}
	var cells []map[string]any
	for _, m := range t.Methods {
		for i := range t.Datasets {
			c := t.Cells[m][i]
			var scores []any
			for _, s := range c.Scores {
				scores = append(scores, clean(s))
			}
			cells = append(cells, map[string]any{"method": c.Method, "dataset": c.Dataset, "metric": c.Metric,
				"mean": clean(c.Mean), "std": clean(c.Std), "se": clean(c.SE), "t": clean(c.T), "p": clean(c.P),
				"better": c.Better, "worse": c.Worse, "rho": c.Rho, "lambda0": c.Lambda0, "scores": scores, "seconds": c.Seconds})
		}
	}
	out["cells"] = cells
	return json.MarshalIndent(out, "", " ")
}

func num(v float64, prec int) string {
	if math.IsNaN(v) {
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', prec+1, 64)
}

func fixed(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
