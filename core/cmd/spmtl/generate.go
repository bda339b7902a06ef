package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spmtl/spmtl/core/synth"
)

const generateUsage = `Usage: spmtl generate KIND [flags] -out DIR

Kinds:
  grouped         y = β0 + xᵀβ + b_j + xᵀu_j + ε: a linear mixed model with a random intercept and slopes per group
  grouped-binary  y = 1 with probability logistic(β0 + xᵀβ + b_j + xᵀu_j)

Writes DIR/train.csv and DIR/holdout.csv (every fourth row of each group),
long CSV with the header group,y,x1,...,xd (train with -task group), and
prints the held-out scores of reference predictors that know the model.
Run "spmtl generate KIND -h" for the flags.
`

// runGenerate writes a synthetic grouped data set with known effects and
// prints the reference scores a fit on it can be held against.
func runGenerate(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "grouped" && args[0] != "grouped-binary") {
		fmt.Fprint(stderr, generateUsage)
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			return flag.ErrHelp // the usage above is the answer, as for every command's -h
		}
		if len(args) == 0 {
			return fmt.Errorf("generate: want a kind: grouped or grouped-binary")
		}
		return fmt.Errorf("generate: unknown kind %q: want grouped or grouped-binary", args[0])
	}
	kind := args[0]
	fs := newFlagSet("generate "+kind, stderr)
	groups := fs.Int("groups", 300, "number of groups")
	minRows := fs.Int("min", 2, "fewest rows of a group")
	maxRows := fs.Int("max", 20, "most rows of a group (sizes are uniform between -min and -max)")
	features := fs.Int("features", 3, "number of features d, each N(0, 1)")
	slopeSD := fs.Float64("slope-sd", 0.5, "standard deviation of every random slope (0: random intercepts only)")
	seed := fs.Uint64("seed", 1, "random seed")
	out := fs.String("out", "", "output `folder` for train.csv and holdout.csv")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	switch {
	case *out == "":
		return usageErrorf(fs, "generate: -out is required: the folder to write train.csv and holdout.csv to")
	case *groups < 1:
		return usageErrorf(fs, "-groups %d: want at least 1", *groups)
	case *minRows < 1:
		return usageErrorf(fs, "-min %d: want at least 1", *minRows)
	case *maxRows < *minRows:
		return usageErrorf(fs, "-max %d is below -min %d", *maxRows, *minRows)
	case *features < 1:
		return usageErrorf(fs, "-features %d: want at least 1", *features)
	case !(*slopeSD >= 0):
		return usageErrorf(fs, "-slope-sd %g: want a number ≥ 0", *slopeSD)
	}
	su := make([]float64, *features)
	for k := range su {
		su[k] = *slopeSD
	}
	r, err := synth.Grouped(synth.GroupedOptions{Groups: *groups, MinRows: *minRows, MaxRows: *maxRows, Features: *features,
		SigmaU: su, Binary: kind == "grouped-binary", Seed: *seed})
	if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	if r.Test.Rows() == 0 {
		return usageErrorf(fs, "generate: no group has a fourth row to hold out: give -max 4 or more")
	}
	var train, holdout bytes.Buffer
	if err := r.WriteCSV(&train, &holdout); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	for _, f := range []struct {
		name string
		text []byte
		rows int
	}{{"train.csv", train.Bytes(), r.Train.Rows()}, {"holdout.csv", holdout.Bytes(), r.Test.Rows()}} {
		path := filepath.Join(*out, f.name)
		if err := os.WriteFile(path, f.text, 0o644); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		fmt.Fprintf(stdout, "%s: %d rows\n", path, f.rows)
	}
	fmt.Fprintf(stdout, "%d groups of %d to %d rows, %d features; β0 = %g, β = %v, σb = %g, σu = %g",
		*groups, *minRows, *maxRows, *features, r.Intercept, r.Beta, r.SigmaB, *slopeSD)
	if r.Binary {
		fmt.Fprintln(stdout)
		ref, err := r.ReferenceBinary()
		if err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		fmt.Fprintf(stdout, "held-out pooled scores over %d rows:\n", ref.Rows)
		fmt.Fprintf(stdout, "  %-38s %8s %8s %8s\n", "", "log-loss", "Brier", "AUC")
		fmt.Fprintf(stdout, "  %-38s %8.4f %8.4f %8.4f\n", "oracle (true probabilities)", ref.Oracle.LogLoss, ref.Oracle.Brier, ref.Oracle.AUC)
		fmt.Fprintf(stdout, "  %-38s %8.4f %8.4f %8.4f\n", "pooled logistic regression", ref.Pooled.LogLoss, ref.Pooled.Brier, ref.Pooled.AUC)
		return nil
	}
	fmt.Fprintf(stdout, ", σ = %g\n", r.Noise)
	ref, err := r.ReferenceRMSE()
	if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	fmt.Fprintf(stdout, "held-out pooled RMSE over %d rows:\n", ref.Rows)
	fmt.Fprintf(stdout, "  %-38s %8.4f\n", "GLS + BLUP (known variances)", ref.GLSBLUP)
	fmt.Fprintf(stdout, "  %-38s %8.4f\n", "pooled regression", ref.Pooled)
	fmt.Fprintf(stdout, "  %-38s %8.4f\n", "oracle (true fixed effects + BLUP)", ref.Oracle)
	fmt.Fprintf(stdout, "  %-38s %8.4f\n", "true mean (the noise floor)", ref.Truth)
	return nil
}
