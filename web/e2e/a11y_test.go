package e2e

// Accessibility and the phone: axe-core (the npm package pinned in
// web/e2e/package.json, installed by `npm ci --prefix web/e2e`) checks the
// page after a landmine run on a desktop and on a phone, and fails on any
// violation of impact serious or critical; on the phone the data summary
// and Play are on the first screen, nothing is wider than the screen and
// every control is at least 24 px. It also writes the screenshots of the
// README (landmine on a desktop, school's 139 tasks, the phone).

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// axeSource is axe-core's script, from web/e2e/node_modules.
func axeSource(t *testing.T) string {
	t.Helper()
	p := filepath.Join("node_modules", "axe-core", "axe.min.js")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("axe-core is not installed (%v): run `npm ci --prefix web/e2e` (./build.sh test does)", err)
	}
	return string(src)
}

type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target  []string `json:"target"`
		Summary string   `json:"failureSummary"`
	} `json:"nodes"`
}

// axe runs axe-core on the page (WCAG 2.1 A and AA rules, and best
// practices) and fails on a serious or critical violation; it logs the others.
func (b *browser) axe(src, where string) {
	b.t.Helper()
	if !eval[bool](b, `typeof window.axe === "object"`) {
		b.do(chromedp.Evaluate[chromedp.Void](src))
	}
	version := eval[string](b, `axe.version`)
	vs, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]axeViolation](`axe.run(document, {
		runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}, resultTypes: ["violations"],
	}).then((r) => r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
		nodes: v.nodes.slice(0, 5).map((n) => ({target: n.target.map(String), failureSummary: n.failureSummary}))})))`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("%s: axe-core: %v", where, err)
	}
	b.t.Logf("%s: axe-core %s found %d violation(s) in all", where, version, len(vs))
	for _, v := range vs {
		var nodes []string
		for _, n := range v.Nodes {
			nodes = append(nodes, fmt.Sprintf("%v: %s", n.Target, strings.ReplaceAll(n.Summary, "\n", " ")))
		}
		msg := fmt.Sprintf("%s: axe %s (%s): %s\n  %s", where, v.ID, v.Impact, v.Help, strings.Join(nodes, "\n  "))
		if v.Impact == "serious" || v.Impact == "critical" {
			b.t.Error(msg)
		} else {
			b.t.Log(msg)
		}
	}
}

