package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/figure"
	"github.com/spmtl/spmtl/core/internal/words"
)

// runInspect prints (and with -out writes as CSV and SVG) the shared
// knowledge of a saved model: MTFL's feature relevance, MMTL's mean
// predictor, MTASO's shared directions, and when τ let each task in.
func runInspect(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("inspect", stderr)
	modelPath := fs.String("model", "", "model `file` (saved by spmtl train -save, spmtl tune -save or the page)")
	out := fs.String("out", "", "also write the numbers (CSV) and drawings (SVG) to this `folder`")
	top := fs.Int("top", 15, "show the `n` largest features")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *top < 0 {
		return usageErrorf(fs, "-top must be 0 or more, got %d", *top)
	}
	m, err := modelFileOf(*modelPath)
	if err != nil {
		return err
	}
	ins := app.Inspect(m)
	// The file's own texts are quoted where they hold a control character:
	// an escape sequence in a model's stop reason set the terminal's title.
	fmt.Fprintf(stdout, "model %s (%s) on %s: %s, %s, %s; %s\n", cell(m.Name), cell(m.Method), cell(m.Trained.File), words.Plural(len(m.Tasks), "task"), words.Plural(len(m.Features), "feature"), cell(m.Kind), cell(m.Stop))
	if r := m.Tuned; r != nil {
		// As tune printed the choice: its settings, and how the chosen
		// model's were found (by the likelihood, or by the folds).
		how := fmt.Sprintf("%d-fold cross-validation", r.Folds)
		if r.Chosen >= 0 && r.Chosen < len(r.Models) && r.Models[r.Chosen].Setting == app.SettingLikelihood {
			how = fmt.Sprintf("the likelihood (REML), the model by %d-fold cross-validation", r.Folds)
		}
		fmt.Fprintf(stdout, "chosen by %s: %s", how, settings(r.Config))
		if r.Config.SelfPaced {
			fmt.Fprintf(stdout, " = %.4g", m.Lambda0)
		}
		if r.Origin != "" {
			fmt.Fprintf(stdout, "; origin %s", r.Origin)
		}
		fmt.Fprintln(stdout)
	}
	fmt.Fprintln(stdout)
	if ins.Title == "" {
		fmt.Fprintln(stdout, ins.Explain)
	} else {
		fmt.Fprintf(stdout, "%s\n%s\n\n", ins.Title, ins.Explain)
		for _, ch := range ins.Charts {
			fmt.Fprintf(stdout, "%s:\n", ch.Title)
			printBars(stdout, ch, *top)
			fmt.Fprintln(stdout)
		}
	}
	if len(ins.Order) > 0 {
		fmt.Fprintf(stdout, "when τ let each task in (iteration):\n")
		for _, o := range ins.Order {
			fmt.Fprintf(stdout, "  %-20s %s\n", cell(o.Task), enteredText(o.At))
		}
	}
	if *out == "" {
		return nil
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("inspect: %w", err)
	}
	for k, ch := range ins.Charts {
		base := filepath.Join(*out, fmt.Sprintf("theta-%d", k+1))
		rows := [][]string{{"feature", ch.Measure}}
		for i := range pairs(ch) {
			rows = append(rows, []string{ch.Labels[i], strconv.FormatFloat(ch.Values[i], 'g', 10, 64)})
		}
		if err := os.WriteFile(base+".csv", []byte(csvText(rows)), 0o644); err != nil {
			return fmt.Errorf("inspect: %w", err)
		}
		labels, values := topBars(ch, *top)
		if err := os.WriteFile(base+".svg", []byte(figure.Bars(ch.Title, ch.Measure, labels, values)), 0o644); err != nil {
			return fmt.Errorf("inspect: %w", err)
		}
		fmt.Fprintln(stdout, "wrote", base+".csv", base+".svg")
	}
	return nil
}

func enteredText(at int) string {
	if at == 0 {
		return "never"
	}
	return strconv.Itoa(at)
}

// pairs is the number of (label, value) pairs of a chart. A checked model
// file has as many values as labels; the command line does not rely on
// it.
func pairs(ch app.Chart) int { return min(len(ch.Labels), len(ch.Values)) }

// topBars returns the n features with the largest |value|, largest first.
func topBars(ch app.Chart, n int) ([]string, []float64) {
	idx := make([]int, pairs(ch))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return math.Abs(ch.Values[idx[a]]) > math.Abs(ch.Values[idx[b]]) })
	if len(idx) > max(n, 0) {
		idx = idx[:max(n, 0)]
	}
	var labels []string
	var values []float64
	for _, i := range idx {
		labels = append(labels, ch.Labels[i])
		values = append(values, ch.Values[i])
	}
	return labels, values
}

// printBars prints a chart's top features as text bars.
func printBars(w io.Writer, ch app.Chart, n int) {
	labels, values := topBars(ch, n)
	var largest float64
	for _, v := range values {
		largest = math.Max(largest, math.Abs(v))
	}
	for i, l := range labels {
		bar := 0
		// |v|/largest first: 30·|v| overflows for |v| near the largest
		// float.
		if r := math.Abs(values[i]) / largest; largest > 0 && r <= 1 {
			bar = int(math.Round(30 * r))
		}
		fmt.Fprintf(w, "  %-24s %10.4g %s\n", short(cell(l), 24), values[i], strings.Repeat("█", bar))
	}
	if more := pairs(ch) - len(labels); more > 0 {
		fmt.Fprintf(w, "  (%d more; -top or -out for all)\n", more)
	}
}

func short(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
