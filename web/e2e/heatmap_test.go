package e2e

// Tests of the τ heatmap as a newcomer meets it: the cell a click or a tap
// reads out, the legend's range label, the text alternative of a whole
// run, the tooltip when the page scrolls, long task names and many
// iterations, and the labels of a sequential run's map.

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// heatRead returns the heat panel's live read-out and the tooltip's text
// ("" when the tooltip is hidden).
func (b *browser) heatRead() (readout, tip string) {
	b.t.Helper()
	r := eval[[]string](b, `[document.getElementById("heat-readout").textContent,
		document.getElementById("tooltip").hidden ? "" : document.getElementById("tooltip").textContent]`)
	return r[0], r[1]
}

// cellPoint scrolls the heatmap into the middle of the viewport and returns
// the viewport point at the centre of drawn row r (counted from the top of
// the map, not of its scroll box's view) and column k.
func (b *browser) cellPoint(r, k int) (x, y float64) {
	b.t.Helper()
	p := eval[[]float64](b, fmt.Sprintf(`(() => {
		document.getElementById("heatwrap").scrollIntoView({block: "center", behavior: "instant"});
		const L = spmtlApp.heatmapLayout(), c = document.getElementById("heatmap").getBoundingClientRect();
		return [c.left + L.left + (%d + 0.5) * L.colW, c.top + L.top + (%d + 0.5) * L.rowH - L.scroll];
	})()`, k, r))
	return p[0], p[1]
}

// frames waits for two animation frames: a scroll's event has been
// dispatched by then (browsers fire it as they update the rendering).
func (b *browser) frames() {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))`, chromedp.EvalAwaitPromise)); err != nil {
		b.t.Fatalf("wait for frames: %v", err)
	}
}

// cellSays reports whether a read-out (lines joined by sep) is the one of
// task at iteration iter.
func cellSays(text, sep, task string, iter int) bool {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(task+sep) + fmt.Sprintf(`iteration %d\b`, iter)).MatchString(text)
}

// TestHeatmapClickReadsThatCell: a click on a cell, or a tap on a phone,
// reads that cell out (the tooltip and the live read-out), not the first
// row's last iteration; the arrow keys go on from it; keyboard focus (Tab)
// still starts at the first row, last iteration.
func TestHeatmapClickReadsThatCell(t *testing.T) {
	b := newBrowser(t)
	b.viewport(1280, 800, false)
	b.runDone("#data=landmine&model=mtfl&sp=1&lambda0=0.05&run=1")
	tasks := eval[[]string](b, `spmtlApp.runInfo().tasks`)
	order := eval[[]int](b, `spmtlApp.heatmapLayout().order`)
	iters := eval[[]int](b, `spmtlApp.snapshots().map((s) => s.iter)`)
	K := len(iters)
	if K < 4 {
		t.Fatalf("the run has %d iterations; the test needs 4", K)
	}
	expect := func(how string, r, k int) {
		t.Helper()
		readout, tip := b.heatRead()
		task := tasks[order[r]]
		if !cellSays(readout, " · ", task, iters[k]) {
			t.Errorf("%s row %d, iteration %d (%s): the read-out says %q", how, r+1, iters[k], task, readout)
		}
		if !cellSays(tip, "\n", task, iters[k]) {
			t.Errorf("%s row %d, iteration %d (%s): the tooltip says %q", how, r+1, iters[k], task, tip)
		}
	}
	x, y := b.cellPoint(3, 2)
	b.do(chromedp.MouseClickXY(x, y))
	b.waitFor(`document.getElementById("heat-readout").textContent.includes("T·τ")`, 5*time.Second)
	expect("a click on", 3, 2)
	x, y = b.cellPoint(6, 0)
	b.do(chromedp.MouseClickXY(x, y))
	expect("a second click on", 6, 0)
	// The keys go on from the clicked cell.
	b.do(chromedp.KeyEvent(kb.ArrowDown))
	expect("ArrowDown after the click:", 7, 0)

	// Tab into the map (from the control before it): the first row, the last iteration.
	b.do(chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`),
		chromedp.Focus(chromedp.CSS("#heat-stretch")), chromedp.KeyEvent(kb.Tab))
	if id := eval[string](b, `document.activeElement.id`); id != "heatwrap" {
		t.Fatalf("Tab from the stretch box focused #%s, want the map's box", id)
	}
	expect("Tab into the map:", 0, K-1)

	// A phone: a tap reads the tapped cell, and a second tap another one.
	b.do(chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
	b.viewport(390, 844, true)
	b.do(chromedp.Evaluate[chromedp.Void](`window.dispatchEvent(new Event("resize"))`))
	b.waitFor(`spmtlApp.heatmapLayout().left + spmtlApp.heatmapLayout().width < 390`, 10*time.Second)
	x, y = b.cellPoint(2, 1)
	b.do(chromedp.TapXY(x, y))
	b.waitFor(`!document.getElementById("tooltip").hidden`, 5*time.Second)
	expect("a tap on", 2, 1)
	x, y = b.cellPoint(5, 3)
	b.do(chromedp.TapXY(x, y))
	expect("a second tap on", 5, 3)
	b.noConsoleErrors()
}

