package e2e

// Tests of views that tell the truth and can be read by everyone: the τ
// heatmap's fixed colour scale (the same as Go's figure.Heatmap), its
// legend, many tasks, errors shown where they happen, a cancelled
// reproduction, a link with bad values, the phone layout and axe-core's
// accessibility rules.

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/spmtl/spmtl/core/figure"
)

// viewport sets the page's viewport; mobile emulates a phone (touch, its
// pixel ratio).
func (b *browser) viewport(w, h int64, mobile bool) {
	b.t.Helper()
	opts := []chromedp.EmulateViewportOption{}
	if mobile {
		opts = append(opts, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait)
	}
	b.do(chromedp.EmulateViewport(w, h, opts...))
}

// shot saves what the viewport shows (not the whole page) as name.
func (b *browser) shot(name string) string {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
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

// runDone navigates to hash and waits for a finished run whose heatmap is drawn.
func (b *browser) runDone(hash string) {
	b.t.Helper()
	b.do(chromedp.Navigate(b.base + "/" + hash))
	b.waitFor(`window.spmtlApp && spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	b.waitFor(`spmtlApp.heatmapLayout() && spmtlApp.heatmapLayout().cols === spmtlApp.snapshots().length`, 10*time.Second)
}

// heatCellsJS reads the heatmap's canvas at the centre of every cell in view:
// [{task, k, rgb: [r, g, b]}].
const heatCellsJS = `(() => {
	const L = spmtlApp.heatmapLayout(), g = document.getElementById("heatmap").getContext("2d"), d = L.dpr;
	const out = [];
	for (let r = L.firstRow; r < L.lastRow; r++) {
		const y = L.top + (r + 0.5) * L.rowH - L.scroll;
		if (y < L.top || y > L.top + L.height) continue;
		for (let k = 0; k < L.cols; k++) {
			const px = g.getImageData(Math.floor((L.left + (k + 0.5) * L.colW) * d), Math.floor(y * d), 1, 1).data;
			out.push({task: L.order[r * L.group], k, rgb: [px[0], px[1], px[2]]});
		}
	}
	return out;
})()`

type heatCell struct {
	Task int    `json:"task"`
	K    int    `json:"k"`
	RGB  [3]int `json:"rgb"`
}

func hexRGB(t *testing.T, h string) [3]int {
	var c [3]int
	if _, err := fmt.Sscanf(h, "#%02x%02x%02x", &c[0], &c[1], &c[2]); err != nil {
		t.Fatalf("colour %q: %v", h, err)
	}
	return c
}

// channelDiff is the largest difference of one colour channel.
func channelDiff(a, b [3]int) int {
	m := 0
	for i := range a {
		d := a[i] - b[i]
		if d < 0 {
			d = -d
		}
		m = max(m, d)
	}
	return m
}

var cellRe = regexp.MustCompile(`<rect class="cell" data-task="(\d+)" data-step="(\d+)"[^>]* fill="(#[0-9a-f]{6})"`)

// checkLegend asserts that every text of the heatmap's legend lies inside its canvas.
func checkLegend(b *browser, where string) {
	b.t.Helper()
	type box struct {
		Text                     string
		Left, Right, Top, Bottom float64
	}
	leg := eval[struct {
		Width, Height float64
		Texts         []box
		Label         string
	}](b, `(() => { const l = spmtlApp.legendLayout(); return {Width: l.width, Height: l.height, Label: l.label,
		Texts: l.texts.map((t) => ({Text: t.text, Left: t.left, Right: t.right, Top: t.top, Bottom: t.bottom}))}; })()`)
	if len(leg.Texts) < 6 {
		b.t.Fatalf("%s: the legend drew %d texts: %+v", where, len(leg.Texts), leg.Texts)
	}
	var all []string
	for _, x := range leg.Texts {
		all = append(all, x.Text)
		if x.Left < 0 || x.Top < 0 || x.Right > leg.Width || x.Bottom > leg.Height {
			b.t.Errorf("%s: legend text %q at [%.1f, %.1f]×[%.1f, %.1f] is outside its %.0f×%.0f canvas", where, x.Text, x.Left, x.Right, x.Top, x.Bottom, leg.Width, leg.Height)
		}
	}
	joined := strings.Join(all, " | ")
	for _, want := range []string{"≤ 1/8", "1/2", "≥ 8", "this run:"} {
		if !strings.Contains(joined, want) {
			b.t.Errorf("%s: the legend's texts %q lack %q", where, joined, want)
		}
	}
	if !strings.Contains(leg.Label, "this run") {
		b.t.Errorf("%s: the legend's aria-label %q does not give this run's range", where, leg.Label)
	}
}

// TestTauHeatmapFixedScale: the heatmap colours T·τ on the catalogue's
// fixed scale. T·τ = 1 is the neutral colour (the middle stop); a run that
// leaves τ exactly uniform and one within 1% of it draw the same colours;
// a peaked run draws distinct ones; the SVG export has Go's
// figure.TauColour for every cell; the legend's texts are inside its
// canvas; the canvas's text alternative names the easiest and hardest tasks.
func TestTauHeatmapFixedScale(t *testing.T) {
	b := newBrowser(t)
	b.viewport(1280, 800, false)
	b.runDone("#data=landmine&model=mtfl&sp=0&run=1")
	stops := eval[[]string](b, `spmtlApp.tauScale().stops`)
	if strings.Join(stops, ",") != strings.Join(figure.TauScale.Stops, ",") {
		t.Fatalf("the page's scale %v, Go's %v", stops, figure.TauScale.Stops)
	}
	neutral := figure.TauScale.Stops[len(figure.TauScale.Stops)/2]
	if got := eval[string](b, `spmtlApp.heatColour(1)`); got != neutral {
		t.Errorf("the colour of T·τ = 1 is %s, want the neutral middle stop %s", got, neutral)
	}
	for _, rel := range []float64{0.01, 0.125, 0.3, 0.77, 1, 1.3, 2, 5.5, 8, 40} {
		if got, want := eval[string](b, fmt.Sprintf(`spmtlApp.heatColour(%v)`, rel)), figure.TauColour(rel); got != want {
			t.Errorf("T·τ = %v: the page's colour %s, Go's %s", rel, got, want)
		}
	}
	neutralRGB := hexRGB(t, neutral)
	cellsOf := func(what string) []heatCell {
		cells := eval[[]heatCell](b, heatCellsJS)
		if len(cells) != 19*eval[int](b, `spmtlApp.snapshots().length`) {
			t.Fatalf("%s: read %d heatmap cells", what, len(cells))
		}
		return cells
	}
	// Exactly uniform (no self-pacing): every cell is neutral.
	for _, c := range cellsOf("uniform") {
		if d := channelDiff(c.RGB, neutralRGB); d > 1 {
			t.Fatalf("uniform τ: cell (task %d, step %d) is %v, want the neutral %v", c.Task, c.K, c.RGB, neutralRGB)
		}
	}
	if label := eval[string](b, `document.getElementById("heatmap").getAttribute("aria-label")`); !strings.Contains(label, "uniform") {
		t.Errorf("the uniform run's heatmap label %q does not say that τ is uniform", label)
	}
	checkLegend(b, "uniform run, 1280 px")

	// Within 1% of uniform (a large λ0): the same colours, not a stretched contrast.
	b.runDone("#data=landmine&model=mtfl&sp=1&lambda0=1000&run=1")
	tau := eval[[][]float64](b, `spmtlApp.tauHistory()`)
	for _, col := range tau {
		for _, v := range col {
			if math.Abs(19*v-1) > 0.01 {
				t.Fatalf("λ0 = 1000: T·τ = %v is not within 1%% of 1; the test needs a near-uniform run", 19*v)
			}
		}
	}
	for _, c := range cellsOf("near-uniform") {
		if d := channelDiff(c.RGB, neutralRGB); d > 3 {
			t.Errorf("T·τ within 1%% of 1: cell (task %d, step %d) is %v, %d from the neutral %v", c.Task, c.K, c.RGB, d, neutralRGB)
		}
	}

	// Peaked (a small λ0): the trusted tasks red, the distrusted blue.
	b.runDone("#data=landmine&model=mtfl&sp=1&lambda0=0.02&run=1")
	tau = eval[[][]float64](b, `spmtlApp.tauHistory()`)
	far, reds, blues := 0, 0, 0
	for _, c := range cellsOf("peaked") {
		far = max(far, channelDiff(c.RGB, neutralRGB))
		if c.RGB[0] > c.RGB[2]+40 {
			reds++
		}
		if c.RGB[2] > c.RGB[0]+40 {
			blues++
		}
	}
	if far < 100 || reds == 0 || blues == 0 {
		t.Errorf("peaked run: the cells differ from neutral by at most %d, %d red and %d blue; want distinct colours", far, reds, blues)
	}
	label := eval[string](b, `document.getElementById("heatmap").getAttribute("aria-label")`)
	if !strings.Contains(label, "easiest field10") || !strings.Contains(label, "hardest") || !strings.Contains(label, "spread T·τ") {
		t.Errorf("the peaked run's heatmap label %q does not name the easiest (field10) and hardest tasks and the spread", label)
	}
	// The SVG export: Go's colour for every cell's T·τ.
	svg := eval[string](b, `spmtlApp.svgs().heatmap`)
	cells := cellRe.FindAllStringSubmatch(svg, -1)
	if len(cells) != 19*len(tau) {
		t.Fatalf("the SVG has %d cells, want %d", len(cells), 19*len(tau))
	}
	for _, m := range cells {
		task, _ := strconv.Atoi(m[1])
		k, _ := strconv.Atoi(m[2])
		if want := figure.TauColour(19 * tau[k][task]); m[3] != want {
			t.Errorf("SVG cell (task %d, iteration %d, T·τ %v): %s, Go's figure.TauColour %s", task, k+1, 19*tau[k][task], m[3], want)
		}
	}
	checkLegend(b, "peaked run, 1280 px")
	// The legend keeps its texts inside at a phone's width too.
	b.viewport(390, 844, true)
	b.waitFor(`spmtlApp.legendLayout().width < 390`, 10*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](`window.dispatchEvent(new Event("resize"))`))
	checkLegend(b, "peaked run, 390 px")
	b.noConsoleErrors()
}

// TestHeatmapReadsOut: the heatmap's scroll box takes the keyboard: the
// arrow keys move a cell and read it out (task, iteration, τ, T·τ, cost);
// the pointer shows the same; the table alternative lists every task.
func TestHeatmapReadsOut(t *testing.T) {
	b := newBrowser(t)
	b.viewport(1280, 800, false)
	b.runDone("#data=landmine&model=mtfl&sp=1&run=1")
	b.do(chromedp.Focus(chromedp.CSS("#heatwrap")),
		chromedp.KeyEvent(kb.ArrowDown),
		chromedp.KeyEvent(kb.ArrowLeft))
	b.waitFor(`document.getElementById("heat-readout").textContent.includes("T·τ")`, 5*time.Second)
	read := eval[string](b, `document.getElementById("heat-readout").textContent`)
	tasks := eval[[]string](b, `spmtlApp.runInfo().tasks`)
	// By name the second row is field02; the left arrow moved from the last iteration to the one before.
	for _, want := range []string{tasks[1], "iteration 9", "τ = ", "T·τ = ", "cost = ", "λ = "} {
		if !strings.Contains(read, want) {
			t.Errorf("the read-out %q lacks %q", read, want)
		}
	}
	if tip := eval[string](b, `document.getElementById("tooltip").hidden ? "" : document.getElementById("tooltip").textContent`); !strings.Contains(tip, tasks[1]) {
		t.Errorf("the keyboard's cell shows no tooltip (%q)", tip)
	}
	b.do(chromedp.Evaluate[chromedp.Void](`(() => {
		const L = spmtlApp.heatmapLayout(), r = document.getElementById("heatmap").getBoundingClientRect();
		document.getElementById("heatmap").dispatchEvent(new MouseEvent("mousemove", {bubbles: true,
			clientX: r.left + L.left + 2.5 * L.colW, clientY: r.top + L.top + 3.5 * L.rowH}));
	})()`))
	tip := eval[string](b, `document.getElementById("tooltip").textContent`)
	for _, want := range []string{tasks[3], "iteration 3", "τ = ", "T·τ = ", "cost = "} {
		if !strings.Contains(tip, want) {
			t.Errorf("the hover read-out %q lacks %q", tip, want)
		}
	}
	b.do(chromedp.Click(chromedp.CSS("#tau-table-box summary")))
	b.waitFor(`spmtlApp.tauTable().rows === 19`, 5*time.Second)
	b.noConsoleErrors()
}

// manyTasksCSV: tasks × rows of a small regression problem.
func manyTasksCSV(tasks, rows int) string {
	var sb strings.Builder
	sb.WriteString("task,y,x1,x2\n")
	for t := 0; t < tasks; t++ {
		for i := 0; i < rows; i++ {
			x1, x2 := float64((i*3+t)%7)-3, float64((i*5+2*t)%9)-4
			fmt.Fprintf(&sb, "t%d,%.3f,%v,%v\n", t+1, 0.5*x1-0.2*x2+0.01*float64(t%13)+0.1*float64((i*7)%5-2), x1, x2)
		}
	}
	return sb.String()
}

// TestManyTasks: 8,000 tasks train in the page. The heatmap keeps rows of
// at least 4 px in a scrolling box whose canvas stays the size of the view
// (only visible rows are drawn); "fit" groups tasks into rows; the keyboard
// reads any task out after scrolling; the results table and the τ table
// build only the rows in view.
func TestManyTasks(t *testing.T) {
	b := newBrowser(t)
	b.viewport(1280, 800, false)
	b.openPage(true)
	const T = 8000
	b.loadFile("many.csv", manyTasksCSV(T, 6))
	b.do(chromedp.Evaluate[chromedp.Void](stallWatch))
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 240*time.Second)
	b.waitFor(`spmtlApp.heatmapLayout().cols === spmtlApp.snapshots().length && spmtlApp.resultsTable().count === 8001`, 20*time.Second)
	t.Logf("8,000 tasks: longest main-thread stall while training and drawing: %.0f ms", eval[float64](b, `window.__gap`))
	type layout struct {
		RowH, Content, CanvasHeight float64
		Rows, Group                 int
	}
	readLayout := func() layout {
		return eval[layout](b, `(() => { const L = spmtlApp.heatmapLayout(); return {RowH: L.rowH, Content: L.content,
			CanvasHeight: document.getElementById("heatmap").height / L.dpr, Rows: L.rows, Group: L.group}; })()`)
	}
	L := readLayout()
	if L.RowH < 4 || L.Rows != T || L.Group != 1 || L.Content < 4*T {
		t.Errorf("heatmap layout %+v: want %d rows of at least 4 px", L, T)
	}
	if L.CanvasHeight > 500 {
		t.Errorf("the heatmap's canvas is %.0f px tall: it should be the view, not every row", L.CanvasHeight)
	}
	if n := eval[int](b, `document.getElementById("heatwrap").scrollHeight`); n < 4*T {
		t.Errorf("the heatmap's box scrolls over %d px, want at least %d", n, 4*T)
	}
	rt := eval[struct {
		Built []int
		Rows  int
	}](b, `(() => { const r = spmtlApp.resultsTable(); return {Built: r.built, Rows: r.rows}; })()`)
	if rt.Rows > 200 {
		t.Errorf("the results table built %d rows of 8,001", rt.Rows)
	}
	// Scrolled to the end, the table builds the last rows.
	b.do(chromedp.Evaluate[chromedp.Void](`(() => { const r = document.getElementById("results"); r.scrollTop = r.scrollHeight; r.dispatchEvent(new Event("scroll")); })()`))
	b.waitFor(`spmtlApp.resultsTable().built[1] === 8001`, 10*time.Second)
	last := eval[string](b, `(() => { const rows = document.querySelectorAll("#results tbody tr:not(.spacer)"); return rows[rows.length - 1].cells[0].textContent; })()`)
	if last != fmt.Sprintf("t%d", T) && !strings.HasPrefix(last, "t") {
		t.Errorf("the last row built is %q", last)
	}
	if n := eval[int](b, `document.querySelectorAll("#results tbody tr:not(.spacer)").length`); n > 200 {
		t.Errorf("scrolled, the results table has %d rows built", n)
	}
	// The keyboard: End of the column, then far down with PageDown; the read-out names a task.
	b.do(chromedp.Focus(chromedp.CSS("#heatwrap")))
	for i := 0; i < 5; i++ {
		b.do(chromedp.KeyEvent(kb.PageDown))
	}
	b.waitFor(`document.getElementById("heat-readout").textContent.includes("T·τ")`, 5*time.Second)
	read := eval[string](b, `document.getElementById("heat-readout").textContent`)
	if !regexp.MustCompile(`^t\d+ · iteration \d+`).MatchString(read) || !strings.Contains(read, "cost = ") {
		t.Errorf("after paging down, the read-out is %q", read)
	}
	if s := eval[float64](b, `document.getElementById("heatwrap").scrollTop`); s <= 0 {
		t.Errorf("paging down did not scroll the heatmap (scrollTop %v)", s)
	}
	// Fit: every task in the panel, grouped.
	b.do(chromedp.SetValue(chromedp.CSS("#heat-zoom"), "fit"))
	b.waitFor(`spmtlApp.heatmapLayout().group > 1`, 10*time.Second)
	L = readLayout()
	if L.Rows*L.Group < T || float64(L.Rows) > 400 || L.RowH < 0.99 {
		t.Errorf("fit layout %+v: want every task in at most one row per pixel", L)
	}
	// The τ table alternative builds only the rows in view.
	b.do(chromedp.Click(chromedp.CSS("#tau-table-box summary")))
	b.waitFor(`spmtlApp.tauTable().rows > 0`, 10*time.Second)
	if n := eval[int](b, `spmtlApp.tauTable().rows`); n > 200 {
		t.Errorf("the τ table built %d rows", n)
	}
	b.noConsoleErrors()
}

// TestErrorsWhereTheyHappen: a bad setting is marked at its field (with
// aria-invalid and a described message), a learner's refusal that names a
// setting too, a sweep's error shows beside its button and the
// reproduction's beside its own; the top banner stays empty; each is
// cleared by the next success.
func TestErrorsWhereTheyHappen(t *testing.T) {
	b := newBrowser(t)
	b.viewport(1280, 800, false)
	b.openPage(true)
	type field struct {
		Invalid, Described, Message, Panel string
	}
	fieldState := func(id string) field {
		return eval[field](b, fmt.Sprintf(`(() => { const f = document.getElementById(%q), e = document.getElementById(%q + "-error");
			return {Invalid: f.getAttribute("aria-invalid") || "", Described: f.getAttribute("aria-describedby") || "",
				Message: e && !e.hidden ? e.textContent : "", Panel: e ? e.closest("section").id : ""}; })()`, id, id))
	}
	banner := func() string {
		return eval[string](b, `document.getElementById("error").hidden ? "" : document.getElementById("error").textContent`)
	}
	setValue := func(id, v string) {
		b.do(chromedp.SetValue(chromedp.CSS("#"+id), v),
			chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.getElementById(%q).dispatchEvent(new Event("change"))`, id)))
	}

	setValue("rho", "")
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`document.getElementById("rho").getAttribute("aria-invalid") === "true"`, 5*time.Second)
	f := fieldState("rho")
	if !strings.Contains(f.Message, "ρ must be a number above 0") || !strings.Contains(f.Described, "rho-error") || f.Panel != "settings" {
		t.Errorf("an empty ρ: field %+v, want its message under it in the settings panel, tied by aria-describedby", f)
	}
	if banner() != "" || eval[string](b, `spmtlApp.state()`) == "running" {
		t.Errorf("an empty ρ: banner %q, state %s; want no banner and no run", banner(), eval[string](b, `spmtlApp.state()`))
	}
	// A learner's refusal that names a setting: 2000 training rows, more than any task has.
	setValue("rho", "0.01")
	setValue("train", "2000")
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`document.getElementById("train").getAttribute("aria-invalid") === "true"`, 20*time.Second)
	if f := fieldState("train"); !strings.Contains(f.Message, "2000") {
		t.Errorf("train 2000: field %+v, want the learner's message at the field", f)
	}
	if f := fieldState("rho"); f.Invalid != "" || f.Message != "" {
		t.Errorf("ρ is valid again but still marked: %+v", f)
	}
	if banner() != "" {
		t.Errorf("train 2000: the banner says %q", banner())
	}
	// The next success clears it.
	setValue("train", "80")
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done"`, 60*time.Second)
	if f := fieldState("train"); f.Invalid != "" || f.Message != "" || strings.Contains(f.Described, "train-error") {
		t.Errorf("after a run, train is still marked: %+v", f)
	}
	if e := eval[map[string]string](b, `spmtlApp.errors()`); len(e) != 0 {
		t.Errorf("after a run the page shows errors %v", e)
	}

	// The sweep's error beside its button, cleared by a sweep that starts.
	setValue("sweep-values", "1,abc")
	b.do(chromedp.Click(chromedp.CSS("#sweep-run")))
	b.waitFor(`!document.getElementById("sweep-error").hidden`, 5*time.Second)
	where := eval[string](b, `document.getElementById("sweep-error").closest("section").id + "|" + document.getElementById("sweep-error").textContent`)
	if !strings.HasPrefix(where, "figures-panel|") || !strings.Contains(where, "1,abc") || banner() != "" {
		t.Errorf("a bad sweep value: %q (banner %q), want the error in the figures panel", where, banner())
	}
	if dis := eval[bool](b, `document.getElementById("sweep-csv").disabled && document.getElementById("sweep-svg").disabled`); !dis {
		t.Error("the sweep's exports are enabled with no sweep")
	}
	setValue("sweep-values", "1,10")
	b.do(chromedp.Click(chromedp.CSS("#sweep-run")))
	b.waitFor(`document.getElementById("sweep-status").textContent.includes("done")`, 60*time.Second)
	if vis := eval[bool](b, `!document.getElementById("sweep-error").hidden`); vis {
		t.Error("the sweep's error stayed after a sweep ran")
	}
	if dis := eval[bool](b, `document.getElementById("sweep-csv").disabled`); dis {
		t.Error("the sweep's CSV export is disabled after a sweep")
	}

	// The reproduction's error beside its buttons.
	b.do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll("#repro-sets input").forEach((i) => { i.checked = false; })`),
		chromedp.Click(chromedp.CSS("#repro-start")))
	b.waitFor(`!document.getElementById("repro-error").hidden`, 5*time.Second)
	if where := eval[string](b, `document.getElementById("repro-error").closest("section").id`); where != "repro-panel" || banner() != "" {
		t.Errorf("no data set to reproduce: the error is in %q (banner %q)", where, banner())
	}
	b.noConsoleErrors()
}

// TestReproduceCancelClears: the reproduction's exports are disabled while
// there is nothing to export; a cancelled reproduction leaves no number of
// its unfinished columns in the table, and its exports disabled.
func TestReproduceCancelClears(t *testing.T) {
	b := newBrowser(t)
	b.openPage(false)
	exportsDisabled := `["repro-csv", "repro-json", "repro-md"].every((id) => document.getElementById(id).disabled)`
	if !eval[bool](b, exportsDisabled) {
		t.Error("the reproduction's exports are enabled before any run")
	}
	b.do(chromedp.Click(chromedp.CSS("#repro-quick")),
		chromedp.SetValue(chromedp.CSS("#repro-runs"), "20"),
		chromedp.Click(chromedp.CSS("#repro-start")))
	// Cancel once a partial cell shows numbers.
	b.waitFor(`/\d/.test(Array.from(document.querySelectorAll("#repro-table td[data-dataset]")).map((td) => td.textContent).join(""))`, 120*time.Second)
	if st := eval[string](b, `spmtlApp.repro().state`); st != "running" {
		t.Fatalf("the reproduction is %s before the cancel", st)
	}
	b.do(chromedp.Click(chromedp.CSS("#repro-cancel")))
	b.waitFor(`spmtlApp.repro().state === "cancelled"`, 10*time.Second)
	time.Sleep(300 * time.Millisecond) // a late answer must not bring numbers back
	cells := eval[[]string](b, `Array.from(document.querySelectorAll("#repro-table tbody td:not(:first-child)")).map((td) => td.textContent)`)
	if len(cells) == 0 {
		t.Fatal("the table has no cells after the cancel")
	}
	for _, c := range cells {
		if regexp.MustCompile(`\d`).MatchString(c) {
			t.Errorf("after the cancel a cell still shows %q", c)
			break
		}
	}
	if !eval[bool](b, exportsDisabled) {
		t.Error("the reproduction's exports are enabled after a cancel that left nothing finished")
	}
	if st := eval[string](b, `document.getElementById("repro-status").textContent`); !strings.Contains(st, "cancelled") {
		t.Errorf("the status %q does not say that the reproduction was cancelled", st)
	}
}

// TestBadLinkReported: a link with a model that is not a method, a ρ that
// is not a number and a data set that is not bundled is reported in a
// visible note; the page uses the defaults and the Model menu shows a method.
func TestBadLinkReported(t *testing.T) {
	b := newBrowser(t)
	b.do(chromedp.Navigate(b.base + "/#data=unknown&model=nope&rho=abc&maxIter=2.5"))
	b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.state() === "idle"`, 30*time.Second)
	note := eval[string](b, `(() => { const n = document.getElementById("link-note"); return n.hidden || n.offsetHeight === 0 ? "" : n.textContent; })()`)
	for _, want := range []string{`model "nope" is not a method`, "using mtfl", `ρ "abc" is not a number above 0; using 0.01`, `data set "unknown"`, "using landmine", `max iterations "2.5"`} {
		if !strings.Contains(note, want) {
			t.Errorf("the link note %q lacks %q", note, want)
		}
	}
	model := eval[[]string](b, `[document.getElementById("model").value, String(document.getElementById("model").selectedIndex), document.getElementById("rho").value, document.getElementById("maxIter").value]`)
	if model[0] != "mtfl" || model[1] == "-1" || model[2] != "0.01" || model[3] != "10" {
		t.Errorf("after the bad link: model %q (index %s), ρ %q, max iterations %q; want mtfl, 0.01 and 10", model[0], model[1], model[2], model[3])
	}
	if h := eval[string](b, `location.hash`); strings.Contains(h, "nope") || strings.Contains(h, "abc") {
		t.Errorf("the hash %q keeps the bad values", h)
	}
	// An edited hash with a good link clears the note; a bad model again shows it.
	b.do(chromedp.Evaluate[chromedp.Void](`location.hash = "#data=landmine&model=mmtl"`))
	b.waitFor(`document.getElementById("link-note").hidden && document.getElementById("model").value === "mmtl"`, 10*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](`location.hash = "#data=landmine&model=zzz"`))
	b.waitFor(`!document.getElementById("link-note").hidden && document.getElementById("model").value === "mtfl"`, 10*time.Second)
	b.noConsoleErrors()
}

