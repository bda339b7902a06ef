package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/internal/words"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
)

// trainReport is what -json writes.
type trainReport struct {
	Data      string         `json:"data"`
	Tasks     []string       `json:"tasks"`
	Kind      string         `json:"kind"`
	Features  int            `json:"features"`
	TrainRows int            `json:"trainRows"`
	TestRows  int            `json:"testRows"`
	Method    string         `json:"method"`
	Config    mtl.Config     `json:"config"`
	History   []mtl.Snapshot `json:"history"`
	Stop      string         `json:"stop"`
	Metric    string         `json:"metric"`
	PerTask   []mtl.Float    `json:"perTask"`
	Mean      mtl.Float      `json:"mean"`
	Model     *mtl.Model     `json:"model"`
	Seconds   float64        `json:"seconds"`
}

func runTrain(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("train", stderr)
	var df dataFlags
	var mf modelFlags
	df.register(fs)
	mf.register(fs)
	jsonOut := fs.String("json", "", "write the whole run as JSON to `file` (- for stdout)")
	save := fs.String("save", "", "save the trained model to `file` (JSON; spmtl predict and inspect read it)")
	memory := memoryFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := mf.check(fs); err != nil {
		return err
	}
	if err := refuseOverwrite(map[string]string{"save": *save, "json": *jsonOut}, df.inputs()); err != nil {
		return err
	}
	d, bundle, err := df.load()
	if err != nil {
		return err
	}
	start := time.Now()
	opts := df.trainOptions(mf.config(bundle, df.seed))
	if opts.Memory, err = memory(); err != nil {
		return err
	}
	r, err := app.NewRun(d, opts)
	if err != nil {
		return err
	}
	last, err := finish(r, stderr, r.Name())
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	// One prediction of the test rows serves the per-task scores and the
	// pooled one.
	preds, err := r.Learner.Model().PredictDataset(r.Test)
	if err != nil {
		return fmt.Errorf("evaluate: %w", err)
	}
	ev := r.Score(preds)
	if *jsonOut != "" {
		rep := trainReport{Data: d.All.Name, Tasks: r.Tasks(), Kind: d.All.Kind.String(), Features: d.All.Features,
			TrainRows: r.Train.Rows(), TestRows: r.Test.Rows(), Method: r.Name(), Config: r.Config, History: r.Learner.History(),
			Stop: last.StopMessage(), Metric: ev.Metric, Mean: mtl.Float(ev.Mean), Model: r.Learner.Model(), Seconds: elapsed.Seconds()}
		for _, v := range ev.Test {
			rep.PerTask = append(rep.PerTask, mtl.Float(v))
		}
		if err := writeJSON(*jsonOut, stdout, rep); err != nil || *jsonOut == "-" {
			return err
		}
	}
	printData(stdout, d, r)
	hist := r.Learner.History()
	cfg := r.Config
	if r.Method.Kind == method.Sequential {
		fmt.Fprintf(stdout, "model %s (loss %s): %s in %v; %s\n\norder in which the tasks were learned:\n",
			r.Name(), cfg.Loss, words.Plural(len(hist), "step"), elapsed.Round(time.Microsecond), last.StopMessage())
		for k, t := range last.Seq.Order {
			fmt.Fprintf(stdout, "  step %2d: %s\n", k+1, cell(r.Train.Tasks[t].Name))
		}
	} else {
		// The pace's settings are a self-paced run's: beside a baseline
		// they would read as settings it used.
		pace := ""
		if cfg.SelfPaced {
			pace = fmt.Sprintf(", lambda0 %s, c %g, tau %s, pace cost %s", lambda0Text(cfg, hist), cfg.Pace, cfg.Tau, cfg.PaceCost)
		}
		fmt.Fprintf(stdout, "model %s (variant %s, solver %s, loss %s (%s), rho %g, intercept %g%s): %s in %v; %s\n\n",
			r.Name(), cfg.Variant, cfg.Solver, cfg.Loss, cfg.Scale, cfg.Rho, cfg.Intercept, pace, words.Plural(len(hist), "iteration"), elapsed.Round(time.Microsecond), last.StopMessage())
		printTauTable(stdout, r.Train, hist, cfg.SelfPaced)
	}
	fmt.Fprintln(stdout)
	if u := r.IdleText(); u != "" {
		fmt.Fprintln(stdout, "note: "+u+".")
	}
	if u := r.RoundedText(); u != "" {
		fmt.Fprintln(stdout, u+".")
	}
	if u := r.UntestedText(cell); u != "" {
		fmt.Fprintln(stdout, u+".")
	}
	if u := r.ThinText(cell); u != "" {
		fmt.Fprintln(stdout, u+".")
	}
	if df.all {
		fmt.Fprintln(stdout, "trained on every row: no test rows, no test score")
	} else {
		printScores(stdout, r.Test, strings.ToUpper(ev.Metric), ev.Test, ev.Mean)
		printPooled(stdout, r, preds)
	}
	if *save != "" {
		return saveModel(r, *save, app.Trained{File: d.All.Name, Rows: r.Train.Rows(), All: df.all, Train: df.train, Seed: df.seed}, nil, stdout)
	}
	return nil
}