// legendBox is a box the legend drew: a text's, or the range bracket's.
type legendBox struct {
	Text                     string
	Left, Right, Top, Bottom float64
}

func (a legendBox) overlaps(b legendBox) bool {
	return a.Left < b.Right && b.Left < a.Right && a.Top < b.Bottom && b.Top < a.Bottom
}

// TestHeatLegendRunLabelClear: the legend's "this run: …" label never lies
// on the bracket that marks the run's range, nor on another of its texts,
// on a phone and on a desktop, on the fixed and on the stretched scale.
func TestHeatLegendRunLabelClear(t *testing.T) {
	b := newBrowser(t)
	for _, c := range []struct {
		hash   string
		w, h   int64
		mobile bool
	}{
		{"#data=school&model=mtfl&sp=1&run=1", 390, 844, true},
		{"#data=landmine&model=mtfl&sp=1&lambda0=0.02&run=1", 1280, 800, false},
	} {
		b.do(chromedp.Navigate("about:blank"))
		b.viewport(c.w, c.h, c.mobile)
		b.runDone(c.hash)
		for _, stretched := range []bool{false, true} {
			where := fmt.Sprintf("%s at %d×%d", c.hash, c.w, c.h)
			if stretched {
				b.do(chromedp.Click(chromedp.CSS("#heat-stretch")))
				b.waitFor(`spmtlApp.legendLayout().label.includes("stretched")`, 5*time.Second)
				where += ", stretched"
			}
			if !stretched {
				checkLegend(b, where) // its ticks are the fixed scale's
			}
			leg := eval[struct {
				Width, Height float64
				Texts         []legendBox
				Bracket       *legendBox
			}](b, `(() => { const l = spmtlApp.legendLayout(), box = (t) => t && ({Text: t.text || "", Left: t.left, Right: t.right, Top: t.top, Bottom: t.bottom});
				return {Width: l.width, Height: l.height, Texts: l.texts.map(box), Bracket: box(l.bracket)}; })()`)
			if leg.Bracket == nil {
				t.Fatalf("%s: the legend gives no box for the run's bracket", where)
			}
			found := false
			for i, x := range leg.Texts {
				if x.Left < 0 || x.Top < 0 || x.Right > leg.Width || x.Bottom > leg.Height {
					t.Errorf("%s: %q at [%.1f, %.1f]×[%.1f, %.1f] is outside the %.0f×%.0f canvas", where, x.Text, x.Left, x.Right, x.Top, x.Bottom, leg.Width, leg.Height)
				}
				if regexp.MustCompile(`^this run:`).MatchString(x.Text) {
					found = true
					if x.overlaps(*leg.Bracket) {
						t.Errorf("%s: %q at [%.1f, %.1f]×[%.1f, %.1f] lies on the bracket at [%.1f, %.1f]×[%.1f, %.1f]", where, x.Text,
							x.Left, x.Right, x.Top, x.Bottom, leg.Bracket.Left, leg.Bracket.Right, leg.Bracket.Top, leg.Bracket.Bottom)
					}
				}
				for _, y := range leg.Texts[i+1:] {
					if x.overlaps(y) {
						t.Errorf("%s: the legend's texts %q and %q overlap", where, x.Text, y.Text)
					}
				}
			}
			if !found {
				t.Errorf("%s: no \"this run:\" text in %+v", where, leg.Texts)
			}
		}
		b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("legend").scrollIntoView({block: "center", behavior: "instant"})`))
		b.shot(fmt.Sprintf("legend-%dx%d.png", c.w, c.h))
	}
	b.noConsoleErrors()
}

// relValue parses a T·τ as the page prints it ("1/8", "0.65").
func relValue(s string) float64 {
	var n, d float64
	if _, err := fmt.Sscanf(s, "%g/%g", &n, &d); err == nil && d != 0 {
		return n / d
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// rangeRe finds a printed range of T·τ: "0.98–1.01", "0.011 (beyond 1/8) – 4.58".
var rangeRe = regexp.MustCompile(`(\d[\d./]*)(?: \([^)]*\))?\s?–\s?(\d[\d./]*)`)

// checkRanges fails when a text prints a range whose two ends read as the same number.
func checkRanges(t *testing.T, where, text string) {
	t.Helper()
	for _, m := range rangeRe.FindAllStringSubmatch(text, -1) {
		if relValue(m[1]) == relValue(m[2]) {
			t.Errorf("%s: the range %q has ends that read alike, in %q", where, m[0], text)
		}
	}
}

// TestHeatmapDescribesTheWholeRun: the heatmap's text alternative tells of
// the whole run, not only its last iteration: a hard-rule run whose τ is
// far from uniform in its first iterations and uniform at the end gives
// the range of T·τ over the run, which tasks weighed most and least and
// when, and from when τ was uniform. A range whose ends would print alike
// prints them with the digits that tell them apart, or as one value when
// they are equal.
func TestHeatmapDescribesTheWholeRun(t *testing.T) {
	b := newBrowser(t)
	b.viewport(1280, 800, false)
	b.runDone("#data=landmine&model=mtaso&sp=1&tau=hard&lambda0=0.15&run=1")
	tau := eval[[][]float64](b, `spmtlApp.tauHistory()`)
	tasks := eval[[]string](b, `spmtlApp.runInfo().tasks`)
	iters := eval[[]int](b, `spmtlApp.snapshots().map((s) => s.iter)`)
	T, K := float64(len(tasks)), len(tau)
	uniform := func(col []float64) bool {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range col {
			lo, hi = math.Min(lo, T*v), math.Max(hi, T*v)
		}
		return hi-lo < 1e-9
	}
	// The extreme cells: their value, the first iteration with it, and the tasks with it there.
	type extreme struct {
		v     float64
		k     int
		tasks map[string]bool
	}
	find := func(better func(a, b float64) bool) extreme {
		e := extreme{v: T * tau[0][0]}
		for _, col := range tau {
			for _, v := range col {
				if better(T*v, e.v) {
					e.v = T * v
				}
			}
		}
		e.k = -1
		for k, col := range tau {
			for i, v := range col {
				if math.Abs(T*v-e.v) <= 1e-9*e.v && (e.k == -1 || e.k == k) {
					e.k = k
					if e.tasks == nil {
						e.tasks = map[string]bool{}
					}
					e.tasks[tasks[i]] = true
				}
			}
		}
		return e
	}
	most := find(func(a, b float64) bool { return a > b })
	least := find(func(a, b float64) bool { return a < b })
	from := K
	for from > 0 && uniform(tau[from-1]) {
		from--
	}
	if from == K || from == 0 || most.v/least.v < 10 {
		t.Fatalf("the test needs a run uniform at its end and far from it before: T·τ %v–%v, uniform from column %d of %d", least.v, most.v, from+1, K)
	}
	label := eval[string](b, `document.getElementById("heatmap").getAttribute("aria-label")`)
	t.Logf("the hard-rule run's heatmap label: %s", label)
	m := regexp.MustCompile(`from (\S+) \(([^)]*) at iteration (\d+)\) to (\S+) \(([^)]*) at iteration (\d+)\)`).FindStringSubmatch(label)
	if m == nil {
		t.Fatalf("the label %q does not give T·τ's range over the run, with its tasks and iterations", label)
	}
	for _, c := range []struct {
		what             string
		e                extreme
		value, names, at string
	}{{"least", least, m[1], m[2], m[3]}, {"most", most, m[4], m[5], m[6]}} {
		if v := relValue(c.value); math.Abs(v-c.e.v) > 0.05*c.e.v { // 2 or 3 digits
			t.Errorf("the label gives the %s T·τ as %s, the run's is %.4g", c.what, c.value, c.e.v)
		}
		if c.at != strconv.Itoa(iters[c.e.k]) {
			t.Errorf("the label gives the %s T·τ at iteration %s, the run had it first at iteration %d", c.what, c.at, iters[c.e.k])
		}
		named := 0
		for _, n := range regexp.MustCompile(`, | and `).Split(c.names, -1) {
			if c.e.tasks[n] {
				named++
			} else if !regexp.MustCompile(`^\d+ more$`).MatchString(n) {
				t.Errorf("the label names %q among the tasks weighed %s; they are %v", n, c.what, c.e.tasks)
			}
		}
		if named == 0 {
			t.Errorf("the label names none of the tasks weighed %s (%v): %q", c.what, c.e.tasks, c.names)
		}
	}
	if want := fmt.Sprintf("uniform from iteration %d on", iters[from]); !strings.Contains(label, want) {
		t.Errorf("the label %q does not say %q", label, want)
	}
	checkRanges(t, "the hard-rule run's heatmap label", label)

	// The printed ranges: ends that differ print apart, equal ends once.
	ends, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`import("/js/tau-scale.js").then((m) => [m.relRange(0.9999, 1.004), m.relRange(0.99999, 1.00001),
		m.relRange(0.65, 1.24), m.relRange(1 / 8, 8), m.relRange(1, 1), m.relText(0.9999), m.relText(1 / 9.916112721719266e+51)])`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("tau-scale.js's relRange: %v", err)
	}
	// A tiny weight once printed as "1/9.916112721719266e+51" (1/v is a
	// whole number past 2⁵³), then as "1.0e-52": under a millionth of an
	// equal share it is no weight, and says so.
	for i, want := range []string{"", "", "0.65–1.24", "1/8–8", "1", "1.00", "under 1e-6"} {
		if want != "" && ends[i] != want {
			t.Errorf("printed range %d: %q, want %q", i, ends[i], want)
		}
	}
	for _, r := range ends[:2] {
		checkRanges(t, "relRange", r)
		if !strings.Contains(r, "–") {
			t.Errorf("relRange printed %q, two different ends as one", r)
		}
	}
	// A run within 1% of uniform: its label's and legend's ranges.
	b.do(chromedp.Navigate("about:blank"))
	b.runDone("#data=landmine&model=mtfl&sp=1&lambda0=1000&run=1")
	checkRanges(t, "a near-uniform run's heatmap label", eval[string](b, `document.getElementById("heatmap").getAttribute("aria-label")`))
	checkRanges(t, "a near-uniform run's legend", eval[string](b, `spmtlApp.legendLayout().label`))
	b.noConsoleErrors()
}

// TestHeatmapTooltipHidesOnScroll: the heatmap's tooltip (fixed to the
// viewport) goes when the page or the map's box scrolls, whether it shows
// the keyboard's cell or the hovered one; the map's own scrolling to the
// keyboard's cell keeps it, beside that cell, and so does the page's
// scrolling to the map when Tab focuses it.
func TestHeatmapTooltipHidesOnScroll(t *testing.T) {
	b := newBrowser(t)
	b.viewport(1280, 800, false)
	b.runDone("#data=school&model=mtfl&sp=1&run=1")
	// Where the tooltip is, against the keyboard's cell (null: hidden).
	type tipPlace struct {
		Shown           bool
		TipTop, CellTop float64
		MapTop, MapBot  float64
	}
	place := func() tipPlace {
		b.frames()
		return eval[tipPlace](b, `(() => {
			const tip = document.getElementById("tooltip"), L = spmtlApp.heatmapLayout(), c = document.getElementById("heatmap").getBoundingClientRect();
			const cur = spmtlApp.heatCursor();
			return {Shown: !tip.hidden, TipTop: tip.getBoundingClientRect().top, CellTop: cur ? c.top + L.top + cur.r * L.rowH - L.scroll : NaN, MapTop: c.top, MapBot: c.bottom};
		})()`)
	}
	besideCell := func(what string) {
		t.Helper()
		p := place()
		if !p.Shown {
			t.Errorf("%s: the tooltip is hidden", what)
		} else if math.Abs(p.TipTop-p.CellTop) > 2 {
			t.Errorf("%s: the tooltip's top is at %.1f, the keyboard's cell's at %.1f", what, p.TipTop, p.CellTop)
		}
	}
	hidden := func(what string) {
		t.Helper()
		if p := place(); p.Shown {
			t.Errorf("%s: the tooltip still shows (its top at %.1f, the map at %.1f–%.1f)", what, p.TipTop, p.MapTop, p.MapBot)
		}
	}
	// Tab into the map from the control before it while the map is below
	// the fold: the page scrolls to it, and the tooltip is beside the cell.
	b.do(chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById("heat-stretch");
		s.scrollIntoView({block: "end", behavior: "instant"}); s.focus({preventScroll: true}); })()`))
	if p := place(); p.MapBot <= 800 {
		t.Fatalf("the map's canvas ends at %.0f, inside the 800 px viewport; the test needs it below the fold", p.MapBot)
	}
	b.do(chromedp.KeyEvent(kb.Tab))
	besideCell("Tab into the map")
	// Paging down scrolls the map's box to the keyboard's cell: its tooltip stays, beside it.
	for range 3 {
		b.do(chromedp.KeyEvent(kb.PageDown))
	}
	if s := eval[float64](b, `document.getElementById("heatwrap").scrollTop`); s <= 0 {
		t.Fatalf("paging down did not scroll the map's box")
	}
	besideCell("PageDown ×3")
	// The page scrolls: the tooltip goes.
	b.do(chromedp.Evaluate[chromedp.Void](`window.scrollBy(0, 150)`))
	hidden("the page scrolled after the keys")
	// The map's box scrolls (a wheel; up: paging went to its end): the tooltip goes.
	b.do(chromedp.KeyEvent(kb.ArrowUp))
	besideCell("ArrowUp")
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("heatwrap").scrollTop -= 60`))
	hidden("the map's box scrolled after the keys")
	// A hovered cell's tooltip goes with the page's scroll too.
	b.do(chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
	x, y := b.cellPoint(eval[int](b, `spmtlApp.heatmapLayout().firstRow`)+2, 1)
	b.do(chromedp.MouseEvent("mouseMoved", x, y))
	if p := place(); !p.Shown {
		t.Fatal("hovering a cell shows no tooltip")
	}
	b.do(chromedp.Evaluate[chromedp.Void](`window.scrollBy(0, -100)`))
	hidden("the page scrolled under the pointer")
	b.noConsoleErrors()
}

// namedTasksCSV: a small regression problem whose tasks have the given names.
func namedTasksCSV(names []string, rows int) string {
	var sb strings.Builder
	sb.WriteString("task,y,x1,x2\n")
	for t, name := range names {
		for i := 0; i < rows; i++ {
			x1, x2 := float64((i*3+t)%7)-3, float64((i*5+2*t)%9)-4
			fmt.Fprintf(&sb, "%s,%.3f,%v,%v\n", name, 0.5*x1-0.2*x2+0.3*float64(t)+0.1*float64((i*7)%5-2), x1, x2)
		}
	}
	return sb.String()
}

// abbreviates reports whether label is name with parts left out where it has "…".
func abbreviates(label, name string) bool {
	parts := strings.Split(label, "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(`^` + strings.Join(parts, `.*`) + `$`).MatchString(name)
}

// rowLabel is a row label the heatmap drew.
type rowLabel struct {
	Text                     string
	Task                     int
	Left, Right, Top, Bottom float64
}

// svgLabelRe finds the SVG export's row labels: the title (the full name) and the text shown.
var svgLabelRe = regexp.MustCompile(`<text [^>]*text-anchor="end">(?:<title>([^<]*)</title>)?([^<]*)</text>`)

// TestHeatmapRowLabels: long task names that share their start are
// shortened with an ellipsis to labels that still tell them apart, in the
// map and in its SVG export, and each label fits its margin; the read-out
// gives the full name. On a phone the top row's label is drawn whole, not
// cut at the map's edge. The steps under the map never run into each
// other, at any number of iterations.
func TestHeatmapRowLabels(t *testing.T) {
	b := newBrowser(t)
	b.viewport(1280, 800, false)
	b.openPage(true)
	names := []string{"Hospital Northside - ward A", "Hospital Northside - ward B", "Hospital Northside - ward C",
		"Hospital Southside - ward A", "Hospital Northside - intensive care", "Clinic"}
	b.loadFile("wards.csv", namedTasksCSV(names, 30))
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	b.waitFor(`spmtlApp.heatmapLayout().cols === spmtlApp.snapshots().length`, 10*time.Second)
	tasks := eval[[]string](b, `spmtlApp.runInfo().tasks`)
	checkLabels := func(where string, got map[string]string, width func(string) float64, room float64) {
		t.Helper()
		seen := map[string]string{}
		for name, label := range got {
			if other, ok := seen[label]; ok {
				t.Errorf("%s: %q and %q are both labelled %q", where, name, other, label)
			}
			seen[label] = name
			if !abbreviates(label, name) {
				t.Errorf("%s: %q is labelled %q, which is not an abbreviation of it", where, name, label)
			}
			if w := width(label); w > room {
				t.Errorf("%s: the label %q is %.0f px wide, more than the %.0f px of its margin", where, label, w, room)
			}
		}
		if len(got) != len(names) {
			t.Errorf("%s: %d labels %v, want one per task (%d)", where, len(got), got, len(names))
		}
	}
	type mapLabels struct {
		Left   float64
		Labels []rowLabel
	}
	L := eval[mapLabels](b, `(() => { const L = spmtlApp.heatmapLayout();
		return {Left: L.left, Labels: (L.labels || []).map((l) => ({Text: l.text, Task: l.task, Left: l.left, Right: l.right, Top: l.top, Bottom: l.bottom}))}; })()`)
	onMap := map[string]string{}
	for _, l := range L.Labels {
		onMap[tasks[l.Task]] = l.Text
		if l.Left < 0 || l.Right > L.Left {
			t.Errorf("the map: the label %q spans x %.1f–%.1f, outside its margin 0–%.1f", l.Text, l.Left, l.Right, L.Left)
		}
	}
	checkLabels("the map", onMap, func(string) float64 { return 0 }, 1)
	t.Logf("the map's labels: %v", onMap)
	svg := eval[string](b, `spmtlApp.svgs().heatmap`)
	inSVG := map[string]string{}
	for _, m := range svgLabelRe.FindAllStringSubmatch(svg, -1) {
		name := m[1]
		if name == "" { // no title: the label is the whole name
			name = m[2]
		}
		inSVG[name] = m[2]
	}
	checkLabels("the SVG", inSVG, func(s string) float64 {
		return eval[float64](b, fmt.Sprintf(`(() => { const g = document.createElement("canvas").getContext("2d"); g.font = "11px sans-serif"; return g.measureText(%q).width; })()`, s))
	}, 106)
	// The read-out has the full name.
	order := eval[[]int](b, `spmtlApp.heatmapLayout().order`)
	x, y := b.cellPoint(1, 0)
	b.do(chromedp.MouseClickXY(x, y))
	if readout, _ := b.heatRead(); !strings.HasPrefix(readout, tasks[order[1]]+" · ") {
		t.Errorf("the read-out of row 2 is %q, want it to start with the full name %q", readout, tasks[order[1]])
	}
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("heatwrap").scrollIntoView({block: "center", behavior: "instant"})`))
	b.shot("heatmap-long-names.png")

	// A phone: the top row's label is drawn whole, its top not cut at the map's edge.
	b.do(chromedp.Navigate("about:blank"))
	b.viewport(390, 844, true)
	b.runDone("#data=school&model=mtfl&sp=1&run=1")
	top := eval[struct {
		Label rowLabel
		Ink   int
	}](b, `(() => {
		const L = spmtlApp.heatmapLayout(), l = (L.labels || [])[0], g = document.getElementById("heatmap").getContext("2d"), d = L.dpr;
		if (!l) return {Label: {Text: ""}, Ink: 0};
		// Dark pixels in the label's top 2 px: its glyphs' tops.
		const px = g.getImageData(Math.floor(l.left * d), Math.floor(l.top * d), Math.ceil((l.right - l.left) * d), Math.ceil(2 * d)).data;
		let ink = 0;
		for (let i = 0; i < px.length; i += 4) if (px[i] < 160 && px[i + 1] < 160 && px[i + 2] < 160) ink++;
		return {Label: {Text: l.text, Task: l.task, Left: l.left, Right: l.right, Top: l.top, Bottom: l.bottom}, Ink: ink};
	})()`)
	if top.Label.Text == "" {
		t.Fatal("the phone's map reports no row labels")
	}
	if top.Label.Top < 0 || top.Ink == 0 {
		t.Errorf("the phone's top row label %q (top at %.1f px) is cut: no ink in its top 2 px", top.Label.Text, top.Label.Top)
	}
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("heatwrap").scrollIntoView({block: "center", behavior: "instant"})`))
	b.shot("heatmap-phone-top-label.png")

	// The steps under a map of 1 to 700 iterations, at the phone's width and a desktop's.
	for _, width := range []int{330, 1200} {
		problems, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](fmt.Sprintf(`(async () => {
			const m = await import("/js/heatmap.js");
			const box = document.createElement("div"); box.style.width = "%dpx";
			const wrap = document.createElement("div"), canvas = document.createElement("canvas"), spacer = document.createElement("div"), tooltip = document.createElement("div");
			canvas.style.width = "100%%"; wrap.append(canvas, spacer); box.append(wrap); document.body.append(box);
			const h = new m.Heatmap({wrap, canvas, spacer, tooltip, readout: null}, spmtlApp.tauScale());
			h.reset(["a", "b", "c"]);
			const out = [];
			for (let K = 1; K <= 700; K++) {
				h.history.push({iter: K, tau: [1 / 3, 1 / 3, 1 / 3], lambda: 1});
				if (!(K <= 40 || (K >= 90 && K <= 110) || K >= 600 || K %% 37 === 0)) continue;
				h.draw();
				const xs = h.layout.xLabels, W = wrap.clientWidth;
				if (!xs || !xs.length || xs[xs.length - 1].text !== String(K)) { out.push(K + ": the last label is " + JSON.stringify(xs && xs[xs.length - 1])); continue; }
				for (let i = 0; i < xs.length; i++) {
					if (xs[i].left < 0 || xs[i].right > W) out.push(K + ": " + xs[i].text + " outside the canvas");
					if (i > 0 && xs[i].left < xs[i - 1].right + 2) out.push(K + ": " + xs[i - 1].text + " and " + xs[i].text + " touch");
				}
				// The SVG's steps: at least a label's width apart (11 px digits are at most 7 px).
				if (K %% 50 === 0 || K === 650) {
					const at = [...h.svg().matchAll(/<text x="([\d.]+)" y="[\d.]+" text-anchor="middle" fill="#555">(\d+)<\/text>/g)].map((x) => [+x[1], x[2]]);
					for (let i = 1; i < at.length; i++) if (at[i][0] - at[i - 1][0] < 3.5 * (at[i][1].length + at[i - 1][1].length) + 2) out.push(K + ": the SVG's " + at[i - 1][1] + " and " + at[i][1] + " touch");
				}
			}
			box.remove();
			return out;
		})()`, width), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("at %d px, a map of many iterations: %v", width, err)
		}
		if len(problems) > 0 {
			t.Errorf("at %d px, the steps under the map: %d problems, first %v", width, len(problems), problems[:min(len(problems), 5)])
		}
	}
	b.noConsoleErrors()
}

// TestSequentialHeatmapLabels: a sequential run (CL) has no τ: the map's
// exports, its table, its read-out hint and its accessible names say what
// it shows, the order in which the tasks were learned; a self-paced run
// after it in the same page has the τ labels back.
func TestSequentialHeatmapLabels(t *testing.T) {
	b := newBrowser(t)
	b.viewport(1280, 800, false)
	b.runDone("#data=landmine&model=cl&run=1")
	labelsJS := `(() => { const $ = (s) => document.querySelector(s); return {
		"PNG button": $("#heatmap-png").textContent, "SVG button": $("#heatmap-svg").textContent,
		"table toggle": $("#tau-table-box summary").textContent, "read-out hint": $("#heat-readout").textContent,
		"map's box name": $("#heatwrap").getAttribute("aria-label"), "table's name": $("#tau-table").getAttribute("aria-label")}; })()`
	for what, text := range eval[map[string]string](b, labelsJS) {
		if strings.Contains(text, "τ") {
			t.Errorf("CL: the %s says %q, of τ, which a sequential run does not have", what, text)
		}
		if !regexp.MustCompile(`order|learned`).MatchString(text) {
			t.Errorf("CL: the %s says %q, not that the map shows the order in which tasks were learned", what, text)
		}
	}
	b.do(chromedp.Evaluate[chromedp.Void](`location.hash = "#data=landmine&model=mtfl&sp=1&run=1"`))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.runInfo() && spmtlApp.runInfo().kind !== "sequential" && spmtlApp.results() !== null`, 60*time.Second)
	for what, text := range eval[map[string]string](b, labelsJS) {
		if !strings.Contains(text, "τ") {
			t.Errorf("spMTFL after CL: the %s says %q, without τ", what, text)
		}
	}
	b.noConsoleErrors()
}

