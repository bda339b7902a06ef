package e2e

// Tests of the panels that run many fits: the Reproduce view, the Figures
// panel (the λ0 and c sweeps) and tuning.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// drawnText is a text drawn into a canvas and its box, in CSS pixels.
type drawnText struct {
	Text                     string
	Left, Right, Top, Bottom float64
}

// drawnRect is a rectangle filled in a canvas, in CSS pixels.
type drawnRect struct {
	X, Y, W, H float64
	Fill       string
}

// drawing is what one drawing of a canvas put on it.
type drawing struct {
	Texts         []drawnText
	Rects         []drawnRect
	Width, Height float64
	Label         string
}

// canvasDrawing redraws the canvas id (every chart redraws on a resize
// event) with the 2D context's fillText and fillRect watched, and returns
// every text drawn (its box measured as drawn: font, alignment, baseline)
// and every rectangle filled. It reads what the page drew, not what it
// meant to draw.
func canvasDrawing(b *browser, id string) drawing {
	b.t.Helper()
	return eval[drawing](b, fmt.Sprintf(`((id) => {
		const P = CanvasRenderingContext2D.prototype, fillText = P.fillText, fillRect = P.fillRect;
		const texts = [], rects = [];
		P.fillText = function (s, x, y, ...rest) {
			if (this.canvas.id === id) {
				const m = this.measureText(s);
				texts.push({Text: String(s), Left: x - m.actualBoundingBoxLeft, Right: x + m.actualBoundingBoxRight,
					Top: y - m.actualBoundingBoxAscent, Bottom: y + m.actualBoundingBoxDescent});
			}
			return fillText.call(this, s, x, y, ...rest);
		};
		P.fillRect = function (x, y, w, h) {
			if (this.canvas.id === id) rects.push({X: x, Y: y, W: w, H: h, Fill: String(this.fillStyle)});
			return fillRect.call(this, x, y, w, h);
		};
		try { window.dispatchEvent(new Event("resize")); } finally { P.fillText = fillText; P.fillRect = fillRect; }
		const c = document.getElementById(id);
		return {Texts: texts, Rects: rects, Width: c.clientWidth, Height: c.clientHeight, Label: c.getAttribute("aria-label") || ""};
	})(%q)`, id))
}

// phoneAndDesktop are the viewports a chart is checked at.
var phoneAndDesktop = []struct {
	w, h   int64
	mobile bool
}{{1280, 800, false}, {390, 844, true}}

// insideCanvas fails t for every text of d drawn (partly) outside its canvas.
func insideCanvas(t *testing.T, d drawing, where string) {
	t.Helper()
	for _, x := range d.Texts {
		if x.Left < 0 || x.Top < 0 || x.Right > d.Width || x.Bottom > d.Height {
			t.Errorf("%s: the text %q at [%.1f, %.1f]×[%.1f, %.1f] is outside its %.0f×%.0f canvas", where, x.Text, x.Left, x.Right, x.Top, x.Bottom, d.Width, d.Height)
		}
	}
}

// drawnTexts joins the texts of d.
func drawnTexts(d drawing) string {
	var all []string
	for _, x := range d.Texts {
		all = append(all, x.Text)
	}
	return strings.Join(all, " | ")
}

// reproLine is the Reproduce view's status line as shown: its progress
// text and its clock, if it has one.
const reproLine = `["repro-status", "repro-clock"].map((id) => document.getElementById(id)).filter(Boolean).map((e) => e.textContent).join(" ")`

