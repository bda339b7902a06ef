package app

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
)

func est(v, se float64) eval.Estimate { return eval.Estimate{Value: v, SE: se, N: 100} }

// TestChooseModel: the simplest model within one standard error of the
// best is chosen, and the sentence says so; a model without a score is
// never chosen.
func TestChooseModel(t *testing.T) {
	nan := eval.Undefined()
	for _, c := range []struct {
		name   string
		metric eval.Metric
		best   []eval.Estimate // simplest first
		want   int
		reason string
	}{
		{"planted tie: the simpler within one SE", eval.RMSEMetric, []eval.Estimate{est(2.4, 0.01), est(2.29, 0.012), est(2.281, 0.012)}, 1,
			"spMMTL scored best (2.281 ± 0.012); MMTL is within one standard error and simpler: chosen."},
		{"no tie: the best", eval.RMSEMetric, []eval.Estimate{est(2.4, 0.01), est(2.3, 0.012), est(2.281, 0.012)}, 2,
			"spMMTL scored best (2.281 ± 0.012): chosen."},
		{"the simplest of several within one SE", eval.RMSEMetric, []eval.Estimate{est(2.292, 0.01), est(2.29, 0.012), est(2.281, 0.012)}, 0, "STL is within"},
		{"the SE is the best model's", eval.RMSEMetric, []eval.Estimate{est(2.3, 0.5), est(2.281, 0.012), est(2.29, 0.012)}, 1, "MMTL scored best"},
		{"higher is better", eval.AUCMetric, []eval.Estimate{est(0.7, 0.01), est(0.79, 0.02), est(0.8, 0.02)}, 1, "MMTL is within"},
		{"undefined scores are never chosen", eval.LogLossMetric, []eval.Estimate{nan, est(0.6, 0.1), nan}, 1, "MMTL scored best"},
		{"nothing scored", eval.RMSEMetric, []eval.Estimate{nan, nan, nan}, -1, "no model could be scored"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var models []ModelScore
			for i, name := range []string{"STL", "MMTL", "spMMTL"} {
				models = append(models, ModelScore{Name: name, Best: c.best[i]})
			}
			got, reason := ChooseModel(c.metric, models)
			if got != c.want || !strings.Contains(reason, c.reason) {
				t.Errorf("chose %d (%q), want %d (%q)", got, reason, c.want, c.reason)
			}
		})
	}
}

// TestPickPoint: within a grid, the point with the largest ρ (or multiple
// of λ0) within one SE of the best, the better score on a tie.
func TestPickPoint(t *testing.T) {
	nan := eval.Undefined()
	for _, c := range []struct {
		name         string
		ests         []eval.Estimate
		simpler      []float64
		best, chosen int
	}{
		{"a larger rho within one SE", []eval.Estimate{est(1.0, 0.05), est(0.9, 0.05), est(0.94, 0.01), est(1.2, 0.01)}, []float64{0.1, 1, 10, 100}, 1, 2},
		{"none within: the best", []eval.Estimate{est(1.0, 0.01), est(0.9, 0.01), est(0.99, 0.01)}, []float64{0.1, 1, 10}, 1, 1},
		{"same rho, several kappa: the better", []eval.Estimate{est(0.9, 0.05), est(0.93, 0.01), est(0.92, 0.01)}, []float64{1, 10, 10}, 0, 2},
		{"failed points are skipped", []eval.Estimate{nan, est(0.9, 0.05), nan}, []float64{1, 10, 100}, 1, 1},
		{"nothing scored", []eval.Estimate{nan, nan}, []float64{1, 10}, -1, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			best, chosen := pickPoint(eval.RMSEMetric, c.ests, c.simpler)
			if best != c.best || chosen != c.chosen {
				t.Errorf("best %d, chosen %d; want %d, %d", best, chosen, c.best, c.chosen)
			}
		})
	}
}

