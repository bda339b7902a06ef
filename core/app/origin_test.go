package app

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/mtl"
)

// offsetCSV writes groups (g,y,x1,x2,kind) whose numeric features lie
// around 4, with a text column of two words; each group's intercept is
// drawn independent of its slopes at x = at (0, or 4: the means).
func offsetCSV(seed uint64, groups int, at float64) string {
	r := rand.New(rand.NewPCG(seed, 5))
	var sb strings.Builder
	sb.WriteString("g,y,x1,x2,kind\n")
	for g := 0; g < groups; g++ {
		b, w1, w2 := r.NormFloat64(), 1+0.5*r.NormFloat64(), -1+0.5*r.NormFloat64()
		for i, n := 0, 8+r.IntN(13); i < n; i++ {
			x1, x2, k := 4+r.NormFloat64(), 4+r.NormFloat64(), r.IntN(2)
			y := b + w1*(x1-at) + w2*(x2-at) + 0.3*float64(k) + 0.5*r.NormFloat64()
			fmt.Fprintf(&sb, "g%d,%.4f,%.4f,%.4f,%s\n", g, y, x1, x2, []string{"a", "b"}[k])
		}
	}
	return sb.String()
}

// TestTuneOrigin: tune moves the features' origin to (about) their means
// when the groups' intercepts were drawn there, and says why; it keeps it where
// they were drawn at x = 0, and where the visitor fixed it. Only the
// numeric features move (a text column's indicators stay 0 or 1), and a
// model saved after the move predicts its own training file as the fit
// did.
func TestTuneOrigin(t *testing.T) {
	for _, c := range []struct {
		name   string
		at     float64
		origin string
		moved  bool
	}{
		{"drawn at the means", 4, "", true},
		{"drawn at zero", 0, "", false},
		{"drawn at the means, origin fixed", 4, OriginZero, false},
	} {
		text := offsetCSV(2, 60, c.at)
		d, err := Load([]byte(text), LoadOptions{Name: "own.csv", TaskColumn: "g", LabelColumn: "y", Origin: c.origin})
		if err != nil {
			t.Fatal(err)
		}
		// A run made before tuning keeps the rows and the encoding it was made with.
		before, err := NewRun(d, TrainOptions{Config: mtl.Config{Model: "mmtl", Rho: 1}, All: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := before.Finish(); err != nil {
			t.Fatal(err)
		}
		res, err := Tune(context.Background(), d, TuneOptions{Config: mtl.Config{Model: "mmtl-joint"}, Seed: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		o, err := ParseOrigin(res.Origin)
		at := o.T
		if moved := o.Set && at != 0; err != nil || moved != c.moved || res.Origin != "" && res.Origin != d.Origin || moved != (d.Encoding.Center != nil) {
			t.Errorf("%s: result's origin %q (%s), data's %q, center %v", c.name, res.Origin, res.OriginNote, d.Origin, d.Encoding.Center)
			continue
		}
		if !c.moved {
			continue
		}
		if math.Abs(at-1) > 0.25 || !strings.Contains(res.OriginNote, "restricted likelihood is highest (−2 log L −") {
			t.Errorf("%s: the note %q", c.name, res.OriginNote)
		}
		// x1, x2 moved; kind=a, kind=b kept.
		if ctr := d.Encoding.Center; len(ctr) != 4 || ctr[0] == 0 || ctr[1] == 0 || ctr[2] != 0 || ctr[3] != 0 {
			t.Errorf("%s: centres %v, want the two numeric features' means and 0 for the indicators", c.name, ctr)
		}
		r, err := NewRun(d, TrainOptions{Config: res.Config, All: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Finish(); err != nil {
			t.Fatal(err)
		}
		if center := predictsItsFit(t, r, text); center == nil {
			t.Errorf("%s: the model fitted after the move has no means", c.name)
		}
		if center := predictsItsFit(t, before, text); center != nil {
			t.Errorf("%s: the model of a run made before the move took its means %v", c.name, center)
		}
	}
}

// slopeCSV writes groups (g,y,x,kind) of one numeric feature x, centred
// as written (uniform on −1 to 1), and a text column; each group's
// intercept is drawn independent of its slope at x = at: elsewhere they
// are correlated, as a mixed model's (1 + x | g) fits them.
func slopeCSV(seed uint64, groups int, at float64) string {
	r := rand.New(rand.NewPCG(seed, 7))
	var sb strings.Builder
	sb.WriteString("g,y,x,kind\n")
	for g := 0; g < groups; g++ {
		b, w := 1.5*r.NormFloat64(), 2+0.8*r.NormFloat64()
		for i, n := 0, 6+r.IntN(7); i < n; i++ {
			x, k := 2*r.Float64()-1, r.IntN(2)
			y := 10 + b + w*(x-at) + 0.3*float64(k) + 0.5*r.NormFloat64()
			fmt.Fprintf(&sb, "g%d,%.4f,%.4f,%s\n", g, y, x, []string{"a", "b"}[k])
		}
	}
	return sb.String()
}

// TestTuneOriginAlongOneFeature: with one numeric feature whose slopes
// vary, tune searches its origin along it, not along a multiple of its
// mean (about 0 here, where no multiple reaches the point): it moves to
// about where the intercepts were drawn independent of the slopes, writes
// it as the column's value in the file's units, and says why. Read with
// that setting, the file gets the same origin; the model fitted after it
// predicts its own training file as the fit did. A column that is not a
// numeric feature is refused by name.
func TestTuneOriginAlongOneFeature(t *testing.T) {
	text := slopeCSV(4, 80, -2.5)
	d, err := Load([]byte(text), LoadOptions{Name: "own.csv", TaskColumn: "g", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Tune(context.Background(), d, TuneOptions{Config: mtl.Config{Model: "mmtl-joint"}, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	o, err := ParseOrigin(res.Origin)
	if err != nil || o.Column != "x" || math.Abs(o.At+2.5) > 0.5 || res.Origin != d.Origin {
		t.Fatalf("tune's origin %q (%v), data's %q; want x about −2.5: %s", res.Origin, err, d.Origin, res.OriginNote)
	}
	if !strings.Contains(res.OriginNote, "the origin of x was moved to −") || !strings.Contains(res.OriginNote, "uncorrelated with the task's slope on x") {
		t.Errorf("the note %q", res.OriginNote)
	}
	// To a hundredth of x's spread (about 0.58): three decimals at most.
	if s := strconv.FormatFloat(o.At, 'f', -1, 64); len(s) > len("-2.512") {
		t.Errorf("the origin is written %s: finer than the likelihood tells apart", s)
	}
	again, err := Load([]byte(text), LoadOptions{Name: "own.csv", TaskColumn: "g", LabelColumn: "y", Origin: res.Origin})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Encoding.Center, d.Encoding.Center) || d.Encoding.Center[0] == 0 || d.Encoding.Center[1] != 0 {
		t.Errorf("read with origin %s: center %v; tune's %v", res.Origin, again.Encoding.Center, d.Encoding.Center)
	}
	r, err := NewRun(d, TrainOptions{Config: res.Config, All: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	if center := predictsItsFit(t, r, text); center == nil || center[0] != d.Encoding.Center[0] {
		t.Errorf("the saved model's origin %v, the data's %v", center, d.Encoding.Center)
	}
	for _, bad := range []string{"kind=1", "z=2"} {
		_, err := Load([]byte(text), LoadOptions{Name: "own.csv", TaskColumn: "g", LabelColumn: "y", Origin: bad})
		if err == nil || !strings.Contains(err.Error(), "is not a numeric feature column (they are x)") {
			t.Errorf("origin %s: %v", bad, err)
		}
	}
}

// TestTuneOneModelMovesTheOrigin: a model tuned alone (tune -model mtfl)
// is tuned on the data the search over every model tunes it on: the
// origin moves as it does there, though no candidate is a mixed model's,
// and its row (setting and scores) is that table's row. Before, its
// setting and score differed from the row it was asked to reproduce.
func TestTuneOneModelMovesTheOrigin(t *testing.T) {
	text := slopeCSV(4, 40, -2.5)
	load := func() *Data {
		d, err := Load([]byte(text), LoadOptions{Name: "own.csv", TaskColumn: "g", LabelColumn: "y"})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	all, err := Tune(context.Background(), load(), TuneOptions{Seed: 1, Config: mtl.Config{Model: ""}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if all.Origin == "" {
		t.Fatalf("the search over every model kept the origin as written: %s", all.Search)
	}
	i := slices.IndexFunc(all.Models, func(m ModelScore) bool { return m.Key == "mtfl" && !m.SelfPaced })
	if i < 0 {
		t.Fatal("no MTFL row in the table")
	}
	d := load()
	one, err := Tune(context.Background(), d, TuneOptions{Seed: 1, Config: mtl.Config{Model: "mtfl"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, got := all.Models[i], one.Models[0]
	if one.Origin != all.Origin || d.Origin != all.Origin {
		t.Errorf("MTFL alone: origin %q (data %q), the table's %q", one.Origin, d.Origin, all.Origin)
	}
	if got.Config.Rho != want.Config.Rho || got.Config.Intercept != want.Config.Intercept || got.Score != want.Score || got.Best != want.Best {
		t.Errorf("MTFL alone: ρ %g κ %g, %v (best %v); the table's row: ρ %g κ %g, %v (best %v)",
			got.Config.Rho, got.Config.Intercept, got.Score, got.Best, want.Config.Rho, want.Config.Intercept, want.Score, want.Best)
	}
}

// TestParseOrigin: the setting's words, numbers and column=value points,
// written back as read.
func TestParseOrigin(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Origin
		out  string
	}{
		{"", Origin{}, OriginAuto},
		{"auto", Origin{}, OriginAuto},
		{"zero", Origin{Set: true}, OriginZero},
		{"means", Origin{Set: true, T: 1}, OriginMeans},
		{"0.3", Origin{Set: true, T: 0.3}, "0.3"},
		{"age=-3.051", Origin{Set: true, Column: "age", At: -3.051}, "age=-3.051"},
		{" Time = 3.2 ", Origin{Set: true, Column: "Time", At: 3.2}, "Time=3.2"},
		{"a=b=1e3", Origin{Set: true, Column: "a=b", At: 1000}, "a=b=1000"},
	} {
		got, err := ParseOrigin(c.in)
		if err != nil || got != c.want || got.String() != c.out {
			t.Errorf("%q: %+v (%v), written %q; want %+v, %q", c.in, got, err, got.String(), c.want, c.out)
		}
	}
	for _, bad := range []string{"middle", "11", "=2", "age=", "age=NaN", "age=x"} {
		if _, err := ParseOrigin(bad); err == nil {
			t.Errorf("%q was read", bad)
		}
	}
}

// predictsItsFit saves r's model, reads it back and checks that it
// predicts text, the file r trained on every row of, as r's fit does; it
// returns the model's means.
func predictsItsFit(t *testing.T, r *Run, text string) []float64 {
	t.Helper()
	mf, err := r.ModelFile(Trained{File: "own.csv", All: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := mf.JSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadModel(b, "model.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Predict(back, []byte(text), "own.csv")
	if err != nil {
		t.Fatal(err)
	}
	fitted, err := r.Learner.Model().PredictDataset(r.Train)
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	for _, task := range fitted { // the file is written group by group
		for _, v := range task {
			if math.Abs(p.Values[k]-v) > 1e-9*(1+math.Abs(v)) {
				t.Fatalf("row %d predicted %v from the file, %v by the fit", k+1, p.Values[k], v)
			}
			k++
		}
	}
	return back.Encoding.Center
}

// TestOriginMeansNotes: the means asked for on a file without a numeric
// feature move nothing, and the summary says so; with one, it says
// nothing (the menu says what was asked).
func TestOriginMeansNotes(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"categories only", "g,y,kind\na,1,u\na,2,v\nb,3,u\nb,5,v\n", "the features' origin at the numeric features' means moves nothing here: the file has no numeric feature, and a category's indicators stay 0 or 1"},
		{"a number", "g,y,kind,x\na,1,u,1\na,2,v,2\nb,3,u,3\nb,5,v,5\n", ""},
	} {
		d, err := Load([]byte(c.text), LoadOptions{Name: "m.csv", TaskColumn: "g", Origin: OriginMeans})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := d.Summary().OriginNote; got != c.want {
			t.Errorf("%s: OriginNote %q, want %q", c.name, got, c.want)
		}
	}
}

// TestTaskLevelFixed: a file with a diet per group (a task-level
// category) and a dose per group beside a within-group x reads them as
// task-level (data.Encoding.Fixed), and the summary names them; MMTL's
// tasks then share one weight on them (their deviations have no room),
// its model says so per standard deviation, and a model saved after
// predicts its own file as the fit did.
func TestTaskLevelFixed(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 1))
	var sb strings.Builder
	sb.WriteString("g,y,x,diet,dose\n")
	for g := 0; g < 40; g++ {
		diet, dose := []string{"a", "b", "c"}[g%3], 1+float64(g%4)
		b, w := r.NormFloat64(), 1+0.5*r.NormFloat64()
		for i := 0; i < 6+r.IntN(6); i++ {
			x := r.NormFloat64()
			y := b + w*x + 0.8*float64(g%3) + 0.5*dose + 0.3*r.NormFloat64()
			fmt.Fprintf(&sb, "g%d,%.4f,%.4f,%s,%g\n", g, y, x, diet, dose)
		}
	}
	text := sb.String()
	d, err := Load([]byte(text), LoadOptions{Name: "own.csv", TaskColumn: "g", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	// x, diet=a, diet=b, diet=c, dose
	if got := d.Encoding.Fixed; !slices.Equal(got, []int{1, 2, 3, 4}) {
		t.Fatalf("fixed %v, want the diet's indicators and the dose (1-4)", got)
	}
	if got, want := d.Summary().FixedNote, "diet and dose are constant within every task (a task-level covariate): a shared effect, which the tasks do not deviate from, as a mixed model's fixed effect"; got != want {
		t.Errorf("FixedNote %q, want %q", got, want)
	}
	run, err := NewRun(d, TrainOptions{Config: mtl.Config{Model: "mmtl-joint", Rho: 1, Intercept: 1}, All: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run.Finish(); err != nil {
		t.Fatal(err)
	}
	m := run.Learner.Model()
	mean := run.Learner.(interface{ Theta() *mtl.Theta }).Theta().Mean
	for k, w := range m.W {
		for _, j := range d.Encoding.Fixed {
			if dev := math.Abs(w[j] - mean[j]); dev > 1e-4*(1+math.Abs(mean[j])) {
				t.Fatalf("task %d deviates from the shared weight on fixed feature %d by %g (weight %g, shared %g)", k, j, dev, w[j], mean[j])
			}
		}
		if k > 0 && math.Abs(w[0]-m.W[0][0]) < 1e-6 {
			t.Errorf("tasks 0 and %d have the same weight on x (%g): x is not task-level", k, w[0])
		}
	}
	mf, err := run.ModelFile(Trained{File: "own.csv", All: true})
	if err != nil {
		t.Fatal(err)
	}
	ins := Inspect(mf)
	if len(ins.Charts) == 0 || !strings.Contains(ins.Explain, "diet=a, diet=b, diet=c and dose are constant within every task") {
		t.Fatalf("the inspection %q", ins.Explain)
	}
	// The dose's shared weight, per standard deviation, is about 0.5 × its
	// SD (about 1.1): not a thousand times that.
	if v := ins.Charts[0].Values[4]; v < 0.2 || v > 1.5 {
		t.Errorf("the dose's weight per standard deviation is %v", v)
	}
	predictsItsFit(t, run, text)
}

// TestTuneOriginStaysWithoutVaryingSlopes: when every numeric feature is
// constant within every task (a brood's year and height, as lme4's
// grouseticks), no slope varies by task and tune leaves the origin as
// written: moved, it changed only how the held features' tiny deviations
// (§14) split the intercepts' variance, and no prediction.
func TestTuneOriginStaysWithoutVaryingSlopes(t *testing.T) {
	// The broods' levels spread more the lower they nest: the likelihood of
	// the model with the held height's deviations moved the origin to 1.37
	// times the means (−2 log L 190.1, against 206.8 at x = 0).
	rng := rand.New(rand.NewPCG(4, 4))
	var sb strings.Builder
	sb.WriteString("brood,year,height,ticks\n")
	for g := 0; g < 100; g++ {
		year, height := 1995+g%3, 400+130*rng.Float64()
		c := 0.02 * (540 - height) * rng.NormFloat64()
		for range 1 + rng.IntN(8) {
			fmt.Fprintf(&sb, "b%d,\"%d\",%.0f,%.3f\n", g, year, height, 3+c+0.8*float64(year-1996)-0.02*(height-460)+rng.NormFloat64())
		}
	}
	d, err := Load([]byte(sb.String()), LoadOptions{Name: "ticks.csv", TaskColumn: "brood", LabelColumn: "ticks"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Tune(context.Background(), d, TuneOptions{Config: mtl.Config{Model: "mmtl-joint"}, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Origin != "" || res.OriginNote != "" || d.Origin != "" {
		t.Errorf("tune moved the origin to %q: %s", res.Origin, res.OriginNote)
	}
}