// TestAccessibilityDesktopAndPhone: after a landmine run, axe-core finds
// no serious or critical violation at 1280×800 and at 390×844; on the
// phone Play and the data summary are inside the first screen, nothing is
// wider than it, and every visible control is at least 24 px each way.
// Every chart canvas is an image with a text alternative.
func TestAccessibilityDesktopAndPhone(t *testing.T) {
	b := newBrowser(t) // skips unless SPMTL_E2E is set
	src := axeSource(t)
	b.viewport(1280, 800, false)
	b.runDone("#data=landmine&model=mtfl&sp=1&run=1")
	b.waitFor(`spmtlApp.knowledge() !== null`, 20*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	b.shot("landmine-desktop.png")
	b.screenshot("landmine-desktop-full.png")
	// Every canvas is an image with a text alternative; the charts' say what they show.
	type canvas struct{ ID, Role, Label string }
	cs := eval[[]canvas](b, `Array.from(document.querySelectorAll("canvas")).map((c) => ({ID: c.id, Role: c.getAttribute("role") || "", Label: c.getAttribute("aria-label") || ""}))`)
	for _, c := range cs {
		if c.Role != "img" || len(c.Label) < 20 {
			t.Errorf("canvas #%s: role %q, label %q; want an image with a text alternative", c.ID, c.Role, c.Label)
		}
	}
	labels := eval[map[string]string](b, `Object.fromEntries(["heatmap", "curves", "scatter-base", "legend"].map((id) => [id, document.getElementById(id).getAttribute("aria-label")]))`)
	for id, want := range map[string]string{"heatmap": "τ after 10 iterations: easiest", "curves": "objective from", "scatter-base": "tasks", "legend": "this run"} {
		if !strings.Contains(labels[id], want) {
			t.Errorf("#%s's label %q lacks %q", id, labels[id], want)
		}
	}
	// The file picker is a button; the drop zone opens it on Enter.
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("file").addEventListener("click", (e) => { window.__picked = (window.__picked || 0) + 1; e.preventDefault(); })`),
		chromedp.Focus(chromedp.CSS("#drop")), chromedp.KeyEvent("\r"), chromedp.Click(chromedp.CSS("#file-btn")))
	if n := eval[int](b, `window.__picked || 0`); n != 2 {
		t.Errorf("the drop zone's Enter and the file button opened the picker %d times, want 2", n)
	}
	b.axe(src, "desktop 1280×800")

	b.viewport(390, 844, true)
	// A new document (a hash change alone would keep the finished run).
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(b.base+"/#data=landmine&model=mtfl&sp=1"))
	b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.state() === "idle"`, 30*time.Second)
	b.waitFor(`!document.getElementById("first-hint").hidden`, 10*time.Second)
	type rect struct{ Left, Top, Right, Bottom float64 }
	box := func(sel string) rect {
		return eval[rect](b, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return {Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom}; })()`, sel))
	}
	for _, sel := range []string{"#play", "#bar-summary", "#first-hint"} {
		if r := box(sel); r.Top < 0 || r.Left < 0 || r.Bottom > 844 || r.Right > 390 {
			t.Errorf("phone: %s at %+v is not inside the first screen (390×844)", sel, r)
		}
	}
	hint := eval[string](b, `document.getElementById("first-hint").textContent`)
	if !strings.Contains(hint, "Press Play to train 19 landmine tasks") {
		t.Errorf("the first-view hint says %q", hint)
	}
	b.shot("phone.png")
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	b.waitFor(`spmtlApp.heatmapLayout().cols === spmtlApp.snapshots().length`, 10*time.Second)
	if !eval[bool](b, `document.getElementById("first-hint").hidden`) {
		t.Error("the first-view hint is still shown after a run")
	}
	if w := eval[float64](b, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("phone: the page is %v px wide, wider than the screen", w)
	}
	wide := eval[[]string](b, `Array.from(document.querySelectorAll("canvas")).filter((c) => c.offsetParent && c.getBoundingClientRect().right > 390.5).map((c) => c.id)`)
	if len(wide) > 0 {
		t.Errorf("phone: canvases wider than the screen: %v", wide)
	}
	small := eval[[]string](b, `Array.from(document.querySelectorAll("button, select, input, summary, textarea")).filter((e) => e.offsetParent && e.type !== "file").map((e) => {
		const t = e.type === "checkbox" ? e.closest("label") || e : e, r = t.getBoundingClientRect();
		return r.width < 24 || r.height < 24 ? (e.id || e.textContent.trim().slice(0, 20) || e.outerHTML.slice(0, 60)) + " " + Math.round(r.width) + "×" + Math.round(r.height) : "";
	}).filter(Boolean)`)
	if len(small) > 0 {
		t.Errorf("phone: tap targets under 24 px: %v", small)
	}
	b.screenshot("phone-full.png")
	b.axe(src, "phone 390×844")
	b.noConsoleErrors()
}

// TestSchoolManyTasksScreenshot: school's 139 tasks at 1280×800: rows of at
// least 4 px, and every task's row drawn once scrolled through. It writes
// the README's screenshot of the heatmap.
func TestSchoolManyTasksScreenshot(t *testing.T) {
	b := newBrowser(t)
	b.viewport(1280, 800, false)
	b.runDone("#data=school&model=mtfl&sp=1&rho=0.01&lambda0=50&run=1")
	L := eval[struct {
		RowH  float64
		Rows  int
		Group int
	}](b, `(() => { const L = spmtlApp.heatmapLayout(); return {RowH: L.rowH, Rows: L.rows, Group: L.group}; })()`)
	if L.Rows != 139 || L.Group != 1 || L.RowH < 4 {
		t.Errorf("school's heatmap: %+v, want 139 rows of at least 4 px", L)
	}
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("heat-panel").scrollIntoView()`))
	b.shot("school-139.png")
	b.noConsoleErrors()
}
