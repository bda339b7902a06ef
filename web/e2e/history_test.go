package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBackToAFileReadInThisTab: a visitor reads a file of their own, sets
// ρ, then opens a bundled data set by its link. Back to the file's entry
// reads the file again, which the tab still holds, with the entry's
// settings, and leaves the entry as it was. (The page read the entry as a
// link made elsewhere: it showed the default data set, asked for the file,
// and wrote the default's hash over the entry, so that no Back or Forward
// could return to it.) Forward goes to the bundled data set again.
func TestBackToAFileReadInThisTab(t *testing.T) {
	b := newBrowserFor(t, 3*time.Minute)
	b.viewport(1280, 900, false)
	b.openPage(true)
	b.loadGrouped("grouped.csv", groupedCSV(3, 8, 4, 10, false))
	b.waitFor(`/sha256=[0-9a-f]{64}/.test(location.hash)`, 20*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](`(() => { const r = document.getElementById("rho"); r.value = "0.37"; r.dispatchEvent(new Event("change", {bubbles: true})); })()`))
	b.waitFor(`location.hash.includes("rho=0.37")`, 10*time.Second)
	entry := eval[string](b, `location.hash`)

	b.do(chromedp.Evaluate[chromedp.Void](`location.hash = "#data=cs"`))
	b.waitFor(`document.getElementById("preset").value === "cs" && spmtlApp.summary() !== null && spmtlApp.summary().name !== "grouped.csv" && spmtlApp.state() === "idle"`, 30*time.Second)

	b.do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	b.waitFor(`spmtlApp.summary() !== null && spmtlApp.summary().name === "grouped.csv" && spmtlApp.state() === "idle"`, 30*time.Second)
	// The digest is taken again before the hash is written: wait for it.
	time.Sleep(500 * time.Millisecond)
	if h := eval[string](b, `location.hash`); h != entry {
		t.Errorf("back at the file's entry the hash is %q, want the entry as it was, %q", h, entry)
	}
	if rho := eval[string](b, `document.getElementById("rho").value`); rho != "0.37" {
		t.Errorf("back at the file's entry ρ is %q, want the entry's 0.37", rho)
	}
	if notes := eval[string](b, `["link-note", "own-link"].filter((id) => !document.getElementById(id).hidden).map((id) => document.getElementById(id).textContent).join(" | ")`); notes != "" {
		t.Errorf("back at the file's entry the page shows %q, as for a link made elsewhere", notes)
	}
	if n := eval[int](b, `spmtlApp.summary().tasks.length`); n != 8 {
		t.Errorf("the file read again has %d tasks, want 8", n)
	}

	b.do(chromedp.Evaluate[chromedp.Void](`history.forward()`))
	b.waitFor(`document.getElementById("preset").value === "cs" && spmtlApp.summary() !== null && spmtlApp.summary().name !== "grouped.csv" && spmtlApp.state() === "idle"`, 30*time.Second)
	b.noConsoleErrors()
}
