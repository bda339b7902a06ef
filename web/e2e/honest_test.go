package e2e

// Tests that the page's views say what is so: a run whose tasks could not
// be scored says why instead of waiting for a score, predictions that
// failed leave no older file's predictions behind, and an axis whose ends
// differ in their last digits is labelled so that they differ.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestNoScoreIsExplained: with one test row per task no AUC can be
// computed (it needs both classes). The finished run says so under the
// results, and its scatters and curves say that no task could be scored,
// not that they wait for training to finish.
func TestNoScoreIsExplained(t *testing.T) {
	b := newBrowser(t)
	b.runDone("#data=landmine&model=mtfl&sp=1&maxIter=3&train=0.99999&run=1")
	note := eval[string](b, `document.getElementById("results-note").textContent`)
	if !strings.Contains(note, "no task's test rows hold both classes") || !strings.Contains(note, "a smaller train rows/task") {
		t.Errorf("the results note %q does not say why every score is n/a, and what to do", note)
	}
	for _, id := range []string{"scatter-base", "scatter-itl"} {
		if label := eval[string](b, `document.getElementById("`+id+`").getAttribute("aria-label")`); !strings.Contains(label, "no task could be scored") {
			t.Errorf("%s says %q after the run, want that no task could be scored", id, label)
		}
	}
	if label := eval[string](b, `document.getElementById("curves").getAttribute("aria-label")`); !strings.Contains(label, "none (no task could be scored)") {
		t.Errorf("the curves say %q after the run, want that no task could be scored", label)
	}
	// The run bar says it too, beside why the run ended.
	if out := eval[string](b, `document.getElementById("run-outcome").textContent`); !strings.Contains(out, "No task could be scored (Results says why).") {
		t.Errorf("the run bar says %q", out)
	}
	b.noConsoleErrors()

	// Tasks of four rows (MASS's bacteria has 2-4): no split gives one test
	// rows of both classes, and the note points to Tune's pooled score
	// rather than to more test rows.
	var sb strings.Builder
	sb.WriteString("id,yb,week,trt\n")
	for g := 0; g < 30; g++ {
		for w := 0; w < 4; w++ {
			fmt.Fprintf(&sb, "p%d,%d,%d,%s\n", g, (g+w)%2, w*2, []string{"drug", "placebo"}[g%2])
		}
	}
	b.openPage(true)
	b.upload("#file", writeTemp(t, "small.csv", sb.String()))
	b.waitForPrompt(30 * time.Second)
	b.setField("task-col", "id")
	b.setField("label-col", "yb")
	b.waitFor(`spmtlApp.summary() !== null && spmtlApp.summary().name === "small.csv" && spmtlApp.state() === "idle"`, 30*time.Second)
	// The data's notes say so before Play.
	if notes := eval[string](b, `document.getElementById("data-notes").textContent`); !strings.Contains(notes, "Scores: with 4 rows in a typical task, a task's test rows will rarely hold both classes") {
		t.Errorf("tasks of four rows: the data notes before Play %q", notes)
	}
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	note = eval[string](b, `document.getElementById("results-note").textContent`)
	if !strings.Contains(note, "with 4 rows in a typical task no split can give a task test rows of both") || !strings.Contains(note, "Tune scores the file by its log-loss pooled over every held-out row") || strings.Contains(note, "smaller train rows/task") {
		t.Errorf("tasks of four rows: the results note %q", note)
	}
	b.noConsoleErrors()
}

// TestLongTaskNamesAreClipped: a task named in 300 characters is quoted
// in the run's notes and the map's sentences by its first 39 and "…", not
// in full (a phone showed a screen of text per note); the map's row label
// keeps the whole name in its read-out.
func TestLongTaskNamesAreClipped(t *testing.T) {
	b := newBrowser(t)
	b.viewport(390, 844, true)
	b.openPage(true)
	long := "Sprague-Dawley litter " + strings.Repeat("from the second breeding colony, ", 9)
	text := ownCSV([]string{"task", "y", "x1", "x2"}, 4, 20) + fmt.Sprintf("%q,1.5,0.2,0.3\n", long)
	b.loadFile("long.csv", text)
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	clipped := []rune(long)[:39]
	for id, where := range map[string]string{"run-note": "the run's note", "results-note": "the results' note", "heat-verdict": "the map's sentence", "heatmap": "the map's label"} {
		got := eval[string](b, fmt.Sprintf(`(() => { const e = document.getElementById(%q); return e.getAttribute("aria-label") || e.textContent; })()`, id))
		if strings.Contains(got, long[:60]) {
			t.Errorf("%s quotes the 300-character name in full: %q", where, got)
		}
		if id == "run-note" && !strings.Contains(got, string(clipped)+"…") {
			t.Errorf("%s does not name the small task by its clipped name: %q", where, got)
		}
	}
	b.noConsoleErrors()
}

