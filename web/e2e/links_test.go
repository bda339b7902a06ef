package e2e

// Tests of links made on a visitor's own file: the link carries the file's
// column roles, the run's settings and the file's SHA-256, never the data;
// opened elsewhere the page waits for the file and, given one, says
// whether it is the file the link was made with.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// setField sets a settings field as a visitor does (its change event).
func (b *browser) setField(id, v string) {
	b.t.Helper()
	b.do(chromedp.SetValue(chromedp.CSS("#"+id), v),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.getElementById(%q).dispatchEvent(new Event("change"))`, id)))
}

// ownLinkNote is the own-file link's notice ("" when hidden).
func (b *browser) ownLinkNote() string {
	b.t.Helper()
	return eval[string](b, `document.getElementById("own-link").hidden ? "" : document.getElementById("own-link-text").textContent`)
}

// hashParams is the page's hash as query values.
func (b *browser) hashParams() url.Values {
	b.t.Helper()
	v, err := url.ParseQuery(strings.TrimPrefix(eval[string](b, `location.hash`), "#"))
	if err != nil {
		b.t.Fatalf("the hash: %v", err)
	}
	return v
}

// examRead is how the page read exam.csv: its task and label columns and
// the columns it left out.
type examRead struct {
	Name, Task, Label string
	Dropped           []string
}

func (b *browser) examRead() examRead {
	b.t.Helper()
	return eval[examRead](b, `(() => { const s = spmtlApp.summary(); return {Name: s.name, Task: s.taskColumn, Label: s.labelColumn,
		Dropped: spmtlApp.columns().filter((c) => c.role === "dropped").map((c) => c.name)}; })()`)
}

// TestOwnFileLinkCarriesRolesAndHash: a link made on a visitor's own file
// (exam.csv read with school as the task column, score as the label,
// student left out; λ0 auto*8, train 0.6) carries those column roles and
// settings and the file's name and SHA-256. Opened in a fresh page it
// shows landmine with landmine's own settings (none of the link's mixed
// in), says what the link holds and waits; given the same file it says so
// and reads it with the link's roles and settings; given a file that
// differs, it says that and applies them anyway.
func TestOwnFileLinkCarriesRolesAndHash(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	examPath, examText := b.loadExam(t, true)
	sum := sha256.Sum256(examText)
	want := hex.EncodeToString(sum[:])
	b.setField("lambda0", "auto*8")
	b.setField("train", "0.6")
	b.waitFor(fmt.Sprintf(`location.hash.includes("sha256=%s")`, want), 10*time.Second)
	made := b.hashParams()
	for k, v := range map[string]string{"data": "custom", "file": "exam.csv", "task": "school", "label": "score", "drop": "student", "lambda0": "auto*8", "train": "0.6"} {
		if made.Get(k) != v {
			t.Errorf("the link %v has %s=%q, want %q", made, k, made.Get(k), v)
		}
	}
	link := "/#" + made.Encode()

	// Opened elsewhere: landmine as shipped, the link's content said, no file asked of the worker.
	open := func() {
		b.do(chromedp.Navigate(b.base + "/examples/module.html"))
		b.do(chromedp.Navigate(b.base + link))
		b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.state() === "idle"`, 30*time.Second)
	}
	open()
	form := eval[map[string]string](b, `({lambda0: document.getElementById("lambda0").value, rho: document.getElementById("rho").value,
		train: document.getElementById("train").value, data: spmtlApp.summary().name})`)
	if form["data"] != "landmine/data.csv" || form["lambda0"] != "1" || form["rho"] != "0.01" || form["train"] != "80" {
		t.Errorf("while the link waits for its file the page shows %v, want landmine with its own λ0 1, ρ 0.01 and train 80", form)
	}
	note := b.ownLinkNote()
	for _, w := range []string{"exam.csv", "SHA-256 " + want[:16], "task column school", "label column score", "columns left out student", "λ0 auto*8", "train rows/task 0.6"} {
		if !strings.Contains(note, w) {
			t.Errorf("the own-file link's notice %q lacks %q", note, w)
		}
	}
	if n := eval[string](b, `document.getElementById("link-note-text").textContent`); !strings.Contains(n, "a file of your own, which a link does not carry") {
		t.Errorf("the link note says %q", n)
	}
	b.axe(axeSource(t), "a link waiting for its file")
	if w := b.sideways(); w > 0 {
		t.Errorf("the page with the link's notice scrolls sideways by %d px", w)
	}

	// The same file: it says so, and the link's roles and settings apply.
	b.upload("#file", examPath)
	b.waitFor(`spmtlApp.summary().name === "exam.csv" && spmtlApp.state() === "idle"`, 30*time.Second)
	b.waitFor(`document.getElementById("own-link-text").textContent.includes("exam.csv: this is")`, 10*time.Second)
	if note := b.ownLinkNote(); !strings.Contains(note, "this is the file the link was made with") {
		t.Errorf("given the link's own file the page says %q", note)
	}
	if r := b.examRead(); r.Task != "school" || r.Label != "score" || len(r.Dropped) != 1 || r.Dropped[0] != "student" {
		t.Errorf("the link's file was read as %+v, want task school, label score, student left out", r)
	}
	if v := eval[[]string](b, `[document.getElementById("lambda0").value, document.getElementById("train").value]`); v[0] != "auto*8" || v[1] != "0.6" {
		t.Errorf("after the link's file: λ0 %q, train %q; want the link's auto*8 and 0.6", v[0], v[1])
	}
	b.waitFor(fmt.Sprintf(`location.hash.includes("sha256=%s")`, want), 10*time.Second)
	if got := b.hashParams(); got.Encode() != made.Encode() {
		t.Errorf("after the link's file the hash is %v, want the link %v", got, made)
	}
	// An edited link on the loaded file reads it again with its roles, and
	// keeps the file's name and SHA-256.
	edited := b.hashParams()
	edited.Set("drop", "student,hours")
	edited.Del("sha256")
	b.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`location.hash = %q`, "#"+edited.Encode())))
	b.waitFor(`spmtlApp.columns().find((c) => c.name === "hours").role === "dropped" && spmtlApp.state() === "idle"`, 20*time.Second)
	b.waitFor(fmt.Sprintf(`location.hash.includes("sha256=%s")`, want), 10*time.Second)
	if got := b.hashParams(); got.Get("drop") != "student,hours" || got.Get("file") != "exam.csv" {
		t.Errorf("after the edited link the hash is %v", got)
	}
	// A link made on another file, opened on this one: it says so.
	edited.Set("sha256", strings.Repeat("0", 64))
	b.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`location.hash = %q`, "#"+edited.Encode())))
	b.waitFor(`document.getElementById("own-link-text").textContent.includes("this file differs")`, 10*time.Second)
	b.waitFor(fmt.Sprintf(`location.hash.includes("sha256=%s")`, want), 10*time.Second)

	// Another file with the same columns: it says so, and applies the link anyway.
	other := strings.Replace(string(examText), "School 1,1.755,", "School 1,1.756,", 1)
	otherPath := filepath.Join(t.TempDir(), "exam-copy.csv")
	if err := os.WriteFile(otherPath, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	open()
	b.upload("#file", otherPath)
	b.waitFor(`spmtlApp.summary().name === "exam-copy.csv" && spmtlApp.state() === "idle"`, 30*time.Second)
	b.waitFor(`document.getElementById("own-link-text").textContent.includes("exam-copy.csv: this file")`, 10*time.Second)
	sumOther := sha256.Sum256([]byte(other))
	if note := b.ownLinkNote(); !strings.Contains(note, "this file differs from the one the link was made with, exam.csv") ||
		!strings.Contains(note, "applied anyway") || !strings.Contains(note, hex.EncodeToString(sumOther[:])[:16]) {
		t.Errorf("given another file the page says %q", note)
	}
	if r := b.examRead(); r.Task != "school" || r.Label != "score" || len(r.Dropped) != 1 {
		t.Errorf("the other file was read as %+v, want the link's roles", r)
	}
	if v := eval[string](b, `document.getElementById("lambda0").value`); v != "auto*8" {
		t.Errorf("after another file λ0 is %q, want the link's auto*8", v)
	}
	b.noConsoleErrors()
}

