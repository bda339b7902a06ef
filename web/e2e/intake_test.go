package e2e

// Tests of the page's side of the intake's refusals: what it offers beside
// a refusal (core/data Remedy, carried from the wasm bridge through the
// worker to the data panel), in its own terms rather than command-line
// flags.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// dataErrorText returns the data panel's refusal as shown ("" when none).
const dataErrorText = `(() => { const e = document.getElementById("data-error"); return e && !e.hidden ? e.textContent : ""; })()`

// leaveOutButton returns the text of the visible "Leave out" button ("" when none).
const leaveOutButton = `(() => { const b = document.getElementById("leave-out"); return b && !b.closest("[hidden]") ? b.textContent : ""; })()`

// TestLeaveOutButton: a file refused for a value that leaving its column
// out would take away is shown with a button that does that and reads the
// file again, once per refused column; a missing task column is asked for
// at the column menus (a prompt, no refusal), and a label of one value
// points at its menu. No message names a
// command-line flag.
func TestLeaveOutButton(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	var sb strings.Builder
	sb.WriteString("task,y,x1,x2,x3\n")
	for i := 0; i < 24; i++ {
		x1, x2 := fmt.Sprint(i%5), fmt.Sprint((i*3)%7)
		if i == 3 {
			x1 = "n.d."
		}
		if i == 9 {
			x2 = ""
		}
		fmt.Fprintf(&sb, "t%d,%d.5,%s,%s,%d\n", i%3, i%4, x1, x2, (i*5)%9)
	}
	b.upload("#file", writeTemp(t, "na.csv", sb.String()))
	b.waitFor(`spmtlApp.dataError() !== ""`, 20*time.Second)
	msg := eval[string](b, dataErrorText)
	if !strings.HasPrefix(msg, `na.csv:5:3: non-numeric value "n.d." in column x1`) || !strings.HasSuffix(msg, "correct the value, read the column as words, or leave the column out") {
		t.Errorf("refusal %q", msg)
	}
	noFlags(t, msg)
	if got := eval[string](b, leaveOutButton); got != "Leave out x1 and read the file again" {
		t.Fatalf("button %q", got)
	}
	b.do(chromedp.Click(chromedp.CSS("#leave-out")))
	// x2's empty cell is next: its own button, which keeps x1 out.
	b.waitFor(`document.getElementById("data-error").textContent.includes("missing value in column x2")`, 20*time.Second)
	if got := eval[string](b, leaveOutButton); got != "Leave out x2 and read the file again" {
		t.Fatalf("second button %q", got)
	}
	b.do(chromedp.Click(chromedp.CSS("#leave-out")))
	b.waitFor(`spmtlApp.summary() && spmtlApp.summary().name === "na.csv" && spmtlApp.state() === "idle"`, 20*time.Second)
	roles := eval[map[string]string](b, `Object.fromEntries(spmtlApp.columns().map((c) => [c.name, c.role]))`)
	if roles["x1"] != "dropped" || roles["x2"] != "dropped" || roles["x3"] != "numeric" {
		t.Errorf("roles after leaving out x1 and x2: %v", roles)
	}
	if msg := eval[string](b, dataErrorText); msg != "" {
		t.Errorf("refusal still shown after the file loaded: %q", msg)
	}
	if got := eval[string](b, leaveOutButton); got != "" {
		t.Errorf("button still shown after the file loaded: %q", got)
	}
	if notes := eval[string](b, `document.getElementById("data-notes").textContent`); !strings.Contains(notes, "Features: 1 feature from 1 column: x3; left out: x1, x2.") {
		t.Errorf("notes %q", notes)
	}

	// A missing task column: a prompt at the menus, not a refusal.
	b.upload("#file", writeTemp(t, "group.csv", "group,y,x\na,1,2\nb,2,3\n"))
	b.waitFor(`spmtlApp.columnPrompt().includes("group.csv")`, 20*time.Second)
	if msg := eval[string](b, dataErrorText); msg != "" {
		t.Errorf("group.csv: a refusal %q beside the prompt", msg)
	}
	if got := eval[string](b, leaveOutButton); got != "" {
		t.Errorf("group.csv: a button %q", got)
	}
	if eval[bool](b, `document.getElementById("task-col").disabled || document.getElementById("label-col").disabled`) {
		t.Errorf("group.csv: the column menus are disabled")
	}
	// A label of one value: the refusal points at its menu.
	for _, tc := range []struct{ name, text, want string }{
		{"yes.csv", "task,y,x\na,yes,2\na,yes,3\nb,yes,4\n", "yes.csv: label y has one value (yes) in every row: there is nothing to learn; choose another label column\nChoose it in the Label column menu."},
	} {
		b.upload("#file", writeTemp(t, tc.name, tc.text))
		b.waitFor(fmt.Sprintf(`document.getElementById("data-error").textContent.includes(%q)`, tc.name), 20*time.Second)
		msg := eval[string](b, dataErrorText)
		if !strings.HasSuffix(msg, tc.want) {
			t.Errorf("%s: refusal %q, want it to end %q", tc.name, msg, tc.want)
		}
		noFlags(t, msg)
		if got := eval[string](b, leaveOutButton); got != "" {
			t.Errorf("%s: a button %q", tc.name, got)
		}
		if eval[bool](b, `document.getElementById("task-col").disabled || document.getElementById("label-col").disabled`) {
			t.Errorf("%s: the column menus are disabled", tc.name)
		}
	}
	b.noConsoleErrors()
}

