package main

import (
	"fmt"
	"io"
	"math"
	"os"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/internal/words"
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
		_, err = stdout.Write(p.CSV())
		return err
	}
	if err := os.WriteFile(*out, p.CSV(), 0o644); err != nil {
		return fmt.Errorf("write predictions: %w", err)
	}
	n := 0
	for _, v := range p.Values {
		if !math.IsNaN(v) {
			n++
		}
	}
	what := fmt.Sprintf("%d predictions", n)
	if n == 1 {
		what = "1 prediction"
	}
	if left := len(p.Values) - n; left > 0 {
		what += fmt.Sprintf(" (and %s without one)", words.Plural(left, "row"))
	}
	fmt.Fprintf(stdout, "wrote %s to %s (%s: %s)\n", what, *out, p.Column, p.Meaning)
	if p.Score != nil {
		fmt.Fprintln(stdout, p.Score.Text)
	}
	return nil
}