// TestReproduceRestartShowsItsOwnColumns: ticking "quick" changes the run
// count only while the visitor has not typed one; a reproduction shows its
// own (empty) columns the moment it starts, never the last table's numbers
// or data sets; its clock runs while no run has finished and stops at a
// cancel; the Markdown export keeps the units shown on screen.
func TestReproduceRestartShowsItsOwnColumns(t *testing.T) {
	b := newBrowser(t)
	b.openPage(false)
	b.interceptDownloads()
	runs := func() string { return eval[string](b, `document.getElementById("repro-runs").value`) }
	quick := func() { b.do(chromedp.Click(chromedp.CSS("#repro-quick"))) }
	quick()
	if r := runs(); r != "3" {
		t.Errorf("ticking quick with the run count untouched: %q runs, want 3", r)
	}
	quick()
	if r := runs(); r != "10" {
		t.Errorf("unticking quick with the run count untouched: %q runs, want 10", r)
	}
	b.do(chromedp.SetValue(chromedp.CSS("#repro-runs"), "7"))
	quick()
	if r := runs(); r != "7" {
		t.Errorf("ticking quick overwrote the typed run count 7 with %q", r)
	}
	quick()
	if r := runs(); r != "7" {
		t.Errorf("unticking quick overwrote the typed run count 7 with %q", r)
	}
	b.do(chromedp.SetValue(chromedp.CSS("#repro-runs"), "1"))
	quick()

	// start ticks only the data set d, presses Reproduce and reads the table
	// in the same task: what the view shows at once.
	type table struct{ Heads, Cells []string }
	start := func(d string) table {
		return eval[table](b, fmt.Sprintf(`(() => {
			document.querySelectorAll("#repro-sets input").forEach((i) => { i.checked = i.value === %q; });
			document.getElementById("repro-start").click();
			const t = document.getElementById("repro-table");
			return {Heads: Array.from(t.querySelectorAll("thead th")).map((th) => th.textContent),
				Cells: Array.from(t.querySelectorAll("tbody td:not(:first-child)")).map((td) => td.textContent)};
		})()`, d))
	}
	digit := regexp.MustCompile(`\d`)
	checkFresh := func(tab table, d string) {
		t.Helper()
		if len(tab.Heads) != 2 || tab.Heads[0] != "method" || !strings.HasPrefix(tab.Heads[1], d) {
			t.Errorf("on starting %s the table's columns are %q, want method and %s", d, tab.Heads, d)
		}
		if len(tab.Cells) == 0 {
			t.Errorf("on starting %s the table has no cells", d)
		}
		for _, c := range tab.Cells {
			if digit.MatchString(c) {
				t.Errorf("on starting %s a cell already shows %q", d, c)
				break
			}
		}
	}
	checkFresh(start("landmine"), "landmine")
	b.waitFor(`spmtlApp.repro().state === "done"`, 120*time.Second)
	if n := eval[int](b, `spmtlApp.repro().final.landmine[0].scores.length`); n != 1 {
		t.Errorf("the table has %d runs per cell, want the 1 typed", n)
	}
	b.do(chromedp.Click(chromedp.CSS("#repro-md")))
	md := b.downloaded("spmtl-table.md")
	if head := strings.SplitN(md, "\n", 2)[0]; !strings.Contains(head, "landmine (AUC ×100)") {
		t.Errorf("the Markdown table's header %q drops the unit shown on screen (AUC ×100)", head)
	}

	// A new reproduction of another data set: its own column at once.
	checkFresh(start("school"), "school")
	// Its clock runs before any run has finished.
	b.waitFor(`spmtlApp.repro().state === "running" && (() => {
		const s = `+reproLine+`, m = /(\d+(?:\.\d+)?) s\b/.exec(s);
		return /^0 \/ /.test(s) && m !== null && Number(m[1]) > 0;
	})()`, 90*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("repro-panel").scrollIntoView()`))
	b.shot("repro-restarted.png")
	b.do(chromedp.Click(chromedp.CSS("#repro-cancel")))
	b.waitFor(`spmtlApp.repro().state === "cancelled"`, 10*time.Second)
	before := eval[string](b, reproLine)
	time.Sleep(1500 * time.Millisecond) // a clock left running would move meanwhile
	if after := eval[string](b, reproLine); after != before {
		t.Errorf("the clock runs on after the cancel: %q, then %q", before, after)
	}
	if !strings.Contains(before, "cancelled") {
		t.Errorf("the status %q does not say that the reproduction was cancelled", before)
	}
	b.noConsoleErrors()
}

// sweepDone runs the Figures panel's sweep over values (the field's own
// when values is empty) and waits for it to end.
func sweepDone(b *browser, values string) {
	b.t.Helper()
	if values != "" {
		b.do(chromedp.SetValue(chromedp.CSS("#sweep-values"), values))
	}
	b.do(chromedp.Click(chromedp.CSS("#sweep-run")))
	b.waitFor(`/ · (done|cancelled|failed)$/.test(document.getElementById("sweep-status").textContent)`, 180*time.Second)
	if st := eval[string](b, `document.getElementById("sweep-status").textContent`); !strings.HasSuffix(st, " · done") {
		b.t.Fatalf("the sweep over %q ended: %q", values, st)
	}
}

// TestFiguresSweepTellsWhatItShows: the default λ0 values fit the loaded
// data set (on landmine, the default, they draw distinct curves); values
// whose curves coincide are said to coincide in the chart and its text
// alternative; the test chart names its metric and which way is better;
// a cancelled sweep's legend marks the values that never ran.
func TestFiguresSweepTellsWhatItShows(t *testing.T) {
	b := newBrowser(t)
	b.viewport(1280, 800, false)
	b.openPage(true)
	label := func(id string) string {
		return eval[string](b, fmt.Sprintf(`document.getElementById(%q).getAttribute("aria-label")`, id))
	}
	if l := label("sweep-test"); !strings.Contains(l, "AUC") || !strings.Contains(l, "higher is better") {
		t.Errorf("on landmine the test chart's text alternative %q does not name AUC, higher is better", l)
	}

	// The suggested λ0 values follow the τ rule (the hard rule takes no
	// multiple of auto), and never replace values the visitor typed.
	values := func() string { return eval[string](b, `document.getElementById("sweep-values").value`) }
	setTau := func(rule string) {
		b.do(chromedp.SetValue(chromedp.CSS("#tau"), rule),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("tau").dispatchEvent(new Event("change"))`))
	}
	defaults := values()
	if !strings.Contains(defaults, "auto") {
		t.Errorf("the λ0 values suggested on landmine are %q, not multiples of the automatic λ0", defaults)
	}
	setTau("hard")
	if v := values(); strings.Contains(v, "auto") {
		t.Errorf("under the hard rule the suggested λ0 values are %q, which it refuses", v)
	}
	setTau("softmax")
	if v := values(); v != defaults {
		t.Errorf("back to softmax the suggested λ0 values are %q, want %q", v, defaults)
	}
	b.do(chromedp.SetValue(chromedp.CSS("#sweep-values"), "0.3,3"))
	setTau("hard")
	if v := values(); v != "0.3,3" {
		t.Errorf("choosing the hard rule replaced the typed values 0.3,3 with %q", v)
	}
	setTau("softmax")
	b.do(chromedp.SetValue(chromedp.CSS("#sweep-values"), defaults))

	// The defaults: no two curves of the objective may coincide, to a
	// pixel of a 300 px plot of their range.
	sweepDone(b, "")
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("figures-panel").scrollIntoView()`))
	b.shot("sweep-defaults.png")
	type series struct {
		Name   string
		Points [][2]float64
	}
	curves := eval[[]series](b, `spmtlApp.sweep().series`)
	if len(curves) < 3 {
		t.Fatalf("the default sweep %q drew %d curves", defaults, len(curves))
	}
	lo, hi := curves[0].Points[0][1], curves[0].Points[0][1]
	for _, c := range curves {
		for _, p := range c.Points {
			lo, hi = min(lo, p[1]), max(hi, p[1])
		}
	}
	px := (hi - lo) / 300
	for i := 1; i < len(curves); i++ {
		a, c := curves[i-1], curves[i]
		apart := len(a.Points) != len(c.Points)
		for k := 0; !apart && k < len(a.Points); k++ {
			apart = a.Points[k][0] != c.Points[k][0] || max(a.Points[k][1]-c.Points[k][1], c.Points[k][1]-a.Points[k][1]) > px
		}
		if !apart {
			t.Errorf("the default sweep %q on landmine: %s and %s draw the same curve", defaults, a.Name, c.Name)
		}
	}
	if l := label("sweep-objective"); strings.Contains(l, "coincide") {
		t.Errorf("distinct curves said to coincide: %q", l)
	}
	if eval[bool](b, `!document.getElementById("sweep-note").hidden`) {
		t.Errorf("distinct curves explained as coinciding: %q", eval[string](b, `document.getElementById("sweep-note").textContent`))
	}

	// School's values on landmine: λ0 ≥ 1 keeps τ uniform, and the six
	// curves are one line; the chart and its text alternative say so.
	sweepDone(b, "1,10,25,50,75,100")
	if l := label("sweep-objective"); !strings.Contains(l, "coincide") {
		t.Errorf("six coinciding curves, and the text alternative says nothing of it: %q", l)
	}
	if n := eval[string](b, `document.getElementById("sweep-note").hidden ? "" : document.getElementById("sweep-note").textContent`); !strings.Contains(n, "uniform") {
		t.Errorf("six coinciding curves, and the panel does not say why they may: %q", n)
	}
	for _, vp := range phoneAndDesktop {
		b.viewport(vp.w, vp.h, vp.mobile)
		d := canvasDrawing(b, "sweep-objective")
		where := fmt.Sprintf("coinciding curves at %d px", vp.w)
		insideCanvas(t, d, where)
		if !strings.Contains(drawnTexts(d), "coincide") {
			t.Errorf("%s: the objective chart draws no note that its curves coincide: %q", where, drawnTexts(d))
		}
		b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("figures-panel").scrollIntoView()`))
		b.shot(fmt.Sprintf("sweep-coinciding-%d.png", vp.w))
	}

	// A cancelled sweep: the values that never ran are marked so, in the
	// legend, its SVG copy and the text alternative.
	cancelled := "0.05,0.1,0.2,0.4,0.8,1.6,3.2,6.4"
	b.do(chromedp.SetValue(chromedp.CSS("#sweep-values"), cancelled),
		chromedp.Click(chromedp.CSS("#sweep-run")))
	b.waitFor(`spmtlApp.sweep().rows.length > 0`, 60*time.Second)
	b.do(chromedp.Click(chromedp.CSS("#sweep-cancel")))
	b.waitFor(`/ · cancelled$/.test(document.getElementById("sweep-status").textContent)`, 30*time.Second)
	ran := eval[[]int](b, `spmtlApp.sweep().series.map((s) => s.points.length)`)
	l := label("sweep-objective")
	svg := eval[string](b, `spmtlApp.sweep().svg`)
	for _, vp := range phoneAndDesktop {
		b.viewport(vp.w, vp.h, vp.mobile)
		b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("figures-panel").scrollIntoView()`))
		d := canvasDrawing(b, "sweep-objective")
		where := fmt.Sprintf("cancelled at %d px", vp.w)
		insideCanvas(t, d, where)
		notRun := 0
		for i, n := range ran {
			if n > 0 {
				continue
			}
			notRun++
			name := "λ0 = " + strings.Split(cancelled, ",")[i]
			if !strings.Contains(l, name+": not run") {
				t.Errorf("the text alternative %q does not say that %s did not run", l, name)
			}
			if !strings.Contains(svg, name+" (not run)") {
				t.Errorf("the SVG legend does not mark %s as not run: %.300s", name, svg)
			}
			if !strings.Contains(drawnTexts(d), name+" (not run)") {
				t.Errorf("%s: the chart's legend %q does not mark %s as not run", where, drawnTexts(d), name)
			}
		}
		if notRun == 0 {
			t.Fatalf("the cancel came too late: every value ran (%v)", ran)
		}
		b.shot(fmt.Sprintf("sweep-cancelled-%d.png", vp.w))
	}

	// School is regression: RMSE, lower is better.
	b.do(chromedp.Navigate(b.base + "/#data=school"))
	b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.summary().name === "school/data.csv"`, 30*time.Second)
	b.waitFor(`/RMSE/.test(document.getElementById("sweep-test").getAttribute("aria-label"))`, 10*time.Second)
	if l := label("sweep-test"); !strings.Contains(l, "lower is better") {
		t.Errorf("on school the test chart's text alternative %q does not say lower is better", l)
	}
	b.noConsoleErrors()
}

