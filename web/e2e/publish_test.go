package e2e

// Published runs and saved runs (core/publish, web/js/published.js,
// web/js/run-open.js): `spmtl publish` and the page's "Publish as a page"
// write one HTML file that, opened from disk with the network off, shows
// the recorded run without training and reruns it to the printed digits;
// "Open a saved run…" shows a run file without training.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/spmtl/spmtl/core/publish"
)

// spmtlBinary builds the command line into a temporary folder.
func spmtlBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "spmtl")
	cmd := exec.Command("go", "build", "-o", bin, "./core/cmd/spmtl")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build spmtl: %v\n%s", err, out)
	}
	return bin
}

// runCLI runs the command line and returns what it printed.
func runCLI(t *testing.T, bin string, args ...string) string {
	t.Helper()
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("spmtl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// countWorkerRequests makes every new document count the requests its
// page sends to workers, by type, in window.__requests.
func (b *browser) countWorkerRequests() {
	b.t.Helper()
	const src = `window.__requests = {};
(() => { const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (m, ...rest) {
    if (m && typeof m.type === "string") window.__requests[m.type] = (window.__requests[m.type] || 0) + 1;
    return post.call(this, m, ...rest);
  };
})();`
	b.onEveryDocument(src, "watch the worker requests")
}

// workerRequests returns how many requests of a type the page has sent its workers.
func (b *browser) workerRequests(kind string) int {
	return eval[int](b, fmt.Sprintf(`(window.__requests || {})[%q] || 0`, kind))
}

// shownResults reads the results table as the page prints it: row name →
// its score cells (the rows column left out; the mean row, "mean ± SE over
// tasks", under "mean" with its means only).
func (b *browser) shownResults() map[string][]string {
	b.t.Helper()
	rows := eval[[][]string](b, `Array.from(document.querySelectorAll("#results tbody tr:not(.spacer)")).map((tr) => Array.from(tr.cells).map((c) => c.textContent))`)
	out := map[string][]string{}
	for _, r := range rows {
		if len(r) < 2 {
			continue
		}
		name, cells := r[0], append([]string(nil), r[2:]...)
		if strings.HasPrefix(name, "mean") {
			name = "mean"
			for i, c := range cells {
				cells[i], _, _ = strings.Cut(strings.TrimSpace(c), " ±")
			}
		}
		out[name] = cells
	}
	return out
}

// printedAs reports whether shown is how the page prints v: "n/a" for NaN,
// else v to the shown number of decimals (the page prints the digits a
// score's standard error supports).
func printedAs(shown string, v float64) bool {
	if v != v {
		return shown == "n/a"
	}
	d := 0
	if _, frac, ok := strings.Cut(shown, "."); ok {
		d = len(frac)
	}
	return shown == fmt.Sprintf("%.*f", d, v)
}

// recordedResults is a recorded run's scores by results row: the mean and
// each task's, for the run, its baseline and ITL in order.
func recordedResults(rf publish.RunFile) map[string][]float64 {
	out := map[string][]float64{}
	for _, role := range []string{"main", "baseline", "itl"} {
		res, ok := rf.Results[role]
		if !ok {
			continue
		}
		out["mean"] = append(out["mean"], float64(res.Mean))
		for i, task := range res.Tasks {
			out[task] = append(out[task], float64(res.Test[i]))
		}
	}
	return out
}

// openPublished opens a published file from disk with the network off and
// waits until the recorded run is shown; it returns the time that took.
func (b *browser) openPublished(path string) time.Duration {
	b.t.Helper()
	b.networkOff()
	start := time.Now()
	b.do(chromedp.Navigate("file://" + path))
	b.waitFor(`window.spmtlApp && spmtlApp.recorded && spmtlApp.recorded().showing && spmtlApp.state() === "done"`, 90*time.Second)
	b.waitFor(`spmtlApp.heatmapLayout() && spmtlApp.heatmapLayout().cols === spmtlApp.snapshots().length`, 10*time.Second)
	return time.Since(start)
}

// checkRecordedRun: the page shows the recorded run (τ, the results table
// as printed, the shared knowledge) and has trained nothing.
func (b *browser) checkRecordedRun(rf publish.RunFile, file string) {
	t := b.t
	t.Helper()
	if n := b.workerRequests("start"); n != 0 {
		t.Errorf("the page trained %d run(s) before it was asked to", n)
	}
	var tau [][]float64
	for _, s := range rf.Snapshots {
		tau = append(tau, s.Tau)
	}
	if got := eval[[][]float64](b, `spmtlApp.tauHistory()`); fmt.Sprint(got) != fmt.Sprint(tau) {
		t.Errorf("τ shown differs from the recorded τ:\n%.300v\n%.300v", got, tau)
	}
	if rows := eval[int](b, heatmapRowsJS); rows == 0 {
		t.Error("the heatmap has no row drawn")
	}
	// The table builds the rows in view: each shows the recorded numbers.
	want, got := recordedResults(rf), b.shownResults()
	if len(got["mean"]) == 0 {
		t.Errorf("the results table shows no mean row: %v", got)
	}
	for name, cells := range got {
		ok := len(cells) == len(want[name])
		for i := 0; ok && i < len(cells); i++ {
			ok = printedAs(cells[i], want[name][i])
		}
		if !ok {
			t.Errorf("results row %q shows %v, the recorded run %v", name, cells, want[name])
		}
	}
	b.waitFor(`spmtlApp.knowledge() !== null`, 20*time.Second)
	text := eval[string](b, `document.getElementById("recorded-panel").innerText`)
	for _, w := range []string{file, fmt.Sprintf("%d rows", rf.Data.Rows), fmt.Sprintf("%d tasks", len(rf.Data.Tasks)), "Made ", "seed " + rf.Settings["seed"], "nothing was trained"} {
		if !strings.Contains(text, w) {
			t.Errorf("the recorded-run panel does not say %q:\n%s", w, text)
		}
	}
	// A sequential model's selection rule, and MTASO's h, are not listed
	// for a model that has none.
	// The pace's settings are listed for a self-paced run only.
	if m := rf.Settings["model"]; m != "cl" && m != "ella" && strings.Contains(text, "rule random") || m != "mtaso" && strings.Contains(text, ", h ") ||
		(rf.Settings["sp"] == "1") != strings.Contains(text, "λ0 ") || (rf.Settings["sp"] == "1") != strings.Contains(text, "τ rule") {
		t.Errorf("the settings of a %s run list another model's: %s", m, eval[string](b, `document.getElementById("recorded-settings").textContent`))
	}
}

// reproduce clicks "Reproduce this run" and returns the verdict.
func (b *browser) reproduce() string {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.CSS("#recorded-reproduce")))
	b.waitFor(`/^(Reproduced|Not reproduced|The rerun)/.test(spmtlApp.recorded().verdict)`, 120*time.Second)
	return eval[string](b, `spmtlApp.recorded().verdict`)
}