// TestHeatVerdictSaysWhenWeightsChangedNothing: with ρ near 0 the tasks are
// fitted apart, so τ weighs each task's own fit and moves no prediction;
// the self-paced run scores as its baseline on every task, and the sentence
// beside the map says that the weights it paints changed nothing. A run
// whose pace did change its scores (landmine's) says no such thing.
func TestHeatVerdictSaysWhenWeightsChangedNothing(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	if v := eval[string](b, `spmtlApp.heatVerdict()`); strings.Contains(v, "changed no prediction") {
		t.Errorf("landmine's run: %q", v)
	}
	b.loadFile("apart.csv", ownCSV([]string{"task", "y", "x1", "x2", "x3"}, 6, 20))
	b.setField("rho", "0.000001")
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	verdict := eval[string](b, `spmtlApp.results().baseline && spmtlApp.results().baseline.versus ? spmtlApp.results().baseline.versus.verdict : ""`)
	if verdict != "identical" {
		t.Fatalf("with ρ 1e-6 the self-paced run against its baseline: %q, want identical", verdict)
	}
	if v := eval[string](b, `spmtlApp.heatVerdict()`); !strings.Contains(v, "These weights changed no prediction: spMTFL scored as MTFL, without self-pacing, on every task") {
		t.Errorf("the sentence beside the map: %q", v)
	}
	b.noConsoleErrors()
}

