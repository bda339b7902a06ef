package e2e

// Tests of what the Figures panel says of itself: why Run sweep is off,
// a key with more curves than it has room for, values given twice, and
// the text alternative's counts.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// sweepWhy is the Figures panel's visible reason why Run sweep is off
// ("" when it is hidden or takes no room on screen).
const sweepWhy = `(() => { const e = document.getElementById("sweep-why");
	return e && !e.hidden && e.getBoundingClientRect().height > 0 ? e.textContent : ""; })()`

// TestSweepSaysWhyItIsOff: with a model that has no self-paced version,
// Run sweep is off and the panel says why in visible text (not only in the
// disabled button's title, which no keyboard, touch screen or screen
// reader in browse mode reaches), and the charts say it in place of
// "press Run sweep". The reason follows the model however it changes: a
// link, the menu, an edited hash.
func TestSweepSaysWhyItIsOff(t *testing.T) {
	b := newBrowser(t)
	b.viewport(1280, 800, false)
	b.do(chromedp.Navigate(b.base + "/#data=landmine&model=itl"))
	b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.state() === "idle"`, 60*time.Second)
	disabled := func() bool { return eval[bool](b, `document.getElementById("sweep-run").disabled`) }
	// off checks that Run sweep is off, and said to be, for the model named.
	off := func(where, label string) {
		t.Helper()
		if !disabled() {
			t.Errorf("%s: Run sweep is enabled for %s, which has no self-paced version", where, label)
		}
		why := eval[string](b, sweepWhy)
		if !strings.Contains(why, label+" has no self-paced version") {
			t.Errorf("%s: the panel's visible reason is %q, want it to say that %s has no self-paced version", where, why, label)
		}
		for _, id := range []string{"sweep-objective", "sweep-test"} {
			for _, vp := range phoneAndDesktop {
				b.viewport(vp.w, vp.h, vp.mobile)
				d := canvasDrawing(b, id)
				drawn := drawnTexts(d)
				at := fmt.Sprintf("%s, %s at %d px", where, id, vp.w)
				if strings.Contains(drawn, "press") || strings.Contains(d.Label, "press") {
					t.Errorf("%s: the chart asks to press a button that is off: %q (text alternative %q)", at, drawn, d.Label)
				}
				if !strings.Contains(strings.Join(strings.Fields(drawn), " "), label+" has no") || !strings.Contains(d.Label, label+" has no self-paced version") {
					t.Errorf("%s: the chart %q (text alternative %q) does not say why there is no sweep", at, drawn, d.Label)
				}
				insideCanvas(t, d, at)
			}
		}
		b.viewport(1280, 800, false)
	}
	off("a link with model=itl", "ITL")
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("figures-panel").scrollIntoView()`))
	b.shot("sweep-off-itl.png")
	b.axe(axeSource(t), "Run sweep off for ITL")

	// An edited hash: the reason names the new model, not the last.
	b.do(chromedp.Evaluate[chromedp.Void](`location.hash = "#data=landmine&model=cl"`))
	b.waitFor(`document.getElementById("model").value === "cl"`, 10*time.Second)
	off("the hash edited to model=cl", "CL")
	if why := eval[string](b, sweepWhy); strings.Contains(why, "ITL") {
		t.Errorf("after the hash named CL the reason still names ITL: %q", why)
	}

	// The menu: a self-paced model turns the sweep on and the reason off.
	b.setField("model", "mtfl")
	if disabled() {
		t.Error("Run sweep is off for MTFL, which has a self-paced version")
	}
	if why := eval[string](b, sweepWhy); why != "" {
		t.Errorf("Run sweep is on for MTFL, and the panel still says %q", why)
	}
	if d := canvasDrawing(b, "sweep-objective"); !strings.Contains(drawnTexts(d), "Run sweep") {
		t.Errorf("Run sweep is on, and the empty chart does not invite to press it: %q", drawnTexts(d))
	}
	b.setField("model", "itl")
	off("the menu back to ITL", "ITL")
	b.noConsoleErrors()
}

