package main

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/figure"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/seq"
	"github.com/spmtl/spmtl/core/synth"
)

const figureUsage = `spmtl figure KIND -data FILE|syn1|syn2 [options] -out DIR

Kinds (each writes KIND.csv with the numbers and SVG drawings):
  tau         τ of the self-paced model at each iteration (a heatmap)
  scatter     per-task test error of the self-paced model against its baseline and ITL
  lambda      objective and test score per iteration for several λ0 (-values)
  pace        the same for several paces c (-values)
  sequential  per-task (1 − AUC) of spMTFL against CL and the four ELLA rules
`

func runFigure(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fmt.Fprint(stderr, figureUsage)
		return fmt.Errorf("figure: name a kind")
	}
	kind := args[0]
	fs := flag.NewFlagSet("figure "+kind, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var df dataFlags
	var mf modelFlags
	df.register(fs)
	mf.register(fs)
	out := fs.String("out", "figures", "output `folder`")
	values := fs.String("values", "", "comma-separated λ0 (lambda) or c (pace) values")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	cfg := mf.cfg
	cfg.Seed = int64(df.seed)
	if cfg.Model == "cl" || cfg.Model == "ella" {
		return fmt.Errorf("figure: -model must be a self-paced-capable model, not %s", cfg.Model)
	}
	cfg.SelfPaced = true
	all, train, test, err := loadFigureData(&df)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("figure: %w", err)
	}
	write := func(name, body string) error {
		p := filepath.Join(*out, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return fmt.Errorf("figure: %w", err)
		}
		fmt.Fprintln(stdout, "wrote", p)
		return nil
	}
	p, err := mtl.Prepare(train)
	if err != nil {
		return err
	}
	metric := eval.MetricFor(all.Kind)
	errName := "RMSE"
	if metric == eval.AUCMetric {
		errName = "1 − AUC"
	}
	name := all.Name
	switch kind {
	case "tau":
		c, err := eval.Track(p, cfg, test)
		if err != nil {
			return err
		}
		rows := [][]string{append([]string{"iteration"}, c.Tasks...)}
		for k, tau := range c.Tau {
			rows = append(rows, append([]string{strconv.Itoa(k + 1)}, floats(tau)...))
		}
		if err := write("tau.csv", csvText(rows)); err != nil {
			return err
		}
		return write("tau.svg", figure.Heatmap(fmt.Sprintf("τ of sp%s per iteration, %s", strings.ToUpper(cfg.Model), name), "iteration", c.Tasks, c.Tau))
	case "scatter":
		sp, err := eval.Track(p, cfg, test)
		if err != nil {
			return err
		}
		base := cfg
		base.SelfPaced = false
		bl, err := eval.Track(p, base, test)
		if err != nil {
			return err
		}
		itl := base
		itl.Model = "itl"
		it, err := eval.Track(p, itl, test)
		if err != nil {
			return err
		}
		pts := ScatterRows(metric, sp, bl, it)
		rows := [][]string{{"task", "sp_error", "baseline_error", "itl_error", "easy_at_iteration"}}
		for _, r := range pts {
			rows = append(rows, []string{r.Task, f(r.SP), f(r.Base), f(r.ITL), strconv.Itoa(r.EasyAt)})
		}
		if err := write("scatter.csv", csvText(rows)); err != nil {
			return err
		}
		spName := "sp" + strings.ToUpper(cfg.Model)
		groups, gi := easyGroups(pts)
		for _, cmp := range []struct{ file, other string }{{"scatter-baseline.svg", strings.ToUpper(cfg.Model)}, {"scatter-itl.svg", "ITL"}} {
			var ps []figure.Point
			for i, r := range pts {
				y := r.Base
				if cmp.other == "ITL" {
					y = r.ITL
				}
				ps = append(ps, figure.Point{X: r.SP, Y: y, Label: r.Task, Group: gi[i]})
			}
			title := fmt.Sprintf("%s, per-task test %s: %s against %s (above y = x: %s helps)", name, errName, spName, cmp.other, spName)
			if err := write(cmp.file, figure.Scatter(title, errName+", "+spName, errName+", "+cmp.other, ps, groups)); err != nil {
				return err
			}
		}
		return nil
	case "lambda", "pace":
		param := "lambda0"
		def := "0.1,1,10,100"
		if kind == "pace" {
			param, def = "c", "1.01,1.05,1.1,1.2,1.5"
		}
		if *values == "" {
			*values = def
		}
		vals, err := parseFloats(*values)
		if err != nil {
			return fmt.Errorf("figure: -values: %w", err)
		}
		curves, err := eval.Sweep(context.Background(), train, test, cfg, param, vals)
		if err != nil {
			return err
		}
		rows := [][]string{{param, "iteration", "objective", "test_" + string(metric)}}
		var obj, sc []figure.Series
		for _, c := range curves {
			var x []float64
			for k := range c.Objective {
				rows = append(rows, []string{f(c.Value), strconv.Itoa(k + 1), f(c.Objective[k]), f(c.Test[k])})
				x = append(x, float64(k+1))
			}
			label := fmt.Sprintf("%s = %g", map[string]string{"lambda0": "λ0", "c": "c"}[param], c.Value)
			obj = append(obj, figure.Series{Name: label, X: x, Y: c.Objective})
			sc = append(sc, figure.Series{Name: label, X: x, Y: c.Test})
		}
		if err := write(kind+".csv", csvText(rows)); err != nil {
			return err
		}
		if err := write(kind+"-objective.svg", figure.LineChart(fmt.Sprintf("%s: objective of sp%s per iteration", name, strings.ToUpper(cfg.Model)), "iteration", "objective", obj)); err != nil {
			return err
		}
		return write(kind+"-test.svg", figure.LineChart(fmt.Sprintf("%s: mean test %s per iteration", name, strings.ToUpper(string(metric))), "iteration", "test "+strings.ToUpper(string(metric)), sc))
	case "sequential":
		cfg.Model = "mtfl"
		sp, err := eval.Track(p, cfg, test)
		if err != nil {
			return err
		}
		rows := [][]string{{"task", "spMTFL_error", "method", "method_error"}}
		for _, m := range []struct{ name, rule string }{{"CL", ""}, {"ELLA-random", "random"}, {"ELLA-infomax", "infomax"}, {"ELLA-diversity", "diversity"}, {"ELLA-diversity++", "diversity++"}} {
			var l seq.Learner
			if m.rule == "" {
				l, err = seq.NewCL(p, seq.CLConfig{Loss: cfg.Loss})
			} else {
				l, err = seq.NewELLA(train, seq.ELLAConfig{Select: m.rule, Loss: cfg.Loss, Seed: df.seed})
			}
			if err != nil {
				return err
			}
			if _, err := seq.Run(context.Background(), l); err != nil {
				return err
			}
			preds, err := l.Model().PredictDataset(test)
			if err != nil {
				return err
			}
			per, _ := eval.Score(all.Kind, preds, test)
			var ps []figure.Point
			for t := range per {
				e1, e2 := errorOf(metric, sp.PerTask[t]), errorOf(metric, per[t])
				rows = append(rows, []string{sp.Tasks[t], f(e1), m.name, f(e2)})
				ps = append(ps, figure.Point{X: e1, Y: e2, Label: sp.Tasks[t]})
			}
			file := "sequential-" + strings.ToLower(strings.ReplaceAll(m.name, "+", "p")) + ".svg"
			title := fmt.Sprintf("%s, per-task %s: spMTFL against %s (above y = x: spMTFL better)", name, errName, m.name)
			if err := write(file, figure.Scatter(title, errName+", spMTFL", errName+", "+m.name, ps, []string{"task"})); err != nil {
				return err
			}
		}
		return write("sequential.csv", csvText(rows))
	}
	fmt.Fprint(stderr, figureUsage)
	return fmt.Errorf("figure: unknown kind %q", kind)
}