// tuneFailed presses Tune and waits for it to fail; it returns the error
// shown beside the button.
func tuneFailed(b *browser) string {
	b.t.Helper()
	// This model's ρ and λ0 (a visitor's file defaults to every model).
	b.do(chromedp.Click(chromedp.CSS("#tune-scope-one")))
	b.do(chromedp.Click(chromedp.CSS("#tune")))
	b.waitFor(`spmtlApp.tune().state === "failed" || spmtlApp.tune().state === "done"`, 120*time.Second)
	if st := eval[string](b, `spmtlApp.tune().state`); st != "failed" {
		b.t.Fatalf("tuning ended %q, want failed", st)
	}
	return eval[string](b, `document.getElementById("tune-error").hidden ? "" : document.getElementById("tune-error").textContent`)
}

// TestTuneFailureSaysWhy: a tuning that cannot score a point gives the
// reason, not only that there is nothing to choose: tasks too small for
// the folds are refused before any fit, and the map then describes no
// grid; a tuning refused before it starts (the hard τ rule), and loading
// other data, clear the last tuning's grid from the map.
func TestTuneFailureSaysWhy(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	header := []string{"task", "y", "x1", "x2", "x3"}
	b.loadFile("two-rows.csv", ownCSV(header, 3, 2))
	b.do(chromedp.SetValue(chromedp.CSS("#train"), "1"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("train").dispatchEvent(new Event("change"))`))
	msg := tuneFailed(b)
	t.Logf("two rows per task: %s", msg)
	if !strings.Contains(msg, "fewer than 3 rows") {
		t.Errorf("two rows per task: the tuning error %q does not say that a task needs 3 rows (one per fold)", msg)
	}
	if l := eval[string](b, `document.getElementById("tune-map").getAttribute("aria-label")`); strings.Contains(l, "points") || strings.Contains(l, "ρ") {
		t.Errorf("the map of a search refused before any point describes a grid: %q", l)
	}

	// The hard rule is refused before tuning starts: the old grid goes.
	b.do(chromedp.SetValue(chromedp.CSS("#tau"), "hard"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("tau").dispatchEvent(new Event("change"))`))
	msg = tuneFailed(b)
	if !strings.Contains(msg, "softmax") {
		t.Errorf("the hard rule: the tuning error %q does not say to choose softmax", msg)
	}
	if l := eval[string](b, `document.getElementById("tune-map").getAttribute("aria-label")`); strings.Contains(l, "points") || strings.Contains(l, "ρ") {
		t.Errorf("after the refusal the map still describes the last grid: %q", l)
	}
	if g := eval[bool](b, `spmtlApp.tune().grid !== null || !document.getElementById("tune-csv").disabled`); g {
		t.Error("after the refusal the last grid is still kept (or exportable)")
	}

	// Other data: the grid of the data no longer loaded goes too.
	b.do(chromedp.SetValue(chromedp.CSS("#tau"), "softmax"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("tau").dispatchEvent(new Event("change"))`))
	tuneFailed(b)
	b.loadFile("one-task.csv", ownCSV(header, 1, 30))
	if l := eval[string](b, `document.getElementById("tune-map").getAttribute("aria-label")`); strings.Contains(l, "points") {
		t.Errorf("after loading other data the map still describes the last data's grid: %q", l)
	}
	b.noConsoleErrors()
}

// TestTuneMapFitsPhoneWidths: at 1280, 390 and 320 px every text of the
// tuning heatmap lies inside the canvas, every cell's label inside its
// cell, and no two texts overlap; the text alternative keeps every score
// that a cell shows at full size (four significant digits).
func TestTuneMapFitsPhoneWidths(t *testing.T) {
	b := newBrowser(t)
	b.viewport(1280, 800, false)
	b.openPage(true)
	// Labels in the tens, as school's RMSE (its "★ 10.03").
	text := ownCSV([]string{"task", "y", "x1", "x2", "x3"}, 3, 20)
	text = regexp.MustCompile(`(?m)^(t\d+),(-?[0-9.]+)`).ReplaceAllStringFunc(text, func(s string) string {
		i := strings.IndexByte(s, ',')
		v, _ := strconv.ParseFloat(s[i+1:], 64)
		return fmt.Sprintf("%s,%.4f", s[:i], 20+6*v)
	})
	b.loadFile("tune-phone.csv", text)
	b.do(chromedp.Click(chromedp.CSS("#tune-scope-one"))) // this model's grid (a visitor's file defaults to every model)
	b.do(chromedp.Click(chromedp.CSS("#tune")))
	b.waitFor(`spmtlApp.tune().state === "done"`, 180*time.Second)
	scores := eval[[]string](b, `spmtlApp.tune().scores.flat().filter((v) => typeof v === "number").map((v) => v.toPrecision(4))`)
	if len(scores) == 0 {
		t.Fatal("no grid point was scored")
	}
	// One model tuned alone: its table is no list of candidates, the
	// search is told in the page's symbols, and the map (a self-paced
	// model's λ0 stage) says at which ρ it was searched.
	name := eval[string](b, `document.querySelector("#tune-models tbody th").firstChild.textContent`)
	if c := eval[string](b, `document.getElementById("tune-models-caption").textContent`); c != name+" by cross-validation" {
		t.Errorf("the table's caption for %s tuned alone: %q", name, c)
	}
	if s := eval[string](b, `document.getElementById("tune-search").textContent`); !strings.Contains(s, "λ0") || regexp.MustCompile(`\b(rho|lambda0)\b`).MatchString(s) {
		t.Errorf("the search's words: %q", s)
	}
	if l := eval[string](b, `document.getElementById("tune-map").getAttribute("aria-label")`); strings.HasPrefix(name, "sp") && !strings.Contains(l, "λ0 at the ρ") {
		t.Errorf("the map of %s's λ0 stage does not say at which ρ: %q", name, l)
	}
	for _, vp := range []struct {
		w, h   int64
		mobile bool
	}{{1280, 800, false}, {390, 844, true}, {320, 640, true}} {
		where := fmt.Sprintf("%d px", vp.w)
		b.viewport(vp.w, vp.h, vp.mobile)
		b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("tune-panel").scrollIntoView()`))
		d := canvasDrawing(b, "tune-map")
		if len(d.Texts) < 10 {
			t.Fatalf("%s: the map drew %d texts", where, len(d.Texts))
		}
		// The cells: every filled rectangle but the background.
		var cells []drawnRect
		for _, r := range d.Rects {
			if !(r.X <= 0 && r.Y <= 0 && r.W >= d.Width && r.H >= d.Height) {
				cells = append(cells, r)
			}
		}
		const tol = 0.5
		for _, x := range d.Texts {
			cx, cy := (x.Left+x.Right)/2, (x.Top+x.Bottom)/2
			box := drawnRect{X: 0, Y: 0, W: d.Width, H: d.Height}
			what := "canvas"
			for _, c := range cells {
				if cx >= c.X && cx <= c.X+c.W && cy >= c.Y && cy <= c.Y+c.H {
					box, what = c, "cell"
				}
			}
			if x.Left < box.X-tol || x.Right > box.X+box.W+tol || x.Top < box.Y-tol || x.Bottom > box.Y+box.H+tol {
				t.Errorf("%s: %q at [%.1f, %.1f]×[%.1f, %.1f] spills out of its %s [%.1f, %.1f]×[%.1f, %.1f]", where, x.Text,
					x.Left, x.Right, x.Top, x.Bottom, what, box.X, box.X+box.W, box.Y, box.Y+box.H)
			}
		}
		for i, x := range d.Texts {
			for _, y := range d.Texts[i+1:] {
				if x.Left < y.Right-tol && y.Left < x.Right-tol && x.Top < y.Bottom-tol && y.Top < x.Bottom-tol {
					t.Errorf("%s: %q and %q overlap", where, x.Text, y.Text)
				}
			}
		}
		for _, s := range scores {
			if !strings.Contains(d.Label, s) {
				t.Errorf("%s: the text alternative lacks the score %s: %q", where, s, d.Label)
				break
			}
		}
		// The cells' labels tell different scores apart, or are left out
		// (seven cells of "0.116" in seven colours read as a broken map),
		// and the chosen cell has the ★ the caption promises.
		var labels []string
		stars := 0
		for _, x := range d.Texts {
			cx, cy := (x.Left+x.Right)/2, (x.Top+x.Bottom)/2
			for _, c := range cells {
				if cx >= c.X && cx <= c.X+c.W && cy >= c.Y && cy <= c.Y+c.H {
					if strings.Contains(x.Text, "★") {
						stars++
					}
					if v := strings.TrimSpace(strings.TrimPrefix(x.Text, "★")); v != "" {
						labels = append(labels, v)
					}
				}
			}
		}
		distinct := map[string]bool{}
		for _, s := range scores {
			distinct[s] = true
		}
		shown := map[string]bool{}
		for _, l := range labels {
			shown[l] = true
		}
		if len(labels) > 0 && len(shown) < len(distinct) {
			t.Errorf("%s: the cells print %d different labels for %d different scores: %q", where, len(shown), len(distinct), labels)
		}
		if stars != 1 {
			t.Errorf("%s: %d cells carry a ★, want the chosen one", where, stars)
		}
		b.shot(fmt.Sprintf("tune-map-%d.png", vp.w))
	}
	b.noConsoleErrors()
}