// TestPredictionsDownloadInTheFilesConventions: a file written with
// semicolons and decimal commas, predicted in the page, downloads as the
// same kind of file (Go's Predictions.CSV writes the same), not as commas
// beside its quoted "7,15" cells and points in the predictions.
func TestPredictionsDownloadInTheFilesConventions(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	b.interceptDownloads()
	b.loadFile("mine.csv", ownCSV([]string{"task", "y", "x1", "x2"}, 3, 20))
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.model() !== null`, 30*time.Second)
	semi := strings.NewReplacer(",", ";", ".", ",").Replace(ownCSV([]string{"task", "y", "x1", "x2"}, 3, 4))
	b.upload("#predict-file", writeTemp(t, "semi.csv", semi))
	b.waitFor(`spmtlApp.predictions() !== null`, 20*time.Second)
	b.do(chromedp.Click(chromedp.CSS("#predict-csv")))
	lines := strings.Split(strings.TrimSpace(b.downloaded("semi-predictions.csv")), "\n")
	if lines[0] != "task;y;x1;x2;prediction" {
		t.Errorf("the header of the predictions file: %q", lines[0])
	}
	f := strings.Split(lines[1], ";")
	if len(f) != 5 || strings.Contains(f[4], ".") || !strings.Contains(f[4], ",") || strings.Contains(lines[1], `"`) {
		t.Errorf("a row of the predictions file: %q; want five fields split by semicolons, the prediction with a decimal comma", lines[1])
	}
	b.noConsoleErrors()
}

