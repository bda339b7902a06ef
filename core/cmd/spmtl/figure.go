package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/figure"
	"github.com/spmtl/spmtl/core/internal/csvsafe"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
)

const figureUsage = `spmtl figure KIND -data FILE|NAME [options] -out DIR

Kinds (each writes KIND.csv with the numbers and SVG drawings):
  tau         τ of the self-paced model at each iteration (a heatmap)
  scatter     per-task test error of the self-paced model against its baseline and ITL
  lambda      objective and test score per iteration for several λ0 (-values)
  pace        the same for several paces c (-values)
  sequential  per-task (1 − AUC) of spMTFL against CL and the four ELLA rules
`

// figureJob is what every figure needs: the data, its split, the prepared
// training set, the self-paced configuration and where to write.
type figureJob struct {
	name        string // the data set's name, for titles
	train, test *data.Dataset
	p           *mtl.Problem
	cfg         mtl.Config
	metric      eval.Metric
	errName     string // "RMSE" or "1 − AUC"
	seed        uint64
	values      []float64 // the swept λ0 or c (lambda, pace)
	out         string
	stdout      io.Writer
}

var figures = map[string]func(j *figureJob, kind string) error{
	"tau":        figureTau,
	"scatter":    figureScatter,
	"lambda":     figureSweep,
	"pace":       figureSweep,
	"sequential": figureSequential,
}

func runFigure(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fmt.Fprint(stderr, figureUsage)
		return fmt.Errorf("figure: name a kind")
	}
	kind := args[0]
	draw, ok := figures[kind]
	if !ok {
		fmt.Fprint(stderr, figureUsage)
		return fmt.Errorf("figure: unknown kind %q", kind)
	}
	fs := newFlagSet("figure "+kind, stderr)
	var df dataFlags
	var mf modelFlags
	df.register(fs)
	mf.register(fs)
	out := fs.String("out", "figures", "output `folder`")
	values := fs.String("values", "", "comma-separated λ0 (lambda) or c (pace) values")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if err := mf.check(fs); err != nil {
		return err
	}
	sweep, err := sweepValues(fs, kind, *values)
	if err != nil {
		return err
	}
	if df.all && kind != "tau" {
		return usageErrorf(fs, "figure %s plots test errors, and -train all leaves no test rows: give -train a count or a fraction, or -split", kind)
	}
	d, bundle, err := df.load()
	if d != nil {
		// The figures draw the paper's algorithm: its settings, not the
		// own-data profile, even for a file (docs/algorithms.md §14).
		d.Own = false
	}
	if err != nil {
		return err
	}
	cfg := mf.config(bundle, df.seed)
	if m, err := method.Lookup(cfg.Model); err != nil {
		return err
	} else if !m.SelfPaced {
		return fmt.Errorf("figure: -model must have a self-paced version, not %s", m.Key)
	}
	cfg.SelfPaced = true
	r, err := app.NewRun(d, df.trainOptions(cfg))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("figure: %w", err)
	}
	p, err := mtl.Prepare(r.Train)
	if err != nil {
		return err
	}
	j := &figureJob{name: d.All.Name, train: r.Train, test: r.Test, p: p, cfg: r.Config, metric: eval.MetricFor(d.All.Kind),
		errName: "RMSE", seed: df.seed, values: sweep, out: *out, stdout: stdout}
	if j.metric == eval.AUCMetric {
		j.errName = "1 − AUC"
	}
	return draw(j, kind)
}

func (j *figureJob) write(name, body string) error {
	p := filepath.Join(j.out, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		return fmt.Errorf("figure: %w", err)
	}
	fmt.Fprintln(j.stdout, "wrote", p)
	return nil
}

func (j *figureJob) spName() string { return "sp" + strings.ToUpper(j.cfg.Model) }

// figureTau: τ per iteration as a heatmap.
func figureTau(j *figureJob, _ string) error {
	c, err := eval.Track(j.p, j.cfg, j.test)
	if err != nil {
		return err
	}
	rows := [][]string{append([]string{"iteration"}, c.Tasks...)}
	for k, tau := range c.Tau {
		rows = append(rows, append([]string{strconv.Itoa(k + 1)}, floats(tau)...))
	}
	if err := j.write("tau.csv", csvText(rows)); err != nil {
		return err
	}
	return j.write("tau.svg", figure.Heatmap(fmt.Sprintf("τ of %s per iteration, %s", j.spName(), j.name), "iteration", c.Tasks, c.Tau))
}

// figureScatter: per-task errors of the self-paced model against its
// baseline and ITL, coloured by when τ let each task in.
func figureScatter(j *figureJob, _ string) error {
	sp, err := eval.Track(j.p, j.cfg, j.test)
	if err != nil {
		return err
	}
	cs, err := method.Comparisons(j.cfg)
	if err != nil {
		return err
	}
	byRole := map[string]eval.Curve{}
	labels := map[string]string{}
	for _, c := range cs {
		if byRole[c.Role], err = eval.Track(j.p, c.Config, j.test); err != nil {
			return err
		}
		labels[c.Role] = c.Label
	}
	pts := ScatterRows(j.metric, sp, byRole["baseline"], byRole["itl"])
	rows := [][]string{{"task", "sp_error", "baseline_error", "itl_error", "easy_at_iteration"}}
	for _, r := range pts {
		rows = append(rows, []string{r.Task, f(r.SP), f(r.Base), f(r.ITL), strconv.Itoa(r.EasyAt)})
	}
	if err := j.write("scatter.csv", csvText(rows)); err != nil {
		return err
	}
	groups, gi := easyGroups(pts)
	for _, cmp := range []struct{ file, role string }{{"scatter-baseline.svg", "baseline"}, {"scatter-itl.svg", "itl"}} {
		var ps []figure.Point
		for i, r := range pts {
			y := r.Base
			if cmp.role == "itl" {
				y = r.ITL
			}
			ps = append(ps, figure.Point{X: r.SP, Y: y, Label: r.Task, Group: gi[i]})
		}
		other := labels[cmp.role]
		title := fmt.Sprintf("%s, per-task test %s: %s against %s (above y = x: %s helps)", j.name, j.errName, j.spName(), other, j.spName())
		if err := j.write(cmp.file, figure.Scatter(title, j.errName+", "+j.spName(), j.errName+", "+other, ps, groups)); err != nil {
			return err
		}
	}
	return nil
}

