package e2e

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The learner cannot be lost (issue 34): a fit over the memory budget is
// refused before it starts, and a learner whose Go program dies is
// replaced, given its data set again, and says so where it died.

// wideSparse is the file: tasks tasks of two rows in the sparse
// format, one row of each with a value at feature 2,097,152.
func wideSparse(tasks int) string {
	var b strings.Builder
	for t := 0; t < tasks; t++ {
		fmt.Fprintf(&b, "t%d %d 1:%d 3:1\n", t, t%2, 1+t%7)
		fmt.Fprintf(&b, "t%d %d 2:1 2097152:0.5\n", t, (t+1)%2)
	}
	return b.String()
}

// runError is the text beside Play.
const runError = `document.getElementById("run-error").hidden ? "" : document.getElementById("run-error").textContent`

// choosePreset loads a bundled data set from the preset menu and waits for it.
func (b *browser) choosePreset(name string) {
	b.t.Helper()
	b.do(chromedp.SetValue(chromedp.CSS("#preset"), name),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("preset").dispatchEvent(new Event("change"))`))
	b.waitFor(fmt.Sprintf(`spmtlApp.summary() && spmtlApp.summary().name.startsWith(%q) && spmtlApp.state() === "idle"`, name), 30*time.Second)
}

// TestWideSparseRefusedWithNumbers: the 500 tasks with a feature
// at index 2,097,152 load, and Play is refused with the fit's memory, the
// budget and the remedy; the learner is alive (no restart) and trains the
// next data set.
func TestWideSparseRefusedWithNumbers(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	p := writeTemp(t, "wide.svm", wideSparse(500))
	b.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{p}))
	b.waitFor(`spmtlApp.summary().name === "wide.svm" && spmtlApp.state() === "idle"`, 30*time.Second)
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "failed"`, 30*time.Second)
	msg := eval[string](b, runError)
	for _, want := range []string{"this fit needs about 8.5 GB (500 tasks × 2,097,152 features, dense weights)", "the learner's budget is 1 GB", "Remedy: fewer features"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal %q does not say %q", msg, want)
		}
	}
	if n := eval[int](b, `spmtlApp.restarts()`); n != 0 {
		t.Errorf("the learner was restarted %d times; a refusal keeps it", n)
	}
	b.choosePreset("landmine")
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	b.noConsoleErrors()
}

// spanHeavy is a sparse file of 4 tasks × rows rows with three values each
// among 10,000 features: trained on most of its rows, its span form
// (docs/algorithms.md §11) holds matrices of the training rows squared,
// within the memory budget; trained on a few, it is small.
func spanHeavy(rows int) string {
	r := rand.New(rand.NewSource(34))
	var b strings.Builder
	for t := 0; t < 4; t++ {
		for i := 0; i < rows; i++ {
			a := 1 + r.Intn(3300)
			c := a + 1 + r.Intn(3300)
			e := c + 1 + r.Intn(3300)
			fmt.Fprintf(&b, "t%d %.3f %d:%.3f %d:%.3f %d:%.3f\n", t, r.NormFloat64(), a, r.NormFloat64(), c, r.NormFloat64(), e, r.NormFloat64())
		}
	}
	return b.String()
}

// TestDeadLearnerRestarts: in a browser whose wasm memory is capped (V8's
// --wasm-max-mem-pages: 80 MB, room for the page and a small fit), a fit
// within the budget still runs Go out of memory, as a larger one would in
// any browser: a real fatal error of the Go program. The run ends failed
// with what happened; the page has started another learner, read the file
// into it again and says so; the next Play on the same data (fewer
// training rows) trains. Tuning, whose pool reads every row, fails with
// the same cause and leaves the page's learner working.
func TestDeadLearnerRestarts(t *testing.T) {
	b := newBrowserFor(t, 180*time.Second, chromedp.Flag("js-flags", "--wasm-max-mem-pages=1280"))
	b.openPage(true)
	p := writeTemp(t, "heavy.svm", spanHeavy(600))
	b.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{p}))
	b.waitFor(`spmtlApp.summary().name === "heavy.svm" && spmtlApp.state() === "idle"`, 30*time.Second)
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "failed" && spmtlApp.restarts() === 1`, 60*time.Second)
	msg := eval[string](b, runError)
	for _, want := range []string{"The learner ran out of memory fitting this model and was restarted; your data (heavy.svm) is loaded again.", "Remedy: "} {
		if !strings.Contains(msg, want) {
			t.Errorf("after the learner died, Play's error %q does not say %q", msg, want)
		}
	}
	if name := eval[string](b, `spmtlApp.summary().name`); name != "heavy.svm" {
		t.Errorf("the data set after the restart is %q, want heavy.svm", name)
	}
	// The next Play, on fewer training rows, trains on the data read into
	// the new learner.
	b.do(chromedp.SetValue(chromedp.CSS("#train"), "0.1"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("train").dispatchEvent(new Event("change"))`),
		chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	if n := eval[int](b, `spmtlApp.restarts()`); n != 1 {
		t.Errorf("the learner was restarted %d times, want 1", n)
	}
	if msg := eval[string](b, runError); msg != "" {
		t.Errorf("after a run that trained, Play's error still says %q", msg)
	}
	// Tuning's pool reads all the rows again and dies as well: the tuning
	// fails with what happened, and the page's learner goes on.
	b.do(chromedp.Click(chromedp.CSS("#tune")))
	b.waitFor(`document.getElementById("tune-status").textContent === "failed"`, 90*time.Second)
	if msg := eval[string](b, `document.getElementById("tune-error").textContent`); !strings.Contains(msg, "The learner ran out of memory tuning; it was stopped. Remedy: ") {
		t.Errorf("tuning's error %q does not say that its learner ran out of memory", msg)
	}
	b.do(chromedp.Evaluate[chromedp.Void](`window.lastResults = spmtlApp.results()`), chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null && spmtlApp.results() !== window.lastResults`, 60*time.Second)
	if n := eval[int](b, `spmtlApp.restarts()`); n != 1 {
		t.Errorf("after tuning failed the page's learner was restarted %d times, want 1", n)
	}
	b.noConsoleErrors()
}

// TestWorkerThatNeverStartsIsReplaced: the page's first worker runs a
// script that never answers (as Chromium's worker did, now and then, in an
// embedded page: its first line never ran, and the page stayed "loading"
// for good). After client.js's START_WAIT another worker is asked what the
// first was asked: the data set loads, a run trains, and the page counts
// one worker that never started and no learner that died.
func TestWorkerThatNeverStartsIsReplaced(t *testing.T) {
	b := newBrowser(t)
	const silent = `(() => {
  const W = window.Worker;
  window.Worker = class extends W {
    constructor(url, opts) { super(opts && opts.name === "spmtl-first" ? "wasm_exec.js" : url, opts); }
  };
})();`
	b.onEveryDocument(silent, "replace the first worker")
	b.do(chromedp.Navigate(b.base + "/#data=landmine&model=mtfl&sp=1&maxIter=3&run=1"))
	b.waitFor(`window.spmtlApp && spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	if n := eval[int](b, `spmtlApp.unstarted()`); n != 1 {
		t.Errorf("%d workers never started, want 1", n)
	}
	if n := eval[int](b, `spmtlApp.restarts()`); n != 0 {
		t.Errorf("%d learners died, want none", n)
	}
	b.noConsoleErrors()
}
