package e2e

// The hostile-input corpus (issue 34), generated here: a file 50,000
// columns wide, a header of 1,000,000 columns, 200,000 one-row tasks,
// task and feature names holding control characters and spreadsheet
// formulas, and an inline script injected into the served page and the
// offline file. Each case ends in a refusal or a finished load or run
// that the test checks, and the page answers after it; how long the page's
// thread stalls on the wide files is a figure of the benchmark
// (bench_test.go), not checked here.

import (
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// wideCSV is a visitor's file of cols feature columns (x1, x2, ...) after
// "task" and "y", two tasks of two rows each: a wide header with little
// else.
func wideCSV(cols int) string {
	var sb strings.Builder
	sb.WriteString("task,y")
	for k := 1; k <= cols; k++ {
		fmt.Fprintf(&sb, ",x%d", k)
	}
	sb.WriteByte('\n')
	for r := 0; r < 4; r++ {
		fmt.Fprintf(&sb, "t%d,%d", r%2+1, r)
		for k := 0; k < cols; k++ {
			sb.WriteString(",")
			sb.WriteByte(byte('0' + (r+k)%10))
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// findColumn types text in a column menu's Find box, as a visitor does,
// and waits until the menu has offered what it found.
func (b *browser) findColumn(id, text, want string) {
	b.t.Helper()
	b.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const f = document.getElementById("%s-find"); f.value = %q; f.dispatchEvent(new Event("input", { bubbles: true })); })()`, id, text)))
	b.waitFor(fmt.Sprintf(`Array.from(document.getElementById(%q).options).some((o) => o.value === %q)`, id, want), 10*time.Second)
}

// menuState is what a column menu shows: its options' count, its value,
// whether its Find box shows, and its note.
type menuState struct {
	Options  int
	Value    string
	FindOpen bool
	Note     string
}

func (b *browser) menuState(id string) menuState {
	b.t.Helper()
	return eval[menuState](b, fmt.Sprintf(`(() => { const s = document.getElementById(%[1]q);
		return {Options: s.options.length, Value: s.value, FindOpen: !document.getElementById("%[1]s-find").closest("label").hidden,
			Note: document.getElementById("%[1]s-note").textContent}; })()`, id))
}

// TestHostileWideFile: a file of 50,000 feature columns and four rows
// loads; the Columns table builds only the rows in view (and the last
// column once scrolled to), the two column menus keep the chosen columns
// and at most 200 others, with a Find box that reaches any column.
func TestHostileWideFile(t *testing.T) {
	const cols = 50000
	b := newBrowserFor(t, 5*time.Minute)
	b.viewport(1280, 800, false)
	b.openPage(true)
	b.loadFile("wide.csv", wideCSV(cols))
	if n := eval[int](b, `spmtlApp.summary().features`); n != cols {
		t.Fatalf("%d features, want %d", n, cols)
	}
	type table struct {
		Built, RowCount int
		Open            bool
	}
	tab := eval[table](b, `({Built: document.querySelectorAll("#columns tbody tr:not(.spacer)").length,
		RowCount: Number(document.getElementById("columns").getAttribute("aria-rowcount")),
		Open: !document.getElementById("columns-box").hidden && document.getElementById("columns-box").open})`)
	if !tab.Open || tab.Built == 0 || tab.Built > 100 || tab.RowCount != cols+3 {
		t.Errorf("the Columns table: %+v; want it open, at most 100 of its %d rows built, aria-rowcount %d", tab, cols+2, cols+3)
	}
	for id, want := range map[string]string{"task-col": "task", "label-col": "y"} {
		m := b.menuState(id)
		if m.Options > 201 || m.Value != want || !m.FindOpen || !strings.Contains(m.Note, "The file has 50,002 columns: the menu lists the first 200") {
			t.Errorf("the %s menu: %+v; want %q chosen, at most 201 options, its Find box and a note on the 50,002 columns", id, m, want)
		}
	}
	b.findColumn("label-col", "X49999", "x49999")
	if m := b.menuState("label-col"); m.Options != 2 || m.Value != "y" || !strings.HasPrefix(m.Note, `1 of the 50,002 columns hold "X49999"`) {
		t.Errorf("after finding X49999 the label menu: %+v; want y still chosen and x49999 offered", m)
	}
	// A role menu that has the focus keeps it when the rows in view are
	// built again (a keyboard's Tab moves through the table).
	b.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#columns tr[data-column="x20"] select').focus()`))
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("columns-wrap").scrollTop = 450`))
	b.waitFor(`document.querySelector("#columns tbody tr:not(.spacer)").getAttribute("aria-rowindex") !== "2"`, 10*time.Second)
	if f := eval[string](b, `(() => { const a = document.activeElement; return a.tagName + " " + (a.closest("tr") ? a.closest("tr").dataset.column : ""); })()`); f != "SELECT x20" {
		t.Errorf("after the rows were built again the focus is on %q, want x20's menu", f)
	}
	// Scrolled to its end, the table builds its last rows.
	b.do(chromedp.Evaluate[chromedp.Void](`(() => { const w = document.getElementById("columns-wrap"); w.scrollTop = w.scrollHeight; })()`))
	b.waitFor(`document.querySelector('#columns tr[data-column="x50000"]') !== null`, 10*time.Second)
	if n := eval[int](b, `document.querySelectorAll("#columns tbody tr:not(.spacer)").length`); n > 100 {
		t.Errorf("scrolled to its end, the table built %d rows", n)
	}
	b.axe(axeSource(t), "a 50,000-column file's menus and table")
	b.noConsoleErrors()
}

// TestHostileMillionColumnHeader: a header of 1,000,000 columns without a
// task column (and a row: a header alone is refused as having no rows) is
// asked for its columns (the prompt, the summary naming how many there
// are); the menus offer 200 of its columns, say how many there are, and
// find the last one.
func TestHostileMillionColumnHeader(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("a0")
	for k := 1; k < 1000000; k++ {
		fmt.Fprintf(&sb, ",a%d", k)
	}
	sb.WriteString("\n1" + strings.Repeat(",1", 999999) + "\n")
	b := newBrowserFor(t, 5*time.Minute)
	b.openPage(true)
	b.upload("#file", writeTemp(t, "header.csv", sb.String()))
	b.waitFor(`(spmtlApp.dataError() !== "" || spmtlApp.columnPrompt() !== "") && document.getElementById("task-col").options.length > 0`, 3*time.Minute)
	if msg := eval[string](b, `spmtlApp.columnPrompt()`); !strings.Contains(msg, `header.csv has no column named "task" or "y"`) {
		t.Errorf("the prompt reads %q, want it to ask for the task and label columns of header.csv", msg)
	}
	if msg := eval[string](b, `spmtlApp.dataError()`); msg != "" {
		t.Errorf("a refusal %q beside the prompt", msg)
	}
	if s := eval[string](b, `document.getElementById("summary").textContent`); !strings.Contains(s, "header.csv: 1,000,000 columns") {
		t.Errorf("the summary reads %q, want it to name header.csv and its 1,000,000 columns", s)
	}
	for _, id := range []string{"task-col", "label-col"} {
		if m := b.menuState(id); m.Options != 200 || !m.FindOpen || !strings.Contains(m.Note, "The file has 1,000,000 columns") {
			t.Errorf("the %s menu: %+v; want 200 options, its Find box and a note on the 1,000,000 columns", id, m)
		}
	}
	b.findColumn("task-col", "a999999", "a999999")
	if st := eval[string](b, `spmtlApp.state()`); st != "idle" {
		t.Errorf("after the refusal the page is %q, want idle (the data set before still loaded)", st)
	}
	b.noConsoleErrors()
}

// TestHostileManyOneRowTasks: 200,000 tasks of one row each load (the
// summary's rows per task came from Math.min(...rows), which that many
// arguments overflowed); Play is then refused with the setting to change.
func TestHostileManyOneRowTasks(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("task,y,x1\n")
	for k := 0; k < 200000; k++ {
		fmt.Fprintf(&sb, "t%d,%d,%d\n", k, k%7, k%5)
	}
	b := newBrowserFor(t, 5*time.Minute)
	b.openPage(true)
	b.upload("#file", writeTemp(t, "tasks.csv", sb.String()))
	b.waitFor(`spmtlApp.dataError() !== "" || (spmtlApp.summary().name === "tasks.csv" && spmtlApp.state() === "idle")`, 3*time.Minute)
	if msg := eval[string](b, `spmtlApp.dataError()`); msg != "" {
		t.Fatalf("200,000 one-row tasks were refused: %q", msg)
	}
	if s := eval[string](b, `document.getElementById("summary").textContent`); !strings.HasPrefix(s, "tasks.csv: 200,000 tasks, 200,000 rows (1 per task)") {
		t.Errorf("the summary reads %q", s)
	}
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() !== "running" && spmtlApp.state() !== "loading" && !document.getElementById("run-error").hidden`, 3*time.Minute)
	why := eval[string](b, `Array.from(document.querySelectorAll(".field-error")).filter((e) => !e.hidden).map((e) => e.textContent).join(" ")`)
	t.Logf("Play: %q; %q", eval[string](b, `document.getElementById("run-error").textContent`), why)
	if why == "" {
		t.Errorf("Play on 200,000 one-row tasks was refused without a setting's reason")
	}
	b.noConsoleErrors()
}