// undrawnCanvasesJS lists the page's canvases that are laid out (a box of
// their own, not hidden) but were never drawn at their size: a bitmap
// that is not the box at the pixel ratio, or has no pixel painted. Such a
// canvas shows an empty panel where a chart, its title or its "nothing
// yet" sentence should be.
const undrawnCanvasesJS = `(() => {
	const dpr = window.devicePixelRatio || 1, out = [];
	for (const c of document.querySelectorAll("canvas")) {
		if (!c.clientWidth || !c.clientHeight || !c.getClientRects().length) continue;
		let painted = false;
		if (c.width === Math.round(c.clientWidth * dpr) && c.height === Math.round(c.clientHeight * dpr)) {
			const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
			for (let i = 3; i < d.length && !painted; i += 4) painted = d[i] > 0;
		}
		if (!painted) out.push(c.id || c.className || "canvas");
	}
	return out;
})()`

// TestEveryChartIsDrawn: every chart on the page is drawn at its size when
// the page has loaded, on a phone and on a desktop, before anything is
// run (until 2026-11-27 the Figures panel's objective chart stayed an
// empty box until a sweep ran: only its neighbour was retitled, and so
// drawn), and again after a run.
func TestEveryChartIsDrawn(t *testing.T) {
	for _, vp := range phoneAndDesktop {
		b := newBrowser(t)
		b.viewport(vp.w, vp.h, vp.mobile)
		b.openPage(true)
		// The charts draw in tasks of their own (chart-kit drawSoon).
		time.Sleep(500 * time.Millisecond)
		if u := eval[[]string](b, undrawnCanvasesJS); len(u) > 0 {
			t.Errorf("%dx%d, loaded: canvases never drawn at their size: %v", vp.w, vp.h, u)
		}
		b.do(chromedp.Click(chromedp.CSS("#play")))
		b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
		time.Sleep(500 * time.Millisecond)
		if u := eval[[]string](b, undrawnCanvasesJS); len(u) > 0 {
			t.Errorf("%dx%d, after a run: canvases never drawn at their size: %v", vp.w, vp.h, u)
		}
		b.close()
	}
}