// TestTuneCandidates: without a model every family is a candidate,
// simplest first and each baseline before its self-paced version; -model
// restricts the search to that family (-selfpaced to its self-paced
// version), and a fixed method is refused.
func TestTuneCandidates(t *testing.T) {
	all := []string{"stl", "mmtl-joint", "mmtl", "spmmtl", "mtfl-mean", "spmtfl-mean", "itl", "mtfl", "spmtfl", "mtaso", "spmtaso"}
	for _, c := range []struct {
		cfg  mtl.Config
		want []string
		err  string
	}{
		{mtl.Config{}, all, ""},
		{mtl.Config{SelfPaced: true}, []string{"spmmtl", "spmtfl-mean", "spmtfl", "spmtaso"}, ""},
		{mtl.Config{Model: "mmtl"}, []string{"mmtl"}, ""},
		{mtl.Config{Model: "MTFL", SelfPaced: true}, []string{"spmtfl"}, ""},
		{mtl.Config{Model: "itl", SelfPaced: true}, nil, "itl has no self-paced version"},
		{mtl.Config{Model: "ella"}, nil, "nothing to tune"},
	} {
		fams, err := families(TuneOptions{Config: c.cfg})
		var got []string
		for _, f := range fams {
			got = append(got, map[bool]string{true: "sp"}[f.selfPaced]+f.key)
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") || (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%+v: %v (%v), want %v (%q)", c.cfg, got, err, c.want, c.err)
		}
	}
}