// TestSweepKeySaysWhatItLeavesOut: a sweep of 60 values draws a key that
// lists the curves it has room for and says how many more there are, at
// 1280 and 390 px and in the SVG copy; past the palette's colours a curve
// differs by dash. Values given three times run once, and are said so,
// not explained as values that make no difference; a single run's text
// alternative says "1 run".
func TestSweepKeySaysWhatItLeavesOut(t *testing.T) {
	b := newBrowser(t)
	b.viewport(1280, 800, false)
	b.do(chromedp.Navigate(b.base + "/#data=landmine&model=mtfl&sp=1&maxIter=3"))
	b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.state() === "idle"`, 60*time.Second)
	var values []string
	for k := 1; k <= 60; k++ {
		values = append(values, strconv.FormatFloat(float64(k)/10, 'f', -1, 64))
	}
	sweepDone(b, strings.Join(values, ","))
	if n := eval[int](b, `spmtlApp.sweep().series.length`); n != 60 {
		t.Fatalf("a sweep of 60 values drew %d curves", n)
	}
	more := regexp.MustCompile(`^and (\d+) more$`)
	entry := regexp.MustCompile(`^λ0 = [0-9.]+$`) // a key's entry (a note's line may start "λ0 = " too)
	for _, vp := range phoneAndDesktop {
		b.viewport(vp.w, vp.h, vp.mobile)
		for _, id := range []string{"sweep-objective", "sweep-test"} {
			d := canvasDrawing(b, id)
			where := fmt.Sprintf("%s at %d px", id, vp.w)
			insideCanvas(t, d, where)
			listed, left := 0, -1
			for _, x := range d.Texts {
				if entry.MatchString(x.Text) {
					listed++
				}
				if m := more.FindStringSubmatch(x.Text); m != nil {
					left, _ = strconv.Atoi(m[1])
				}
			}
			if left < 0 {
				t.Errorf("%s: the key lists %d of the 60 curves and does not say how many more there are: %q", where, listed, drawnTexts(d))
			} else if listed+left != 60 {
				t.Errorf("%s: the key lists %d curves and says \"and %d more\": %d, not 60", where, listed, left, listed+left)
			}
			if !strings.Contains(d.Label, "60 runs") {
				t.Errorf("%s: the text alternative %.200q does not count the 60 runs", where, d.Label)
			}
		}
		b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("figures-panel").scrollIntoView()`))
		b.shot(fmt.Sprintf("sweep-60-%d.png", vp.w))
	}
	b.viewport(1280, 800, false)
	svg := eval[string](b, `spmtlApp.sweep().svg`)
	if !regexp.MustCompile(`>and \d+ more<`).MatchString(svg) {
		t.Errorf("the SVG copy's key does not say how many curves it leaves out")
	}
	// The palette has 8 colours: the 9th curve has the 1st one's colour and
	// another dash.
	paths := regexp.MustCompile(`<path d="[^"]*" fill="none" stroke="([^"]+)" stroke-width="2"( stroke-dasharray="[^"]+")?>`).FindAllStringSubmatch(svg, -1)
	if len(paths) != 60 {
		t.Fatalf("the SVG copy has %d curves, want 60", len(paths))
	}
	if paths[0][1] == paths[8][1] && paths[0][2] == paths[8][2] {
		t.Errorf("the 1st and 9th curves are drawn alike (%q%s): the key cannot tell them apart", paths[0][1], paths[0][2])
	}

	// One value given three times: one run, said so.
	sweepDone(b, "1,1,1")
	if n := eval[int](b, `spmtlApp.sweep().series.length`); n != 1 {
		t.Errorf("\"1,1,1\" drew %d curves, want one (the same value three times)", n)
	}
	note := eval[string](b, `document.getElementById("sweep-note").hidden ? "" : document.getElementById("sweep-note").textContent`)
	if strings.Contains(note, "make no difference") || !strings.Contains(note, "more than once") {
		t.Errorf("\"1,1,1\": the note reads %q, want it to say the value was given more than once (not that λ0 makes no difference)", note)
	}
	// A sweep of one value, given once.
	sweepDone(b, "auto")
	label := eval[string](b, `document.getElementById("sweep-objective").getAttribute("aria-label")`)
	if strings.Contains(label, "1 runs") || !strings.Contains(label, "1 run,") {
		t.Errorf("a sweep of one value: the text alternative reads %.120q, want \"1 run,\"", label)
	}
	b.noConsoleErrors()
}
