package session

import (
	"bytes"
	"fmt"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
)

// AddSource registers one of the paper's real data sets ("landmine",
// "school", "cs", "sentiment") for the reproduction, from its text; for
// school, splitText is its split file and all ten columns are read.
func (s *Session) AddSource(name, text, splitText string) error {
	ds, err := data.Read(bytes.NewReader([]byte(text)), name, data.Options{})
	if err != nil {
		return err
	}
	switch name {
	case "landmine":
		s.sources.Landmine = ds
	case "cs":
		s.sources.CS = ds
	case "sentiment":
		s.sources.Sentiment = ds
	case "school":
		var masks [][]bool
		for k := 1; k <= 10; k++ {
			m, err := data.ReadSplitFile(bytes.NewReader([]byte(splitText)), name+" splits", fmt.Sprintf("split%d", k))
			if err != nil {
				return err
			}
			masks = append(masks, m)
		}
		s.sources.School, s.sources.SchoolSplits = ds, masks
	default:
		return fmt.Errorf("unknown data set %q (want landmine, school, cs or sentiment)", name)
	}
	return nil
}

// ReproduceOptions select one run of one data set of the paper's protocol.
type ReproduceOptions struct {
	Dataset string
	Run     int // 1-based
	Folds   int
	Quick   bool
	Variant mtl.Variant
	Solver  mtl.Solver
}

func (o ReproduceOptions) options() eval.Options {
	return eval.Options{Folds: o.Folds, Variant: o.Variant, Solver: o.Solver, Workers: 1}
}

// ReproduceRun runs run o.Run of o.Dataset, every method of the table, as
// the command line's `spmtl reproduce` does (eval.RunOnce).
func (s *Session) ReproduceRun(o ReproduceOptions) ([]eval.RunResult, error) {
	e, err := eval.PaperExperiment(o.Dataset, s.sources, o.Quick)
	if err != nil {
		return nil, err
	}
	if o.Run < 1 {
		return nil, fmt.Errorf("reproduce: run %d, want 1 or more", o.Run)
	}
	return eval.RunOnce(e, o.Run, o.options())
}

// Summarize joins the runs of one data set into the table's cells.
func (s *Session) Summarize(o ReproduceOptions, runs [][]eval.RunResult) ([]*eval.Cell, error) {
	e, err := eval.PaperExperiment(o.Dataset, s.sources, o.Quick)
	if err != nil {
		return nil, err
	}
	return eval.Summarize(e, o.options(), runs), nil
}
