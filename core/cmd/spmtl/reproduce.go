package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
)

func runReproduce(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("reproduce", flag.ContinueOnError)
	fs.SetOutput(stderr)
	datasets := fs.String("datasets", strings.Join(eval.PaperDatasets, ","), "comma-separated data sets: "+strings.Join(eval.PaperDatasets, ", "))
	runs := fs.Int("runs", 10, "random runs (train/test splits) per data set")
	folds := fs.Int("folds", 3, "cross-validation folds")
	variant := fs.String("variant", "paper", "paper, reference or both")
	solver := fs.String("solver", "", "W-step solver: exact or fista100 (default: the variant's)")
	quick := fs.Bool("quick", false, "3 runs and coarse grids (3 values of rho and of lambda0)")
	codeBugs := fs.Bool("code-bugs", false, "reproduce the authors' MTASO bug (W scaled by sqrt(rho) in place); off by default")
	dir := fs.String("data-dir", "", "folder holding landmine/, school/, cs/, sentiment/ (default: web/data, else ../shared/data)")
	out := fs.String("out", "", "write the table as `prefix`.md, prefix.csv and prefix.json")
	sequential := fs.Bool("sequential", false, "the landmine comparison of task orderings instead: ITL, CL, ELLA (4 rules), MTFL, spMTFL")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *quick && !flagSet(fs, "runs") {
		*runs = 3
	}
	if *sequential && !flagSet(fs, "datasets") {
		*datasets = "landmine"
	}
	names := strings.Split(*datasets, ",")
	src, err := loadSources(*dir, names)
	if err != nil {
		return err
	}
	var exps []eval.Experiment
	for _, n := range names {
		e, err := eval.PaperExperiment(strings.TrimSpace(n), src, *quick)
		if err != nil {
			return err
		}
		exps = append(exps, e)
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
		opt := eval.Options{Runs: *runs, Folds: *folds, Variant: v, Solver: mtl.Solver(*solver), CodeBugs: *codeBugs,
			Methods:  map[bool][]eval.Method{true: eval.SequentialMethods}[*sequential],
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

// loadSources reads the real data sets the named experiments need.
func loadSources(dir string, names []string) (eval.Sources, error) {
	var src eval.Sources
	if dir == "" {
		for _, d := range []string{filepath.Join("web", "data"), filepath.Join("..", "shared", "data")} {
			if _, err := os.Stat(filepath.Join(d, "landmine")); err == nil {
				dir = d
				break
			}
		}
		if dir == "" {
			dir = filepath.Join("web", "data")
		}
	}
	read := func(rel string) (*data.Dataset, error) {
		return readDataFile(filepath.Join(dir, rel), "auto", "task", "y")
	}
	var err error
	for _, n := range names {
		switch strings.TrimSpace(n) {
		case "school":
			if src.School, err = read("school/data.csv"); err != nil {
				return src, err
			}
			p := filepath.Join(dir, "school", "splits.csv")
			for k := 1; k <= 10; k++ {
				f, err := os.Open(p)
				if err != nil {
					return src, fmt.Errorf("school splits: %w", err)
				}
				mask, err := data.ReadSplitFile(f, p, fmt.Sprintf("split%d", k))
				f.Close()
				if err != nil {
					return src, err
				}
				src.SchoolSplits = append(src.SchoolSplits, mask)
			}
		case "cs":
			src.CS, err = read("cs/data.csv")
		case "sentiment":
			src.Sentiment, err = read("sentiment/data.svm")
		case "landmine":
			src.Landmine, err = read("landmine/data.csv")
		}
		if err != nil {
			return src, err
		}
	}
	return src, nil
}
