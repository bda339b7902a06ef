package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// levelsCSV writes 40 tasks whose x varies within each around the task's
// own average a, and whose level follows it: y = x + 2a + u (u small, not
// following a). z is constant within every task.
func levelsCSV() string {
	var sb strings.Builder
	sb.WriteString("task,y,x,z\n")
	for t := range 40 {
		a := float64((t*7)%13-6) / 3
		u := float64((t*5)%7-3) / 10
		z := float64((t*3)%11) / 4
		for k := range 6 {
			x := a + float64(k)/2 - 1.25
			fmt.Fprintf(&sb, "t%d,%.4f,%.4f,%.2f\n", t, x+2*a+u+float64((k*3+t)%5-2)/20, x, z)
		}
	}
	return sb.String()
}

// TestPredictNewTaskFromItsAverages: an MMTL model of tasks whose levels
// follow their average x reads a new task's level from its rows' average
// (docs/algorithms.md §16): Predict says so, the shared knowledge shows it
// as a chart of its own, and the knowledge's CSV puts each value under its
// feature (z, which it does not read, left empty there).
func TestPredictNewTaskFromItsAverages(t *testing.T) {
	b := newBrowserFor(t, 3*time.Minute)
	b.openPage(true)
	b.loadFile("levels.csv", levelsCSV())
	b.do(chromedp.SetValue(chromedp.CSS("#model"), "mmtl-joint"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("model").dispatchEvent(new Event("change"))`))
	b.interceptDownloads()
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.model() !== null`, 60*time.Second)
	b.waitFor(`!document.getElementById("knowledge-csv").disabled`, 20*time.Second)
	titles := eval[[]string](b, `spmtlApp.knowledge().charts.map((c) => c.title)`)
	if len(titles) != 2 || !strings.HasPrefix(titles[1], "a new task's level") {
		t.Fatalf("the shared knowledge's charts are %q, want the mean predictor's and a new task's level", titles)
	}
	b.do(chromedp.Click(chromedp.CSS("#knowledge-csv")))
	rows := readCSV(t, "spmtl-knowledge.csv", b.downloaded("spmtl-knowledge.csv"))
	cells := map[string][]string{}
	for _, r := range rows[1:] {
		cells[r[0]] = r[1:]
	}
	if x, z := cells["x"], cells["z"]; len(rows) != 3 || len(x) != 2 || x[1] == "" || len(z) != 2 || z[0] == "" || z[1] != "" {
		t.Errorf("the knowledge's CSV reads %q: want x with both values, z with the mean predictor's only", rows)
	}
	b.upload("#predict-file", writeTemp(t, "newtask.csv", "task,x,z\nfresh,2,1\nfresh,4,1\nt1,0,1\n"))
	b.waitFor(`spmtlApp.predictions() !== null`, 20*time.Second)
	w := eval[string](b, `document.getElementById("predict-warnings").textContent`)
	if !strings.Contains(w, "2 rows of 1 task the model was not trained on are predicted with the shared mean predictor and the tasks' mean intercept, moved by the averages of its rows' x (fitted on the 40 training tasks' levels") ||
		!strings.Contains(w, "so a new task's predictions depend on which of its rows the file holds") {
		t.Errorf("warnings %q", w)
	}
	// y = x + 2a + u with a = 3, the rows' average: 9 on average.
	vals := eval[[]float64](b, `spmtlApp.predictions().values`)
	if len(vals) != 3 || (vals[0]+vals[1])/2 < 8 || (vals[0]+vals[1])/2 > 10 {
		t.Errorf("the new task's predictions %v, want 9 on average", vals)
	}
	b.noConsoleErrors()
}