// lambda0Text is the λ0 a run used: the configured one, or, when it is
// automatic (resolved by a self-paced run's first step), the first
// iteration's λ with the multiple: "0.2654 (auto)", "1.062 (4 x auto)".
func lambda0Text(cfg mtl.Config, hist []mtl.Snapshot) string {
	if cfg.AutoLambda0 == 0 || !cfg.SelfPaced || len(hist) == 0 {
		return fmt.Sprintf("%g", cfg.Lambda0)
	}
	if cfg.AutoLambda0 == 1 {
		return fmt.Sprintf("%.4g (auto)", hist[0].Lambda)
	}
	return fmt.Sprintf("%.4g (%g x auto)", hist[0].Lambda, cfg.AutoLambda0)
}

// saveModel writes a finished run's model file.
func saveModel(r *app.Run, path string, tr app.Trained, tuned *app.TuneResult, stdout io.Writer) error {
	// A model file travels (a supplement, a colleague's machine): it names
	// the training file, never where it lay on this machine.
	tr.File = filepath.Base(tr.File)
	m, err := r.ModelFile(tr)
	if err != nil {
		return err
	}
	m.Tuned = tuned
	b, err := m.JSON()
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	fmt.Fprintf(stdout, "saved the model to %s\n", path)
	if w := m.NewTasksNote(); w != "" {
		fmt.Fprintf(stdout, "  %s\n", w)
	}
	return nil
}

func writeJSON(path string, stdout io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return fmt.Errorf("encode json: %w", err)
	}
	b = append(b, '\n')
	if path == "-" {
		_, err = stdout.Write(b)
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// tableIterations is the most iterations printTauTable shows as columns.
const tableIterations = 12

// shownIterations returns the snapshots printTauTable shows: all of them
// up to tableIterations, else that many spread evenly from the first to
// the last, so that a long run (a file's cap is 1,000 iterations) prints
// a table a terminal can show, not one of megabytes.
func shownIterations(hist []mtl.Snapshot) []mtl.Snapshot {
	n := len(hist)
	if n <= tableIterations {
		return hist
	}
	out := make([]mtl.Snapshot, tableIterations)
	for k := range out {
		out[k] = hist[(k*(n-1)+(tableIterations-1)/2)/(tableIterations-1)]
	}
	return out
}

// printTauTable prints τ with tasks as rows and iterations as columns, and
// the objective under them; of a long run, the iterations shownIterations
// picks, and a line that says so. A run that is not self-paced weighs
// every task alike at every iteration and has no pace: its table is the
// objective's.
func printTauTable(w io.Writer, ds *data.Dataset, hist []mtl.Snapshot, selfPaced bool) {
	shown := shownIterations(hist)
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight)
	row := func(name string, cell func(s mtl.Snapshot) string) {
		fmt.Fprintf(tw, "%s\t", name)
		for _, s := range shown {
			fmt.Fprintf(tw, "%s\t", cell(s))
		}
		fmt.Fprintln(tw)
	}
	thinned := func() {
		if len(shown) < len(hist) {
			fmt.Fprintf(w, "(%d of the %s, spread evenly from the first to the last; -json FILE writes every one)\n",
				len(shown), words.Plural(len(hist), "iteration"))
		}
	}
	if !selfPaced {
		row("iteration", func(s mtl.Snapshot) string { return strconv.Itoa(s.Iter) })
		row("objective", func(s mtl.Snapshot) string { return fmt.Sprintf("%.5g", s.Objective) })
		tw.Flush()
		thinned()
		fmt.Fprintln(w, "(not self-paced: every task weighs the same at every iteration)")
		return
	}
	row("tau\\iter", func(s mtl.Snapshot) string { return strconv.Itoa(s.Iter) })
	row("lambda", func(s mtl.Snapshot) string { return fmt.Sprintf("%.3g", s.Lambda) })
	for t := range ds.Tasks {
		row(cell(ds.Tasks[t].Name), func(s mtl.Snapshot) string { return fmt.Sprintf("%.4f", s.Tau[t]) })
	}
	row("objective", func(s mtl.Snapshot) string { return fmt.Sprintf("%.5g", s.Objective) })
	tw.Flush()
	thinned()
}