// TestLeaveOutRowsMissingAValue: a file with missing values in a feature
// and in the label is refused at the first, counting the rows that miss
// one; its button leaves those rows out (as R's na.omit), the notes say
// which, the rows menu and the link keep the choice, and the rest trains
// and tunes.
// Choosing to refuse them again shows the refusal, and the file stays
// loaded as it was read.
func TestLeaveOutRowsMissingAValue(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	var sb strings.Builder
	sb.WriteString("task,y,x1,x2\n")
	for i := 0; i < 24; i++ {
		x1, y := fmt.Sprint(i%5), fmt.Sprintf("%d.5", i%4)
		if i == 4 || i == 10 {
			x1 = "NA"
		}
		if i == 7 {
			y = ""
		}
		fmt.Fprintf(&sb, "t%d,%s,%s,%d\n", i%3, y, x1, (i*3)%7)
	}
	b.upload("#file", writeTemp(t, "na.csv", sb.String()))
	b.waitFor(`spmtlApp.dataError() !== ""`, 20*time.Second)
	msg := eval[string](b, dataErrorText)
	// Leaving x1 out would leave y's gap: only the rows are offered.
	if want := `na.csv:6:3: missing value ("NA") in column x1: 3 of the 24 rows have a missing value (x1: 2, y: 1); leave those rows out, or fill the values in`; msg != want {
		t.Errorf("refusal %q\nwant %q", msg, want)
	}
	noFlags(t, msg)
	rowsButton := `(() => { const b = document.getElementById("leave-out-rows"); return b && !b.closest("[hidden]") ? b.textContent : ""; })()`
	if got := eval[string](b, rowsButton); got != "Leave out the rows that miss a value and read the file again" {
		t.Fatalf("rows button %q", got)
	}
	if got := eval[string](b, leaveOutButton); got != "" {
		t.Errorf("a column button %q, where leaving the column out would leave the label's gap", got)
	}
	b.do(chromedp.Click(chromedp.CSS("#leave-out-rows")))
	b.waitFor(`spmtlApp.summary() && spmtlApp.summary().name === "na.csv" && spmtlApp.state() === "idle"`, 20*time.Second)
	if rows := eval[int](b, `spmtlApp.summary().rows`); rows != 21 {
		t.Errorf("%d rows read, want 21 of 24", rows)
	}
	if notes := eval[string](b, `document.getElementById("data-notes").textContent`); !strings.Contains(notes, "Rows: 3 of the 24 rows were left out for a missing value (x1: 2, y: 1), at lines 6, 9, 12.") {
		t.Errorf("notes %q", notes)
	}
	if v := eval[string](b, `(() => { const s = document.getElementById("missing-rows"); return s.disabled ? "disabled" : s.value; })()`); v != "omit" {
		t.Errorf("rows menu %q, want omit", v)
	}
	if h := eval[string](b, `location.hash`); !strings.Contains(h, "missing=omit") {
		t.Errorf("the link %q does not keep the choice", h)
	}
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	// The tuning pool's workers read the file the same way (they would
	// be refused otherwise).
	b.do(chromedp.Click(chromedp.CSS("#tune-scope-one")), chromedp.Click(chromedp.CSS("#tune")))
	b.waitFor(`["done", "failed", "cancelled"].includes(spmtlApp.tune().state)`, 90*time.Second)
	if st := eval[string](b, `spmtlApp.tune().state`); st != "done" {
		t.Fatalf("tuning ended %q: %s", st, eval[string](b, `document.getElementById("tune-error").textContent`))
	}
	// Refused again: the refusal, and the file as it was read.
	b.do(chromedp.SetValue(chromedp.CSS("#missing-rows"), "refuse"))
	b.waitFor(`spmtlApp.dataError().includes("3 of the 24 rows have a missing value")`, 20*time.Second)
	if rows := eval[int](b, `spmtlApp.summary().rows`); rows != 21 {
		t.Errorf("after the refusal, %d rows loaded, want the 21 read before", rows)
	}
	if v := eval[string](b, `document.getElementById("missing-rows").value`); v != "omit" {
		t.Errorf("after the refusal, the rows menu says %q, not how the loaded file was read", v)
	}
	b.noConsoleErrors()
}

// noFlags fails the test when a message the page shows names a
// command-line flag.
func noFlags(t *testing.T, msg string) {
	t.Helper()
	for _, flag := range []string{"-drop", "-text", "-task", "-label", "-missing"} {
		if strings.Contains(msg, flag) {
			t.Errorf("the page shows %q, which names %s", msg, flag)
		}
	}
}
