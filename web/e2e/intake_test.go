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

// noFlags fails the test when a message the page shows names a
// command-line flag.
func noFlags(t *testing.T, msg string) {
	t.Helper()
	for _, flag := range []string{"-drop", "-text", "-task", "-label"} {
		if strings.Contains(msg, flag) {
			t.Errorf("the page shows %q, which names %s", msg, flag)
		}
	}
}