// printScores prints the test score of every task and their mean.
func printScores(w io.Writer, test *data.Dataset, metric string, perTask []float64, mean float64) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "task\ttest rows\t%s\t\n", metric)
	for i := range test.Tasks {
		fmt.Fprintf(tw, "%s\t%d\t%s\t\n", cell(test.Tasks[i].Name), test.Tasks[i].Rows(), score(perTask[i]))
	}
	tw.Flush()
	fmt.Fprintf(w, "\nmean test %s over tasks: %s%s\n", metric, score(mean), unscoredNote(test, perTask))
}

// printPooled prints the test rows' pooled score, the one tune chooses by
// (RMSE; a classifier's log-loss, or Brier score under the squared loss,
// with its AUC), beside the paper's mean over tasks: a classifier's tasks
// with test rows of one class have no AUC, but every row has a loss.
func printPooled(w io.Writer, r *app.Run, preds [][]float64) {
	var held eval.Held
	held.Add(preds, r.Test)
	if len(held.Y) == 0 {
		return
	}
	kind := r.Test.Kind
	s := eval.Pooled(kind, r.Config.Loss == mtl.Logistic, held.Margin, held.Y)
	line := fmt.Sprintf("pooled over the %s (the score tune chooses by): %s %s", words.Plural(len(held.Y), "test row"), s.Metric.Name(), plusMinus(s.Of(s.Metric)))
	if kind == data.Classification {
		line += ", AUC " + plusMinus(s.AUC)
	}
	fmt.Fprintln(w, line)
}

// unscoredNote says, when some tasks with test rows have no score, which
// tasks the mean is over and why the others have none, as the page's
// results do: an AUC is undefined on test rows of one class.
func unscoredNote(test *data.Dataset, perTask []float64) string {
	tested, scored, oneClass := 0, 0, 0
	for i := range test.Tasks {
		t := &test.Tasks[i]
		if t.Rows() == 0 {
			continue // said by UntestedText
		}
		tested++
		if !math.IsNaN(perTask[i]) {
			scored++
		} else if slices.Min(t.Y) == slices.Max(t.Y) {
			oneClass++
		}
	}
	if scored == tested {
		return ""
	}
	var why []string
	if oneClass > 0 {
		why = append(why, fmt.Sprintf("%d with test rows of one class only, where an AUC is undefined", oneClass))
	}
	if other := tested - scored - oneClass; other > 0 {
		why = append(why, fmt.Sprintf("%d whose predictions are not numbers", other))
	}
	if scored == 0 {
		return fmt.Sprintf(" (no task has a score: %s)", strings.Join(why, ", "))
	}
	return fmt.Sprintf(" (over the %d of %d tested tasks that have a score; not scored: %s)", scored, tested, strings.Join(why, ", "))
}

// cell returns a name as a table or a list prints it: as it is, or
// Go-quoted ("A\nB") when it holds a control character (a newline or a
// tab, from a quoted CSV field) or a line separator, which would break
// the row or shift the columns.
func cell(name string) string {
	for _, r := range name {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == utf8.RuneError {
			return strconv.Quote(name)
		}
	}
	return name
}

// score prints a score, or "n/a" where it is undefined (a single-class
// AUC).
func score(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	if math.Abs(v) >= 1e6 {
		return fmt.Sprintf("%.6g", v) // a label in large units: 3.99363e+14, not 15 digits and four decimals
	}
	if !fourDecimals(v) {
		// A label in small units: four decimals printed every model of a
		// label near 1e-3 as 0.0009 ± 0.0000 (hunt9's municipalities).
		return fmt.Sprintf("%.4g", v)
	}
	return fmt.Sprintf("%.4f", v)
}

