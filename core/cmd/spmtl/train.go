package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/seq"
)

// dataFlags are the flags that read and split a data file, shared by the
// commands.
type dataFlags struct {
	path, taskCol, labelCol, format string
	split                           string
	train                           float64
	seed                            uint64
}

func (f *dataFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.path, "data", "", "data `file`: long CSV (task,y,x1,...) or sparse text (task y idx:val ...)")
	fs.StringVar(&f.format, "format", "auto", "data format: auto, csv or sparse")
	fs.StringVar(&f.taskCol, "task", "task", "CSV column naming the task")
	fs.StringVar(&f.labelCol, "label", "y", "CSV column holding the label")
	fs.StringVar(&f.split, "split", "", "split `file:column` (splits.csv:split1, or splits.csv:1) instead of a random split")
	fs.Float64Var(&f.train, "train", 0.75, "training rows per task: a count (>= 1) or a fraction (< 1); stratified for classification")
	fs.Uint64Var(&f.seed, "seed", 1, "random seed for the split and the learner")
}

// load reads the data file and splits it into training and test sets.
func (f *dataFlags) load() (all, train, test *data.Dataset, err error) {
	if f.path == "" {
		return nil, nil, nil, fmt.Errorf("-data is required")
	}
	all, err = readDataFile(f.path, f.format, f.taskCol, f.labelCol)
	if err != nil {
		return nil, nil, nil, err
	}
	if f.split != "" {
		path, col, ok := strings.Cut(f.split, ":")
		if !ok {
			col = "split1"
		}
		if _, err := strconv.Atoi(col); err == nil {
			col = "split" + col // "splits.csv:3" means column split3
		}
		sf, err := os.Open(path)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("split file: %w", err)
		}
		defer sf.Close()
		mask, err := data.ReadSplitFile(sf, path, col)
		if err != nil {
			return nil, nil, nil, err
		}
		train, test, err = data.SplitByMask(all, mask)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("apply %s: %w", f.split, err)
		}
		return all, train, test, nil
	}
	train, test, err = eval.SplitPerTask(all, f.train, all.Kind == data.Classification, f.seed)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("split %s: %w", f.path, err)
	}
	return all, train, test, nil
}

func readDataFile(path, format, taskCol, labelCol string) (*data.Dataset, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read data: %w", err)
	}
	defer fh.Close()
	if format == "auto" {
		format = "csv"
		if strings.HasSuffix(path, ".svm") || strings.HasSuffix(path, ".libsvm") {
			format = "sparse"
		}
	}
	switch format {
	case "csv":
		return data.ReadCSV(fh, path, data.CSVOptions{TaskColumn: taskCol, LabelColumn: labelCol})
	case "sparse":
		return data.ReadSparse(fh, path, data.SparseOptions{})
	}
	return nil, fmt.Errorf("unknown -format %q (want auto, csv or sparse)", format)
}

// modelFlags are the learner settings.
type modelFlags struct {
	cfg        mtl.Config
	selectRule string
}

func (m *modelFlags) register(fs *flag.FlagSet) {
	c := &m.cfg
	fs.StringVar(&c.Model, "model", "mtfl", "model: "+strings.Join(mtl.Models, ", ")+", cl, ella")
	fs.StringVar(&m.selectRule, "select", "random", "ELLA's task selection: random, infomax, diversity or diversity++")
	fs.BoolVar(&c.SelfPaced, "selfpaced", false, "self-paced task weighting (without it: the MTL baseline)")
	fs.StringVar((*string)(&c.Tau), "tau", "softmax", "tau rule: softmax or hard")
	fs.StringVar((*string)(&c.Variant), "variant", "paper", "paper or reference (the authors' code)")
	fs.StringVar((*string)(&c.Solver), "solver", "", "W-step solver: exact or fista100 (default: exact for paper, fista100 for reference)")
	fs.StringVar((*string)(&c.Loss), "loss", "", "loss: squared or logistic (default: logistic for binary labels)")
	fs.Float64Var(&c.Rho, "rho", 0.1, "regularization rho")
	fs.Float64Var(&c.Lambda0, "lambda0", 1, "initial pace lambda0")
	fs.Float64Var(&c.Pace, "c", 1.1, "pace growth c (lambda <- c*lambda)")
	fs.Float64Var(&c.Delta, "delta", 0.01, "weight of hard tasks under the hard rule")
	fs.IntVar(&c.H, "h", 5, "MTASO subspace dimension")
	fs.IntVar(&c.MaxIter, "maxiter", 10, "outer iteration cap")
	fs.BoolVar(&c.CodeBugs, "code-bugs", false, "reproduce the authors' MTASO bug (W scaled by sqrt(rho) in place); off by default")
}

