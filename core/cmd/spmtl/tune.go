package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
)

// runTune cross-validates ρ and λ0 (multiples of the automatic λ0) on all
// of the data's rows, prints the table, fits the chosen setting on every
// row and saves the model.
func runTune(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("tune", stderr)
	var df dataFlags
	var mf modelFlags
	df.register(fs)
	mf.register(fs)
	for _, name := range []string{"train", "split"} {
		refuseFlag(fs, name, "tune uses every row: cross-validation makes its own folds, and the model it saves is fitted on all the rows; leave out -"+name+" (spmtl train takes it)")
	}
	folds := fs.Int("folds", 3, "cross-validation folds")
	save := fs.String("save", "", "save the model fitted with the chosen setting on every row to `file`")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkRanges(fs, append(modelRanges, flagRange{flag: "folds", lo: 2, hi: math.Inf(1), loIncluded: true})); err != nil {
		return err
	}
	if flagSet(fs, "rho") || flagSet(fs, "lambda0") {
		return fmt.Errorf("tune chooses rho and lambda0 itself; leave out -rho and -lambda0 (or use spmtl train)")
	}
	d, _, err := df.load()
	if err != nil {
		return err
	}
	cfg := mf.cfg
	cfg.Seed = int64(df.seed)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	grid := newProgress(stderr, "tune "+tuneLabel(cfg))
	res, err := app.Tune(ctx, d, app.TuneOptions{Config: cfg, Folds: *folds, Seed: df.seed}, func(done, total int) {
		grid.report("grid point %d of %d", done, total)
	})
	if err != nil {
		return err
	}
	printData(stdout, d, nil)
	printTune(stdout, res, time.Since(start))
	best := res.Config
	r, err := app.NewRun(d, app.TrainOptions{Config: best, All: true})
	if err != nil {
		return err
	}
	last, err := finish(r, stderr, r.Name()+" on every row")
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nfitted %s on every row (%d rows) with rho %g", r.Name(), r.Train.Rows(), best.Rho)
	if best.SelfPaced && len(r.Learner.History()) > 0 {
		fmt.Fprintf(stdout, ", lambda0 %.4g (%g x auto)", r.Learner.History()[0].Lambda, best.AutoLambda0)
	}
	fmt.Fprintf(stdout, ": %s\n", last.StopMessage())
	if *save != "" {
		return saveModel(r, *save, app.Trained{File: d.All.Name, Rows: r.Train.Rows(), All: true}, res, stdout)
	}
	return nil
}

// printTune prints the CV table: ρ down, λ0 multiples across, the chosen
// cell marked with *.
func printTune(w io.Writer, res *app.TuneResult, took time.Duration) {
	metric := strings.ToUpper(res.Metric)
	fmt.Fprintf(w, "%d-fold cross-validation, mean %s over tasks and folds (* chosen), in %v:\n\n", res.Folds, metric, took.Round(time.Millisecond))
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
		fmt.Fprintf(tw, "%g\t", res.Rho[i])
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
	c := res.Config
	fmt.Fprintf(w, "\nchosen: rho %g", c.Rho)
	if c.SelfPaced {
		fmt.Fprintf(w, ", lambda0 %g x auto", c.AutoLambda0)
	}
	fmt.Fprintf(w, " (CV %s %s)\n", metric, score(res.Scores[res.Best[0]][res.Best[1]]))
}

// modelFileOf reads -model FILE.
func modelFileOf(path string) (*app.ModelFile, error) {
	if path == "" {
		return nil, fmt.Errorf("-model is required: a model file saved by spmtl train -save, spmtl tune -save or the page")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read model: %w", err)
	}
	return app.ReadModel(b, path)
}

// tuneLabel names the model tune cross-validates ("spMTFL"), for its
// progress lines; the method's key if it is unknown (Tune refuses it).
func tuneLabel(cfg mtl.Config) string {
	m, err := method.Lookup(cfg.Model)
	if err != nil {
		return cfg.Model
	}
	return m.Name(cfg)
}