// hostileNames are task names a spreadsheet would run, or that XML does
// not allow, written as CSV fields.
var hostileNames = []string{`"=HYPERLINK(""http://example.com"",""x"")"`, `"-2+3"`, `"@SUM(1)"`, "\"ctl\x01a\x1bb\""}

// hostileCSV is a regression file with hostileNames as its tasks and
// features named "=x1" and "+x2".
func hostileCSV() string {
	var sb strings.Builder
	sb.WriteString("task,y,=x1,+x2,x3\n")
	for t, name := range hostileNames {
		for i := 0; i < 16; i++ {
			x1, x2, x3 := float64((i*3+t)%7)-3, float64((i*5+2*t)%9)-4, float64(i%4)-1.5
			fmt.Fprintf(&sb, "%s,%.3f,%v,%v,%v\n", name, 0.7*x1-0.4*x2+0.1*float64(t)*x3+0.05*float64((i*7)%5-2), x1, x2, x3)
		}
	}
	return sb.String()
}

// readCSV reads a downloaded CSV, failing the test when it does not read.
func readCSV(t *testing.T, name, text string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatalf("%s does not read as CSV: %v\n%.300s", name, err, text)
	}
	return rows
}

// liveCells returns the cells a spreadsheet would run: text beginning
// with = + - @, a tab, a carriage return or a line feed that is not a
// number.
func liveCells(rows [][]string) []string {
	var live []string
	for _, r := range rows {
		for _, c := range r {
			if c == "" || !strings.ContainsRune("=+-@\t\r\n", rune(c[0])) {
				continue
			}
			if _, err := strconv.ParseFloat(c, 64); err != nil || strings.ContainsAny(c, "xXnNiIpP_") {
				live = append(live, c)
			}
		}
	}
	return live
}