// trainReport is what -json writes.
type trainReport struct {
	Data      string         `json:"data"`
	Tasks     []string       `json:"tasks"`
	Kind      string         `json:"kind"`
	Features  int            `json:"features"`
	TrainRows int            `json:"trainRows"`
	TestRows  int            `json:"testRows"`
	Config    mtl.Config     `json:"config"`
	History   []mtl.Snapshot `json:"history"`
	Metric    string         `json:"metric"`
	PerTask   []jsonFloat    `json:"perTask"`
	Mean      jsonFloat      `json:"mean"`
	Model     *mtl.Model     `json:"model"`
	Seconds   float64        `json:"seconds"`
}

// jsonFloat writes NaN as null (JSON has no NaN).
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

func runTrain(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var df dataFlags
	var mf modelFlags
	df.register(fs)
	mf.register(fs)
	jsonOut := fs.String("json", "", "write the whole run as JSON to `file` (- for stdout)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("train: unexpected argument %q", fs.Arg(0))
	}
	all, train, test, err := df.load()
	if err != nil {
		return err
	}
	cfg := mf.cfg
	cfg.Seed = int64(df.seed)
	if cfg.Model == "cl" || cfg.Model == "ella" {
		return trainSequential(all, train, test, cfg, mf.selectRule, df.seed, *jsonOut, stdout)
	}
	start := time.Now()
	p, err := mtl.Prepare(train)
	if err != nil {
		return err
	}
	tr, err := mtl.NewTrainer(p, cfg)
	if err != nil {
		return err
	}
	if _, err := tr.Run(context.Background()); err != nil {
		return err
	}
	elapsed := time.Since(start)
	model := tr.Model()
	preds, err := model.PredictDataset(test)
	if err != nil {
		return err
	}
	perTask, mean := eval.Score(all.Kind, preds, test)
	metric := "RMSE"
	if all.Kind == data.Classification {
		metric = "AUC"
	}
	cfg = tr.Config()
	hist := tr.History()

	if *jsonOut != "-" {
		fmt.Fprintf(stdout, "data %s: %d tasks, %d features, %s; %d training rows, %d test rows\n",
			all.Name, len(all.Tasks), all.Features, all.Kind, train.Rows(), test.Rows())
		name := cfg.Model
		if cfg.SelfPaced {
			name = "sp" + name
		}
		fmt.Fprintf(stdout, "model %s (variant %s, solver %s, loss %s, rho %g, lambda0 %g, c %g, tau %s): %d iterations in %v\n\n",
			name, cfg.Variant, cfg.Solver, cfg.Loss, cfg.Rho, cfg.Lambda0, cfg.Pace, cfg.Tau, len(hist), elapsed.Round(time.Microsecond))
		printTauTable(stdout, train, hist)
		fmt.Fprintln(stdout)
		printScores(stdout, test, metric, perTask, mean)
	}
	if *jsonOut != "" {
		rep := trainReport{Data: all.Name, Kind: all.Kind.String(), Features: all.Features, TrainRows: train.Rows(), TestRows: test.Rows(),
			Config: cfg, History: hist, Metric: strings.ToLower(metric), Mean: jsonFloat(mean), Model: model, Seconds: elapsed.Seconds()}
		for i := range train.Tasks {
			rep.Tasks = append(rep.Tasks, train.Tasks[i].Name)
		}
		for _, v := range perTask {
			rep.PerTask = append(rep.PerTask, jsonFloat(v))
		}
		return writeJSON(*jsonOut, stdout, rep)
	}
	return nil
}

