package e2e

// Tests of the page's one state machine for a run (app.js runMoves): Play
// pauses a running run and resumes a paused one, Step takes one step of a
// paused run, and nothing of a paused run is drawn until it plays again.

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestPauseStepResume: a run paused mid-way draws no further step (the
// last one on its way arrives before the pause is answered), Step adds
// exactly one, Play resumes it, and Reset clears it. The buttons and the
// status line follow the state each time.
func TestPauseStepResume(t *testing.T) {
	b := newBrowser(t)
	// A slow pace and a high cap keep sentiment's run going for many steps.
	b.do(chromedp.Navigate(b.base + "/#data=sentiment&model=mtfl&sp=1&c=1.001&maxIter=300&run=1"))
	b.waitFor(`window.spmtlApp && spmtlApp.state() === "running" && spmtlApp.snapshots().length >= 2`, 60*time.Second)
	if s := eval[string](b, `document.getElementById("play").textContent`); s != "❚❚ Pause" {
		t.Errorf("the Play button of a running run reads %q, want Pause", s)
	}

	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "paused"`, 30*time.Second)
	n := eval[int](b, `spmtlApp.snapshots().length`)
	time.Sleep(time.Second) // steps of a loop still going would have arrived
	if m := eval[int](b, `spmtlApp.snapshots().length`); m != n {
		t.Fatalf("a paused run drew %d more steps", m-n)
	}
	if p, s := eval[string](b, `document.getElementById("play").textContent`), eval[string](b, `document.getElementById("status").textContent`); p != "▶ Play" || !strings.HasPrefix(s, "iteration "+strconv.Itoa(n)+" / 300 ") || !strings.HasSuffix(s, "· paused") {
		t.Errorf("paused after %d steps: button %q, status %q; want Play and the iteration, paused", n, p, s)
	}

	// Step answers after its snapshot: once it is in, a loop still
	// running would have drawn more than this one step.
	b.do(chromedp.Click(chromedp.CSS("#step")))
	b.waitFor(`spmtlApp.snapshots().length > `+strconv.Itoa(n), 30*time.Second)
	b.do(chromedp.Click(chromedp.CSS("#step")))
	b.waitFor(`spmtlApp.snapshots().length > `+strconv.Itoa(n+1), 30*time.Second)
	if m, st := eval[int](b, `spmtlApp.snapshots().length`), eval[string](b, `spmtlApp.state()`); m != n+2 || st != "paused" {
		t.Errorf("two Steps of a run paused at %d steps: %d steps, state %q; want %d and paused", n, m, st, n+2)
	}

	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "running" && spmtlApp.snapshots().length > `+strconv.Itoa(n+3), 60*time.Second)
	if iters := eval[[]int](b, `spmtlApp.snapshots().map((s) => s.iter)`); !consecutive(iters) {
		t.Errorf("the resumed run's iterations are not 1, 2, 3, ...: %v", iters)
	}

	b.do(chromedp.Click(chromedp.CSS("#reset")))
	b.waitFor(`spmtlApp.state() === "idle"`, 10*time.Second)
	if s := eval[string](b, `document.getElementById("status").textContent`); s != "iteration 0   · ready" {
		t.Errorf("status %q after Reset, want iteration 0 and ready", s)
	}
	b.noConsoleErrors()
}

// consecutive reports whether v is 1, 2, 3, ...
func consecutive(v []int) bool {
	for i, x := range v {
		if x != i+1 {
			return false
		}
	}
	return true
}

// TestSupersededLoadDropped: a data set chosen while another is still on
// its way makes the earlier one stale. The page shows only the last one
// chosen, and Play, pressed as soon as the page is ready, trains on it to
// the end. (The earlier one used to be shown when it arrived; a run started
// on it was cleared when the last one arrived, and the page waited on that
// run for good: TestCorpusDeepJSON's double preset change hit it in CI.)
func TestSupersededLoadDropped(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	b.do(chromedp.Evaluate[chromedp.Void](`(() => {
  const p = document.getElementById("preset");
  for (const name of ["cs", "school"]) { p.value = name; p.dispatchEvent(new Event("change")); }
})()`))
	b.waitFor(`spmtlApp.state() === "idle" && !spmtlApp.summary().name.startsWith("landmine")`, 60*time.Second)
	if name := eval[string](b, `spmtlApp.summary().name`); !strings.HasPrefix(name, "school") {
		t.Fatalf("the page is ready with %s while school, chosen after it, is still on its way", name)
	}
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 90*time.Second)
	if run, shown := eval[int](b, `spmtlApp.runInfo().tasks.length`), eval[int](b, `spmtlApp.summary().tasks.length`); run != shown {
		t.Errorf("the run has %d tasks, the data set shown %d", run, shown)
	}
	b.noConsoleErrors()
}