// ScatterRow is one task of the scatter figure: test errors (RMSE, or
// 1 − AUC) of the self-paced model, its baseline and ITL, and the
// iteration at which τ first let the task in (0: never).
type ScatterRow struct {
	Task          string
	SP, Base, ITL float64
	EasyAt        int
}

// ScatterRows joins three runs' per-task scores into the scatter's points.
func ScatterRows(metric eval.Metric, sp, base, itl eval.Curve) []ScatterRow {
	easy := sp.EasyAt()
	out := make([]ScatterRow, len(sp.Tasks))
	for t := range out {
		out[t] = ScatterRow{Task: sp.Tasks[t], SP: errorOf(metric, sp.PerTask[t]), Base: errorOf(metric, base.PerTask[t]),
			ITL: errorOf(metric, itl.PerTask[t]), EasyAt: easy[t]}
	}
	return out
}

// easyGroups buckets tasks by the iteration at which they became easy.
func easyGroups(rows []ScatterRow) ([]string, []int) {
	names := []string{"easy at iteration 1", "easy at 2-3", "easy later", "never easy"}
	g := make([]int, len(rows))
	for i, r := range rows {
		switch {
		case r.EasyAt == 1:
			g[i] = 0
		case r.EasyAt >= 2 && r.EasyAt <= 3:
			g[i] = 1
		case r.EasyAt > 3:
			g[i] = 2
		default:
			g[i] = 3
		}
	}
	return names, g
}

func errorOf(m eval.Metric, v float64) float64 {
	if m == eval.AUCMetric {
		return 1 - v
	}
	return v
}

// loadFigureData reads -data, or generates syn1/syn2 with their own split.
func loadFigureData(df *dataFlags) (all, train, test *data.Dataset, err error) {
	switch df.path {
	case "syn1", "syn2":
		var res *synth.Result
		if df.path == "syn1" {
			res, err = synth.Syn1(synth.Syn1Options{Seed: df.seed})
		} else {
			res, err = synth.Syn2(synth.Syn2Options{Seed: df.seed})
		}
		if err != nil {
			return nil, nil, nil, err
		}
		return res.Train, res.Train, res.Test, nil
	}
	return df.load()
}

func parseFloats(s string) ([]float64, error) {
	var out []float64
	for _, p := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func floats(v []float64) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = f(x)
	}
	return out
}

func f(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }

func csvText(rows [][]string) string {
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.WriteAll(rows)
	return b.String()
}