// fourDecimals reports whether score writes v with four decimals: 0, and
// values from 0.01 to a million.
func fourDecimals(v float64) bool {
	a := math.Abs(v)
	return a == 0 || (a >= 0.01 && a < 1e6)
}

// printData prints how the data were read and split.
func printData(w io.Writer, d *app.Data, r *app.Run) {
	sum := d.Summary()
	fmt.Fprintf(w, "data %s: %s, %s, %s", sum.Name, words.Plural(len(sum.Tasks), "task"), words.Plural(sum.Features, "feature"), sum.Kind)
	if r != nil {
		fmt.Fprintf(w, "; %s, %s", words.Plural(r.Train.Rows(), "training row"), words.Plural(r.Test.Rows(), "test row"))
	}
	fmt.Fprintln(w)
	if sum.TextEncoding != "" {
		fmt.Fprintf(w, "  read as %s text (it is not UTF-8)\n", sum.TextEncoding)
	}
	switch {
	case sum.Delimiter != "" && sum.Delimiter != "comma":
		fmt.Fprintf(w, "  read with %s as the delimiter\n", sum.Delimiter)
	}
	if sum.FeatureText != "" && (strings.Contains(sum.FeatureText, "one-hot") || strings.Contains(sum.FeatureText, "left out")) {
		fmt.Fprintf(w, "  %s\n", sum.FeatureText)
	}
	if sum.LabelNote != "" {
		fmt.Fprintf(w, "  %s\n", sum.LabelNote)
	}
	// A label of words: which is the positive class, whose probability
	// predict writes (a helper found it said only by predict).
	if _, err := strconv.ParseFloat(sum.Positive, 64); sum.Positive != "" && sum.Negative != "" && err != nil {
		fmt.Fprintf(w, "  the positive class is %q, against %q: a score or probability is that of %q\n", sum.Positive, sum.Negative, sum.Positive)
	}
	if sum.MissingNote != "" {
		fmt.Fprintf(w, "  %s\n", sum.MissingNote)
	}
	if sum.LevelNote != "" {
		fmt.Fprintf(w, "  %s\n", sum.LevelNote)
	}
	if sum.FixedNote != "" {
		fmt.Fprintf(w, "  %s\n", sum.FixedNote)
	}
	switch {
	case sum.SameNote != "" && len(sum.SameColumns) > 0:
		fmt.Fprintf(w, "  %s (-drop %s)\n", sum.SameNote, shellWords(sum.SameColumns))
	case sum.SameNote != "":
		fmt.Fprintf(w, "  %s\n", sum.SameNote)
	}
	if sum.QuotedNote != "" {
		fmt.Fprintf(w, "  %s (-text %s)\n", sum.QuotedNote, shellWords(sum.QuotedColumns))
	}
	if sum.OriginNote != "" {
		fmt.Fprintf(w, "  %s\n", sum.OriginNote)
	}
	if sum.TaskNote != "" {
		fmt.Fprintf(w, "  warning: %s\n", sum.TaskNote)
	}
	switch {
	case sum.LeakNote != "" && len(sum.LeakColumns) > 0:
		fmt.Fprintf(w, "  warning: %s (-drop %s)\n", sum.LeakNote, shellWords(sum.LeakColumns))
	case sum.LeakNote != "": // a sparse file's feature: no column to name
		fmt.Fprintf(w, "  warning: %s\n", sum.LeakNote)
	}
	if sum.NumberNote != "" {
		fmt.Fprintf(w, "  %s\n", sum.NumberNote)
	}
	if sum.IDNote != "" {
		fmt.Fprintf(w, "  %s (-drop %s)\n", sum.IDNote, shellWords(sum.IDColumns))
	}
}

// memoryFlag registers -memory on fs, the budget of train's and tune's
// fits in GB, and returns its reader: the budget in bytes for
// app.TrainOptions.Memory and app.TuneOptions.Memory (-1: no limit).
func memoryFlag(fs *flag.FlagSet) func() (int64, error) {
	gb := fs.Float64("memory", float64(mtl.DefaultBudget)/1e9, "refuse a fit whose estimated memory is over this many `GB` (the page's budget; 0: no limit)")
	return func() (int64, error) {
		if !(*gb >= 0) || math.IsInf(*gb, 0) {
			return 0, fmt.Errorf("-memory: want a number of GB, 0 or more, got %v", *gb)
		}
		if *gb == 0 {
			return -1, nil
		}
		return int64(*gb * 1e9), nil
	}
}
