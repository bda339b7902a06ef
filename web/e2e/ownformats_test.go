package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/spmtl/spmtl/core/app"
)

// TestPackedTableWithItsOwnColumns: a table packed (spmtl pack) from a CSV
// whose task and label columns are not "task" and "y" loads as packed:
// the page sends those names until the visitor chooses, and such a table
// was refused with "load the CSV itself to choose others".
func TestPackedTableWithItsOwnColumns(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("region;outcome;x\n")
	for i := 0; i < 24; i++ {
		sb.WriteString(strings.Join([]string{[]string{"north", "south", "east"}[i%3], []string{"1,5", "2", "0,25", "3"}[i%4], []string{"1", "2", "3", "4", "6"}[i%5]}, ";") + "\n")
	}
	packed, err := app.Pack([]byte(sb.String()), app.LoadOptions{Name: "r.csv", TaskColumn: "region", LabelColumn: "outcome"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "r.packed")
	if err := os.WriteFile(path, packed, 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.openPage(true)
	b.upload("#file", path)
	b.waitFor(`(spmtlApp.summary() && spmtlApp.summary().name === "r.packed" && spmtlApp.state() === "idle") || spmtlApp.dataError() !== ""`, 30*time.Second)
	if msg := eval[string](b, dataErrorText); msg != "" {
		t.Fatalf("the packed table is refused: %q", msg)
	}
	if task, label := eval[string](b, `spmtlApp.summary().taskColumn`), eval[string](b, `spmtlApp.summary().labelColumn`); task != "region" || label != "outcome" {
		t.Errorf("read with task %q and label %q, want region and outcome", task, label)
	}
	b.noConsoleErrors()
}

// TestRefusalAfterAGoodReadEndsItsSentence: a file read once and then
// refused with other columns says so after the refusal, in a sentence of
// its own ("…keep only the rows of two reg.csv is still read as before"
// ran on without a full stop).
func TestRefusalAfterAGoodReadEndsItsSentence(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("task,y,x\n")
	for i := 0; i < 24; i++ {
		sb.WriteString(strings.Join([]string{[]string{"a", "b", "c"}[i%3], []string{"1.5", "2", "0.25", "4"}[i%4], []string{"1", "2", "3", "4", "5"}[i%5]}, ",") + "\n")
	}
	b := newBrowser(t)
	b.openPage(true)
	b.loadFile("reg.csv", sb.String())
	b.setField("label-col", "task")
	b.waitFor(`spmtlApp.dataError() !== ""`, 20*time.Second)
	msg := eval[string](b, dataErrorText)
	i := strings.Index(msg, " reg.csv is still read as before")
	if i < 1 || !strings.ContainsAny(msg[i-1:i], ".!?") {
		t.Errorf("the refusal and the note after it: %q", msg)
	}
}

// TestHeatmapCaptionsOnAPhone: on a phone, the captions under the τ map
// (the step word on the left, the tasks shown on the right) stay apart,
// shortened to fit, when the rows scroll and when they group tasks; at
// 360 px "iteration →" and "600 tasks, 3 per row (geometric mean)" were
// drawn over each other.
func TestHeatmapCaptionsOnAPhone(t *testing.T) {
	b := newBrowser(t)
	b.viewport(360, 740, true)
	b.openPage(true)
	b.loadFile("many.csv", manyTasksCSV(600, 4))
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.heatmapLayout() && spmtlApp.heatmapLayout().cols === spmtlApp.snapshots().length`, 120*time.Second)
	type caption struct {
		Text        string
		Left, Right float64
	}
	for _, zoom := range []string{"auto", "fit"} {
		b.setField("heat-zoom", zoom)
		b.waitFor(fmt.Sprintf(`spmtlApp.heatmapLayout().group %s 1`, map[string]string{"auto": "===", "fit": ">"}[zoom]), 10*time.Second)
		c := eval[[]caption](b, `spmtlApp.heatmapLayout().captions`)
		if len(c) != 2 || c[0].Right+4 > c[1].Left || c[1].Right > eval[float64](b, `spmtlApp.heatmapLayout().left + spmtlApp.heatmapLayout().width + 0.5`) {
			t.Errorf("rows %s: the captions under the map overlap or leave it: %+v", zoom, c)
		}
	}
}

// TestOneTaskSaysSo: a file of one task is scored without a standard
// error over tasks, said in words ("± n/a" was shown), and a self-paced
// run's τ map says why it is grey (it named the task "most trusted: only
// … least: only …").
func TestOneTaskSaysSo(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("task,y,x1,x2\n")
	for i := 0; i < 40; i++ {
		x1, x2 := float64(i%7)-3, float64((i*5)%9)-4
		fmt.Fprintf(&sb, "only,%.3f,%v,%v\n", 0.5*x1-0.2*x2+0.1*float64((i*7)%5-2), x1, x2)
	}
	b := newBrowser(t)
	b.openPage(true)
	b.loadFile("one.csv", sb.String())
	b.setField("model", "mtfl")
	b.do(chromedp.Evaluate[chromedp.Void](`(() => { const c = document.getElementById("selfPaced"); if (!c.checked) c.click(); })()`))
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	texts := eval[[]string](b, `["results-summary", "run-outcome", "heat-verdict"].map((id) => document.getElementById(id).textContent)`)
	for _, s := range texts[:2] {
		if strings.Contains(s, "n/a") || !strings.Contains(s, "1 task") {
			t.Errorf("one task's score: %q", s)
		}
	}
	if !strings.HasPrefix(texts[2], "With one task, τ is 1 at every iteration") {
		t.Errorf("the τ map's verdict on one task: %q", texts[2])
	}
	b.noConsoleErrors()
}

// TestSavedRunReadsItsOwnFile: a run saved on a visitor's file (its label
// column chosen, rows missing a value left out), opened in a fresh page,
// reads that file, when given, with the run's column roles (it asked for
// the columns again, or refused the missing values), its panel says the
// data is in, and Reproduce reruns it to the printed digits.
func TestSavedRunReadsItsOwnFile(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("group,score,x1,x2\n")
	for i := 0; i < 60; i++ {
		y := fmt.Sprintf("%.2f", 0.3*float64(i%7)-0.1*float64(i%4)+0.05*float64(i%3))
		if i == 9 {
			y = "NA"
		}
		fmt.Fprintf(&sb, "g%d,%s,%d,%d\n", i%4, y, i%7, (i*3)%5)
	}
	text := sb.String()
	b := newBrowser(t)
	b.openPage(true)
	b.interceptDownloads()
	b.upload("#file", writeTemp(t, "own.csv", text))
	b.waitForPrompt(30 * time.Second)
	b.setField("task-col", "group")
	b.setField("label-col", "score")
	b.waitFor(`spmtlApp.dataError() !== "" || (spmtlApp.summary() && spmtlApp.summary().name === "own.csv")`, 20*time.Second)
	if eval[string](b, dataErrorText) != "" {
		b.do(chromedp.Click(chromedp.CSS("#leave-out-rows")))
	}
	b.waitFor(`spmtlApp.summary() && spmtlApp.summary().name === "own.csv" && spmtlApp.state() === "idle" && spmtlApp.summary().rows === 59`, 20*time.Second)
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	b.do(chromedp.Click(chromedp.CSS("#export-json")))
	run := writeTemp(t, "own-run.json", b.downloaded("spmtl-run.json"))

	fresh := newBrowser(t)
	fresh.openPage(true)
	fresh.upload("#run-file", run)
	fresh.waitFor(`spmtlApp.recorded().showing && spmtlApp.state() === "done"`, 60*time.Second)
	if v := eval[string](fresh, `spmtlApp.recorded().verdict`); !strings.Contains(v, "is not the data set loaded") {
		t.Errorf("before its data: %q", v)
	}
	fresh.upload("#file", writeTemp(t, "own.csv", text))
	fresh.waitFor(`(spmtlApp.summary() && spmtlApp.summary().name === "own.csv" && spmtlApp.state() !== "loading") || spmtlApp.dataError() !== "" || spmtlApp.columnPrompt() !== ""`, 20*time.Second)
	if msg, prompt := eval[string](fresh, dataErrorText), eval[string](fresh, `spmtlApp.columnPrompt()`); msg != "" || prompt != "" {
		t.Fatalf("the saved run's own file, given: refused %q, prompt %q", msg, prompt)
	}
	if s := eval[string](fresh, `spmtlApp.summary().labelColumn + " " + spmtlApp.summary().rows`); s != "score 59" {
		t.Errorf("read with label and rows %q, want the run's: score 59", s)
	}
	if v := eval[string](fresh, `spmtlApp.recorded().verdict`); !strings.Contains(v, "Its data (own.csv) is loaded now") {
		t.Errorf("after its data: %q", v)
	}
	if verdict := fresh.reproduce(); !strings.HasPrefix(verdict, "Reproduced: all ") {
		t.Errorf("the rerun of the saved run on its file: %q", verdict)
	}
}

// TestPackedTableWithRowsLeftOut: a table packed with its rows missing a
// value left out says so in the notes, and the rows menu shows them left
// out (it said "refuse the file" beside the note).
func TestPackedTableWithRowsLeftOut(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("task,y,x\n")
	for i := 0; i < 30; i++ {
		y := fmt.Sprintf("%.2f", 0.4*float64(i%5)+0.1*float64(i%3))
		if i%10 == 3 {
			y = "NA"
		}
		fmt.Fprintf(&sb, "t%d,%s,%d\n", i%3, y, i%5)
	}
	packed, err := app.Pack([]byte(sb.String()), app.LoadOptions{Name: "na.csv", OmitMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "na.packed")
	if err := os.WriteFile(path, packed, 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.openPage(true)
	b.upload("#file", path)
	b.waitFor(`spmtlApp.summary() && spmtlApp.summary().name === "na.packed" && spmtlApp.state() === "idle"`, 30*time.Second)
	if notes := eval[string](b, `document.getElementById("data-notes").textContent`); !strings.Contains(notes, "3 of the 30 rows were left out for a missing value") {
		t.Errorf("notes %q", notes)
	}
	if v := eval[string](b, `document.getElementById("missing-rows").value`); v != "omit" {
		t.Errorf("the rows menu says %q beside rows left out", v)
	}
}