// noNetwork fails when the page asked for anything but files and blobs.
func (b *browser) noNetwork() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, r := range b.requests {
		if !strings.HasPrefix(r, "file:") && !strings.HasPrefix(r, "blob:") && !strings.HasPrefix(r, "data:") && r != "about:blank" {
			b.t.Errorf("the published page asked the network for %s", r)
		}
	}
}

// TestPublishedExamOpensOffline: `spmtl publish` of exam.csv (task column
// school, label score, the id student left out, text columns sex and
// intake) opened from disk with the network off shows the recorded run at
// once, without training: τ, the results as the command line's `train
// -json` prints them, the shared knowledge, and what the file holds;
// "Reproduce this run" reruns it in the page to every printed digit.
func TestPublishedExamOpensOffline(t *testing.T) {
	dist := distDir(t)
	bin := spmtlBinary(t)
	exam, _ := examCSV(t)
	out := filepath.Join(t.TempDir(), "exam-published.html")
	roles := []string{"-data", exam, "-task", "school", "-label", "score", "-drop", "student", "-model", "mtfl", "-selfpaced", "-lambda0", "auto"}
	start := time.Now()
	printed := runCLI(t, bin, append([]string{"publish", "-page", filepath.Join(dist, "spmtl-offline.html"), "-o", out}, roles...)...)
	t.Logf("spmtl publish took %v:\n%s", time.Since(start), printed)
	html, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	m, data, err := publish.Read(string(html))
	if err != nil {
		t.Fatal(err)
	}
	if m.Data.File != "exam.csv" || len(data) == 0 || strings.Contains(string(html), filepath.Dir(exam)) {
		t.Errorf("the published data: file %q, %d bytes; the page names its folder: %v", m.Data.File, len(data), strings.Contains(string(html), filepath.Dir(exam)))
	}
	// The command line's own run on the same file and settings.
	var train struct {
		PerTask []*float64 `json:"perTask"`
		Mean    float64    `json:"mean"`
		Tasks   []string   `json:"tasks"`
	}
	if err := json.Unmarshal([]byte(runCLI(t, bin, append([]string{"train", "-json", "-"}, roles...)...)), &train); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.countWorkerRequests()
	abs, _ := filepath.Abs(out)
	t.Logf("exam.csv published: %d bytes; open to the recorded run shown %v", len(html), b.openPublished(abs))
	b.checkRecordedRun(m.Run, "exam.csv")
	shown := b.shownResults()
	if got := shown["mean"]; len(got) == 0 || !printedAs(got[0], train.Mean) {
		t.Errorf("the page shows the mean %v, spmtl train %.4f", got, train.Mean)
	}
	for i, task := range train.Tasks {
		if v := train.PerTask[i]; v != nil && (len(shown[task]) == 0 || !printedAs(shown[task][0], *v)) {
			t.Errorf("task %s: the page shows %v, spmtl train %.4f", task, shown[task], *v)
		}
	}
	b.axe(axeSource(t), "a published run")
	verdict := b.reproduce()
	t.Logf("reproduce: %s", verdict)
	if !strings.HasPrefix(verdict, "Reproduced: all ") || b.workerRequests("start") != 1 {
		t.Errorf("the rerun: %q after %d start(s)", verdict, b.workerRequests("start"))
	}
	b.noNetwork()
	b.noConsoleErrors()
}

