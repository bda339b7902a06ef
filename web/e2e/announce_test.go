package e2e

// What a screen reader is asked to read during a run: the live regions.

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// watchLiveRegions records, from now on, every change of text of every
// live region of the page (aria-live other than off, or a role that is
// one) and of the run bar's visible status line.
const watchLiveRegions = `(() => {
	window.__live = [];
	const watch = (el, live) => {
		const rec = {id: el.id || el.className, live, texts: []};
		let last = el.textContent;
		new MutationObserver(() => {
			if (el.textContent !== last) { last = el.textContent; rec.texts.push(last); }
		}).observe(el, {childList: true, subtree: true, characterData: true});
		window.__live.push(rec);
	};
	const live = document.querySelectorAll('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]');
	live.forEach((el) => watch(el, true));
	if (!Array.from(live).includes(document.getElementById("status"))) watch(document.getElementById("status"), false);
})()`

type liveRecord struct {
	ID    string
	Live  bool
	Texts []string
}

// TestRunStatusAnnouncesStatesNotIterations: the status line shows every
// iteration, but a screen reader hears the run's state changes only
// (started, a Step answered, done), not each iteration: no live region
// changes at every iteration.
func TestRunStatusAnnouncesStatesNotIterations(t *testing.T) {
	b := newBrowser(t)
	b.do(chromedp.Navigate(b.base + "/#data=school&model=mtfl&sp=1"))
	b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.summary().name === "school/data.csv" && spmtlApp.state() === "idle"`, 60*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](watchLiveRegions))
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 90*time.Second)
	time.Sleep(300 * time.Millisecond) // whatever the end writes
	iters := eval[int](b, `spmtlApp.snapshots().length`)
	if iters < 10 {
		t.Fatalf("school's run took %d iterations: too few to tell announcements from progress", iters)
	}
	recs := eval[[]liveRecord](b, `window.__live`)
	var statusLive []string
	for _, r := range recs {
		switch {
		case r.ID == "status":
			// What sighted visitors see is as before: every iteration.
			if r.Live {
				t.Errorf("the status line, which changes at every iteration, is a live region")
			}
			if len(r.Texts) < iters {
				t.Errorf("the status line changed %d times in a run of %d iterations: it no longer shows the progress", len(r.Texts), iters)
			}
		case r.Live && len(r.Texts) > 4:
			t.Errorf("the live region %q changed %d times in a run of %d iterations (a screen reader reads each): %.300q", r.ID, len(r.Texts), iters, r.Texts)
		}
		if r.ID == "status-live" {
			statusLive = r.Texts
		}
	}
	if len(statusLive) < 2 || !strings.HasSuffix(statusLive[0], "· running") || !strings.HasSuffix(statusLive[len(statusLive)-1], "· done") {
		t.Errorf("the run's states as announced: %q, want it started (running) and then done", statusLive)
	}
	// A Step is a state change of its own: it is announced, with where the run is.
	b.do(chromedp.Click(chromedp.CSS("#reset")))
	b.waitFor(`spmtlApp.state() === "idle"`, 10*time.Second)
	b.do(chromedp.Click(chromedp.CSS("#step")))
	b.waitFor(`spmtlApp.state() === "paused" && spmtlApp.snapshots().length === 1`, 30*time.Second)
	b.waitFor(`/^iteration 1 .*· paused$/.test(document.getElementById("status-live").textContent)`, 5*time.Second)
	b.noConsoleErrors()
}