// wellFormedXML reports the first error of parsing text as XML.
func wellFormedXML(text string) error {
	d := xml.NewDecoder(strings.NewReader(text))
	for {
		if _, err := d.Token(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// TestHostileNamesInExports: task and feature names that a spreadsheet
// would run (=HYPERLINK(...), -2+3, @SUM(1), =x1, +x2) and one holding
// control characters train like any others. Every CSV the page derives
// (τ, per-task results, shared knowledge, sweep, tuning scores) writes
// them with a quote before them and keeps its numbers as numbers; the
// predictions file repeats the visitor's own cells as they are and says
// so; the SVGs stay well-formed XML and the run's JSON keeps the names.
func TestHostileNamesInExports(t *testing.T) {
	b := newBrowserFor(t, 4*time.Minute)
	b.openPage(true)
	text := hostileCSV()
	b.loadFile("hostile.csv", text)
	b.interceptDownloads()
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	b.waitFor(`!document.getElementById("knowledge-csv").disabled`, 20*time.Second)
	names := []string{`=HYPERLINK("http://example.com","x")`, "-2+3", "@SUM(1)", "ctl\x01a\x1bb"}
	for _, tc := range []struct {
		button, file string
		want         []string // cells the file must hold
	}{
		{"export-tau", "spmtl-tau.csv", []string{"'" + names[0], "'-2+3", "'@SUM(1)", names[3]}},
		{"export-results", "spmtl-results.csv", []string{"'" + names[0], "'-2+3", "'@SUM(1)"}},
		{"knowledge-csv", "spmtl-knowledge.csv", []string{"'=x1", "'+x2", "x3"}},
	} {
		b.do(chromedp.Click(chromedp.CSS("#" + tc.button)))
		rows := readCSV(t, tc.file, b.downloaded(tc.file))
		if live := liveCells(rows); len(live) > 0 {
			t.Errorf("%s has cells a spreadsheet would run: %q", tc.file, live)
		}
		has := map[string]bool{}
		for _, r := range rows {
			for _, c := range r {
				has[c] = true
			}
		}
		for _, w := range tc.want {
			if !has[w] {
				t.Errorf("%s has no cell %q (first row %q)", tc.file, w, rows[0])
			}
		}
	}
	// The SVGs: the τ map (downloaded), the scatters, the shared knowledge's bars.
	b.do(chromedp.Click(chromedp.CSS("#heatmap-svg")))
	svgs := map[string]string{"spmtl-tau.svg": b.downloaded("spmtl-tau.svg")}
	for k, v := range eval[map[string]string](b, `spmtlApp.svgs()`) {
		svgs[k] = v
	}
	for i, v := range eval[[]string](b, `spmtlApp.knowledge().svgs`) {
		svgs[fmt.Sprintf("knowledge %d", i+1)] = v
	}
	for name, svg := range svgs {
		if err := wellFormedXML(svg); err != nil {
			t.Errorf("%s is not well-formed XML: %v", name, err)
		}
	}
	if !strings.Contains(svgs["spmtl-tau.svg"], "ctl\u2401a\u241bb") {
		t.Errorf("the τ SVG does not show the task ctl\\x01a\\x1bb as ctl␁a␛b")
	}
	// The run's JSON: valid, with the names as they are.
	b.do(chromedp.Click(chromedp.CSS("#export-json")))
	var run struct {
		Run struct{ Tasks []string } `json:"run"`
	}
	if err := json.Unmarshal([]byte(b.downloaded("spmtl-run.json")), &run); err != nil {
		t.Fatalf("the run's JSON does not parse: %v", err)
	}
	if strings.Join(run.Run.Tasks, "|") != strings.Join(names, "|") {
		t.Errorf("the run's JSON names the tasks %q, want %q", run.Run.Tasks, names)
	}
	// Predictions: the visitor's own cells, unchanged, and the page says so.
	b.upload("#predict-file", writeTemp(t, "hostile.csv", text))
	b.waitFor(`spmtlApp.predictions() !== null && !document.getElementById("predict-csv").disabled`, 30*time.Second)
	if st := eval[string](b, `document.getElementById("predict-status").textContent`); !strings.Contains(st, "The CSV repeats the file's own cells as they are") {
		t.Errorf("the predictions' status %q does not say the file's cells are repeated as they are", st)
	}
	b.do(chromedp.Click(chromedp.CSS("#predict-csv")))
	pred := readCSV(t, "hostile-predictions.csv", b.downloaded("hostile-predictions.csv"))
	if pred[0][2] != "=x1" || pred[1][0] != names[0] {
		t.Errorf("the predictions file changed the visitor's cells: header %q, first row %q", pred[0], pred[1])
	}
	// The sweep's and the tuning's files carry no name of the visitor's;
	// they go through the same writer.
	b.do(chromedp.Click(chromedp.CSS("#tune-scope-one")), chromedp.Click(chromedp.CSS("#tune")))
	b.waitFor(`["done", "failed", "cancelled"].includes(spmtlApp.tune().state)`, 90*time.Second)
	if st := eval[string](b, `spmtlApp.tune().state`); st != "done" {
		t.Fatalf("tuning ended %q: %s", st, eval[string](b, `document.getElementById("tune-error").textContent`))
	}
	sweepDone(b, "auto*0.5,auto")
	for _, tc := range []struct{ button, file string }{{"tune-csv", "spmtl-tune.csv"}, {"sweep-csv", "spmtl-sweep.csv"}} {
		b.do(chromedp.Click(chromedp.CSS("#" + tc.button)))
		if live := liveCells(readCSV(t, tc.file, b.downloaded(tc.file))); len(live) > 0 {
			t.Errorf("%s has cells a spreadsheet would run: %q", tc.file, live)
		}
	}
	b.noConsoleErrors()
}

// injectScript inserts an inline script and an element with an inline
// event handler into the page, as a flaw that let markup through would,
// and returns whether either ran and the policy violations reported.
const injectScript = `new Promise((done) => {
	window.__injected = [];
	const violations = [];
	document.addEventListener("securitypolicyviolation", (e) => violations.push(e.effectiveDirective));
	const s = document.createElement("script");
	s.textContent = "window.__injected.push('script')";
	document.body.append(s);
	const d = document.createElement("div");
	d.innerHTML = '<img alt="" src="data:," onerror="window.__injected.push(\'handler\')">';
	document.body.append(d);
	setTimeout(() => done({ran: window.__injected, violations}), 500);
})`

type injected struct {
	Ran        []string
	Violations []string
}

// checkInjectionBlocked runs injectScript and checks that nothing ran.
func (b *browser) checkInjectionBlocked(where string) {
	b.t.Helper()
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[injected](injectScript, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("%s: inject: %v", where, err)
	}
	if len(got.Ran) > 0 || len(got.Violations) < 2 {
		b.t.Errorf("%s: the injected %q ran (policy violations reported: %q); want neither to run, both reported", where, got.Ran, got.Violations)
	}
}

// TestCSPBlocksInjectedScript: the page served by serve.go (its policy as
// a header, with frame-ancestors *, and as a meta tag), the same page from
// a server that sends no header (the meta tag alone), the embed, and the
// offline file opened from disk each train to the end under their
// Content-Security-Policy, and an inline script or event handler injected
// into them does not run.
func TestCSPBlocksInjectedScript(t *testing.T) {
	const link = "#data=landmine&model=mtfl&sp=1&maxIter=4&run=1"
	base := serveGo(t)
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	header := resp.Header.Get("Content-Security-Policy")
	if !strings.HasSuffix(header, "; frame-ancestors *") || !strings.Contains(header, "script-src 'self' 'sha256-") {
		t.Errorf("serve.go's Content-Security-Policy header is %q, want the page's policy and frame-ancestors *", header)
	}
	if js, err := http.Get(base + "/js/worker.js"); err != nil {
		t.Fatal(err)
	} else if js.Body.Close(); js.Header.Get("Content-Security-Policy") != header {
		t.Errorf("the worker's script is served with the policy %q, want the page's %q", js.Header.Get("Content-Security-Policy"), header)
	}
	dist, _ := filepath.Abs(distDir(t))
	for _, tc := range []struct{ name, url string }{
		{"served by serve.go", base + "/" + link},
		{"embedded, served by serve.go", base + "/" + link + "&embed=1"},
		{"the meta tag alone", ""},
		{"the offline file", "file://" + filepath.Join(dist, "spmtl-offline.html") + link},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBrowser(t)
			url := tc.url
			if url == "" {
				url = b.base + "/" + link
			}
			if strings.HasPrefix(url, "file:") {
				b.networkOff()
			}
			b.do(chromedp.Navigate(url))
			b.waitFor(`window.spmtlApp && spmtlApp.state() === "done" && spmtlApp.results() !== null`, 90*time.Second)
			b.noConsoleErrors()
			b.checkInjectionBlocked(tc.name)
		})
	}
}

// TestRefusedFileIsNotReplacedByTheOneBefore: a file that was refused
// (never read) holds Play and Tune as a file whose columns are still to
// choose does: Play says the file is not read and what to do, and trains
// nothing, where it once trained the data set loaded before it (landmine)
// under the file's menus and "your data", and made its model the current
// one. The run bar and the hint name the file, the empty heatmap names
// the data set whose rows it shows, and the data set before it is trained
// again once chosen in Preset.
func TestRefusedFileIsNotReplacedByTheOneBefore(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	var sb strings.Builder
	sb.WriteString("task,y,x1,x2\n")
	for i := 0; i < 40; i++ {
		x1 := fmt.Sprintf("%.2f", float64(i%9)/4)
		if i%7 == 3 {
			x1 = "NA"
		}
		fmt.Fprintf(&sb, "t%d,%.2f,%s,%.2f\n", i%4, float64(i%5), x1, float64(i%3))
	}
	b.upload("#file", writeTemp(t, "na.csv", sb.String()))
	if msg := b.shownError("data-error", 30*time.Second); !strings.Contains(msg, "na.csv") {
		t.Fatalf("the refusal: %q", msg)
	}
	b.waitFor(`spmtlApp.state() === "idle"`, 10*time.Second)
	if bar := eval[string](b, `document.getElementById("bar-summary").textContent`); !strings.Contains(bar, "na.csv is not read") {
		t.Errorf("the run bar says %q, want that na.csv is not read", bar)
	}
	if hint := eval[string](b, `document.getElementById("first-hint").textContent`); !strings.Contains(hint, "na.csv is not read") {
		t.Errorf("the hint says %q", hint)
	}
	// The empty heatmap says which file is not read, rather than listing
	// the tasks of the data set still loaded (as while a file waits for its
	// columns: TestPromptShowsTheFilesSettings).
	b.waitFor(`(spmtlApp.heatmapLayout() || {}).empty !== undefined`, 5*time.Second)
	if empty := eval[string](b, `spmtlApp.heatmapLayout().empty || ""`); !strings.Contains(empty, "na.csv is not read") || strings.Contains(empty, "landmine") {
		t.Errorf("the empty heatmap says %q, want that na.csv is not read", empty)
	}
	for _, id := range []string{"play", "tune"} {
		b.do(chromedp.Click(chromedp.CSS("#" + id)))
		if msg := b.shownError("error", 5*time.Second); !strings.Contains(msg, "na.csv is not read") || !strings.Contains(msg, "Preset") {
			t.Errorf("%s on a refused file says %q", id, msg)
		}
	}
	time.Sleep(time.Second)
	if n := eval[int](b, `spmtlApp.snapshots().length`); n != 0 || eval[bool](b, `spmtlApp.runInfo() !== null`) || eval[string](b, `spmtlApp.state()`) != "idle" {
		t.Errorf("Play on the refused file trained something: %d snapshots, state %s", n, eval[string](b, `spmtlApp.state()`))
	}
	b.choosePreset("landmine")
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done"`, 60*time.Second)
	b.noConsoleErrors()
}

// TestTitleRowAboveTheHeader: a spreadsheet's report with a title line
// above its table is refused as such, with what to delete, rather than
// answered with a column prompt that suggested the title as the task.
func TestTitleRowAboveTheHeader(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	var sb strings.Builder
	sb.WriteString("Sales report 2023,,,\n,,,\nregion,sales,price,staff\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&sb, "r%d,%d,%d.5,%d\n", i%3, 100+i*7%13, i%5, i%4)
	}
	b.upload("#file", writeTemp(t, "report.csv", sb.String()))
	msg := b.shownError("data-error", 30*time.Second)
	if !strings.Contains(msg, "report.csv:1:1: the first line (Sales report 2023") || !strings.Contains(msg, "as a title above a table does: delete the lines above") {
		t.Errorf("the refusal: %q", msg)
	}
	if p := eval[string](b, `spmtlApp.columnPrompt()`); p != "" {
		t.Errorf("a column prompt beside the refusal: %q", p)
	}
	b.noConsoleErrors()
}