// TestPublishedGroupedFile: a generated grouped file (300 groups, numbers
// written as Go writes them) published, opened offline and rerun.
func TestPublishedGroupedFile(t *testing.T) {
	dist := distDir(t)
	bin := spmtlBinary(t)
	dir := t.TempDir()
	runCLI(t, bin, "generate", "grouped", "-groups", "300", "-out", dir)
	out := filepath.Join(dir, "grouped.html")
	printed := runCLI(t, bin, "publish", "-page", filepath.Join(dist, "spmtl-offline.html"), "-data", filepath.Join(dir, "train.csv"), "-task", "group", "-selfpaced", "-o", out)
	t.Logf("%s", printed)
	reproducesPublished(t, out, "train.csv")
}

// reproducesPublished opens the published page out (its data file named
// file) from disk: it shows the recorded run, its rerun reproduces every
// score, and it asks the network for nothing. It returns the manifest.
func reproducesPublished(t *testing.T, out, file string) *publish.Manifest {
	t.Helper()
	html := readFile(t, out)
	m, _, err := publish.Read(html)
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.countWorkerRequests()
	t.Logf("%s published: %d bytes; open to the recorded run shown %v", file, len(html), b.openPublished(out))
	b.checkRecordedRun(m.Run, file)
	if verdict := b.reproduce(); !strings.HasPrefix(verdict, "Reproduced: all ") {
		t.Errorf("the rerun: %q", verdict)
	}
	b.noNetwork()
	b.noConsoleErrors()
	return m
}