// TestTablesCutNamesWhereTheyDiffer: on a phone, task names too long for
// the results table's and the τ table's name cells (names that differ
// only at their end) are cut where they differ, as the heatmap's labels
// are, not at their end, where they all read alike; each cut label fits
// its cell, and the whole name stays in the cell for screen readers and
// as its title. The old tables cut every name at its end (CSS), so the
// four wards read alike.
func TestTablesCutNamesWhereTheyDiffer(t *testing.T) {
	b := newBrowser(t)
	b.viewport(390, 844, true)
	b.openPage(true)
	const stem = "Regional Hospital Northside General Infirmary - "
	names := []string{stem + "ward A", stem + "ward B", stem + "ward C", stem + "intensive care", "Clinic"}
	b.loadFile("wards.csv", namedTasksCSV(names, 30))
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	type cellText struct {
		Shown, Hidden, Title, Text string
		Overflows                  bool
	}
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("tau-table-box").open = true`))
	b.waitFor(`document.querySelectorAll("#tau-table tbody tr").length > 0`, 10*time.Second)
	for _, table := range []string{"#results", "#tau-table"} {
		b.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).scrollIntoView({block: "center", behavior: "instant"})`, table)))
		cells := eval[[]cellText](b, fmt.Sprintf(`Array.from(document.querySelectorAll("%s tbody tr:not(.spacer):not(.strong) th"), (th) => {
			const shown = th.querySelector("span[aria-hidden=true]"), hidden = th.querySelector(".visually-hidden");
			return {Shown: shown ? shown.textContent : th.textContent, Hidden: hidden ? hidden.textContent : "", Title: th.title,
				Text: th.textContent, Overflows: th.offsetWidth > 0 && th.scrollWidth > th.clientWidth + 1};
		})`, table))
		if len(cells) != len(names) {
			t.Fatalf("%s: %d task rows, want %d", table, len(cells), len(names))
		}
		seen := map[string]string{}
		for _, c := range cells {
			name := c.Title
			if name == "" {
				name = c.Shown
			}
			if c.Shown != name {
				if c.Hidden != name {
					t.Errorf("%s: the cell showing %q holds %q for screen readers, want the whole name %q", table, c.Shown, c.Hidden, name)
				}
				if !abbreviates(c.Shown, name) {
					t.Errorf("%s: %q is shown as %q, not an abbreviation of it", table, name, c.Shown)
				}
			}
			if other, ok := seen[c.Shown]; ok {
				t.Errorf("%s: %q and %q both read %q", table, name, other, c.Shown)
			}
			seen[c.Shown] = name
			if c.Overflows {
				t.Errorf("%s: the label %q overflows its cell (the CSS cut it again at its end)", table, c.Shown)
			}
		}
		t.Logf("%s: %v", table, seen)
	}
	b.do(chromedp.Evaluate[chromedp.Void](`document.querySelector("#results").scrollIntoView({block: "center", behavior: "instant"})`))
	b.shot("results-long-names-phone.png")
	b.noConsoleErrors()
}
