package e2e

// Tests of a run's life in the page beside the data it trains on: another
// data set chosen while a run goes on ends that run, and a run that failed
// is not resumed.

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestLoadingOtherDataEndsTheRun: Reset, or choosing another data set,
// while a run is going ends the run. Nothing it computed after that is
// drawn (on the new data set), the page throws nothing, the status says
// the data set is ready, and Play then trains it.
func TestLoadingOtherDataEndsTheRun(t *testing.T) {
	b := newBrowser(t)
	// A slow pace and a high cap keep sentiment's run going for many steps.
	b.do(chromedp.Navigate(b.base + "/#data=sentiment&model=mtfl&sp=1&c=1.001&maxIter=300&run=1"))
	b.waitFor(`window.spmtlApp && spmtlApp.state() === "running" && spmtlApp.snapshots().length >= 2`, 60*time.Second)
	b.do(chromedp.Click(chromedp.CSS("#reset")))
	time.Sleep(time.Second) // steps of the run on their way would have arrived
	if n := eval[int](b, `spmtlApp.snapshots().length`); n != 0 {
		t.Errorf("%d snapshots on screen after Reset mid-run, want none", n)
	}
	if s := eval[string](b, `document.getElementById("status").textContent`); s != "iteration 0   · ready" {
		t.Errorf("status %q after Reset mid-run, want iteration 0 and ready", s)
	}
	b.noConsoleErrors()

	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "running" && spmtlApp.snapshots().length >= 2`, 60*time.Second)
	b.do(chromedp.SetValue(chromedp.CSS("#preset"), "cs"))
	b.waitFor(`spmtlApp.summary().name === "cs/data.csv" && spmtlApp.state() === "idle"`, 30*time.Second)
	// Steps of the old run that were on their way when cs was chosen would
	// have arrived by now.
	time.Sleep(time.Second)
	if n := eval[int](b, `spmtlApp.snapshots().length`); n != 0 {
		t.Errorf("%d snapshots on screen after cs was chosen mid-run, want none (the sentiment run's)", n)
	}
	if st := eval[string](b, `spmtlApp.state()`); st != "idle" {
		t.Errorf("state %q after cs was chosen mid-run, want idle", st)
	}
	if s := eval[string](b, `document.getElementById("status").textContent`); s != "iteration 0   · ready" {
		t.Errorf("status %q after cs was chosen mid-run, want iteration 0 and ready", s)
	}
	b.noConsoleErrors()

	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	tasks := eval[int](b, `spmtlApp.summary().tasks.length`)
	if n := eval[int](b, `spmtlApp.runInfo().tasks.length`); n != tasks {
		t.Errorf("the run after cs was chosen has %d tasks, want cs's %d", n, tasks)
	}
	if n := eval[int](b, `spmtlApp.snapshots()[0].tau.length`); n != tasks {
		t.Errorf("the first τ column has %d entries, want cs's %d tasks", n, tasks)
	}
	b.noConsoleErrors()
}

// TestPlayAfterAFailedStepStartsAnew: a run that fails at its first step
// (here λ0 auto, where every task's cost is 0: each task's one training
// row is fitted exactly) is not resumed. After the visitor gives λ0 the
// number the message asks for, Play trains a new run with it.
func TestPlayAfterAFailedStepStartsAnew(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	b.upload("#file", writeTemp(t, "pairs.csv", "task,y,x1\na,1,0.5\na,2,1.5\nb,0,2\nb,3,1\nc,5,0\nc,1,1\n"))
	b.waitFor(`spmtlApp.summary().name === "pairs.csv" && spmtlApp.state() === "idle"`, 20*time.Second)
	b.do(chromedp.SetValue(chromedp.CSS("#train"), "1"))
	b.do(chromedp.Click(chromedp.CSS("#step")))
	b.waitFor(`document.getElementById("lambda0").getAttribute("aria-invalid") === "true"`, 20*time.Second)
	if st := eval[string](b, `spmtlApp.state()`); st != "failed" {
		t.Errorf("state %q after the failed step, want failed", st)
	}
	b.do(chromedp.SetValue(chromedp.CSS("#lambda0"), "1"))
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" || spmtlApp.state() === "failed"`, 30*time.Second)
	if st := eval[string](b, `spmtlApp.state()`); st != "done" {
		t.Fatalf("Play after λ0 = 1 ended %q (%q), want a finished run", st, eval[string](b, `JSON.stringify(spmtlApp.errors())`))
	}
	if l := eval[float64](b, `spmtlApp.runInfo().config.lambda0`); l != 1 {
		t.Errorf("the run after the fix has λ0 = %v, want 1", l)
	}
	if n := eval[int](b, `Object.keys(spmtlApp.errors()).length`); n != 0 {
		t.Errorf("errors still shown after the run: %s", eval[string](b, `JSON.stringify(spmtlApp.errors())`))
	}
	b.noConsoleErrors()
}