func writeJSON(path string, stdout io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return fmt.Errorf("encode json: %w", err)
	}
	b = append(b, '\n')
	if path == "-" {
		_, err = stdout.Write(b)
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// printTauTable prints τ with tasks as rows and iterations as columns.
func printTauTable(w io.Writer, ds *data.Dataset, hist []mtl.Snapshot) {
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "tau\\iter\t")
	for _, s := range hist {
		fmt.Fprintf(tw, "%d\t", s.Iter)
	}
	fmt.Fprintln(tw)
	fmt.Fprint(tw, "lambda\t")
	for _, s := range hist {
		fmt.Fprintf(tw, "%.3g\t", s.Lambda)
	}
	fmt.Fprintln(tw)
	for t := range ds.Tasks {
		fmt.Fprintf(tw, "%s\t", ds.Tasks[t].Name)
		for _, s := range hist {
			fmt.Fprintf(tw, "%.4f\t", s.Tau[t])
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprint(tw, "objective\t")
	for _, s := range hist {
		fmt.Fprintf(tw, "%.5g\t", s.Objective)
	}
	fmt.Fprintln(tw)
	tw.Flush()
}

// trainSequential trains CL or ELLA and prints the order in which the tasks
// were learned and the test scores.
func trainSequential(all, train, test *data.Dataset, cfg mtl.Config, rule string, seed uint64, jsonOut string, stdout io.Writer) error {
	start := time.Now()
	loss := cfg.Loss
	if loss == "" {
		loss = mtl.Config{}.Defaults(all.Kind == data.Classification).Loss
	}
	var l seq.Learner
	var err error
	name := cfg.Model
	if cfg.Model == "cl" {
		p, err := mtl.Prepare(train)
		if err != nil {
			return err
		}
		l, err = seq.NewCL(p, seq.CLConfig{Loss: loss})
		if err != nil {
			return err
		}
	} else {
		name = "ella-" + rule
		if l, err = seq.NewELLA(train, seq.ELLAConfig{Select: rule, Loss: loss, Seed: seed}); err != nil {
			return err
		}
	}
	last, err := seq.Run(context.Background(), l)
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	model := l.Model()
	preds, err := model.PredictDataset(test)
	if err != nil {
		return err
	}
	perTask, mean := eval.Score(all.Kind, preds, test)
	metric := strings.ToUpper(string(eval.MetricFor(all.Kind)))
	if jsonOut != "" {
		rep := map[string]any{"data": all.Name, "model": name, "loss": loss, "order": last.Order, "history": l.History(),
			"metric": strings.ToLower(metric), "mean": jsonFloat(mean), "model_weights": model, "seconds": elapsed.Seconds()}
		var pt []jsonFloat
		for _, v := range perTask {
			pt = append(pt, jsonFloat(v))
		}
		rep["perTask"] = pt
		return writeJSON(jsonOut, stdout, rep)
	}
	fmt.Fprintf(stdout, "data %s: %d tasks, %d features, %s; %d training rows, %d test rows\n", all.Name, len(all.Tasks), all.Features, all.Kind, train.Rows(), test.Rows())
	fmt.Fprintf(stdout, "model %s (loss %s): %d steps in %v\n\norder in which the tasks were learned:\n", name, loss, len(l.History()), elapsed.Round(time.Microsecond))
	for k, t := range last.Order {
		fmt.Fprintf(stdout, "  step %2d: %s\n", k+1, train.Tasks[t].Name)
	}
	fmt.Fprintln(stdout)
	printScores(stdout, test, metric, perTask, mean)
	return nil
}

// printScores prints the test score of every task and their mean.
func printScores(w io.Writer, test *data.Dataset, metric string, perTask []float64, mean float64) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "task\ttest rows\t%s\t\n", metric)
	for i := range test.Tasks {
		fmt.Fprintf(tw, "%s\t%d\t%.4f\t\n", test.Tasks[i].Name, test.Tasks[i].Rows(), perTask[i])
	}
	tw.Flush()
	fmt.Fprintf(w, "\nmean test %s over tasks: %.4f\n", metric, mean)
}
