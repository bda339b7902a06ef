package e2e

// The embed protocol end to end on a host's own data: the example
// supplement (examples/supplement-own-data.html) loads exam scores whose
// columns are not named task and y, with its column roles, through
// spmtl:load; a refused key and an applied column role through spmtl:set;
// the scores and the model in spmtl:results, equal to Go's own run.

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/mtl"
)

// hostMessage is a message the host heard from the learner.
type hostMessage struct {
	Type     string            `json:"type"`
	Version  int               `json:"version"`
	Message  string            `json:"message"`
	Keys     []string          `json:"keys"`
	Settings map[string]string `json:"settings"`
	Summary  struct {
		TaskColumn   string   `json:"taskColumn"`
		LabelColumn  string   `json:"labelColumn"`
		Features     int      `json:"features"`
		FeatureNames []string `json:"featureNames"`
	} `json:"summary"`
	Scores *struct {
		Metric    string              `json:"metric"`
		HeldOut   bool                `json:"heldOut"`
		TrainRows int                 `json:"trainRows"`
		TestRows  int                 `json:"testRows"`
		Note      string              `json:"note"`
		Labels    map[string]string   `json:"labels"`
		Mean      map[string]*float64 `json:"mean"`
		Tasks     []map[string]any    `json:"tasks"`
	} `json:"scores"`
	Model  json.RawMessage `json:"model"`
	Config json.RawMessage `json:"config"`
}

// heardSince returns what the host heard from message n on (snapshots left out).
func heardSince(b *browser, n int) []hostMessage {
	b.t.Helper()
	return eval[[]hostMessage](b, `supplement.heard.slice(`+strconv.Itoa(n)+`).filter((m) => m.type !== "spmtl:snapshot")`)
}