// TestOwnFileLinkFromDisk: the offline file, opened from disk with the
// network off, computes a file's SHA-256 (Web Crypto in a file:// page) and
// tells the link's file from another.
func TestOwnFileLinkFromDisk(t *testing.T) {
	dir := distDir(t)
	abs, err := filepath.Abs(filepath.Join(dir, "spmtl-offline.html"))
	if err != nil {
		t.Fatal(err)
	}
	examPath, examText := examCSV(t)
	sum := sha256.Sum256(examText)
	b := newBrowser(t)
	b.networkOff()
	b.do(chromedp.Navigate("file://" + abs + "#data=custom&file=exam.csv&task=school&label=score&drop=student&sha256=" + hex.EncodeToString(sum[:])))
	b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.state() === "idle"`, 60*time.Second)
	if note := b.ownLinkNote(); !strings.Contains(note, "exam.csv") {
		t.Errorf("the offline page's notice of the link: %q", note)
	}
	b.upload("#file", examPath)
	b.waitFor(`document.getElementById("own-link-text").textContent.includes("exam.csv: ")`, 30*time.Second)
	if note := b.ownLinkNote(); !strings.Contains(note, "this is the file the link was made with") {
		t.Errorf("the offline page, given the link's file, says %q", note)
	}
	b.waitFor(`spmtlApp.summary().name === "exam.csv" && spmtlApp.state() === "idle"`, 30*time.Second)
	if r := b.examRead(); r.Task != "school" || len(r.Dropped) != 1 {
		t.Errorf("the offline page read the link's file as %+v", r)
	}
	b.noConsoleErrors()
}

// TestOwnFileLinkQuotesItsValuesShort: a link made on a visitor's own file
// whose task column and file name are thousands of characters long (a
// hostile or broken link) has them quoted cut short in its note, with a
// bidi override shown escaped: the note quoted them whole, and a name of
// 5,000 characters made the page 41,637 px wide.
func TestOwnFileLinkQuotesItsValuesShort(t *testing.T) {
	b := newBrowser(t)
	b.viewport(390, 844, true)
	long := strings.Repeat("x", 5000)
	b.do(chromedp.Navigate(b.base + "/#data=custom&task=" + long + "&file=a%E2%80%AEvsc." + long + "&label=y"))
	b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.state() === "idle"`, 30*time.Second)
	note := b.ownLinkNote()
	if note == "" || len(note) > 1200 || !strings.Contains(note, "xxx…") || !strings.Contains(note, `a\u202evsc.`) {
		t.Errorf("the note (%d characters) does not quote the link's values cut short, with the override escaped: %.300q", len(note), note)
	}
	if w := b.sideways(); w > 0 {
		t.Errorf("the page scrolls sideways by %d px (widest: %s)", w, eval[string](b, widestJS))
	}
	b.noConsoleErrors()
}

// TestLinkSaysAMisspeltSetting: a link's key that is a setting's name in
// other letter case ("maxiter" for maxIter) is said, with the value used
// instead, and its run=1 is not played: the run would not be the one the
// link names (it trained the preset's 10 iterations, unsaid).
func TestLinkSaysAMisspeltSetting(t *testing.T) {
	b := newBrowser(t)
	b.do(chromedp.Navigate(b.base + "/#data=landmine&maxiter=1000000000&run=1"))
	b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.state() === "idle"`, 30*time.Second)
	note := eval[string](b, `document.getElementById("link-note").hidden ? "" : document.getElementById("link-note").textContent`)
	if !strings.Contains(note, `the link's "maxiter" is no setting, maxIter is`) || !strings.Contains(note, "using maxIter 10") {
		t.Errorf("the link note %q does not say maxiter is not maxIter", note)
	}
	time.Sleep(500 * time.Millisecond)
	if n := eval[int](b, `spmtlApp.snapshots().length`); n != 0 || eval[string](b, `spmtlApp.state()`) != "idle" {
		t.Errorf("the link's run was played (%d snapshots, state %s)", n, eval[string](b, `spmtlApp.state()`))
	}
	b.noConsoleErrors()
}
