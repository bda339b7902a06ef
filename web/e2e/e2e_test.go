// Package e2e drives the built app (dist/) in headless Chromium. The tests
// run when SPMTL_E2E=1 (./build.sh test sets it) and skip otherwise.
package e2e

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/spmtl/spmtl/core/app"
	evalpkg "github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
)

// browser is one headless Chromium session on the served dist/ folder.
type browser struct {
	t        *testing.T
	ctx      context.Context
	base     string
	mu       sync.Mutex
	console  []string // console errors and uncaught exceptions
	requests []string // every URL the page and its worker asked for
	served   []string // every path the server answered
	// missing, when set, makes the server answer 404 for these paths (a
	// site deployed without some of dist's files).
	missing map[string]bool
	// close ends the browser (its processes and the test's server), at
	// once; the test's cleanup calls it too.
	close func()
}

func distDir(t *testing.T) string {
	if os.Getenv("SPMTL_E2E") == "" {
		t.Skip("browser tests run with SPMTL_E2E=1 (./build.sh test)")
	}
	dir := os.Getenv("SPMTL_DIST")
	if dir == "" {
		dir = filepath.Join("..", "..", "dist")
	}
	if _, err := os.Stat(filepath.Join(dir, "spmtl.wasm")); err != nil {
		t.Fatalf("no build in %s (run ./build.sh): %v", dir, err)
	}
	return dir
}

func chromium() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	return newBrowserFor(t, 120*time.Second)
}

// newBrowserFor starts a browser (a new profile: nothing cached) whose
// actions must all end within d, with the extra options given.
func newBrowserFor(t *testing.T, d time.Duration, extra ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	dir := distDir(t)
	b := &browser{t: t}
	fsrv := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.mu.Lock()
		b.served = append(b.served, r.URL.Path)
		gone := b.missing[r.URL.Path]
		b.mu.Unlock()
		if gone {
			http.NotFound(w, r)
			return
		}
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
		}
		fsrv.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	b.base = srv.URL
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium()),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1600),
	)
	opts = append(opts, extra...)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, d)
	b.close = sync.OnceFunc(func() { cancelT(); cancelC(); cancelA(); srv.Close() })
	t.Cleanup(b.close)
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			b.mu.Lock()
			b.requests = append(b.requests, e.Request.URL)
			b.mu.Unlock()
		}
	}); err != nil {
		t.Fatalf("listen: %v", err)
	}
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == chromedp.ConsoleType("error") || m.Type == chromedp.ConsoleType("assert") {
				b.mu.Lock()
				b.console = append(b.console, string(m.Type)+": "+m.String())
				b.mu.Unlock()
			}
		}
	}()
	b.ctx = ctx
	return b
}

// networkOff switches the browser's network off (file: and blob: URLs still load).
func (b *browser) networkOff() {
	b.t.Helper()
	if _, err := chromedp.Call(b.ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}},
	}); err != nil {
		b.t.Fatalf("switch the network off: %v", err)
	}
}

func (b *browser) do(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.t.Fatalf("browser: %v\nconsole: %v", err, b.consoleErrors())
	}
}

// noConsoleErrors fails the test (and goes on) when the page logged an error.
func (b *browser) noConsoleErrors() {
	b.t.Helper()
	if errs := b.consoleErrors(); len(errs) > 0 {
		b.t.Errorf("console errors: %v", errs)
	}
}

// openPage opens the page without a link and waits for the default data
// set's summary (and, with idle, for the page to be idle with it).
func (b *browser) openPage(idle bool) {
	b.t.Helper()
	b.do(chromedp.Navigate(b.base + "/"))
	if idle {
		b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.state() === "idle"`, 30*time.Second)
	} else {
		b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null`, 30*time.Second)
	}
}

func (b *browser) consoleErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.console...)
}

// eval evaluates a JavaScript expression and decodes its value.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v\nconsole: %v", expr, err, b.consoleErrors())
	}
	return v
}

