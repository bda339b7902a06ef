package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/internal/words"
	"github.com/spmtl/spmtl/core/mtl"
)

// runPredict reads new rows with a model's encoding and writes them back
// with the predictions.
func runPredict(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("predict", stderr)
	modelPath := fs.String("model", "", "model `file` (saved by spmtl train -save, spmtl tune -save or the page)")
	dataPath := fs.String("data", "", "`file` of new rows: the task column and the feature columns (the label column may be absent)")
	out := fs.String("out", "", "write the rows and their predictions to this CSV `file` (default: standard output)")
	missing := app.MissingRefuse
	newTasks := app.MissingRefuse
	fs.Var(choiceFlag{dst: &newTasks}, "new-tasks", "rows of a task the model was not trained on, when it has no predictor for a new task (ITL, MTFL, MTASO): refuse (refuse the file at the first) or omit (keep the row with an empty prediction, and say which rows)")
	fs.Var(choiceFlag{dst: &missing}, "missing", "rows with a missing value (an empty cell, NA, ?, NaN) in the task or a feature the model reads: refuse (refuse the file at the first) or omit (keep the row with an empty prediction, and say which rows)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := refuseOverwrite(map[string]string{"out": *out}, map[string]string{"data": *dataPath, "model": *modelPath}); err != nil {
		return err
	}
	m, err := modelFileOf(*modelPath)
	if err != nil {
		return err
	}
	if *dataPath == "" {
		return fmt.Errorf("-data is required: the file of rows to predict")
	}
	// The rows read, their copies with a prediction and the data set are
	// live together; the collector, left to its default, lets the heap
	// grow to twice that (1.6 GB for a million rows of 196 MB). A soft
	// limit at the page's memory budget makes it collect sooner instead.
	debug.SetMemoryLimit(mtl.DefaultBudget)
	text, err := readFile(*dataPath)
	if err != nil {
		return fmt.Errorf("read data: %w", err)
	}
	p, err := app.PredictWith(m, text, *dataPath, app.PredictOptions{OmitMissing: missing == app.MissingOmit, SkipUnknown: newTasks == app.MissingOmit})
	if err != nil {
		return err
	}
	for _, w := range p.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	if *out == "" {
		// The predictions are stdout's CSV: the score goes beside the
		// warnings.
		if p.Score != nil {
			fmt.Fprintln(stderr, p.Score.Text)
		}
		bw := bufio.NewWriter(stdout)
		if err := p.WriteCSV(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	if err := writeCSV(*out, p); err != nil {
		return fmt.Errorf("write predictions: %w", err)
	}
	n := 0
	for _, v := range p.Values {
		if !math.IsNaN(v) {
			n++
		}
	}
	what := words.Plural(n, "prediction") // 6,913, as the warnings count rows
	if left := len(p.Values) - n; left > 0 {
		what += fmt.Sprintf(" (and %s without one)", words.Plural(left, "row"))
	}
	fmt.Fprintf(stdout, "wrote %s to %s (%s: %s)\n", what, *out, p.Column, p.Meaning)
	if p.Score != nil {
		fmt.Fprintln(stdout, p.Score.Text)
	}
	return nil
}

// writeCSV writes p's CSV to the file path through a buffer, row by row.
func writeCSV(path string, p *app.Predictions) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	err = p.WriteCSV(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