// TestPublishedFileMissingValues: a file with missing values published
// with -missing omit opens with the recorded run, and the page reads the
// file leaving out the same rows, so that the rerun reproduces it.
func TestPublishedFileMissingValues(t *testing.T) {
	dist := distDir(t)
	bin := spmtlBinary(t)
	dir := t.TempDir()
	var sb strings.Builder
	sb.WriteString("group,y,x1,x2\n")
	for i := 0; i < 240; i++ {
		x1, y := fmt.Sprintf("%.3f", float64((i*7)%11)/4-1), fmt.Sprintf("%.3f", float64((i*5)%13)/3+float64(i%12)/5)
		if i%13 == 5 {
			x1 = "NA"
		}
		if i%29 == 3 {
			y = ""
		}
		fmt.Fprintf(&sb, "g%02d,%s,%s,%d\n", i%12, y, x1, (i*3)%7)
	}
	data := filepath.Join(dir, "na.csv")
	if err := os.WriteFile(data, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "na.html")
	printed := runCLI(t, bin, "publish", "-page", filepath.Join(dist, "spmtl-offline.html"), "-data", data, "-task", "group", "-missing", "omit", "-model", "mmtl", "-o", out)
	if !strings.Contains(printed, "rows were left out for a missing value") {
		t.Errorf("publish did not say which rows it left out:\n%s", printed)
	}
	if m := reproducesPublished(t, out, "na.csv"); m.Data.Missing != "omit" {
		t.Errorf("the manifest's missing is %q, want omit", m.Data.Missing)
	}
}

// TestPublishedBundle: a run on a bundled data set (school, with its split
// file) is published by name: the page loads its own copy, shows the run
// and reruns it.
func TestPublishedBundle(t *testing.T) {
	dist := distDir(t)
	bin := spmtlBinary(t)
	out := filepath.Join(t.TempDir(), "school.html")
	t.Logf("%s", runCLI(t, bin, "publish", "-page", filepath.Join(dist, "spmtl-offline.html"), "-data", "school", "-selfpaced", "-maxiter", "5", "-o", out))
	m, data, err := publish.Read(readFile(t, out))
	if err != nil {
		t.Fatal(err)
	}
	if m.Data.Bundle != "school" || data != nil {
		t.Fatalf("published school: %+v, %d bytes of data", m.Data, len(data))
	}
	b := newBrowser(t)
	b.countWorkerRequests()
	b.openPublished(out)
	b.checkRecordedRun(m.Run, "school")
	if verdict := b.reproduce(); !strings.HasPrefix(verdict, "Reproduced: all ") {
		t.Errorf("the rerun: %q", verdict)
	}
	b.noNetwork()
	b.noConsoleErrors()
}

