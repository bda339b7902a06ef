package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/internal/words"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
)

// runTune cross-validates candidate models (every family, with and
// without self-pacing, unless -model names one) on all of the data's rows,
// prints each model's best pooled CV score and the choice, fits the chosen
// configuration on every row and saves the model.
func runTune(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("tune", stderr)
	var df dataFlags
	var mf modelFlags
	df.register(fs)
	mf.register(fs)
	// Without -model tune searches every model: the schema's default is the
	// model train fits, and -model with it tunes that model alone.
	if f := fs.Lookup("model"); f != nil {
		if i := strings.LastIndex(f.Usage, " (default"); i >= 0 {
			f.Usage = f.Usage[:i]
		}
		f.Usage = strings.Replace(f.Usage, "model", "model to tune alone", 1) + " (default: every model, and cross-validation chooses)"
	}
	for _, name := range []string{"train", "split"} {
		refuseFlag(fs, name, "tune uses every row: cross-validation makes its own folds, and the model it saves is fitted on all the rows; leave out -"+name+" (spmtl train takes it)")
	}
	folds := fs.Int("folds", app.DefaultTuneFolds, "cross-validation folds")
	newTasks := fs.Bool("new-tasks", false, "tune for tasks the file does not hold: each fold holds out whole tasks, predicted as new ones (only "+words.List(method.NewTaskLabels())+" predict them)")
	save := fs.String("save", "", "save the model fitted with the chosen setting on every row to `file`")
	memory := memoryFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	budget, err := memory()
	if err != nil {
		return err
	}
	if err := checkRanges(fs, append(modelRanges, countFrom("folds", 2))); err != nil {
		return err
	}
	if flagSet(fs, "rho") || flagSet(fs, "lambda0") {
		return fmt.Errorf("tune chooses rho and lambda0 itself; leave out -rho and -lambda0 (or use spmtl train)")
	}
	if err := refuseOverwrite(map[string]string{"save": *save}, df.inputs()); err != nil {
		return err
	}
	d, _, err := df.load()
	if err != nil {
		return err
	}
	// How the file was read, and what was left out, before the search,
	// which can take minutes: advice to leave a column out should not wait.
	printData(stdout, d, nil)
	cfg := mf.cfg
	cfg.Seed = int64(df.seed)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	grid := newProgress(stderr, "tune "+tuneLabel(cfg))
	opt := app.TuneOptions{Config: cfg, Folds: *folds, Seed: df.seed, Memory: budget, NewTasks: *newTasks}
	if flagSet(fs, "intercept") {
		// κ given: the search is over ρ at that κ (it was accepted and
		// then searched over anyway).
		opt.Intercept = []float64{cfg.Intercept}
	}
	res, err := app.Tune(ctx, d, opt, func(done, total int) {
		// The total is the search's plan, an estimate that moves
		// (app.TuneSearch.Progress).
		grid.report("grid point %d of about %d", done, total)
	})
	var fe *app.FoldsError
	if errors.As(err, &fe) {
		return errors.New(fe.Text("-folds"))
	}
	if err != nil {
		return err
	}
	printModels(stdout, res, time.Since(start))
	if len(res.Models) == 1 {
		printTune(stdout, res)
	}
	best := res.Config
	r, err := app.NewRun(d, app.TrainOptions{Config: best, All: true, Memory: budget})
	if err != nil {
		return err
	}
	last, err := finish(r, stderr, r.Name()+" on every row")
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nfitted %s on every row (%d rows) with %s", r.Name(), r.Train.Rows(), settings(best))
	if best.SelfPaced && len(r.Learner.History()) > 0 {
		fmt.Fprintf(stdout, " = %.4g", r.Learner.History()[0].Lambda)
	}
	fmt.Fprintf(stdout, ": %s\n", last.StopMessage())
	if *save != "" {
		return saveModel(r, *save, app.Trained{File: d.All.Name, Rows: r.Train.Rows(), All: true}, res, stdout)
	}
	return nil
}

// settings names a configuration's tuned settings: "rho 10, intercept
// 0.1, lambda0 0.5 x auto".
func settings(c mtl.Config) string {
	s := fmt.Sprintf("rho %.3g", c.Rho)
	if c.Intercept > 0 {
		s += fmt.Sprintf(", intercept %.3g", c.Intercept)
	}
	if c.SelfPaced {
		s += fmt.Sprintf(", lambda0 %g x auto", c.AutoLambda0)
	}
	return s
}

// plusMinus writes an estimate as "0.4566 ± 0.0123" ("n/a" when undefined).
func plusMinus(e eval.Estimate) string {
	if !e.OK() {
		return "n/a"
	}
	if math.IsNaN(e.SE) {
		return score(e.Value)
	}
	// The error in the value's format: four decimals beside four decimals
	// (0.0512 ± 0.0048), significant digits beside a small value's.
	if fourDecimals(e.Value) {
		return score(e.Value) + " ± " + fmt.Sprintf("%.4f", e.SE)
	}
	return score(e.Value) + " ± " + score(e.SE)
}