// waitFor polls a JS boolean expression.
// onEveryDocument runs src in every document the browser opens from now
// on, before the page's own scripts (what: the test's words for it, in a
// failure).
func (b *browser) onEveryDocument(src, what string) {
	b.t.Helper()
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

func (b *browser) waitFor(expr string, timeout time.Duration) {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr)); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			state, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`window.spmtlApp ? spmtlApp.state() : "no app"`))
			errText, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`window.spmtlApp ? spmtlApp.error() : ""`))
			// A host page (embedHost): what its learner said, and where the
			// embedded page's run stands.
			embedded, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(() => {
				const f = document.querySelector("iframe"), app = f && f.contentWindow && f.contentWindow.spmtlApp;
				if (!window.__heard) return "";
				const heard = window.__heard.filter((m) => m.type !== "spmtl:snapshot").map((m) => m.type + (m.message ? ": " + m.message : ""));
				return ("; embedded page: state " + (app ? app.state() + ", error " + JSON.stringify(app.error()) + ", workers that never started " + app.unstarted() : "no app") + "; it said " + JSON.stringify(heard)).slice(0, 3000);
			})()`))
			b.t.Fatalf("timed out waiting for %s (state %q, page error %q, console %v)%s", expr, state, errText, b.consoleErrors(), embedded)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

func outDir(t *testing.T) string {
	dir := os.Getenv("E2E_OUT")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "spmtl-e2e")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func (b *browser) screenshot(name string) string {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	p := filepath.Join(outDir(b.t), name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", p)
	return p
}

// TestWarmUpChangesNothing: the worker's warm-up (a brief run on made-up
// data while the page is idle, so that Chrome compiles the training code
// before Play) leaves no trace in what a run computes: a run after it
// equals, to the bit, the same link's run=1 run, which skips it. A Play
// pressed before the page is idle gets the same run and no warm-up after it.
func TestWarmUpChangesNothing(t *testing.T) {
	const link = "/#data=landmine&model=mtfl&sp=1&maxIter=6"
	// The run's numbers as Go values (JSON keys come in any order).
	runOf := func(b *browser) any {
		return eval[any](b, `({results: spmtlApp.results(), tau: spmtlApp.tauHistory(), objective: spmtlApp.snapshots().map((s) => s.objective)})`)
	}
	cold := newBrowser(t)
	cold.do(chromedp.Navigate(cold.base + link + "&run=1"))
	cold.waitFor(`window.spmtlApp && spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	if w := eval[any](cold, `spmtlApp.warmth()`); w != nil {
		t.Errorf("a run=1 link warmed up (%v): its run was waiting", w)
	}
	warm := newBrowser(t)
	warm.do(chromedp.Navigate(warm.base + link))
	warm.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.warmth() === "warm"`, 60*time.Second)
	if n := eval[int](warm, `spmtlApp.snapshots().length`); n != 0 {
		t.Fatalf("the warm-up drew %d snapshots", n)
	}
	warm.do(chromedp.Click(chromedp.CSS("#play")))
	warm.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	if a, b := runOf(cold), runOf(warm); !reflect.DeepEqual(a, b) {
		t.Errorf("the run after the warm-up differs from the run=1 run:\n%.600v\n%.600v", b, a)
	}
	// A Play pressed as soon as the data set shows, before the page is idle:
	// the warm-up, not begun yet, must not begin behind the run.
	early := newBrowser(t)
	early.do(chromedp.Navigate(early.base + link))
	atClick, err := chromedp.Run(early.ctx, chromedp.Evaluate[any](`new Promise((done) => {
		const tick = () => {
			if (!(window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.state() === "idle")) return setTimeout(tick, 2);
			const w = spmtlApp.warmth();
			document.getElementById("play").click();
			done(w);
		};
		tick();
	})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("press Play early: %v", err)
	}
	early.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	time.Sleep(300 * time.Millisecond) // an idle callback would have come by now
	if w := eval[any](early, `spmtlApp.warmth()`); atClick == nil && w != nil {
		t.Errorf("a Play pressed before the warm-up began was followed by one (%v)", w)
	} else if atClick != nil {
		t.Logf("the warm-up had begun (%v) before the early Play; nothing to check there", atClick)
	}
	if a, b := runOf(cold), runOf(early); !reflect.DeepEqual(a, b) {
		t.Errorf("the early Play's run differs from the run=1 run:\n%.600v\n%.600v", b, a)
	}
	if errs := append(append(cold.consoleErrors(), warm.consoleErrors()...), early.consoleErrors()...); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}

// TestWarmUpFollowsTheModel: choosing another model on an idle page warms
// that model up too (once), and the run Play then starts is the same, to
// the bit, as the same link's run=1 run, which had no warm-up.
func TestWarmUpFollowsTheModel(t *testing.T) {
	const link = "/#data=landmine&model=mtfl&sp=1&maxIter=6"
	runOf := func(b *browser) any {
		return eval[any](b, `({results: spmtlApp.results(), tau: spmtlApp.tauHistory(), objective: spmtlApp.snapshots().map((s) => s.objective)})`)
	}
	b := newBrowser(t)
	b.do(chromedp.Navigate(b.base + link))
	b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.warmth() === "warm"`, 60*time.Second)
	choose := func(model string) {
		b.do(chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById("model"); s.value = "` + model + `"; s.dispatchEvent(new Event("change")); })()`))
	}
	choose("mmtl")
	b.waitFor(`spmtlApp.warmedModels().join() === "mtfl,mmtl" && spmtlApp.warmth() === "warm"`, 60*time.Second)
	// Back to a model warmed before: no second warm-up.
	choose("mtfl")
	time.Sleep(500 * time.Millisecond)
	choose("mmtl")
	time.Sleep(500 * time.Millisecond)
	if got := eval[string](b, `spmtlApp.warmedModels().join()`); got != "mtfl,mmtl" {
		t.Errorf("warmed up %q, want mtfl,mmtl (each once)", got)
	}
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	cold := newBrowser(t)
	cold.do(chromedp.Navigate(cold.base + "/#data=landmine&model=mmtl&sp=1&maxIter=6&run=1"))
	cold.waitFor(`window.spmtlApp && spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	if w := eval[any](cold, `spmtlApp.warmth()`); w != nil {
		t.Errorf("a run=1 link warmed up (%v)", w)
	}
	if a, c := runOf(b), runOf(cold); !reflect.DeepEqual(a, c) {
		t.Errorf("the run after warming mmtl up differs from the run=1 run:\n%.600v\n%.600v", a, c)
	}
	b.noConsoleErrors()
	cold.noConsoleErrors()
}

// TestLandmineSelfPacedRun loads the page with #run=1: landmine loads by
// default and a self-paced MTFL fit runs to the end. It checks the console,
// τ, the heatmap's pixels, the requests, and the time to a finished run.
func TestLandmineSelfPacedRun(t *testing.T) {
	b := newBrowser(t)
	start := time.Now()
	b.do(chromedp.Navigate(b.base + "/#data=landmine&model=mtfl&sp=1&run=1"))
	b.waitFor(`window.spmtlApp && spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	elapsed := time.Since(start)
	t.Logf("navigation to a finished landmine spMTFL run (with its baseline and ITL): %v", elapsed)

	b.noConsoleErrors()
	b.kernelsLoaded()
	tau := eval[[][]float64](b, `spmtlApp.tauHistory()`)
	if len(tau) == 0 {
		t.Fatal("no τ history")
	}
	for k, col := range tau {
		if len(col) != 19 {
			t.Fatalf("iteration %d: %d tasks, want 19", k+1, len(col))
		}
		var s float64
		for _, v := range col {
			s += v
		}
		if math.Abs(s-1) > 1e-9 {
			t.Errorf("iteration %d: τ sums to %v", k+1, s)
		}
	}
	// Every one of the 19 heatmap rows has non-background pixels.
	rows := eval[int](b, heatmapRowsJS)
	if rows != 19 {
		t.Errorf("heatmap rows with colour: %d, want 19", rows)
	}
	mean := eval[float64](b, `spmtlApp.results().main.mean`)
	if !(mean > 0.6 && mean <= 1) {
		t.Errorf("mean test AUC %v is not plausible", mean)
	}
	// The comparisons are the ones Go chose for spMTFL: its baseline and ITL.
	labels := eval[[]string](b, `["main", "baseline", "itl"].map((k) => spmtlApp.results()[k].label)`)
	if strings.Join(labels, ",") != "spMTFL,MTFL,ITL" {
		t.Errorf("result labels %v, want spMTFL, MTFL, ITL", labels)
	}
	// Why the run ended is said once, in plain words: by the run bar's
	// outcome line, not again in the stopping rule's terms by the status.
	status := eval[string](b, `document.getElementById("status").textContent`)
	if !strings.HasSuffix(status, "· done") {
		t.Errorf("status %q, want it to end \"· done\"", status)
	}
	outcome := eval[string](b, `document.getElementById("run-outcome").textContent`)
	if !strings.HasPrefix(outcome, "Settled after ") && !strings.HasPrefix(outcome, "Ran the paper's 10 iterations") {
		t.Errorf("the run bar's outcome %q does not say why the run ended", outcome)
	}
	b.checkSameOrigin()
	svgs := eval[map[string]string](b, `spmtlApp.svgs()`)
	if n := strings.Count(svgs["heatmap"], `<rect class="cell"`); n != 19*len(tau) {
		t.Errorf("the heatmap SVG has %d cells, want %d", n, 19*len(tau))
	}
	if n := strings.Count(svgs["scatter"], "<circle"); n != 19 {
		t.Errorf("the scatter SVG has %d points, want 19", n)
	}
	b.screenshot("landmine.png")
}

