package e2e

// Task names written right to left, or holding bidi controls, among the
// page's sentences.

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// rawBidi matches the explicit bidi controls that the page must not show as
// they are (it writes them escaped, "\u202e"); the isolates U+2068 and
// U+2069 are the page's own, around a name in a sentence.
var rawBidi = regexp.MustCompile("[\u202A-\u202E\u2066\u2067\u200E\u200F\u061C]")

// TestBidiNamesKeepTheirSentences: a task named with a right-to-left
// override ("a\u202eevil") is shown with the override escaped, in the text,
// the heatmap's row labels and the text alternatives, so that it neither
// reads as another name ("alive") nor mirrors the sentence after it;
// Arabic and Hebrew names are isolated where a sentence or a read-out
// quotes them, so that the numbers after them keep their place. The names
// themselves (the run's tasks, the τ download's columns) are unchanged.
func TestBidiNamesKeepTheirSentences(t *testing.T) {
	b := newBrowser(t)
	b.viewport(1280, 900, false)
	b.openPage(true)
	b.interceptDownloads()
	const evil = "a\u202eevil"
	names := []string{"القاهرة", "תל אביב", evil, "Zeta"}
	shown := map[string]string{"القاهرة": "القاهرة", "תל אביב": "תל אביב", evil: `a\u202eevil`, "Zeta": "Zeta"}
	// The names written right to left are isolated where they are quoted;
	// the others (the override escaped) cannot reorder a sentence.
	rtl := map[string]bool{"القاهرة": true, "תל אביב": true}
	quoted := func(n string) string {
		if rtl[n] {
			return "\u2068" + shown[n] + "\u2069"
		}
		return shown[n]
	}
	b.loadFile("rtl.csv", namedTasksCSV(names, 30))
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	b.waitFor(`spmtlApp.heatmapLayout().cols === spmtlApp.snapshots().length`, 10*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](`document.querySelector("#tau-table-box summary").click()`))
	b.frames()

	// The names as values: as in the file.
	tasks := eval[[]string](b, `spmtlApp.runInfo().tasks`)
	if !strings.Contains(strings.Join(tasks, "|"), evil) {
		t.Errorf("the run's tasks %q lost the name %q as written in the file", tasks, evil)
	}
	b.do(chromedp.Click(chromedp.CSS("#export-tau")))
	if csv := b.downloaded("spmtl-tau.csv"); !strings.Contains(strings.SplitN(csv, "\n", 2)[0], evil) {
		t.Errorf("the τ download's header %q does not name the task as written in the file", strings.SplitN(csv, "\n", 2)[0])
	}

	// What is shown: no raw control anywhere on screen or in a text
	// alternative, and the override's name written out.
	text := eval[string](b, `document.body.innerText`)
	if m := rawBidi.FindAllString(text, -1); len(m) > 0 {
		i := rawBidi.FindStringIndex(text)[0]
		t.Errorf("the page shows %d raw bidi control(s), the first in %q", len(m), text[max(0, i-60):min(len(text), i+60)])
	}
	if !strings.Contains(text, `a\u202eevil`) {
		t.Errorf("the page (τ table open) never shows the name %q written out as a\\u202eevil", evil)
	}
	labels := eval[[]string](b, `Array.from(document.querySelectorAll("[aria-label]")).map((e) => e.getAttribute("aria-label"))`)
	for _, l := range labels {
		if rawBidi.MatchString(l) {
			t.Errorf("a text alternative holds a raw bidi control: %.200q", l)
		}
	}
	type label struct {
		Text string
		Task int
	}
	drawn := eval[[]label](b, `spmtlApp.heatmapLayout().labels.map((l) => ({Text: l.text, Task: l.task}))`)
	for _, l := range drawn {
		if rawBidi.MatchString(l.Text) {
			t.Errorf("the heatmap draws the label %q with a raw bidi control (it draws as another name)", l.Text)
		}
		if want := shown[tasks[l.Task]]; l.Text != want && !abbreviates(l.Text, want) {
			t.Errorf("the heatmap labels %q as %q, want %q", tasks[l.Task], l.Text, want)
		}
	}

	// Sentences: a name they quote is isolated, whichever it is.
	isolatedIn := func(where, text string) {
		t.Helper()
		for n := range rtl {
			s := shown[n]
			for i := strings.Index(text, s); i >= 0; {
				before, after := text[:i], text[i+len(s):]
				if !strings.HasSuffix(before, "\u2068") || !strings.HasPrefix(after, "\u2069") {
					t.Errorf("%s quotes %q without isolating it: %q", where, s, text)
					break
				}
				j := strings.Index(after, s)
				if j < 0 {
					break
				}
				i += len(s) + j
			}
		}
	}
	verdict := eval[string](b, `document.getElementById("heat-verdict").textContent`)
	if verdict == "" {
		t.Fatal("no sentence beside the map")
	}
	isolatedIn("the sentence beside the map", verdict)
	isolatedIn("the map's text alternative", eval[string](b, `document.getElementById("heatmap").getAttribute("aria-label") || ""`))
	// The read-out of each row: the name first, isolated.
	order := eval[[]int](b, `spmtlApp.heatmapLayout().order`)
	K := eval[int](b, `spmtlApp.snapshots().length`)
	for r, task := range order {
		x, y := b.cellPoint(r, K-1)
		b.do(chromedp.MouseClickXY(x, y))
		readout, _ := b.heatRead()
		want := quoted(tasks[task]) + " · "
		if !strings.HasPrefix(readout, want) {
			t.Errorf("row %d: the read-out %q does not start with the name as quoted, %q", r, readout, want)
		}
		isolatedIn(fmt.Sprintf("row %d's read-out", r), readout)
	}
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("heatwrap").scrollIntoView({block: "start"})`))
	b.shot("bidi-names.png")
	b.noConsoleErrors()
}