// sweeps are the parameters the sweep figures vary: the flag, its symbol,
// its range and the default -values.
var sweeps = map[string]struct {
	param, symbol string
	r             flagRange
	values        []float64
}{
	"lambda": {"lambda0", "λ0", flagRange{flag: "lambda0", Range: mtl.RangeOf("lambda0")}, []float64{0.1, 1, 10, 100}},
	"pace":   {"c", "c", paceRange, []float64{1.01, 1.05, 1.1, 1.2, 1.5}},
}

// sweepValues reads -values for a sweep figure (its default when empty).
// Each value must be one the learner uses as given: the learner takes 0
// for "unset" and would train with its default while the figure labels
// the curve 0. The swept parameter's own flag is refused, since each
// curve sets it, and so is -values for a figure without a sweep.
func sweepValues(fs *flag.FlagSet, kind, values string) ([]float64, error) {
	sw, ok := sweeps[kind]
	if !ok {
		if values != "" {
			return nil, usageErrorf(fs, "-values applies to figure lambda and figure pace, not figure %s", kind)
		}
		return nil, nil
	}
	if flagSet(fs, sw.param) {
		return nil, usageErrorf(fs, "figure %s trains one model per %s of -values; leave out -%s", kind, sw.symbol, sw.param)
	}
	if values == "" {
		return sw.values, nil
	}
	var out []float64
	for _, p := range strings.Split(values, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, usageErrorf(fs, "-values: %q is not a number: give comma-separated %s values", strings.TrimSpace(p), sw.symbol)
		}
		if !sw.r.contains(v) {
			return nil, usageErrorf(fs, "-values: %s %s: want a number %s", sw.symbol, strings.TrimSpace(p), sw.r)
		}
		out = append(out, v)
	}
	return out, nil
}

// figureSweep: objective and test score per iteration for several λ0
// (kind lambda) or paces c (kind pace).
func figureSweep(j *figureJob, kind string) error {
	param := sweeps[kind].param
	curves, err := eval.Sweep(context.Background(), j.train, j.test, j.cfg, param, j.values)
	if err != nil {
		return err
	}
	rows := [][]string{{param, "iteration", "objective", "test_" + string(j.metric)}}
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
	if err := j.write(kind+".csv", csvText(rows)); err != nil {
		return err
	}
	if err := j.write(kind+"-objective.svg", figure.LineChart(fmt.Sprintf("%s: objective of %s per iteration", j.name, j.spName()), "iteration", "objective", obj)); err != nil {
		return err
	}
	m := strings.ToUpper(string(j.metric))
	return j.write(kind+"-test.svg", figure.LineChart(fmt.Sprintf("%s: mean test %s per iteration", j.name, m), "iteration", "test "+m, sc))
}

// figureSequential: per-task errors of spMTFL against every sequential row
// of the paper's landmine comparison.
func figureSequential(j *figureJob, _ string) error {
	spCfg := j.cfg
	spCfg.Model = "mtfl"
	sp, err := eval.Track(j.p, spCfg, j.test)
	if err != nil {
		return err
	}
	rows := [][]string{{"task", "spMTFL_error", "method", "method_error"}}
	for _, row := range method.SequentialTable() {
		if !row.Fixed {
			continue // the parallel rows (ITL, MTFL, spMTFL) are not task orderings
		}
		cfg := row.Config
		cfg.Loss, cfg.Seed = j.cfg.Loss, int64(j.seed)
		c, err := eval.Track(j.p, cfg, j.test)
		if err != nil {
			return err
		}
		var ps []figure.Point
		for t, v := range c.PerTask {
			e1, e2 := errorOf(j.metric, sp.PerTask[t]), errorOf(j.metric, v)
			rows = append(rows, []string{sp.Tasks[t], f(e1), row.Name, f(e2)})
			ps = append(ps, figure.Point{X: e1, Y: e2, Label: sp.Tasks[t]})
		}
		file := "sequential-" + strings.ToLower(strings.ReplaceAll(row.Name, "+", "p")) + ".svg"
		title := fmt.Sprintf("%s, per-task %s: spMTFL against %s (above y = x: spMTFL better)", j.name, j.errName, row.Name)
		if err := j.write(file, figure.Scatter(title, j.errName+", spMTFL", j.errName+", "+row.Name, ps, []string{"task"})); err != nil {
			return err
		}
	}
	return j.write("sequential.csv", csvText(rows))
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

func floats(v []float64) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = f(x)
	}
	return out
}

func f(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }

// csvText is the CSV text of rows, made inert for a spreadsheet (csvsafe:
// a task named "=1+1" is written '=1+1).
func csvText(rows [][]string) string { return csvsafe.Text(rows) }