// TestPresetBinaryTable: a bundled CSV loads from its binary table (the
// CSV is not fetched) to the same summary as from the CSV, which the page
// falls back to when the table is missing; school's split file applies to
// the table as to the CSV.
func TestPresetBinaryTable(t *testing.T) {
	for _, name := range []string{"landmine", "school"} {
		var summaries []string
		for _, hide := range []bool{false, true} {
			b := newBrowser(t)
			table, csv := "/data/"+name+"/data.packed", "/data/"+name+"/data.csv"
			if hide {
				b.missing = map[string]bool{table: true}
			}
			b.do(chromedp.Navigate(b.base + "/#data=" + name))
			b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.state() === "idle"`, 60*time.Second)
			// (keys sorted: the order of a converted Go map's keys varies)
			summaries = append(summaries, eval[string](b, `(() => {
				const canon = (v) => Array.isArray(v) ? v.map(canon) : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v;
				return JSON.stringify(canon(Object.assign({}, spmtlApp.summary(), { handle: 0 })));
			})()`))
			b.mu.Lock()
			served := strings.Join(b.served, " ")
			b.mu.Unlock()
			if !strings.Contains(served, table) {
				t.Errorf("%s: the binary table was never asked for (served %s)", name, served)
			}
			if got := strings.Contains(served, csv); got != hide {
				t.Errorf("%s (table missing: %v): the CSV fetched %v", name, hide, got)
			}
			if errs := b.consoleErrors(); len(errs) > 0 {
				t.Errorf("%s: console errors: %v", name, errs)
			}
		}
		if summaries[0] != summaries[1] {
			t.Errorf("%s: summary from the binary table\n%s\nfrom the CSV\n%s", name, summaries[0], summaries[1])
		}
		if !strings.Contains(summaries[0], `"tasks"`) {
			t.Errorf("%s: no summary: %s", name, summaries[0])
		}
	}
}

// checkSameOrigin asserts that no request left the page's origin and that
// the worker's wasm came from it.
func (b *browser) checkSameOrigin() {
	b.t.Helper()
	base, _ := url.Parse(b.base)
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, r := range b.requests {
		u, err := url.Parse(r)
		if err != nil {
			b.t.Errorf("unparsable request %q", r)
			continue
		}
		if u.Scheme == "data" || u.Scheme == "blob" {
			continue
		}
		if u.Host != base.Host {
			b.t.Errorf("request outside the page's origin: %s", r)
		}
	}
	wasm := false
	for _, p := range b.served {
		wasm = wasm || strings.HasSuffix(p, "/spmtl.wasm")
	}
	if !wasm {
		b.t.Errorf("the server never served spmtl.wasm (served %v)", b.served)
	}
}

func writeTemp(t *testing.T, name, body string) string {
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func toyCSV() string {
	var sb strings.Builder
	sb.WriteString("group,label,a,b,c\n")
	for t := 0; t < 4; t++ {
		for i := 0; i < 30; i++ {
			a, bb := float64(i%7)-3, float64((i*5)%11)-5
			c := float64((i*3+t)%4) - 1.5
			y := 0.8*a - 0.3*bb + 0.1*float64(t)*c + 0.05*float64((i*13)%7-3)
			fmt.Fprintf(&sb, "task%d,%.4f,%v,%v,%v\n", t+1, y, a, bb, c)
		}
	}
	return sb.String()
}

// TestFileInputTrains chooses a CSV with unusual column names through the
// file input: it is not read until the visitor picks the columns from the
// menus (no column "task"; nothing is guessed: a prompt asks, no error),
// then picks other columns, and trains on it.
func TestFileInputTrains(t *testing.T) {
	b := newBrowser(t)
	b.openPage(false)
	p := writeTemp(t, "mine.csv", toyCSV())
	b.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{p}))
	b.waitForPrompt(20 * time.Second)
	b.do(chromedp.SetValue(chromedp.CSS("#task-col"), "group"))
	b.waitFor(`spmtlApp.columnPrompt().includes("holds the label")`, 20*time.Second)
	b.do(chromedp.SetValue(chromedp.CSS("#label-col"), "label"))
	b.waitFor(`spmtlApp.summary() && spmtlApp.summary().name === "mine.csv"`, 20*time.Second)
	sum := eval[struct {
		Tasks    []any  `json:"tasks"`
		Features int    `json:"features"`
		Kind     string `json:"kind"`
	}](b, `spmtlApp.summary()`)
	if len(sum.Tasks) != 4 || sum.Features != 3 || sum.Kind != "regression" {
		t.Fatalf("summary: %+v", sum)
	}
	// Another column re-parses the file the worker kept. With a as the task
	// column, a's seven values are the tasks (group, a text column, becomes
	// encoded features). A label column that cannot be a label (group: four
	// classes) fails with its position, and the menus show the columns still
	// loaded; back to group as the task, the data set loads again.
	setCol := func(menu, col string) { // SetValue fires the menu's change event
		b.do(chromedp.SetValue(chromedp.CSS(menu), col))
	}
	setTask := func(col string) { setCol("#task-col", col) }
	setTask("a")
	b.waitFor(`spmtlApp.summary().tasks.length === 7 && spmtlApp.state() === "idle"`, 20*time.Second)
	setCol("#label-col", "group")
	b.waitFor(`spmtlApp.error() !== ""`, 20*time.Second)
	if msg := eval[string](b, `spmtlApp.error()`); !strings.Contains(msg, "mine.csv:62:1") || !strings.Contains(msg, "task3") {
		t.Errorf("label column group: page error %q does not name mine.csv:62:1 and the third class task3", msg)
	}
	cols := eval[[]string](b, `[document.getElementById("task-col").value, document.getElementById("label-col").value]`)
	if cols[0] != "a" || cols[1] != "label" {
		t.Errorf("after the failed re-parse the menus show %v, want the loaded a and label", cols)
	}
	if n := eval[int](b, `spmtlApp.summary().tasks.length`); n != 7 {
		t.Errorf("after the failed re-parse the summary has %d tasks, want the 7 still loaded", n)
	}
	setTask("group")
	b.waitFor(`spmtlApp.error() === "" && spmtlApp.summary().tasks.length === 4 && spmtlApp.state() === "idle"`, 20*time.Second)
	b.do(chromedp.SetValue(chromedp.CSS("#train"), "20"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("train").dispatchEvent(new Event("change"))`),
		chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 30*time.Second)
	metric := eval[string](b, `spmtlApp.results().main.metric`)
	if metric != "rmse" {
		t.Errorf("metric %q, want rmse", metric)
	}
	b.noConsoleErrors()
}