// TestSupplementOnOwnData: the example supplement's data (exam.csv's rows,
// task column school, label score, student an id, sex and intake words)
// goes to the learner with its column roles in spmtl:load: it is read with
// them (student left out: one feature fewer than with it). The results
// carry each task's score and the means of the model, its baseline and
// ITL, equal to Go's run with the configuration the learner reports, and
// the model file. spmtl:set refuses a key it does not apply (naming it,
// applying nothing) and applies a column role by reading the data again.
// train "all" trains on every row, and the results say there is no
// held-out score. Every message from the learner carries version 2.
func TestSupplementOnOwnData(t *testing.T) {
	b := newBrowser(t)
	b.do(chromedp.Navigate(b.base + "/examples/supplement-own-data.html"))
	b.waitFor(`!!(window.supplement && supplement.results)`, 90*time.Second)
	heard := heardSince(b, 0)
	var loaded, results *hostMessage
	for i := range heard {
		if heard[i].Version != 2 {
			t.Errorf("the learner's %s has version %d, want 2", heard[i].Type, heard[i].Version)
		}
		switch heard[i].Type {
		case "spmtl:loaded":
			loaded = &heard[i]
		case "spmtl:results":
			results = &heard[i]
		case "spmtl:error":
			t.Errorf("the learner refused: %s", heard[i].Message)
		}
	}
	if loaded == nil || results == nil || results.Scores == nil {
		t.Fatalf("the host heard %+v", heard)
	}
	_, examText := examCSV(t)
	opts := app.LoadOptions{Name: "exam.csv", TaskColumn: "school", LabelColumn: "score", Drop: []string{"student"}, Text: []string{"sex", "intake"}}
	d, err := app.Load(examText, opts)
	if err != nil {
		t.Fatal(err)
	}
	withID, err := app.Load(examText, app.LoadOptions{Name: "exam.csv", TaskColumn: "school", LabelColumn: "score", Text: []string{"sex", "intake"}})
	if err != nil {
		t.Fatal(err)
	}
	s := loaded.Summary
	if s.TaskColumn != "school" || s.LabelColumn != "score" || s.Features != d.All.Features || s.Features != withID.All.Features-1 ||
		slices.Contains(s.FeatureNames, "student") {
		t.Errorf("the learner read the host's data as %+v, want task school, label score and Go's %d features (student left out)", s, d.All.Features)
	}
	if loaded.Settings["drop"] != "student" || loaded.Settings["task"] != "school" || loaded.Settings["train"] != "0.75" {
		t.Errorf("the settings after spmtl:load: %v", loaded.Settings)
	}

	// Go's run with the configuration the learner ran, on the same split.
	var cfg mtl.Config
	if err := json.Unmarshal(results.Config, &cfg); err != nil {
		t.Fatal(err)
	}
	run, err := app.NewRun(d, app.TrainOptions{Config: cfg, Train: 0.75, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run.Finish(); err != nil {
		t.Fatal(err)
	}
	ev, err := run.Evaluate()
	if err != nil {
		t.Fatal(err)
	}
	sc := results.Scores
	if sc.Metric != "rmse" || !sc.HeldOut || sc.TrainRows != run.Train.Rows() || len(sc.Tasks) != len(ev.Tasks) {
		t.Fatalf("the scores %+v, want RMSE on held-out rows of %d tasks, %d training rows", sc, len(ev.Tasks), run.Train.Rows())
	}
	// The browser's exp is Go's pure one, the native amd64 one its
	// assembly: the runs agree to rounding, not to the bit.
	near := func(g *float64, w float64) bool {
		return (g == nil) == math.IsNaN(w) && (g == nil || math.Abs(*g-w) <= 1e-9*math.Max(1, math.Abs(w)))
	}
	if m := sc.Mean["main"]; !near(m, ev.Mean) {
		t.Errorf("the mean test RMSE %v, Go's %.17g", m, ev.Mean)
	}
	for i, task := range sc.Tasks {
		var g *float64
		if v, ok := task["main"].(float64); ok {
			g = &v
		}
		if task["task"] != ev.Tasks[i] || !near(g, ev.Test[i]) {
			t.Errorf("task %d: %v, Go's %s %.17g", i, task, ev.Tasks[i], ev.Test[i])
		}
		// A task too small to test has no score under any model.
		_, base := task["baseline"].(float64)
		_, itl := task["itl"].(float64)
		if base != (g != nil) || itl != (g != nil) {
			t.Errorf("task %d: the model's, the baseline's and ITL's scores %v", i, task)
		}
	}
	if sc.Labels["baseline"] == "" || sc.Labels["itl"] != "ITL" || sc.Mean["baseline"] == nil || sc.Mean["itl"] == nil {
		t.Errorf("the comparisons: labels %v, means %v", sc.Labels, sc.Mean)
	}
	m, err := app.ReadModel(results.Model, "the results' model")
	if err != nil {
		t.Fatalf("the results' model: %v", err)
	}
	if m.Method != "mtfl" || m.Trained.All || m.Trained.Rows != run.Train.Rows() || slices.Contains(m.Features, "student") {
		t.Errorf("the results' model: method %s, trained %+v, features %v", m.Method, m.Trained, m.Features)
	}
	shown := eval[[]int](b, `[document.querySelectorAll("#scores tbody tr").length, document.getElementById("model").hidden ? 0 : 1]`)
	if shown[0] != len(ev.Tasks)+1 || shown[1] != 1 {
		t.Errorf("the host page shows %d score rows and the model link %d, want %d and 1", shown[0], shown[1], len(ev.Tasks)+1)
	}

	b.axe(axeSource(t), "the supplement on its own data")
	b.screenshot("supplement-own-data.png")

	// spmtl:set: an unknown key refuses the whole message; a column role reads the data again.
	n := eval[int](b, `supplement.heard.length`)
	b.do(chromedp.Evaluate[chromedp.Void](`supplement.send({ type: "spmtl:set", settings: { drop: "student,hours", nope: "1" } })`))
	b.waitFor(`supplement.errors.length === 1`, 10*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](`supplement.send({ type: "spmtl:set", settings: { drop: ["student", "hours"], train: "all" } })`))
	b.waitFor(`supplement.heard.slice(`+strconv.Itoa(n)+`).some((m) => m.type === "spmtl:settings")`, 20*time.Second)
	heard = heardSince(b, n)
	if len(heard) != 3 || heard[0].Type != "spmtl:error" || !slices.Equal(heard[0].Keys, []string{"nope"}) || !strings.Contains(heard[0].Message, `"nope"`) {
		t.Fatalf("after the two spmtl:set the host heard %+v, want an error naming nope, then the data read again and the settings", heard)
	}
	if heard[1].Type != "spmtl:loaded" || heard[1].Summary.Features != d.All.Features-1 || slices.Contains(heard[1].Summary.FeatureNames, "hours") {
		t.Errorf("after drop student,hours: %+v, want %d features without hours", heard[1], d.All.Features-1)
	}
	if heard[2].Type != "spmtl:settings" || heard[2].Settings["drop"] != "student,hours" || heard[2].Settings["train"] != "all" {
		t.Errorf("the settings applied: %+v", heard[2])
	}

	// A run on every row: no held-out score, and a model trained on all rows.
	b.do(chromedp.Evaluate[chromedp.Void](`supplement.results = null; supplement.send({ type: "spmtl:run" })`))
	b.waitFor(`!!supplement.results`, 60*time.Second)
	all := heardSince(b, eval[int](b, `supplement.heard.length`)-1)[0]
	if all.Scores == nil || all.Scores.HeldOut || all.Scores.TestRows != 0 || all.Scores.Mean["main"] != nil || !strings.Contains(all.Scores.Note, "no test score") {
		t.Errorf("the scores of a run on every row: %+v", all.Scores)
	}
	ma, err := app.ReadModel(all.Model, "the model on every row")
	if err != nil {
		t.Fatal(err)
	}
	if !ma.Trained.All || ma.Trained.Rows != d.All.Rows() || slices.Contains(ma.Features, "hours") {
		t.Errorf("the model on every row: trained %+v (want all %d rows), features %v", ma.Trained, d.All.Rows(), ma.Features)
	}
	b.viewport(390, 844, true)
	if w := b.sideways(); w > 0 {
		t.Errorf("the supplement page scrolls sideways by %d px at 390 px", w)
	}
	b.noConsoleErrors()
}

// TestEmbedLoadRefusesUnknownKeysAndVersions: spmtl:load refuses a key it
// does not apply, naming it, before reading anything; a message of a
// protocol version the learner does not speak is refused; a file whose
// task column the roles do not name says which role to send.
func TestEmbedLoadRefusesUnknownKeysAndVersions(t *testing.T) {
	b := newBrowser(t)
	b.embedHost("embed=1&data=landmine", `
		const text = "group,score,x1\na,1,0.5\na,2,1.5\nb,1,0.25\nb,3,2\n";
		e.source.postMessage({ type: "spmtl:load", text, settings: { task: "group", label: "score", taskColumn: "group" } }, "*");
		e.source.postMessage({ type: "spmtl:run", version: 3 }, "*");
		e.source.postMessage({ type: "spmtl:load", text, name: "mine.csv", settings: { label: "score" } }, "*");
`)
	b.waitFor(`window.__heard.filter((m) => m.type === "spmtl:error").length === 3`, 30*time.Second)
	errs := eval[[]hostMessage](b, `window.__heard.filter((m) => m.type === "spmtl:error")`)
	if !slices.Equal(errs[0].Keys, []string{"taskColumn"}) || !strings.Contains(errs[0].Message, `"taskColumn"`) {
		t.Errorf("spmtl:load with an unknown key: %+v", errs[0])
	}
	if !strings.Contains(errs[1].Message, "protocol version 3") {
		t.Errorf("a message of version 3: %+v", errs[1])
	}
	if !strings.Contains(errs[2].Message, `no task column "task"`) || !strings.Contains(errs[2].Message, `{task: "column"}`) {
		t.Errorf("a file without a task column named task: %+v", errs[2])
	}
	if n := eval[int](b, `window.__heard.filter((m) => m.type === "spmtl:loaded").length`); n != 0 {
		t.Errorf("the host heard %d spmtl:loaded, want none", n)
	}
	b.noConsoleErrors()
}

// TestEmbedMessagesInOrder: a host that posts its messages without
// waiting for the answers (two spmtl:load, a spmtl:set and spmtl:run at
// once) is answered in the order it asked: each load is read and answered
// with its own summary, the setting applies after the second, and the run
// trains on the second data set. The learner read them all at once before:
// the run started on the data shown at that moment, and the first load
// was answered with whichever data set was shown when it ended.
func TestEmbedMessagesInOrder(t *testing.T) {
	b := newBrowser(t)
	b.embedHost("embed=1&data=landmine", `
		const a = `+"`"+groupedCSV(1, 4, 20, 20, false)+"`"+`;
		const b = `+"`"+groupedCSV(2, 6, 20, 20, false)+"`"+`;
		e.source.postMessage({ type: "spmtl:load", text: a, name: "a.csv", settings: { task: "group" } }, "*");
		e.source.postMessage({ type: "spmtl:load", text: b, name: "b.csv", settings: { task: "group", drop: "x3" } }, "*");
		e.source.postMessage({ type: "spmtl:set", settings: { maxIter: "2" } }, "*");
		e.source.postMessage({ type: "spmtl:run" }, "*");
`)
	b.waitFor(`window.__heard.some((m) => m.type === "spmtl:results" || m.type === "spmtl:error")`, 60*time.Second)
	var types []string
	var loaded []hostMessage
	for _, m := range eval[[]hostMessage](b, `window.__heard.filter((m) => m.type !== "spmtl:snapshot" && m.type !== "spmtl:ready")`) {
		types = append(types, m.Type)
		if m.Type == "spmtl:loaded" {
			loaded = append(loaded, m)
		}
		if m.Type == "spmtl:error" {
			t.Errorf("the learner refused: %s", m.Message)
		}
	}
	if want := []string{"spmtl:loaded", "spmtl:loaded", "spmtl:settings", "spmtl:results"}; !slices.Equal(types, want) {
		t.Fatalf("the host heard %v, want %v", types, want)
	}
	if loaded[0].Summary.Features != 3 || loaded[1].Summary.Features != 2 {
		t.Errorf("the two loads were answered with %d and %d features, want 3 (a.csv) and 2 (b.csv, x3 left out)",
			loaded[0].Summary.Features, loaded[1].Summary.Features)
	}
	res := eval[hostMessage](b, `window.__heard.find((m) => m.type === "spmtl:results")`)
	if res.Scores == nil || len(res.Scores.Tasks) != 6 || res.Settings["maxIter"] != "2" || res.Settings["drop"] != "x3" {
		t.Errorf("the run's results: settings %v, scores %+v; want b.csv's 6 tasks, x3 left out, maxIter 2", res.Settings, res.Scores)
	}
	b.noConsoleErrors()
}
