package e2e

// Tests of the panels that run many fits: the Reproduce view, the Figures
// panel (the λ0 and c sweeps) and tuning.

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// tuneFailed presses Tune and waits for it to fail; it returns the error
// shown beside the button.
func tuneFailed(b *browser) string {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.CSS("#tune")))
	b.waitFor(`spmtlApp.tune().state === "failed" || spmtlApp.tune().state === "done"`, 120*time.Second)
	if st := eval[string](b, `spmtlApp.tune().state`); st != "failed" {
		b.t.Fatalf("tuning ended %q, want failed", st)
	}
	return eval[string](b, `document.getElementById("tune-error").hidden ? "" : document.getElementById("tune-error").textContent`)
}

// TestTuneFailureSaysWhy: when no grid point can be scored the page gives
// the first failure's reason, not only that there is nothing to choose;
// a tuning refused before it starts (the hard τ rule), and loading other
// data, clear the last tuning's grid from the map.
func TestTuneFailureSaysWhy(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	header := []string{"task", "y", "x1", "x2", "x3"}
	b.upload("#file", writeTemp(t, "one-task.csv", ownCSV(header, 1, 30)))
	b.waitFor(`spmtlApp.summary().name === "one-task.csv" && spmtlApp.state() === "idle"`, 20*time.Second)
	msg := tuneFailed(b)
	t.Logf("one task: %s", msg)
	if !strings.Contains(msg, "three tasks") {
		t.Errorf("one task: the tuning error %q does not give the reason (λ0 auto needs three tasks)", msg)
	}

	b.upload("#file", writeTemp(t, "two-rows.csv", ownCSV(header, 3, 2)))
	b.waitFor(`spmtlApp.summary().name === "two-rows.csv" && spmtlApp.state() === "idle"`, 20*time.Second)
	b.do(chromedp.SetValue(chromedp.CSS("#train"), "1"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("train").dispatchEvent(new Event("change"))`))
	msg = tuneFailed(b)
	t.Logf("two rows per task: %s", msg)
	if !strings.Contains(msg, "fewer than 3 rows") {
		t.Errorf("two rows per task: the tuning error %q does not say that a task needs 3 rows (one per fold)", msg)
	}
	if l := eval[string](b, `document.getElementById("tune-map").getAttribute("aria-label")`); !strings.Contains(l, "failed") {
		t.Errorf("the map of a grid whose every point failed says %q", l)
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
	b.upload("#file", writeTemp(t, "one-task.csv", ownCSV(header, 1, 30)))
	b.waitFor(`spmtlApp.summary().name === "one-task.csv" && spmtlApp.state() === "idle"`, 20*time.Second)
	if l := eval[string](b, `document.getElementById("tune-map").getAttribute("aria-label")`); strings.Contains(l, "points") {
		t.Errorf("after loading other data the map still describes the last data's grid: %q", l)
	}
	b.noConsoleErrors()
}