// TestTuneModel: -model restricts Tune to the family; every candidate
// takes the own-data profile on a visitor's file, and the chosen
// configuration is the one the result's legacy grid marks.
func TestTuneModel(t *testing.T) {
	d, err := Load(groupedCSV(30, 2), LoadOptions{Name: "grouped.csv", TaskColumn: "school", LabelColumn: "score"})
	if err != nil {
		t.Fatal(err)
	}
	rho := []float64{0.1, 10}
	for _, c := range []struct {
		cfg  mtl.Config
		name string
	}{{mtl.Config{Model: "mmtl"}, "MMTL"}, {mtl.Config{Model: "mtfl", SelfPaced: true}, "spMTFL"}} {
		res, err := Tune(context.Background(), d, TuneOptions{Config: c.cfg, Rho: rho, Kappa: []float64{1, 4}, Seed: 1, Workers: 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Models) != 1 || res.Models[0].Name != c.name || res.Chosen != 0 {
			t.Fatalf("%s: models %+v", c.name, res.Models)
		}
		got := res.Config
		if got.Scale != mtl.SumLoss || got.PaceCost != mtl.LOOCost || got.MaxIter != OwnMaxIter || got != res.Models[0].Config {
			t.Errorf("%s: chose %+v, want the own-data profile and the model's config", c.name, got)
		}
		if v := res.Scores[res.Best[0]][res.Best[1]]; math.IsNaN(v) || v != res.Models[0].Score.Value {
			t.Errorf("%s: the grid's best cell %v, the model's score %v", c.name, v, res.Models[0].Score.Value)
		}
		if res.Metric != "rmse" || !res.Pooled || len(res.Intercept) != len(TuneIntercept) {
			t.Errorf("%s: metric %s, pooled %v, intercept grid %v", c.name, res.Metric, res.Pooled, res.Intercept)
		}
	}
}

// TestInterceptGrid: κ is tuned on a visitor's dense file only.
func TestInterceptGrid(t *testing.T) {
	own, err := Load(groupedCSV(5, 3), LoadOptions{Name: "own.csv", TaskColumn: "school", LabelColumn: "score"})
	if err != nil {
		t.Fatal(err)
	}
	bundled, err := Load(groupedCSV(5, 3), LoadOptions{Name: "bundled.csv", TaskColumn: "school", LabelColumn: "score", Bundled: true})
	if err != nil {
		t.Fatal(err)
	}
	if g := interceptGrid(own, TuneOptions{}); len(g) != len(TuneIntercept) {
		t.Errorf("own data: %v", g)
	}
	if g := interceptGrid(bundled, TuneOptions{}); len(g) != 1 || g[0] != 0 {
		t.Errorf("bundled data: %v", g)
	}
}

// TestTuneSearchSteps: the search handed out batch by batch and scored
// elsewhere (as the page's worker pool does) chooses what Tune chooses,
// and its progress ends at its total.
func TestTuneSearchSteps(t *testing.T) {
	d, err := Load(groupedCSV(12, 3), LoadOptions{Name: "own.csv", TaskColumn: "school", LabelColumn: "score"})
	if err != nil {
		t.Fatal(err)
	}
	opt := TuneOptions{Seed: 2, Workers: 2}
	want, err := Tune(context.Background(), d, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := NewTuneSearch(d, opt)
	if err != nil {
		t.Fatal(err)
	}
	folds, err := NewTuneFoldSet(d, 3, opt.Seed, opt.NewTasks)
	if err != nil {
		t.Fatal(err)
	}
	batches := 0
	for batch := ts.Next(); batch != nil; batch = ts.Next() {
		batches++
		// The total never falls behind what is scored and asked for.
		if done, total := ts.Progress(); done+len(batch) > total {
			t.Errorf("batch %d: %d points scored and %d asked for, of a total of %d", batches, done, len(batch), total)
		}
		res := make([]TunePointResult, len(batch))
		for i := len(batch) - 1; i >= 0; i-- { // any order of scoring
			res[i] = folds.Score(batch[i])
		}
		if err := ts.Feed(res); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ts.Result()
	if err != nil {
		t.Fatal(err)
	}
	if done, total := ts.Progress(); done != total || batches < 5 {
		t.Errorf("progress %d of %d after %d batches", done, total, batches)
	}
	if got.Models[got.Chosen].Name != want.Models[want.Chosen].Name || got.Config != want.Config || got.Reason != want.Reason {
		t.Errorf("stepped: %s %+v (%s); Tune: %s %+v (%s)", got.Models[got.Chosen].Name, got.Config, got.Reason, want.Models[want.Chosen].Name, want.Config, want.Reason)
	}
}

// TestFailedNote: a grid some of whose points failed says how many and why
// the first did, with its setting; a grid that scored every point says
// nothing.
func TestFailedNote(t *testing.T) {
	ok := eval.Estimate{Value: 1, SE: 0.1, N: 10}
	pt := func(rho, kappa float64, err error, est eval.Estimate) gridPoint {
		return gridPoint{cfg: mtl.Config{Rho: rho, Intercept: kappa, AutoLambda0: 4}, err: err, est: est}
	}
	for _, tc := range []struct {
		grid      []gridPoint
		selfPaced bool
		want      string
	}{
		{[]gridPoint{pt(1, 0.1, nil, ok), pt(10, 0.1, nil, ok)}, false, ""},
		{[]gridPoint{pt(1, 0.1, nil, ok), pt(6.2e-6, 8.06e12, errors.New("fold 1 of 3: out of range"), eval.Undefined()), pt(3, 0, nil, eval.Undefined())}, false,
			"2 of 3 points could not be scored; the first (ρ 6.2e-06, κ 8.06e+12): fold 1 of 3: out of range"},
		{[]gridPoint{pt(3, 0, nil, eval.Undefined()), pt(1, 0, nil, ok)}, true, "1 of 2 points could not be scored; the first (ρ 3, λ0 auto*4): its score is not defined"},
	} {
		if got := failedNote(tc.grid, tc.selfPaced); got != tc.want {
			t.Errorf("failedNote = %q, want %q", got, tc.want)
		}
	}
}

// TestCappedNote: a grid whose chosen point's fits stopped at the
// iteration cap says so, with how many folds and points; a chosen point
// whose fits converged says nothing, whatever the other points did.
func TestCappedNote(t *testing.T) {
	ok := eval.Estimate{Value: 1, SE: 0.1, N: 10}
	pt := func(capped int) gridPoint {
		return gridPoint{cfg: mtl.Config{Rho: 1, MaxIter: 1000}, est: ok, capped: capped}
	}
	for _, tc := range []struct {
		grid   []gridPoint
		chosen int
		want   string
	}{
		{[]gridPoint{pt(0), pt(3)}, 0, ""},
		{[]gridPoint{pt(0), pt(3), pt(1)}, 1, "at the chosen setting the fits of 3 folds stopped at the iteration cap (1000) without converging (some fold's did at 2 of the grid's 3 points): its CV score is that of fits stopped at the cap, not of the model at its optimum"},
		{[]gridPoint{pt(1)}, 0, "at the chosen setting the fit of 1 fold stopped at the iteration cap (1000) without converging (some fold's did at 1 of the grid's 1 points): its CV score is that of fits stopped at the cap, not of the model at its optimum"},
	} {
		if got := cappedNote(tc.grid, tc.chosen); got != tc.want {
			t.Errorf("cappedNote = %q,\nwant %q", got, tc.want)
		}
	}
}

// TestScoreCountsCappedFolds: a point whose fits stop at the
// iteration cap counts its folds (the note above reads them); the same
// point with room to converge counts none.
func TestScoreCountsCappedFolds(t *testing.T) {
	number := func(t, i int) string { return fmt.Sprintf("%.3f", 0.3*float64(t)+0.1*float64((i*13+t*7)%11-5)) }
	d, err := Load(tuneCSV(3, 12, number), LoadOptions{Name: "capped.csv", TaskColumn: "task", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	folds, err := NewTuneFoldSet(d, 3, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		maxIter, want int
	}{{2, 3}, {1000, 0}} {
		cfg := configFor(d, mtl.Config{Model: "mtfl", Rho: 0.1, Seed: 1, MaxIter: c.maxIter}).Defaults(false)
		if r := folds.Score(cfg); r.Failure != "" || r.Capped != c.want {
			t.Errorf("maxIter %d: capped %d (failure %q), want %d", c.maxIter, r.Capped, r.Failure, c.want)
		}
	}
}

// TestPlusMinus: four significant digits and two of the error, their
// zeros kept (0.6100 ± 0.020) and no point left after a whole number
// (279.8 ± 12, not ± 12.; 1234 for 1234.4).
func TestPlusMinus(t *testing.T) {
	for _, c := range []struct {
		e    eval.Estimate
		want string
	}{
		{eval.Estimate{Value: 0.61, SE: 0.02}, "0.6100 ± 0.020"},
		{eval.Estimate{Value: 279.84, SE: 12.2}, "279.8 ± 12"},
		{eval.Estimate{Value: 1234.4, SE: 0.5}, "1234 ± 0.50"},
		{eval.Estimate{Value: 1234.4, SE: math.NaN()}, "1234"},
		{eval.Estimate{Value: 2.5e-7, SE: 1e-8}, "2.500e-07 ± 1.0e-08"},
	} {
		if got := plusMinus(c.e); got != c.want {
			t.Errorf("plusMinus(%v ± %v) = %q, want %q", c.e.Value, c.e.SE, got, c.want)
		}
	}
}

// TestPrintedTies: models whose scores print as the best one's are named
// with how far behind they are; one that prints differently is not.
func TestPrintedTies(t *testing.T) {
	ms := []ModelScore{
		{Name: "MTFL", Score: eval.Estimate{Value: 0.435412, SE: 0.027}},
		{Name: "spMTFL", Score: eval.Estimate{Value: 0.435381, SE: 0.027}},
		{Name: "spMTFL-mean", Score: eval.Estimate{Value: 0.435399, SE: 0.027}},
		{Name: "ITL", Score: eval.Estimate{Value: 0.4369, SE: 0.027}},
	}
	if got, want := printedTies(ms, 1), "; ahead of MTFL by 3.1e-05, of spMTFL-mean by 1.8e-05, which print the same"; got != want {
		t.Errorf("printedTies = %q, want %q", got, want)
	}
	if got := printedTies(ms[1:2], 0); got != "" {
		t.Errorf("printedTies of one model = %q", got)
	}
}

// TestChoiceSaysWhenTheModelCannotPredictANewTask: a chosen model with no
// predictor for a task it was not trained on (ITL here) says so in the
// choice, as predict would only say at the refusal of a new group; MMTL,
// which has one, does not.
func TestChoiceSaysWhenTheModelCannotPredictANewTask(t *testing.T) {
	number := func(t, i int) string { return fmt.Sprintf("%.3f", 0.3*float64(t)+0.1*float64((i*13+t*7)%11-5)) }
	for _, c := range []struct {
		model string
		says  bool
	}{{"itl", true}, {"mmtl-joint", false}} {
		d, err := Load(tuneCSV(4, 12, number), LoadOptions{Name: "t.csv", TaskColumn: "task", LabelColumn: "y"})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Tune(context.Background(), d, TuneOptions{Config: mtl.Config{Model: c.model}, Seed: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(res.Reason, "learns no predictor apart from the tasks', so its model predicts only these tasks; STL, MMTL and MTFL-mean also predict a new one"); got != c.says {
			t.Errorf("%s: the choice %q (says it: %v, want %v)", c.model, res.Reason, got, c.says)
		}
	}
}

// TestCatalogueNewTaskAgreesWithTheModels: the catalogue's NewTask (what
// the choice says of a model) is whether the model file of a fit of that
// method has a predictor for a new task (what predict uses).
func TestCatalogueNewTaskAgreesWithTheModels(t *testing.T) {
	number := func(t, i int) string { return fmt.Sprintf("%.3f", 0.3*float64(t)+0.1*float64((i*13+t*7)%11-5)) }
	d, err := Load(tuneCSV(4, 12, number), LoadOptions{Name: "t.csv", TaskColumn: "task", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range method.Keys() {
		m, _ := method.Lookup(key)
		if m.Kind != method.Parallel {
			continue
		}
		r, err := NewRun(d, TrainOptions{Config: mtl.Config{Model: key, Rho: 1, MaxIter: 5}, All: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Finish(); err != nil {
			t.Fatal(err)
		}
		mf, err := r.ModelFile(Trained{File: "t.csv", Rows: d.All.Rows(), All: true})
		if err != nil {
			t.Fatal(err)
		}
		if p, _ := mf.NewTaskPredictor(); (p != nil) != m.NewTask {
			t.Errorf("%s: the catalogue says NewTask %v, its model file has a predictor for a new task: %v", key, m.NewTask, p != nil)
		}
	}
}

// TestCatalogueTuneFolds: the page's menu of folds starts at the search's
// default, which it offers, and offers only folds a search accepts (2 or
// more, increasing).
func TestCatalogueTuneFolds(t *testing.T) {
	m := GetCatalog().TuneFolds
	if !slices.Contains(m.Choices, m.Default) || m.Default != DefaultTuneFolds {
		t.Errorf("menu %v starts at %d, the search's default %d", m.Choices, m.Default, DefaultTuneFolds)
	}
	for i, k := range m.Choices {
		if k < 2 || i > 0 && k <= m.Choices[i-1] {
			t.Errorf("menu %v: %d", m.Choices, k)
		}
	}
}

// TestBehindBases: a self-paced version is left out when its baseline is
// more than three paired standard errors behind the best baseline, or
// more than one when the baseline's chosen fits stopped at the iteration
// cap; within those bounds, and in a search that names a model, it is
// tried.
func TestBehindBases(t *testing.T) {
	// Row losses: the best baseline's, and one shifted by k standard
	// errors of the paired difference (the shift's noise has sd 1).
	n := 400
	best := make([]float64, n)
	noise := make([]float64, n)
	for i := range best {
		best[i] = 1 + 0.5*math.Sin(float64(i))
		noise[i] = math.Cos(3 * float64(i))
	}
	sd := 0.0
	for _, v := range noise {
		sd += v * v
	}
	se := math.Sqrt(sd/float64(n-1)) / math.Sqrt(float64(n))
	behind := func(k float64) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = best[i] + noise[i] + k*se
		}
		return out
	}
	const capped = "at the chosen setting the fits of 3 folds stopped at the iteration cap"
	for _, c := range []struct {
		name   string
		k      float64 // MTASO's baseline, standard errors behind MMTL
		capped bool
		model  string // the search's -model
		want   string // the start of why spMTASO is not tried; "" tried
	}{
		{"close", 0.5, false, "", ""},
		{"close, capped", 0.5, true, "", ""},
		{"two behind", 2, false, "", ""},
		{"two behind, capped", 2, true, "", "not tried: its baseline's fits stopped at the iteration cap"},
		{"four behind", 4, false, "", "not tried: its baseline scored"},
		{"four behind, capped", 4, true, "", "not tried: its baseline scored"},
		{"two behind, capped, model named", 2, true, "mtaso", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			mtaso := scored{model: ModelScore{Key: "mtaso", Score: est(2, 0.1)}, losses: behind(c.k)}
			if c.capped {
				mtaso.model.CappedNote = capped
			}
			s := &TuneSearch{
				opt:      TuneOptions{Config: mtl.Config{Model: c.model}},
				bases:    []*baseSearch{{key: "mmtl-joint"}, {key: "mtaso"}},
				fams:     []family{{key: "mmtl-joint"}, {key: "mmtl", selfPaced: true}, {key: "mtaso"}, {key: "mtaso", selfPaced: true}},
				paceFrom: map[string]string{"mmtl-joint": "mmtl-joint", "mmtl": "mmtl-joint", "mtaso": "mtaso"},
				base: map[string]scored{
					"mmtl-joint": {model: ModelScore{Key: "mmtl-joint", Score: est(1, 0.1)}, losses: best},
					"mtaso":      mtaso,
				},
				metric: eval.LogLossMetric,
			}
			got := s.behindBases()
			if why := got["mtaso"]; !strings.HasPrefix(why, c.want) || (c.want == "") != (why == "") {
				t.Errorf("spMTASO: %q, want it to start with %q", why, c.want)
			}
			if why := got["mmtl"]; why != "" {
				t.Errorf("spMMTL, whose baseline is the best: %q", why)
			}
		})
	}
}
