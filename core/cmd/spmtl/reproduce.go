package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
)

func runReproduce(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("reproduce", stderr)
	all := strings.Join(app.BundleNames(), ",")
	datasets := fs.String("datasets", all, "comma-separated data sets: "+strings.Join(app.BundleNames(), ", "))
	runs := fs.Int("runs", 10, "random runs (train/test splits) per data set")
	folds := fs.Int("folds", 3, "cross-validation folds")
	variant := fs.String("variant", "paper", "paper, reference or both")
	solver := fs.String("solver", "", "W-step solver: exact or fista100 (default: the variant's)")
	quick := fs.Bool("quick", false, "3 runs and coarse grids (3 values of rho and of lambda0)")
	codeBugs := fs.Bool("code-bugs", false, "reproduce the authors' MTASO bug (W scaled by sqrt(rho) in place); off by default")
	dir := fs.String("data-dir", "", "read the bundled data sets from this `folder` instead of the copies built into spmtl")
	out := fs.String("out", "", "write the table as `prefix`.md, prefix.csv and prefix.json")
	sequential := fs.Bool("sequential", false, "the landmine comparison of task orderings instead: ITL, CL, ELLA (4 rules), MTFL, spMTFL")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkRanges(fs, []flagRange{countFrom("runs", 1), countFrom("folds", 2)}); err != nil {
		return err
	}
	if *quick && !flagSet(fs, "runs") {
		*runs = 3
	}
	table := app.PaperTable
	if *sequential {
		table = app.SequentialTable
		if !flagSet(fs, "datasets") {
			*datasets = "landmine"
		}
	}
	df := dataFlags{dataDir: *dir}
	exps, err := app.Experiments(df.bundleFS(), strings.Split(*datasets, ","), *quick)
	if err != nil {
		return err
	}
	variants := []mtl.Variant{mtl.Variant(*variant)}
	if *variant == "both" {
		variants = []mtl.Variant{mtl.Paper, mtl.Reference}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	for _, v := range variants {
		if v != mtl.Paper && v != mtl.Reference {
			return fmt.Errorf("unknown -variant %q (want paper, reference or both)", v)
		}
		rows, err := app.TableRows(table, v)
		if err != nil {
			return err
		}
		opt := eval.Options{Runs: *runs, Folds: *folds, Variant: v, Solver: mtl.Solver(*solver), CodeBugs: *codeBugs, Methods: rows,
			Progress: func(msg string) { fmt.Fprintf(stderr, "[%6.1fs] %s: %s\n", time.Since(start).Seconds(), v, msg) }}
		tab, err := eval.Reproduce(ctx, exps, opt)
		if err != nil {
			return err
		}
		md := tab.Markdown()
		fmt.Fprintln(stdout, md)
		if *out != "" {
			prefix := *out
			if len(variants) > 1 {
				prefix += "-" + string(v)
			}
			js, err := tab.JSON()
			if err != nil {
				return err
			}
			for ext, body := range map[string][]byte{".md": []byte(md), ".csv": []byte(tab.CSV()), ".json": js} {
				if err := os.WriteFile(prefix+ext, body, 0o644); err != nil {
					return fmt.Errorf("write table: %w", err)
				}
			}
		}
	}
	fmt.Fprintf(stderr, "total %.1fs\n", time.Since(start).Seconds())
	return nil
}

func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}