// TestVerdictNamesLabelledRows: on a map of more tasks than its rows
// have room to label (every other row or fewer), the tasks the sentence
// beside it names as trusted most and least are labelled on it, in place
// of the thinned labels near them (the screens audit: "most trusted:
// Maine" on a map that labelled Louisiana and Maryland).
func TestVerdictNamesLabelledRows(t *testing.T) {
	b := newBrowser(t)
	b.viewport(1280, 800, false)
	b.openPage(true)
	b.loadGrouped("many.csv", groupedCSV(11, 80, 6, 24, true))
	if !eval[bool](b, `document.getElementById("selfPaced").checked`) {
		b.do(chromedp.Click(chromedp.CSS("#selfPaced")))
	}
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null && spmtlApp.heatmapLayout().cols === spmtlApp.snapshots().length`, 60*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("heatmap").scrollIntoView()`))
	verdict := eval[string](b, `document.getElementById("heat-verdict").textContent`)
	m := regexp.MustCompile(`trusted (\S+) .*most .* and (\S+) .*least`).FindStringSubmatch(verdict)
	if m == nil {
		t.Fatalf("the verdict names no tasks: %q", verdict)
	}
	L := eval[struct {
		Every  bool     `json:"every"`
		Labels []string `json:"labels"`
	}](b, `(() => { const L = spmtlApp.heatmapLayout(); return {every: L.labels.length < L.tasks, labels: L.labels.map((l) => l.text)}; })()`)
	if !L.Every {
		t.Fatalf("every row is labelled (%d labels): the test needs a map that thins them", len(L.Labels))
	}
	for _, name := range m[1:] {
		if !slices.Contains(L.Labels, name) {
			t.Errorf("the verdict names %s, which the map does not label: %q", name, L.Labels)
		}
	}
}