// TestPublishFromThePage: the page's "Publish as a page" (served: it
// fetches the offline page) writes a file that opens offline with the run
// shown and reruns it; that file publishes itself again (the offline page
// from its own text) into one that does the same.
func TestPublishFromThePage(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	b.interceptDownloads()
	b.loadExam(t, true)
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null && spmtlApp.model() !== null`, 60*time.Second)
	mean := eval[float64](b, `spmtlApp.results().main.mean`)
	// By keyboard: the button, disabled while it works, takes the focus
	// back instead of leaving it on the page's body.
	b.do(chromedp.Focus(chromedp.CSS("#publish-page")), chromedp.KeyEvent("\r"))
	first := writeTemp(t, "exam-spmtl.html", b.downloaded("exam-spmtl.html"))
	b.waitFor(`document.getElementById("publish-status").textContent.startsWith("Saved ")`, 20*time.Second)
	if id := eval[string](b, `document.activeElement.id`); id != "publish-page" {
		t.Errorf("after publishing the focus is on %q, want the Publish button", id)
	}
	m, data, err := publish.Read(readFile(t, first))
	if err != nil {
		t.Fatal(err)
	}
	if m.Data.Task != "school" || m.Data.Label != "score" || len(data) == 0 || m.Run.Model == nil {
		t.Errorf("the page's published file: data %+v, %d bytes, model %d bytes", m.Data, len(data), len(m.Run.Model))
	}
	if float64(m.Run.Results["main"].Mean) != mean {
		t.Errorf("published mean %v, the page's run %v", m.Run.Results["main"].Mean, mean)
	}
	off := newBrowser(t)
	off.countWorkerRequests()
	t.Logf("published from the served page: open to the run shown %v", off.openPublished(first))
	off.checkRecordedRun(m.Run, "exam.csv")
	if verdict := off.reproduce(); !strings.HasPrefix(verdict, "Reproduced: all ") {
		t.Errorf("the rerun of the page's published file: %q", verdict)
	}
	// Published again from the published file itself, after the rerun.
	off.interceptDownloads()
	off.do(chromedp.Click(chromedp.CSS("#publish-page")))
	second := writeTemp(t, "exam-again.html", off.downloaded("exam-spmtl.html"))
	m2, _, err := publish.Read(readFile(t, second))
	if err != nil {
		t.Fatal(err)
	}
	again := newBrowser(t)
	again.countWorkerRequests()
	again.openPublished(second)
	again.checkRecordedRun(m2.Run, "exam.csv")
	off.noNetwork()
	again.noNetwork()
	for _, br := range []*browser{b, off, again} {
		br.noConsoleErrors()
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestOpenSavedRun: a run saved with "Download the run as JSON" opened in a
// fresh page shows its heatmap, curves and results without training, and
// reruns on its (bundled) data set to the printed digits.
func TestOpenSavedRun(t *testing.T) {
	b := newBrowser(t)
	b.interceptDownloads()
	b.runDone("#data=school&model=mtfl&sp=1&maxIter=6&run=1")
	b.interceptDownloads()
	b.do(chromedp.Click(chromedp.CSS("#export-json")))
	saved := b.downloaded("spmtl-run.json")
	var rf publish.RunFile
	if err := json.Unmarshal([]byte(saved), &rf); err != nil {
		t.Fatalf("the saved run: %v", err)
	}
	if len(rf.Evals) != len(rf.Snapshots) || rf.Model == nil || rf.Format != "spmtl-run" {
		t.Errorf("the saved run has %d evals for %d snapshots, model %d bytes, format %q", len(rf.Evals), len(rf.Snapshots), len(rf.Model), rf.Format)
	}
	path := writeTemp(t, "spmtl-run.json", saved)
	fresh := newBrowser(t)
	fresh.countWorkerRequests()
	fresh.openPage(true) // landmine, the default data set
	fresh.upload("#run-file", path)
	fresh.waitFor(`spmtlApp.recorded().showing && spmtlApp.state() === "done" && spmtlApp.summary().tasks.length === 139`, 60*time.Second)
	fresh.waitFor(`spmtlApp.heatmapLayout() && spmtlApp.heatmapLayout().cols === spmtlApp.snapshots().length`, 10*time.Second)
	fresh.checkRecordedRun(rf, "spmtl-run.json")
	if n := eval[int](fresh, `document.getElementById("curves").getAttribute("aria-label").length`); n < 20 {
		t.Error("the curves have no description")
	}
	if verdict := fresh.reproduce(); !strings.HasPrefix(verdict, "Reproduced: all ") {
		t.Errorf("the rerun of the saved run: %q", verdict)
	}
	// A file that is not a run says so, beside the button.
	fresh.upload("#run-file", writeTemp(t, "other.json", `{"format": "spmtl-model"}`))
	fresh.waitFor(`!document.getElementById("open-run-error").hidden`, 10*time.Second)
	if msg := eval[string](fresh, `document.getElementById("open-run-error").textContent`); !strings.Contains(msg, "other.json: not a saved spmtl run") {
		t.Errorf("a model file opened as a run: %q", msg)
	}
	// A run whose numbers the views cannot draw is refused as it opens,
	// naming the number (a null τ once opened, and the rerun's comparison
	// then crashed and never finished: hunt10).
	for _, c := range []struct {
		name string
		edit func(m map[string]any)
		want string
	}{
		{"null-tau.json", func(m map[string]any) { m["snapshots"].([]any)[0].(map[string]any)["tau"].([]any)[0] = nil }, "snapshot 1's τ of task 1 is null, not a weight of 0 or more"},
		{"negative-tau.json", func(m map[string]any) { m["snapshots"].([]any)[1].(map[string]any)["tau"].([]any)[2] = -1.0 }, "snapshot 2's τ of task 3 is -1, not a weight of 0 or more"},
		{"other-format.json", func(m map[string]any) { m["format"] = "something-else" }, `its format is "something-else", not "spmtl-run"`},
		{"word-score.json", func(m map[string]any) {
			m["results"].(map[string]any)["main"].(map[string]any)["test"].([]any)[0] = "x"
		}, "the main result's scores are not numbers of 0 or more"},
		// A published page is opened in the browser: its markup was once
		// refused as JSON "nested more than 32 deep".
		{"page.json", nil, "a web page, not a saved run: a page published by spmtl shows its run when it is opened in the browser"},
	} {
		var m map[string]any
		if err := json.Unmarshal([]byte(saved), &m); err != nil {
			t.Fatal(err)
		}
		var text []byte
		if c.edit != nil {
			c.edit(m)
			text, _ = json.Marshal(m)
		} else {
			text = []byte("<!doctype html>\n<html><script>" + strings.Repeat("[", 40) + "</script></html>")
		}
		fresh.upload("#run-file", writeTemp(t, c.name, string(text)))
		fresh.waitFor(fmt.Sprintf(`document.getElementById("open-run-error").textContent.startsWith(%q)`, c.name), 10*time.Second)
		if msg := eval[string](fresh, `document.getElementById("open-run-error").textContent`); !strings.Contains(msg, c.want) {
			t.Errorf("%s: %q, want %q", c.name, msg, c.want)
		}
	}
	b.noConsoleErrors()
	fresh.noConsoleErrors()
}

// TestDamagedPublishedPageSaysSo: a published page whose data payload was
// damaged (one character changed) opens its own data set instead, and the
// refusal, which that data set's load once cleared within 0.2 s, stays.
func TestDamagedPublishedPageSaysSo(t *testing.T) {
	dist := distDir(t)
	bin := spmtlBinary(t)
	exam, _ := examCSV(t)
	out := filepath.Join(t.TempDir(), "exam-published.html")
	runCLI(t, bin, "publish", "-page", filepath.Join(dist, "spmtl-offline.html"), "-o", out, "-data", exam, "-task", "school", "-label", "score", "-drop", "student", "-model", "mtfl")
	html, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(html), `id="spmtl-publish-data"`)
	if i < 0 {
		t.Fatal("no data payload in the published page")
	}
	i = i + strings.Index(string(html[i:]), ">") + 40 // inside the payload's text
	damaged := append(append(append([]byte(nil), html[:i]...), html[i]^0x01), html[i+1:]...)
	path := filepath.Join(t.TempDir(), "damaged.html")
	if err := os.WriteFile(path, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.networkOff()
	b.do(chromedp.Navigate("file://" + path))
	b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.state() === "idle"`, 60*time.Second)
	time.Sleep(time.Second)
	if msg := eval[string](b, `document.getElementById("error").hidden ? "" : document.getElementById("error").textContent`); !strings.HasPrefix(msg, "This page's published run cannot be opened: its data is damaged") {
		t.Errorf("after the fallback data set loaded, the error says %q", msg)
	}
	b.noNetwork()
}

