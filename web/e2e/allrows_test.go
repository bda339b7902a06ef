package e2e

// Training on every row in the page: "train rows/task" takes all, the
// results say that nothing was held out, and the model saved for
// prediction is fitted on every row.

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/mtl"
)

// TestTrainOnAllRows: a link with train=all is good (no note) and trains
// on every landmine row; the results show no score of nothing but say
// there is no held-out score; that run's model is the one saved for
// prediction, trained on all rows. On a visitor's file trained on 75% of
// its rows, "Save model for prediction" fits the run's settings on every
// row (Go's fit with the run's configuration, to rounding) and leaves the
// run on screen as it was; "Save this run's model" saves the 75% model.
func TestTrainOnAllRows(t *testing.T) {
	b := newBrowser(t)
	b.do(chromedp.Navigate(b.base + "/#data=landmine&train=all&maxIter=3&run=1"))
	b.waitFor(`window.spmtlApp && spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	b.interceptDownloads()
	if note := eval[string](b, `document.getElementById("link-note").hidden ? "" : document.getElementById("link-note").textContent`); note != "" {
		t.Errorf("train=all is reported as a bad value: %q", note)
	}
	rows := eval[int](b, `spmtlApp.summary().rows`)
	info := eval[map[string]int](b, `({train: spmtlApp.runInfo().trainRows, test: spmtlApp.runInfo().testRows})`)
	if info["train"] != rows || info["test"] != 0 {
		t.Errorf("train=all trained on %d rows and tested on %d, want all %d and none", info["train"], info["test"], rows)
	}
	note := eval[string](b, `document.getElementById("results-note").textContent`)
	if !strings.Contains(note, "trained on all") || !strings.Contains(note, "no test score") {
		t.Errorf("the results note of a run on every row: %q", note)
	}
	// The run bar says how the run ended, as after every run.
	if o := eval[string](b, `document.getElementById("run-outcome").hidden ? "" : document.getElementById("run-outcome").textContent`); !strings.HasPrefix(o, "Ran the paper's") && !strings.HasPrefix(o, "Stopped at the limit") && !strings.HasPrefix(o, "Settled after") ||
		!strings.HasSuffix(o, "No test score: every row was trained on (train rows/task: all).") {
		t.Errorf("the run bar after a run on every row: %q", o)
	}
	if n := eval[int](b, `spmtlApp.resultsTable().count`); n != 0 {
		t.Errorf("the results table of a run on every row has %d rows, want none (no scores of nothing)", n)
	}
	if l := eval[string](b, `document.getElementById("scatter-base").getAttribute("aria-label")`); !strings.Contains(l, "no held-out rows") {
		t.Errorf("the scatter of a run on every row says %q", l)
	}
	b.screenshot("train-all.png")
	if hidden := eval[bool](b, `document.getElementById("save-run-model").hidden`); !hidden {
		t.Error("a run on every row offers two models to save")
	}
	b.do(chromedp.Click(chromedp.CSS("#save-model")))
	var whole app.ModelFile
	if err := json.Unmarshal([]byte(b.downloaded("spmtl-model.json")), &whole); err != nil {
		t.Fatal(err)
	}
	if !whole.Trained.All || whole.Trained.Rows != rows {
		t.Errorf("the model of a run on every row says it trained on %+v, want all %d rows", whole.Trained, rows)
	}

	// A visitor's file trained on 75%.
	_, examText := b.loadExam(t, false)
	if v := eval[string](b, `document.getElementById("train").value`); v != "0.75" {
		t.Fatalf("a file of one's own starts at train %q, want 0.75", v)
	}
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.model() !== null`, 60*time.Second)
	before := eval[string](b, `JSON.stringify(spmtlApp.results())`)
	b.do(chromedp.Evaluate[chromedp.Void](`delete window.__downloads["spmtl-model.json"]`))
	b.do(chromedp.Click(chromedp.CSS("#save-model")))
	var fit app.ModelFile
	if err := json.Unmarshal([]byte(b.downloaded("spmtl-model.json")), &fit); err != nil {
		t.Fatal(err)
	}
	if status := eval[string](b, `document.getElementById("predict-status").textContent`); !strings.Contains(status, "fitted on all 71 rows") {
		t.Errorf("the status after saving: %q", status)
	}
	if after := eval[string](b, `JSON.stringify(spmtlApp.results())`); after != before || eval[string](b, `spmtlApp.model().from`) != "run" {
		t.Error("fitting on all rows changed the run on screen")
	}
	var cfg mtl.Config
	if err := json.Unmarshal([]byte(eval[string](b, `JSON.stringify(spmtlApp.runInfo().config)`)), &cfg); err != nil {
		t.Fatal(err)
	}
	d, err := app.Load(examText, app.LoadOptions{Name: "exam.csv", TaskColumn: "school", LabelColumn: "score"})
	if err != nil {
		t.Fatal(err)
	}
	run, err := app.NewRun(d, app.TrainOptions{Config: cfg, All: true, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run.Finish(); err != nil {
		t.Fatal(err)
	}
	want, err := run.ModelFile(app.Trained{File: "exam.csv", Rows: d.All.Rows(), All: true})
	if err != nil {
		t.Fatal(err)
	}
	if !fit.Trained.All || fit.Trained.Rows != 71 || fit.Trained.File != "exam.csv" || len(fit.W) != len(want.W) {
		t.Fatalf("the model saved for prediction: trained %+v, %d tasks; want all 71 rows of exam.csv, %d tasks", fit.Trained, len(fit.W), len(want.W))
	}
	// The browser's exp is Go's pure one, the native amd64 one its
	// assembly: the fits agree to rounding, not to the bit.
	for i := range want.W {
		for j := range want.W[i] {
			if g, w := fit.W[i][j], want.W[i][j]; math.Abs(g-w) > 1e-9*math.Max(1, math.Abs(w)) {
				t.Errorf("w[%d][%d]: the page's fit on all rows %.17g, Go's %.17g", i, j, g, w)
			}
		}
	}
	// Predicting now uses the run's model (75% of the rows), which the
	// status says, and that the model just saved predicts differently.
	b.upload("#predict-file", writeTemp(t, "exam.csv", string(examText)))
	b.waitFor(`document.getElementById("predict-status").textContent.includes("predicted")`, 30*time.Second)
	if s := eval[string](b, `document.getElementById("predict-status").textContent`); !strings.Contains(s, fmt.Sprintf("as the run trained it (on %d of the 71 rows; the model saved for prediction, fitted on all 71 rows, predicts differently", eval[int](b, `spmtlApp.runInfo().trainRows`))) {
		t.Errorf("predicting after the model on all rows was saved: %q", s)
	}
	// exam.csv has the label column: the status scores the predictions
	// against it, and says these are the rows the run was fitted on.
	if s := eval[string](b, `document.getElementById("predict-status").textContent`); !regexp.MustCompile(`Scored against column score on 71 rows: RMSE [0-9.]+ ± [0-9.]+; every row predicted by these rows' mean label would score [0-9.]+; the file has the name of the file the model was trained on: on rows the model was fitted on, a score is no test score\.$`).MatchString(s) {
		t.Errorf("the prediction's score: %q", s)
	}
	b.do(chromedp.Evaluate[chromedp.Void](`delete window.__downloads["spmtl-model.json"]`))
	b.do(chromedp.Click(chromedp.CSS("#save-run-model")))
	var own app.ModelFile
	if err := json.Unmarshal([]byte(b.downloaded("spmtl-model.json")), &own); err != nil {
		t.Fatal(err)
	}
	if own.Trained.All || own.Trained.Train != 0.75 || own.Trained.Rows != eval[int](b, `spmtlApp.runInfo().trainRows`) {
		t.Errorf("the run's own model says it trained on %+v, want its 75%% split", own.Trained)
	}
	b.noConsoleErrors()
}
