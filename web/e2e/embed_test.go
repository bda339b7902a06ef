package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// embedHost opens the module example as a host page with the embedded
// learner in an iframe at index.html#hash; every message the learner posts
// goes into window.__heard, and onReady (JavaScript, with e the ready
// message's event) runs when the learner says spmtl:ready.
func (b *browser) embedHost(hash, onReady string) {
	b.t.Helper()
	b.do(chromedp.Navigate(b.base + "/examples/module.html"))
	b.do(chromedp.Evaluate[chromedp.Void](`(() => {
		window.__heard = [];
		const f = document.createElement("iframe");
		f.src = "../index.html#` + hash + `";
		document.body.appendChild(f);
		window.addEventListener("message", (e) => {
			if (e.source !== f.contentWindow || !e.data) return;
			window.__heard.push(e.data);
			if (e.data.type === "spmtl:ready") {
` + onReady + `
			}
		});
	})()`))
}

// TestEmbedRefusesKeysItDoesNotApply: spmtl:set refuses, with spmtl:error
// naming it, a key the page does not apply (a column role, a name that is
// no setting), and then applies none of that message's settings; a key it
// applies (λ0 as text) reaches the learner, whose configuration comes
// back with the results.
func TestEmbedRefusesKeysItDoesNotApply(t *testing.T) {
	b := newBrowser(t)
	b.embedHost("embed=1&data=landmine", `
		e.source.postMessage({ type: "spmtl:set", settings: { drop: "x1" } }, "*");
		e.source.postMessage({ type: "spmtl:set", settings: { rho: "0.5", nope: "1" } }, "*");
		e.source.postMessage({ type: "spmtl:set", settings: { lambda0: "auto*0.5", maxIter: "2" } }, "*");
		e.source.postMessage({ type: "spmtl:run" }, "*");
`)
	b.waitFor(`window.__heard.some((m) => m.type === "spmtl:results")`, 60*time.Second)
	type message struct {
		Type     string            `json:"type"`
		Message  string            `json:"message"`
		Keys     []string          `json:"keys"`
		Settings map[string]string `json:"settings"`
		Config   map[string]any    `json:"config"`
	}
	heard := eval[[]message](b, `window.__heard.filter((m) => m.type !== "spmtl:snapshot")`)
	var errs, set []message
	var res message
	for _, m := range heard {
		switch m.Type {
		case "spmtl:error":
			errs = append(errs, m)
		case "spmtl:settings":
			set = append(set, m)
		case "spmtl:results":
			res = m
		}
	}
	if len(errs) != 2 || !slices.Equal(errs[0].Keys, []string{"drop"}) || !strings.Contains(errs[0].Message, `"drop"`) ||
		!slices.Equal(errs[1].Keys, []string{"nope"}) || !strings.Contains(errs[1].Message, `"nope"`) {
		t.Fatalf("the host heard the errors %+v, want one naming drop and one naming nope", errs)
	}
	// Only the third message was applied: ρ stays landmine's.
	if len(set) != 1 || set[0].Settings["rho"] != "0.01" || set[0].Settings["lambda0"] != "auto*0.5" || set[0].Settings["maxIter"] != "2" {
		t.Errorf("the host heard the settings %+v, want one message: ρ 0.01, λ0 auto*0.5, max iterations 2", set)
	}
	if res.Config["autoLambda0"] != 0.5 || res.Config["rho"] != 0.01 || res.Config["maxIter"] != 2.0 {
		t.Errorf("the results' configuration %v, want autoLambda0 0.5, rho 0.01, maxIter 2", res.Config)
	}
	b.noConsoleErrors()
}
