package session

import (
	"fmt"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
)

// AddSource registers one of the bundled data sets for the reproduction,
// from the text of its data file and of its split file (when it has one).
func (s *Session) AddSource(name, text, splitText string) error {
	src, err := app.ParseBundle(name, []byte(text), []byte(splitText))
	if err != nil {
		return err
	}
	s.sources[name] = src
	return nil
}

// ReproduceOptions select one run of one data set of the paper's protocol.
// The JSON names are the page's (spmtl.reproduceRun, spmtl.summarize).
type ReproduceOptions struct {
	Dataset  string      `json:"dataset"`
	Table    app.Table   `json:"table"`
	Run      int         `json:"run"` // 1-based
	Folds    int         `json:"folds"`
	Quick    bool        `json:"quick"`
	Variant  mtl.Variant `json:"variant"`
	Solver   mtl.Solver  `json:"solver"`
	CodeBugs bool        `json:"codeBugs"`
}

func (o ReproduceOptions) experiment(s *Session) (eval.Experiment, eval.Options, error) {
	e, err := app.Experiment(o.Dataset, s.sources[o.Dataset], o.Quick)
	if err != nil {
		return e, eval.Options{}, err
	}
	rows, err := app.TableRows(o.Table, o.Variant)
	if err != nil {
		return e, eval.Options{}, err
	}
	return e, eval.Options{Folds: o.Folds, Variant: o.Variant, Solver: o.Solver, CodeBugs: o.CodeBugs, Workers: 1, Methods: rows}, nil
}

// ReproduceRun runs run o.Run of o.Dataset, every row of the table, as the
// command line's `spmtl reproduce` does (eval.RunOnce).
func (s *Session) ReproduceRun(o ReproduceOptions) ([]eval.RunResult, error) {
	if o.Run < 1 {
		return nil, fmt.Errorf("reproduce: run %d, want 1 or more", o.Run)
	}
	e, opt, err := o.experiment(s)
	if err != nil {
		return nil, err
	}
	return eval.RunOnce(e, o.Run, opt)
}

// Summarize joins the runs of one data set into the table's cells.
func (s *Session) Summarize(o ReproduceOptions, runs [][]eval.RunResult) ([]*eval.Cell, error) {
	e, opt, err := o.experiment(s)
	if err != nil {
		return nil, err
	}
	return eval.Summarize(e, opt, runs), nil
}
