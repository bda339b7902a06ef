package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/spmtl/spmtl/core/publish"
	"github.com/spmtl/spmtl/core/session"
)

// summaryValues counts the values of the page's summary of the loaded data
// set as the structured clone copies them from the worker: every object,
// list and member; a string or a typed array counts once.
const summaryValues = `(() => {
	let n = 0;
	const walk = (v) => {
		n++;
		if (v === null || typeof v !== "object" || ArrayBuffer.isView(v)) return;
		for (const k of Object.keys(v)) walk(v[k]);
	};
	walk(spmtlApp.summary());
	return n;
})()`

// TestWideSummaryByColumn: the summary of a file of 50,000 feature
// columns reaches the page as a handful of values, not one object per
// column (whose structured clone held the page's thread for seconds at
// 1,000,000 columns); read back, its columns are the file's, with their
// roles and menus.
func TestWideSummaryByColumn(t *testing.T) {
	const cols = 50000
	b := newBrowserFor(t, 5*time.Minute)
	b.viewport(1280, 800, false)
	b.openPage(true)
	b.loadFile("wide.csv", wideCSV(cols))
	if n := eval[int](b, summaryValues); n > 200 {
		t.Errorf("the summary of %d columns is %d values, want at most 200 whatever the width", cols, n)
	}
	type column struct {
		Name, Role string
		Roles      []string
	}
	got := eval[[]column](b, `(() => { const c = spmtlApp.columns(); return [c[0], c[1], c[2], c[c.length - 1], {name: String(c.length)}]; })()`)
	want := []column{{"task", "task", []string{}}, {"y", "label", []string{}}, {"x1", "numeric", []string{"numeric", "text", "dropped"}},
		{"x50000", "numeric", []string{"numeric", "text", "dropped"}}, {Name: "50002"}}
	for i := range want {
		g, w := got[i], want[i]
		if g.Name != w.Name || g.Role != w.Role || len(g.Roles) != len(w.Roles) || (len(w.Roles) > 0 && g.Roles[1] != w.Roles[1]) {
			t.Errorf("column %d read back: %+v, want %+v", i, g, w)
		}
	}
	b.noConsoleErrors()
}

// TestSavedRunNamesItsColumns: a run file saved from the page holds the
// data set's columns in their columnar form, and the page that opens it
// says which were left out and which read as words (run-open.js reads
// that form, and the list of objects of run files saved before it).
func TestSavedRunNamesItsColumns(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	b.interceptDownloads()
	b.loadExam(t, true)
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	b.do(chromedp.Click(chromedp.CSS("#export-json")))
	saved := b.downloaded("spmtl-run.json")
	var rf publish.RunFile
	if err := json.Unmarshal([]byte(saved), &rf); err != nil {
		t.Fatalf("the saved run, read as Go reads it: %v", err)
	}
	if !strings.Contains(rf.Data.Columns.Roles, "d") {
		t.Errorf("the saved run's columns: roles %q, want one left out", rf.Data.Columns.Roles)
	}
	// The same run with its columns as run files held them before: a list of objects.
	var old map[string]any
	if err := json.Unmarshal([]byte(saved), &old); err != nil {
		t.Fatal(err)
	}
	d := old["data"].(map[string]any)
	var list []map[string]string
	for j := range rf.Data.Columns.Roles {
		list = append(list, map[string]string{"name": rf.Data.Columns.Names.At(j), "role": string(session.RoleOf(rf.Data.Columns.Roles[j]))})
	}
	d["columns"] = list
	before, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"exam-run.json": saved, "exam-run-before.json": string(before)} {
		fresh := newBrowser(t)
		fresh.openPage(true)
		fresh.upload("#run-file", writeTemp(t, name, text))
		fresh.waitFor(`spmtlApp.recorded().showing && spmtlApp.state() === "done"`, 60*time.Second)
		got := eval[string](fresh, `document.getElementById("recorded-data").textContent`)
		if !strings.Contains(got, "left out: student") || !strings.Contains(got, "read as words: sex, intake") {
			t.Errorf("%s: the recorded data reads %q, want student left out and sex, intake read as words", name, got)
		}
		// The run bar names the data the run shown was made on, not the
		// preset loaded, until a reset gives the views back to the preset.
		bar := `document.getElementById("bar-summary").textContent`
		if got := eval[string](fresh, bar); !strings.HasPrefix(got, "The saved run's data, ") || !strings.Contains(got, "(not the data set loaded)") {
			t.Errorf("%s: the run bar reads %q beside the saved run", name, got)
		}
		fresh.do(chromedp.Click(chromedp.CSS("#reset")))
		fresh.waitFor(`document.getElementById("bar-summary").textContent.startsWith("landmine: ")`, 10*time.Second)
		fresh.noConsoleErrors()
	}
	b.noConsoleErrors()
}