// printModels prints every candidate model's best pooled CV score with its
// standard error, the setting chosen for it, and the choice.
func printModels(w io.Writer, res *app.TuneResult, took time.Duration) {
	metric := eval.Metric(res.Metric).Name()
	if res.NewTasks {
		fmt.Fprintf(w, "%d-fold cross-validation of whole tasks, %s pooled over every row of the held-out tasks, each predicted as a new task (± one standard error), in %v\n", res.Folds, metric, took.Round(time.Millisecond))
	} else {
		fmt.Fprintf(w, "%d-fold cross-validation, %s pooled over every held-out row (± one standard error), in %v\n", res.Folds, metric, took.Round(time.Millisecond))
	}
	fmt.Fprintf(w, "searched: %s\n", res.Search)
	for _, l := range res.LeftOut {
		fmt.Fprintf(w, "left out: %s\n", l)
	}
	if res.OriginNote != "" {
		// The saved model keeps the means; train reads the file so with -origin.
		fmt.Fprintf(w, "origin: %s (train -origin %s fits so too)\n", res.OriginNote, shellWord(res.Origin))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  model\tbest CV %s\tchosen setting (one-SE rule)\tits CV %s\tfailed points\t\n", metric, metric)
	var notTried []string
	for i, m := range res.Models {
		mark := " "
		if i == res.Chosen {
			mark = "*"
		}
		if !m.Best.OK() {
			fmt.Fprintf(tw, "%s %s\tn/a\t\t\t%d of %d\t\n", mark, m.Name, m.Failed, m.Points)
			if m.Points == 0 && m.Failure != "" {
				notTried = append(notTried, m.Name+": "+m.Failure)
			}
			continue
		}
		set := settings(m.Config)
		if m.Setting == app.SettingLikelihood {
			set += " (REML)"
		}
		fmt.Fprintf(tw, "%s %s\t%s\t%s\t%s\t%d of %d\t\n", mark, m.Name, plusMinus(m.Best), set, score(m.Score.Value), m.Failed, m.Points)
		if m.FailedNote != "" {
			notTried = append(notTried, m.Name+": "+m.FailedNote)
		}
		if m.CappedNote != "" {
			notTried = append(notTried, m.Name+": "+m.CappedNote)
		}
	}
	tw.Flush()
	// What a setting the likelihood put at its box's edge means, which
	// the table's number alone does not say (as the page's notes).
	for _, m := range res.Models {
		if m.SettingNote != "" && m.Best.OK() {
			fmt.Fprintf(w, "%s: %s\n", m.Name, m.SettingNote)
		}
	}
	for _, n := range notTried {
		fmt.Fprintf(w, "%s\n", n)
	}
	fmt.Fprintf(w, "\n%s\n", res.Reason)
	if c := res.Models[res.Chosen]; c.Scores.Metric == "logloss" || c.Scores.Metric == "brier" {
		s := c.Scores
		fmt.Fprintf(w, "%s at its chosen setting: log-loss %s, Brier %s, AUC %s\n", c.Name, plusMinus(s.LogLoss), plusMinus(s.Brier), plusMinus(s.AUC))
	}
}

// printTune prints the chosen model's own grid: a baseline's scores over
// rho (at its chosen intercept), a self-paced version's over the multiples
// of the automatic lambda0 (at its chosen rho), the chosen cell marked *.
func printTune(w io.Writer, res *app.TuneResult) {
	metric := eval.Metric(res.Metric).Name()
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	if len(res.Kappa) == 0 {
		fmt.Fprintf(tw, "rho\t%s\t\n", metric)
	} else {
		fmt.Fprint(tw, "rho \\ lambda0\t")
		for _, k := range res.Kappa {
			fmt.Fprintf(tw, "%g x auto\t", k)
		}
		fmt.Fprintln(tw)
	}
	for i, row := range res.Scores {
		fmt.Fprintf(tw, "%.3g\t", res.Rho[i])
		for j, v := range row {
			mark := " "
			if res.Best == [2]int{i, j} {
				mark = "*"
			}
			fmt.Fprintf(tw, "%s%s\t", score(v), mark)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// modelFileOf reads -model FILE.
func modelFileOf(path string) (*app.ModelFile, error) {
	if path == "" {
		return nil, fmt.Errorf("-model is required: a model file saved by spmtl train -save, spmtl tune -save or the page")
	}
	b, err := readFile(path)
	if err != nil {
		return nil, fmt.Errorf("read model: %w", err)
	}
	return app.ReadModel(b, path)
}

// tuneLabel names the model tune cross-validates ("spMTFL"), for its
// progress lines; the method's key if it is unknown (Tune refuses it).
func tuneLabel(cfg mtl.Config) string {
	if cfg.Model == "" {
		return "every model"
	}
	m, err := method.Lookup(cfg.Model)
	if err != nil {
		return cfg.Model
	}
	return m.Name(cfg)
}