// TestMalformedCSVShowsPosition: a bad value is reported in the page with
// its file, line and column, and the page keeps working.
func TestMalformedCSVShowsPosition(t *testing.T) {
	b := newBrowser(t)
	b.openPage(false)
	p := writeTemp(t, "bad.csv", "task,y,x1,x2\na,1,0.5,2\na,0,zz,1\n")
	b.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{p}))
	b.waitFor(`spmtlApp.error() !== ""`, 20*time.Second)
	msg := eval[string](b, `spmtlApp.error()`)
	if !strings.Contains(msg, "bad.csv:3:3") {
		t.Errorf("page error %q does not name bad.csv line 3 column 3", msg)
	}
	// The learner still works: the landmine preset, chosen again, trains
	// afterwards (Play alone waits for the refused file: see
	// TestRefusedFileIsNotReplacedByTheOneBefore).
	b.choosePreset("landmine")
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done"`, 30*time.Second)
	b.screenshot("malformed.png")
}

// TestResponsiveDuringFits: the page's main thread never freezes while the
// worker loads and fits school and sentiment (9.5 MB of sparse text, 37,662
// features). A timer in the page records the longest gap between its ticks,
// which is what a visitor would feel as a freeze. The bound is generous (a
// stall of 2 s is a bug on any machine); the stalls themselves are a figure
// of ./build.sh bench, not a gate that a busy CI machine could trip.
func TestResponsiveDuringFits(t *testing.T) {
	for _, hash := range []string{
		"#data=school&model=mtfl&sp=1&rho=0.01&lambda0=50&maxIter=30&run=1",
		"#data=sentiment&model=mtfl&sp=1&rho=0.001&lambda0=0.1&train=120&run=1",
	} {
		b := newBrowser(t)
		b.do(chromedp.Navigate(b.base + "/" + hash))
		b.do(chromedp.Evaluate[chromedp.Void](stallWatch))
		b.waitFor(`window.spmtlApp !== undefined && spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
		gap := eval[float64](b, `window.__gap`)
		t.Logf("%s: longest main-thread stall while loading and training: %.0f ms", hash, gap)
		if gap > 2000 {
			t.Errorf("%s: the page froze for %.0f ms", hash, gap)
		}
	}
}

// TestReproduceLandmineMatchesCommandLine runs the Reproduce view on the
// landmine column (quick grids, 3 runs) in the worker pool and checks that
// its cells equal what the command line's code computes natively.
func TestReproduceLandmineMatchesCommandLine(t *testing.T) {
	b := newBrowser(t)
	b.openPage(false)
	start := time.Now()
	b.do(chromedp.Click(chromedp.CSS("#repro-quick")),
		chromedp.Click(chromedp.CSS("#repro-start")))
	b.waitFor(`spmtlApp.repro().state === "done"`, 120*time.Second)
	t.Logf("landmine column (quick, 3 runs) in the browser: %v", time.Since(start))
	type cell struct {
		Method string  `json:"method"`
		Mean   float64 `json:"mean"`
		SE     float64 `json:"se"`
		Better bool    `json:"better"`
	}
	got := eval[[]cell](b, `spmtlApp.repro().final.landmine`)

	exps, err := app.Experiments(os.DirFS(filepath.Join("..", "data")), []string{"landmine"}, true)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := evalpkg.Reproduce(context.Background(), exps, evalpkg.Options{Runs: 3, Folds: 3, Variant: mtl.Paper})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(tab.Methods) {
		t.Fatalf("browser table has %d rows, want %d", len(got), len(tab.Methods))
	}
	rows := eval[[]string](b, `Array.from(document.querySelectorAll("#repro-table tbody tr td:first-child")).map((td) => td.textContent)`)
	if strings.Join(rows, ",") != strings.Join(tab.Methods, ",") {
		t.Errorf("the table's rows are %v, want %v", rows, tab.Methods)
	}
	for _, c := range got {
		want := tab.Cell(c.Method, "landmine")
		if math.Abs(c.Mean-want.Mean) > 1e-12 || math.Abs(c.SE-want.SE) > 1e-12 || c.Better != want.Better {
			t.Errorf("%s: browser %.15f (se %.15f), command line %.15f (se %.15f)", c.Method, c.Mean, c.SE, want.Mean, want.SE)
		}
	}
	b.screenshot("reproduce.png")
}

// kernelsLoaded checks that the learner's WebAssembly kernels loaded in
// the page's learner (core/internal/linalg/kernels_js.go): a page whose
// policy or host refused them would run the slower Go loops unsaid, and
// Chromium runs WebAssembly's SIMD, so the form with it must be the one.
func (b *browser) kernelsLoaded() {
	b.t.Helper()
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`spmtlApp.kernels()`, chromedp.EvalAwaitPromise))
	if err != nil || got != "loaded with SIMD" {
		b.t.Errorf("the learner's kernels: %q (%v), want loaded with SIMD", got, err)
	}
}

// TestOfflineFile opens dist/spmtl-offline.html as a file:// URL with the
// network switched off: the file is at most 4 MB; landmine trains and the
// heatmap is drawn; each of the other five data sets (school with its
// split file, sentiment's sparse file) loads from the file's packed copy
// and trains; the Reproduce view fills landmine's column (quick, one run).
func TestOfflineFile(t *testing.T) {
	dir := distDir(t)
	abs, err := filepath.Abs(filepath.Join(dir, "spmtl-offline.html"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		t.Fatalf("no offline file: %v", err)
	}
	t.Logf("offline file: %s, %d bytes", abs, st.Size())
	if st.Size() > 4_000_000 {
		t.Errorf("the offline file is %d bytes, more than 4 MB", st.Size())
	}
	b := newBrowser(t)
	b.networkOff()
	start := time.Now()
	b.do(chromedp.Navigate("file://" + abs + "#run=1"))
	b.waitFor(`window.spmtlApp && spmtlApp.snapshots().length > 0`, 60*time.Second)
	t.Logf("offline file: open to first heatmap column %v", time.Since(start))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	t.Logf("offline file: open to a finished landmine run %v", time.Since(start))
	rows := eval[int](b, heatmapRowsJS)
	if rows != 19 {
		t.Errorf("heatmap rows with colour: %d, want 19", rows)
	}
	b.kernelsLoaded() // in the file's blob workers, under its policy
	b.screenshot("offline.png")
	// The data sets' provenance notes are in the file (their links would
	// point at files that are not there).
	notes := eval[[]string](b, `Array.from(document.querySelectorAll("footer details summary")).map((s) => s.textContent)`)
	if len(notes) != 4 || eval[int](b, `document.querySelectorAll('footer a[href^="data/"]').length`) != 0 {
		t.Errorf("the offline footer has the notes %q and links into data/: want the four data sets' notes and no links", notes)
	}
	for _, c := range []struct {
		hash  string
		tasks int
	}{
		{"#data=school&maxIter=5&run=1", 139},
		{"#data=sentiment&maxIter=3&train=120&run=1", 8},
		{"#data=cs&maxIter=5&run=1", 190},
		{"#data=syn1&maxIter=5&run=1", 30},
		{"#data=syn2&maxIter=5&run=1", 30},
	} {
		start := time.Now()
		b.do(chromedp.Navigate("about:blank"), chromedp.Navigate("file://"+abs+c.hash))
		b.waitFor(`window.spmtlApp && spmtlApp.state() === "done" && spmtlApp.results() !== null`, 120*time.Second)
		sum := eval[struct {
			Name  string
			Tasks int
		}](b, `(() => { const s = spmtlApp.summary(); return {Name: s.name, Tasks: s.tasks.length}; })()`)
		mean := eval[float64](b, `spmtlApp.results().main.mean`)
		t.Logf("offline file %s: %s, %d tasks, mean test score %.4f, open to finished run %v", c.hash, sum.Name, sum.Tasks, mean, time.Since(start))
		if sum.Tasks != c.tasks || math.IsNaN(mean) || mean <= 0 {
			t.Errorf("offline %s: %d tasks (want %d), mean %v", c.hash, sum.Tasks, c.tasks, mean)
		}
		if msg := eval[string](b, `document.getElementById("error").hidden ? "" : document.getElementById("error").textContent`); msg != "" {
			t.Errorf("offline %s: the page shows %q", c.hash, msg)
		}
	}
	// The Reproduce view, in the file's own workers.
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate("file://"+abs))
	b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null`, 60*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll("#repro-sets input").forEach((i) => { i.checked = i.value === "landmine"; })`),
		chromedp.SetValue(chromedp.CSS("#repro-runs"), "1"),
		chromedp.Click(chromedp.CSS("#repro-quick")), chromedp.Click(chromedp.CSS("#repro-start")))
	b.waitFor(`spmtlApp.repro().state === "done"`, 120*time.Second)
	if n := eval[int](b, `(spmtlApp.repro().final.landmine || []).filter((c) => Number.isFinite(c.mean)).length`); n < 8 {
		t.Errorf("offline reproduction: %d landmine cells with a score", n)
	}
	b.noConsoleErrors()
	b.mu.Lock()
	for _, r := range b.requests {
		if !strings.HasPrefix(r, "file:") && !strings.HasPrefix(r, "blob:") && !strings.HasPrefix(r, "data:") && r != "about:blank" {
			t.Errorf("the offline page asked the network for %s", r)
		}
	}
	b.mu.Unlock()
}

// TestSupplementEmbedsTwoLearners: the example supplement page embeds a
// baseline and its self-paced version; both report a result to the host.
func TestSupplementEmbedsTwoLearners(t *testing.T) {
	b := newBrowser(t)
	b.do(chromedp.Navigate(b.base + "/examples/supplement.html"))
	b.waitFor(`!!(window.supplementResults && supplementResults.base && supplementResults.sp)`, 60*time.Second)
	type res struct {
		Metric string  `json:"metric"`
		Mean   float64 `json:"mean"`
		Iter   int     `json:"iter"`
	}
	got := eval[map[string]res](b, `supplementResults`)
	for _, k := range []string{"base", "sp"} {
		if got[k].Metric != "auc" || !(got[k].Mean > 0.6) || got[k].Iter < 1 {
			t.Errorf("%s learner reported %+v", k, got[k])
		}
	}
	// The MTFL frame shows no setting, so no empty settings box; the
	// self-paced one shows its λ0.
	hidden := eval[[]bool](b, `["base", "sp"].map((f) => document.getElementById(f).contentDocument.getElementById("settings").hidden)`)
	if !hidden[0] || hidden[1] {
		t.Errorf("settings box hidden in the MTFL and spMTFL frames: %v, want true and false", hidden)
	}
	b.screenshot("supplement.png")
	// On a phone the two frames stack and the page does not scroll sideways.
	b.viewport(390, 844, true)
	if w := eval[int](b, `document.documentElement.clientWidth`); w > 390 {
		t.Errorf("the supplement page is laid out %d px wide on a 390 px phone (no viewport meta?)", w)
	}
	if w := b.sideways(); w > 0 {
		t.Errorf("the supplement page scrolls sideways by %d px at 390 px", w)
	}
}

// TestModuleTrainsFromString: spmtl.js's promise surface trains a CSV held
// in a string, saves the model, loads it back and predicts the rows with it
// (the same numbers as with the finished run), and inspects it.
func TestModuleTrainsFromString(t *testing.T) {
	b := newBrowser(t)
	b.do(chromedp.Navigate(b.base + "/examples/module.html"))
	b.waitFor(`window.moduleResult !== undefined`, 30*time.Second)
	got := eval[struct {
		Tasks      int     `json:"tasks"`
		Iterations int     `json:"iterations"`
		Metric     string  `json:"metric"`
		Mean       float64 `json:"mean"`
		Predicted  int     `json:"predicted"`
		Same       bool    `json:"same"`
		Shared     string  `json:"shared"`
	}](b, `window.moduleResult`)
	if got.Tasks != 2 || got.Iterations < 1 || got.Metric != "rmse" || !(got.Mean >= 0) {
		t.Errorf("module result %+v", got)
	}
	if got.Predicted != 48 || !got.Same || !strings.Contains(got.Shared, "MMTL") {
		t.Errorf("module save, load, predict, inspect: %+v (want 48 rows predicted as by the run, MMTL's shared mean)", got)
	}
}

// heatmapRowsJS counts the heatmap rows that have non-background pixels.
const heatmapRowsJS = `(() => {
	const L = spmtlApp.heatmapLayout(), c = document.getElementById("heatmap");
	const g = c.getContext("2d"), d = L.dpr;
	let n = 0;
	for (let r = 0; r < L.rows; r++) {
		const y = Math.floor((L.top + (r + 0.5) * L.rowH) * d);
		const px = g.getImageData(Math.floor(L.left * d), y, Math.floor(L.width * d), 1).data;
		let colored = false;
		for (let i = 0; i < px.length; i += 4) if (px[i] < 250 || px[i+1] < 250 || px[i+2] < 250) { colored = true; break; }
		if (colored) n++;
	}
	return n;
})()`

// TestSequentialModelInPage: ELLA with information maximization learns the
// 19 landmine tasks one per step. The snapshots carry the step's task
// (seq) and no τ or λ; the heatmap marks the task learned at each step;
// the status names it; the objective curve gives way to a note; and the
// scatter compares spMTFL with it.
func TestSequentialModelInPage(t *testing.T) {
	b := newBrowser(t)
	b.do(chromedp.Navigate(b.base + "/#data=landmine&model=ella&select=infomax&run=1"))
	b.waitFor(`window.spmtlApp && spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	type step struct {
		Iter    int   `json:"iter"`
		Task    int   `json:"task"`
		Order   []int `json:"order"`
		TauNull bool  `json:"tauNull"`
		LamNull bool  `json:"lambdaNull"`
	}
	steps := eval[[]step](b, `spmtlApp.snapshots().map((s) => ({iter: s.iter, task: s.seq ? s.seq.task : -1, order: s.seq ? s.seq.order : [],
		tauNull: s.tau === null, lambdaNull: s.lambda === null}))`)
	if len(steps) != 19 {
		t.Fatalf("%d steps, want 19", len(steps))
	}
	seen := map[int]bool{}
	for k, s := range steps {
		if s.Iter != k+1 || s.Task < 0 || s.Task >= 19 || !s.TauNull || !s.LamNull {
			t.Fatalf("step %d: %+v (want iter %d, a task, no τ, no λ)", k+1, s, k+1)
		}
		if seen[s.Task] {
			t.Errorf("step %d learns task %d again", k+1, s.Task)
		}
		seen[s.Task] = true
		if len(s.Order) != k+1 || s.Order[k] != s.Task {
			t.Errorf("step %d: order %v does not end with the task learned, %d", k+1, s.Order, s.Task)
		}
	}
	// The page's τ read-out of a sequential run is the one-hot of seq.task.
	tau := eval[[][]float64](b, `spmtlApp.tauHistory()`)
	if len(tau) != 19 {
		t.Fatalf("tauHistory has %d steps, want 19", len(tau))
	}
	for k, col := range tau {
		for ti, v := range col {
			if want := map[bool]float64{true: 1, false: 0}[ti == steps[k].Task]; v != want {
				t.Fatalf("step %d, task %d: tauHistory %v, want %v", k+1, ti, v, want)
			}
		}
	}
	if rows := eval[int](b, heatmapRowsJS); rows != 19 {
		t.Errorf("heatmap rows with colour: %d, want 19", rows)
	}
	// Each column's brightest (yellow) cell is the row of the task learned
	// at that step: the heatmap draws seq.task, not τ.
	b.waitFor(`spmtlApp.heatmapLayout().cols === 19`, 5*time.Second)
	yellow := eval[[]int](b, `(() => {
		const L = spmtlApp.heatmapLayout(), g = document.getElementById("heatmap").getContext("2d"), d = L.dpr;
		const out = [];
		for (let k = 0; k < L.cols; k++) {
			let best = -1, bestB = -1;
			for (let r = 0; r < L.rows; r++) {
				const px = g.getImageData(Math.floor((L.left + (k + 0.5) * L.colW) * d), Math.floor((L.top + (r + 0.5) * L.rowH) * d), 1, 1).data;
				const bright = px[0] + px[1] - px[2];
				if (bright > bestB) { bestB = bright; best = L.order[r]; }
			}
			out.push(best);
		}
		return out;
	})()`)
	if len(yellow) != 19 {
		t.Fatalf("the heatmap has %d columns, want 19", len(yellow))
	}
	for k, task := range yellow {
		if task != steps[k].Task {
			t.Errorf("heatmap column %d highlights task %d, the step learned %d", k+1, task, steps[k].Task)
		}
	}
	tasks := eval[[]string](b, `spmtlApp.runInfo().tasks`)
	status := eval[string](b, `document.getElementById("status").textContent`)
	want := fmt.Sprintf("step 19 of 19: learned %s", tasks[steps[18].Task])
	if !strings.Contains(status, want) || !strings.HasSuffix(status, "· done") || strings.Contains(status, "λ") {
		t.Errorf("status %q, want %q and done, without λ", status, want)
	}
	// Why it ended is the run bar's outcome line's to say, once.
	if outcome := eval[string](b, `document.getElementById("run-outcome").textContent`); !strings.HasPrefix(outcome, "Done: all 19 tasks learned, one per step.") {
		t.Errorf("the run bar's outcome %q does not say the run ended with every task learned", outcome)
	}
	note := eval[string](b, `(() => { const n = document.getElementById("curve-note"); return n.hidden ? "" : n.textContent; })()`)
	if !strings.Contains(note, "no objective") {
		t.Errorf("the curve panel has no note about the missing objective (%q)", note)
	}
	if shown := eval[bool](b, `!document.getElementById("curve-about").hidden`); shown {
		t.Error("the curve panel still says its top panel is the objective the learner minimizes")
	}
	// ELLA shares a basis, which its model does not keep: the knowledge
	// panel says so (the catalogue's sentence), not that nothing is shared.
	b.waitFor(`document.getElementById("knowledge-explain").textContent !== ""`, 10*time.Second)
	if k := eval[string](b, `document.getElementById("knowledge-title").textContent + " " + document.getElementById("knowledge-explain").textContent`); !strings.Contains(k, "learns a shared basis L") || strings.Contains(k, "share no Θ") {
		t.Errorf("the knowledge panel after ELLA says %q", k)
	}
	if obj := eval[int](b, `spmtlApp.snapshots().filter((s) => s.seq === null).length`); obj != 0 {
		t.Errorf("%d snapshots without seq", obj)
	}
	labels := eval[map[string]string](b, `Object.fromEntries(Object.entries(spmtlApp.results()).map(([k, v]) => [k, v.label]))`)
	if labels["main"] != "ELLA-infomax" || labels["baseline"] != "spMTFL" || labels["itl"] != "ITL" {
		t.Errorf("result labels %v, want ELLA-infomax compared with spMTFL and ITL", labels)
	}
	if base := eval[string](b, `String(spmtlApp.results().baseline && spmtlApp.results().baseline.metric)`); base != "auc" {
		t.Errorf("no spMTFL comparison (%s)", base)
	}
	b.noConsoleErrors()
	b.screenshot("ella.png")
}

// TestCatalogMenusAndTypedLink: the menus come from the learner's
// catalogue (the same one the command line uses), a typed link takes its
// data set's preset for what it leaves out, and so does an edited hash.
func TestCatalogMenusAndTypedLink(t *testing.T) {
	b := newBrowser(t)
	b.do(chromedp.Navigate(b.base + "/#data=school"))
	b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.state() === "idle"`, 60*time.Second)
	cat := app.GetCatalog()
	var keys, rules []string
	for _, m := range cat.Methods {
		keys = append(keys, m.Key)
		if m.Key == "ella" {
			rules = m.Rules
		}
	}
	menu := eval[[]string](b, `Array.from(document.getElementById("model").options).map((o) => o.value)`)
	if strings.Join(menu, ",") != strings.Join(keys, ",") {
		t.Errorf("model menu %v, want the catalogue's methods %v", menu, keys)
	}
	var names []string
	for _, bu := range cat.Bundles {
		names = append(names, bu.Name)
	}
	presets := eval[[]string](b, `Array.from(document.getElementById("preset").options).map((o) => o.value).filter((v) => v !== "custom")`)
	if strings.Join(presets, ",") != strings.Join(names, ",") {
		t.Errorf("preset menu %v, want the catalogue's bundles %v", presets, names)
	}
	repro := eval[[]string](b, `Array.from(document.querySelectorAll("#repro-sets input")).map((i) => i.value)`)
	if strings.Join(repro, ",") != strings.Join(names, ",") {
		t.Errorf("reproduce view offers %v, want %v", repro, names)
	}
	type form struct {
		Preset, Rho, Lambda0, Train, MaxIter, Model string
		RulesShown, SPEnabled                       bool
	}
	readForm := func() form {
		return eval[form](b, `(() => { const v = (id) => document.getElementById(id).value; return {Preset: v("preset"), Rho: v("rho"),
			Lambda0: v("lambda0"), Train: v("train"), MaxIter: v("maxIter"), Model: v("model"),
			RulesShown: getComputedStyle(document.getElementById("select").closest("label")).display !== "none",
			SPEnabled: !document.getElementById("selfPaced").disabled}; })()`)
	}
	// school's preset: ρ 0.01, λ0 50, 75% for training, 10 iterations.
	if f := readForm(); f.Preset != "school" || f.Lambda0 != "50" || f.Rho != "0.01" || f.Train != "0.75" || f.MaxIter != "10" {
		t.Errorf("#data=school: form %+v, want school's preset (ρ 0.01, λ0 50, train 0.75, maxIter 10)", f)
	}
	if f := readForm(); f.Model != cat.Defaults.Model || f.RulesShown || !f.SPEnabled {
		t.Errorf("default model: %+v, want %s with no rule menu and the self-paced box", f, cat.Defaults.Model)
	}
	// The rule menu is there for ELLA only, with the catalogue's rules; ELLA
	// has no self-paced version.
	b.do(chromedp.SetValue(chromedp.CSS("#model"), "ella"))
	if f := readForm(); !f.RulesShown || f.SPEnabled {
		t.Errorf("ella: %+v, want the rule menu and no self-paced box", f)
	}
	if got := eval[[]string](b, `Array.from(document.getElementById("select").options).map((o) => o.value)`); strings.Join(got, ",") != strings.Join(rules, ",") {
		t.Errorf("rule menu %v, want %v", got, rules)
	}
	// An edited hash is a new link: cs with its preset, then school again
	// with the link's own λ0.
	b.do(chromedp.Evaluate[chromedp.Void](`location.hash = "#data=cs"`))
	b.waitFor(`spmtlApp.summary().name === "cs/data.csv" && spmtlApp.state() === "idle"`, 30*time.Second)
	if f := readForm(); f.Preset != "cs" || f.Lambda0 != "1" || f.Rho != "0.1" || f.Train != "15" || f.MaxIter != "50" {
		t.Errorf("#data=cs: form %+v, want cs's preset", f)
	}
	b.do(chromedp.Evaluate[chromedp.Void](`location.hash = "#data=school&lambda0=7"`))
	b.waitFor(`spmtlApp.summary().name === "school/data.csv" && spmtlApp.state() === "idle"`, 30*time.Second)
	if f := readForm(); f.Lambda0 != "7" || f.Rho != "0.01" || f.Train != "0.75" {
		t.Errorf("#data=school&lambda0=7: form %+v, want λ0 7 and school's other presets", f)
	}
	if h := eval[string](b, `location.hash`); !strings.Contains(h, "lambda0=7") || !strings.Contains(h, "data=school") {
		t.Errorf("the hash %q lost the link's settings", h)
	}
	b.noConsoleErrors()
}

// TestFiguresSweep: the Figures view runs a λ0 sweep on landmine, one
// curve per value, and exports it as SVG.
func TestFiguresSweep(t *testing.T) {
	b := newBrowser(t)
	b.openPage(false)
	b.do(chromedp.SetValue(chromedp.CSS("#sweep-values"), "0.1,1,10"),
		chromedp.Click(chromedp.CSS("#sweep-run")))
	b.waitFor(`document.getElementById("sweep-status").textContent.includes("done")`, 60*time.Second)
	counts := eval[[]int](b, `spmtlApp.sweep().series.map((s) => s.points.length)`)
	if len(counts) != 3 {
		t.Fatalf("%d curves, want 3", len(counts))
	}
	for i, n := range counts {
		if n < 1 {
			t.Errorf("curve %d has no points", i)
		}
	}
	svg := eval[string](b, `spmtlApp.sweep().svg`)
	if strings.Count(svg, "<path") != 3 || !strings.HasPrefix(svg, "<svg") {
		t.Errorf("the SVG export has %d curves: %.200s", strings.Count(svg, "<path"), svg)
	}
	b.noConsoleErrors()
	b.screenshot("figures.png")
}