// TestFailedPredictionLeavesNoOldPreview: after a file that cannot be
// predicted (a column the model was trained with is missing), the panel
// no longer shows, nor offers to download, the previous file's predictions.
func TestFailedPredictionLeavesNoOldPreview(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	b.loadFile("mine.csv", ownCSV([]string{"task", "y", "x1", "x2"}, 3, 20))
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.model() !== null`, 30*time.Second)
	b.upload("#predict-file", writeTemp(t, "new.csv", ownCSV([]string{"task", "y", "x1", "x2"}, 3, 4)))
	b.waitFor(`spmtlApp.predictions() !== null`, 20*time.Second)
	if n := eval[int](b, `document.querySelectorAll("#predict-preview tbody tr").length`); n != 12 {
		t.Fatalf("the preview shows %d rows of new.csv, want 12", n)
	}
	b.upload("#predict-file", writeTemp(t, "short.csv", ownCSV([]string{"task", "y", "x1"}, 3, 4)))
	b.waitFor(`document.getElementById("predict-status").textContent.startsWith("Cannot predict short.csv")`, 20*time.Second)
	if n := eval[int](b, `document.querySelectorAll("#predict-preview tr").length`); n != 0 {
		t.Errorf("after short.csv was refused the panel still shows %d rows of new.csv's predictions", n)
	}
	if dis := eval[bool](b, `document.getElementById("predict-csv").disabled`); !dis {
		t.Error("after short.csv was refused new.csv's predictions can still be downloaded")
	}
	if p := eval[bool](b, `spmtlApp.predictions() === null`); !p {
		t.Error("spmtlApp.predictions() still holds new.csv's predictions")
	}
	b.noConsoleErrors()
}

// TestAxisEndsDiffer: the ends of an axis are labelled with as many digits
// as it takes to tell them apart, and values that differ only in their
// last bits are drawn flat (the range is not stretched over the panel).
func TestAxisEndsDiffer(t *testing.T) {
	b := newBrowser(t)
	b.openPage(false)
	b.do(chromedp.Evaluate[chromedp.Void](`import("./js/chart-kit.js").then((m) => { window.__kit = {
		labels: m.fmtRange(0.0868001, 0.0868004), wide: m.fmtRange(1, 2), big: m.fmtRange(12345.6, 12346.1),
		flat: m.extent([0.5, 0.5 + 1e-15]), real: m.extent([0.5, 0.5001]) }; })`))
	b.waitFor(`window.__kit !== undefined`, 10*time.Second)
	type kit struct {
		Labels, Wide, Big []string
		Flat, Real        []float64
	}
	k := eval[kit](b, `window.__kit`)
	for _, p := range [][]string{k.Labels, k.Wide, k.Big} {
		if len(p) != 2 || p[0] == p[1] {
			t.Errorf("axis labels %q: the two ends read the same", p)
		}
	}
	if k.Wide[0] != "1.00" || k.Wide[1] != "2.00" {
		t.Errorf("axis 1 to 2 labelled %q, want the usual three digits", k.Wide)
	}
	if span := k.Flat[1] - k.Flat[0]; span < 0.04 {
		t.Errorf("values 1e-15 apart get the range %v: a flat line stretched over the panel", k.Flat)
	}
	if span := k.Real[1] - k.Real[0]; span > 0.001 {
		t.Errorf("values 1e-4 apart get the range %v, want it close around them", k.Real)
	}
}

// TestPredictCompleteRows: a file whose rows miss a value is refused with
// the offer to predict only the complete rows; the button does that, the
// rows keep their places with no prediction, the status and the warning
// say how many, and the preview shows no number for them (never a 0).
func TestPredictCompleteRows(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	b.loadFile("mine.csv", ownCSV([]string{"task", "y", "x1", "x2"}, 3, 20))
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.model() !== null`, 30*time.Second)
	b.upload("#predict-file", writeTemp(t, "gaps.csv", "task,x1,x2\nt1,1,2\nt2,NA,1\nt3,2,\nt1,0,1\n"))
	b.waitFor(`document.getElementById("predict-status").textContent.startsWith("Cannot predict gaps.csv")`, 20*time.Second)
	msg := eval[string](b, `document.getElementById("model-error").textContent`)
	if !strings.Contains(msg, "predict only the rows that have every value") {
		t.Errorf("the refusal %q does not offer to predict the complete rows", msg)
	}
	if !strings.Contains(msg, "2 of the 4 rows have a missing value (x1: 1, x2: 1)") {
		t.Errorf("the refusal %q does not count the rows missing a value", msg)
	}
	if eval[bool](b, `document.getElementById("predict-complete").hidden`) {
		t.Fatal("no button to predict the complete rows")
	}
	b.do(chromedp.Click(chromedp.CSS("#predict-complete")))
	b.waitFor(`spmtlApp.predictions() !== null`, 20*time.Second)
	vals := eval[[]*float64](b, `spmtlApp.predictions().values`)
	if len(vals) != 4 || vals[0] == nil || vals[1] != nil || vals[2] != nil || vals[3] == nil {
		t.Errorf("values %v, want predictions for rows 1 and 4 only", vals)
	}
	cells := eval[[]string](b, `Array.from(document.querySelectorAll("#predict-preview tbody tr")).map((tr) => tr.firstElementChild.textContent)`)
	if len(cells) != 4 || cells[1] != "none" || cells[2] != "none" || cells[0] == "none" {
		t.Errorf("the preview's predictions %q, want none for rows 2 and 3", cells)
	}
	if s := eval[string](b, `document.getElementById("predict-status").textContent`); !strings.Contains(s, "2 of the 4 rows of gaps.csv predicted (2 without a prediction, below)") {
		t.Errorf("status %q", s)
	}
	if w := eval[string](b, `document.getElementById("predict-warnings").textContent`); !strings.Contains(w, "2 of the 4 rows have a missing value (x1: 1, x2: 1) and no prediction, at lines 3, 4") {
		t.Errorf("warnings %q", w)
	}
	if !eval[bool](b, `document.getElementById("predict-complete").hidden`) {
		t.Error("the button is still shown after the prediction")
	}

	// A task the model (MTFL: no predictor for a new task) was not trained
	// on: the same offer, for the rows of the tasks it knows.
	if m := eval[string](b, `spmtlApp.model().method || spmtlApp.model().name`); !strings.Contains(strings.ToLower(m), "mtfl") {
		t.Fatalf("the run's model is %q; this part wants MTFL, which has no predictor for a new task", m)
	}
	b.upload("#predict-file", writeTemp(t, "strangers.csv", "task,x1,x2\nt1,1,2\nt9,2,1\nt2,0,1\n"))
	b.waitFor(`document.getElementById("predict-status").textContent.startsWith("Cannot predict strangers.csv")`, 20*time.Second)
	if txt := eval[string](b, `document.getElementById("predict-complete").textContent`); eval[bool](b, `document.getElementById("predict-complete").hidden`) || txt != "Predict only the rows of the tasks the model knows" {
		t.Fatalf("the button after an unknown task: %q", txt)
	}
	b.do(chromedp.Click(chromedp.CSS("#predict-complete")))
	b.waitFor(`spmtlApp.predictions() !== null`, 20*time.Second)
	vals = eval[[]*float64](b, `spmtlApp.predictions().values`)
	if len(vals) != 3 || vals[0] == nil || vals[1] != nil || vals[2] == nil {
		t.Errorf("values %v, want no prediction for the row of t9 only", vals)
	}
	if w := eval[string](b, `document.getElementById("predict-warnings").textContent`); !strings.Contains(w, "1 of the 3 rows is of a task the model was not trained on and cannot predict (t9): it has no prediction, at line 3") {
		t.Errorf("warnings %q", w)
	}
	b.noConsoleErrors()
}