// TestOpenSavedSequentialRun: a sequential learner's saved run (the task
// learned at each step, no τ) opens without training and reruns.
func TestOpenSavedSequentialRun(t *testing.T) {
	b := newBrowser(t)
	b.runDone("#data=landmine&model=ella&select=infomax&run=1")
	b.interceptDownloads()
	b.do(chromedp.Click(chromedp.CSS("#export-json")))
	path := writeTemp(t, "ella-run.json", b.downloaded("spmtl-run.json"))
	steps := eval[int](b, `spmtlApp.snapshots().length`)
	fresh := newBrowser(t)
	fresh.countWorkerRequests()
	fresh.openPage(true)
	fresh.upload("#run-file", path)
	fresh.waitFor(`spmtlApp.recorded().showing && spmtlApp.state() === "done"`, 60*time.Second)
	if n, seq := eval[int](fresh, `spmtlApp.snapshots().length`), eval[bool](fresh, `spmtlApp.snapshots().every((s) => s.seq)`); n != steps || !seq {
		t.Errorf("the saved ELLA run shows %d steps (sequential: %v), the run took %d", n, seq, steps)
	}
	if heading := eval[string](fresh, `document.querySelector("#heat-panel h2").textContent`); heading != "Task learned at each step" {
		t.Errorf("the map's heading: %q", heading)
	}
	if n := fresh.workerRequests("start"); n != 0 {
		t.Errorf("opening a saved run trained %d run(s)", n)
	}
	if verdict := fresh.reproduce(); !strings.HasPrefix(verdict, "Reproduced: all ") {
		t.Errorf("the rerun of the saved ELLA run: %q", verdict)
	}
	b.noConsoleErrors()
	fresh.noConsoleErrors()
}
