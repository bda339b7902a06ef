// Package app is what the command line and the page have in common: it
// loads data sets (a file's text, or one of the bundled data sets of
// Bundles), starts training runs of any method of the catalogue
// (core/method) on them, steps and evaluates them, and builds the paper's
// evaluation protocol. The command line calls it directly; core/session
// keeps its objects behind integer handles for the wasm bridge. Nothing here
// touches JavaScript.
package app

import (
	"bytes"
	"fmt"

	"github.com/spmtl/spmtl/core/data"
	"gonum.org/v1/gonum/mat"
)

// LoadOptions say how to read a data text.
type LoadOptions struct {
	// Name labels the data in messages (a file name). Default "data".
	Name string
	// Format is "csv", "sparse" or "" to detect it from the text.
	Format string
	// TaskColumn and LabelColumn name the CSV columns (default task, y).
	TaskColumn, LabelColumn string
	// Splits, when set, is a split file (row,split1,...) whose column
	// SplitColumn (default: its first) fixes the train/test split instead
	// of a random one.
	Splits      []byte
	SplitColumn string
}

// Data is a loaded data set, with its fixed train/test split when it has
// one (generated data, a split file).
type Data struct {
	All         *data.Dataset
	Train, Test *data.Dataset
}

// Load reads a data text. Errors from the readers keep their
// "file:line:col: message" form.
func Load(text []byte, opt LoadOptions) (*Data, error) {
	if opt.Name == "" {
		opt.Name = "data"
	}
	ds, err := data.Read(bytes.NewReader(text), opt.Name, data.Options{Format: opt.Format, TaskColumn: opt.TaskColumn, LabelColumn: opt.LabelColumn})
	if err != nil {
		return nil, err
	}
	d := &Data{All: ds}
	if len(opt.Splits) > 0 {
		mask, err := data.ReadSplitFile(bytes.NewReader(opt.Splits), opt.Name+" splits", opt.SplitColumn)
		if err != nil {
			return nil, err
		}
		if d.Train, d.Test, err = data.SplitByMask(ds, mask); err != nil {
			return nil, fmt.Errorf("split %s: %w", opt.Name, err)
		}
	}
	return d, nil
}

// Generate makes a synthetic bundle (syn1, syn2) with its own train/test
// split; seed picks the draw.
func Generate(name string, seed uint64) (*Data, error) {
	b, err := LookupBundle(name)
	if err != nil {
		return nil, err
	}
	if !b.Generated {
		return nil, fmt.Errorf("generate: %s is not a synthetic data set (the generated ones are %s)", name, generatedNames())
	}
	res, err := b.generate(seed)
	if err != nil {
		return nil, err
	}
	all := &data.Dataset{Name: name, Features: res.Train.Features, Kind: data.Regression}
	for t := range res.Train.Tasks {
		a, c := &res.Train.Tasks[t], &res.Test.Tasks[t]
		ra, rc := a.X.RawMatrix(), c.X.RawMatrix()
		x := mat.NewDense(a.Rows()+c.Rows(), all.Features, append(append([]float64(nil), ra.Data...), rc.Data...))
		all.Tasks = append(all.Tasks, data.Task{Name: a.Name, X: x, Y: append(append([]float64(nil), a.Y...), c.Y...)})
	}
	return &Data{All: all, Train: res.Train, Test: res.Test}, nil
}

func generatedNames() string {
	var s string
	for _, b := range bundles {
		if b.Generated {
			if s != "" {
				s += ", "
			}
			s += b.Name
		}
	}
	return s
}

// TaskSummary describes one task of a loaded data set.
type TaskSummary struct {
	Name      string `json:"name"`
	Rows      int    `json:"rows"`
	Positives int    `json:"positives"`
}

// Summary describes a loaded data set.
type Summary struct {
	Name         string        `json:"name"`
	Tasks        []TaskSummary `json:"tasks"`
	Features     int           `json:"features"`
	Rows         int           `json:"rows"`
	Kind         string        `json:"kind"`
	Positive     string        `json:"positive"`
	Negative     string        `json:"negative"`
	FixedSplit   bool          `json:"fixedSplit"`
	FeatureNames []string      `json:"featureNames,omitempty"`
}

// Summary describes the data set (feature names when there are at most
// 200).
func (d *Data) Summary() Summary {
	ds := d.All
	sum := Summary{Name: ds.Name, Features: ds.Features, Rows: ds.Rows(), Kind: ds.Kind.String(),
		Positive: ds.Positive, Negative: ds.Negative, FixedSplit: d.Train != nil}
	if len(ds.FeatureNames) <= 200 {
		sum.FeatureNames = ds.FeatureNames
	}
	for i := range ds.Tasks {
		t := &ds.Tasks[i]
		ts := TaskSummary{Name: t.Name, Rows: t.Rows()}
		for _, y := range t.Y {
			if ds.Kind == data.Classification && y > 0 {
				ts.Positives++
			}
		}
		sum.Tasks = append(sum.Tasks, ts)
	}
	return sum
}
