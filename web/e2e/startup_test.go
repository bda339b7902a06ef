package e2e

// The page's start-up order (docs/bench.md, "Fourth round: start-up"): what
// a link with run=1 asks of its learner, and in which order, checked as
// the page's messages, never as times.

import (
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// logWorkerMessages makes every new document keep, in window.__workerLog,
// the requests its page sends to workers ("sent TYPE #ID") and the answers
// that come back ("answered #ID"), in the order the page's thread saw them.
func (b *browser) logWorkerMessages() {
	b.t.Helper()
	const src = `window.__workerLog = [];
(() => {
  const log = window.__workerLog, post = Worker.prototype.postMessage, W = window.Worker;
  Worker.prototype.postMessage = function (m, ...rest) {
    if (m && typeof m.type === "string") log.push("sent " + m.type + " #" + m.id);
    return post.call(this, m, ...rest);
  };
  window.Worker = class extends W {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => { if (e.data && e.data.id !== undefined) log.push("answered #" + e.data.id); });
    }
  };
})();`
	b.onEveryDocument(src, "watch the worker messages")
}

// TestStartupOrder: a link with run=1 on a bundled data set asks its
// learner for the run right behind the data set, before the data set's
// answer has reached the page (the worker trains as soon as it has read
// it), and never asks it for the catalogue, which comes with the build
// (catalog.json). The run is the one the link names: the same τ, iteration
// by iteration, as Play trains from the same link without run=1.
func TestStartupOrder(t *testing.T) {
	const link = "/#data=landmine&model=mtfl&sp=1&maxIter=6"
	b := newBrowser(t)
	b.logWorkerMessages()
	b.do(chromedp.Navigate(b.base + link + "&run=1"))
	b.waitFor(`window.spmtlApp && spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	log := eval[[]string](b, `window.__workerLog`)
	at := func(prefix string) (int, string) {
		for i, s := range log {
			if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
				return i, s
			}
		}
		return -1, ""
	}
	loadAt, load := at("sent load #")
	startAt, _ := at("sent start #")
	if loadAt < 0 || startAt < 0 {
		t.Fatalf("the page did not send both a load and a start: %v", log)
	}
	answered := slices.Index(log, "answered #"+load[len("sent load #"):])
	if answered < 0 || startAt > answered {
		t.Errorf("the run was asked for after the data set's answer reached the page (load sent at %d, answered at %d, start sent at %d): %v", loadAt, answered, startAt, log)
	}
	if i, s := at("sent catalog"); i >= 0 {
		t.Errorf("the page asked the learner for the catalogue (%s) although the build wrote catalog.json: %v", s, log)
	}
	early := eval[[][]float64](b, `spmtlApp.tauHistory()`)

	// The same link played by hand, in a fresh browser.
	p := newBrowser(t)
	p.do(chromedp.Navigate(p.base + link))
	p.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.state() === "idle"`, 60*time.Second)
	p.do(chromedp.Click(chromedp.CSS("#play")))
	p.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	played := eval[[][]float64](p, `spmtlApp.tauHistory()`)
	if len(early) == 0 || len(early) != len(played) {
		t.Fatalf("run=1 trained %d iterations, Play %d", len(early), len(played))
	}
	for k := range early {
		if !slices.Equal(early[k], played[k]) {
			t.Fatalf("iteration %d: run=1's τ %v, Play's %v", k+1, early[k], played[k])
		}
	}
}

// TestStartupDrawsTheRunFirst: until a run=1 link's first τ column, the
// page draws no chart but the τ heatmap and its key (the others wait:
// chart-kit.js holdCharts), and lays out the panels below the run's views
// only near the screen (html.starting); afterwards every chart is drawn and
// the page is whole. A preset's columns, in their closed box, are listed
// when the box is opened. A link that trains nothing is whole once its data
// set is shown.
func TestStartupDrawsTheRunFirst(t *testing.T) {
	b := newBrowser(t)
	// Which canvases were drawn on (a 2D context asked for), and which of
	// them before the first snapshot reached the page.
	const src = `window.__drawnEarly = new Set(); window.__drawn = new Set();
(() => {
  const get = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (...args) {
    window.__drawn.add(this.id || "(no id)");
    if (performance.getEntriesByName("spmtl:snapshot").length === 0) window.__drawnEarly.add(this.id || "(no id)");
    return get.apply(this, args);
  };
})();`
	b.onEveryDocument(src, "watch the canvases")
	b.do(chromedp.Navigate(b.base + "/#data=landmine&model=mtfl&sp=1&maxIter=4&run=1"))
	b.waitFor(`window.spmtlApp && spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	early := eval[[]string](b, `[...window.__drawnEarly].sort()`)
	for _, id := range early {
		if id != "heatmap" && id != "legend" {
			t.Errorf("the %s chart was drawn before the first τ column (drawn then: %v)", id, early)
		}
	}
	b.waitFor(`!document.documentElement.classList.contains("starting")`, 10*time.Second)
	// Every chart drawn since.
	for _, id := range []string{"curves", "scatter-base", "scatter-itl", "tune-map", "sweep-objective", "sweep-test"} {
		b.waitFor(`window.__drawn.has("`+id+`")`, 10*time.Second)
	}
	rows := `document.querySelectorAll("#columns tbody tr:not(.spacer)").length`
	if n := eval[int](b, rows); n != 0 {
		t.Errorf("the closed box lists %d columns before it is opened", n)
	}
	b.do(chromedp.Click(chromedp.CSS("#columns-box > summary")))
	b.waitFor(rows+` === Number(document.getElementById("columns").getAttribute("aria-rowcount")) - 1`, 10*time.Second)
	if n := eval[int](b, rows); n != 11 {
		t.Errorf("the opened box lists %d of landmine's 11 columns", n)
	}

	p := newBrowser(t)
	p.do(chromedp.Navigate(p.base + "/#data=school"))
	p.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.state() === "idle"`, 60*time.Second)
	p.waitFor(`!document.documentElement.classList.contains("starting")`, 2*time.Second)
}
