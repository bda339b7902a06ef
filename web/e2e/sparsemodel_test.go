package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestSparseModelRoundTrip: a model trained on a visitor's sparse file
// (task label index:value), saved and loaded back, is shown with its
// feature count (loading one failed with "Cannot read properties of null":
// a sparse file names no features), and predicts a sparse file whose row
// of an unknown task is refused at its line, then left out by the
// refusal's button; each row is written back with its line, as the
// warnings count them.
func TestSparseModelRoundTrip(t *testing.T) {
	var sb strings.Builder
	for g := 0; g < 4; g++ {
		for i := 0; i < 40; i++ {
			y := 0
			if (i*7+g)%5 < 2 {
				y = 1
			}
			fmt.Fprintf(&sb, "g%d %d 1:%g 3:%g 7:%g\n", g, y, float64(i%9)/9+float64(y), float64((i*3)%7)/7, float64(g)/4)
		}
	}
	b := newBrowser(t)
	b.openPage(true)
	b.interceptDownloads()
	b.loadFile("own.svm", sb.String())
	// The empty, disabled column menus are explained where a phone shows it.
	if notes := eval[string](b, `document.getElementById("data-notes").textContent`); !strings.Contains(notes, "Columns: a sparse file (lines of task label index:value) has none to choose") {
		t.Errorf("the notes of a sparse file: %q", notes)
	}
	b.do(chromedp.SetValue(chromedp.CSS("#model"), "itl"), chromedp.Evaluate[chromedp.Void](`document.getElementById("model").dispatchEvent(new Event("change", {bubbles: true}))`))
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.model() !== null`, 30*time.Second)
	b.do(chromedp.Click(chromedp.CSS("#save-model")))
	b.upload("#model-file", writeTemp(t, "spmtl-model.json", b.downloaded("spmtl-model.json")))
	b.waitFor(`(spmtlApp.model() && spmtlApp.model().from === "file") || document.getElementById("model-error").textContent !== ""`, 20*time.Second)
	if msg := eval[string](b, `document.getElementById("model-error").textContent`); msg != "" {
		t.Fatalf("loading the sparse file's model: %q", msg)
	}
	if n := eval[int](b, `spmtlApp.model().features`); n != 7 {
		t.Errorf("the loaded model reads %d features, want 7", n)
	}
	b.upload("#predict-file", writeTemp(t, "new.svm", "g1 0 1:0.5\n# a comment\nzz 1 3:0.2\ng2 1 7:1\n"))
	b.waitFor(`!document.getElementById("predict-complete").hidden`, 20*time.Second)
	if msg := eval[string](b, `document.getElementById("model-error").textContent`); !strings.HasPrefix(msg, `new.svm:3:1: task "zz" is not one the model was trained on`) {
		t.Errorf("the refusal of a row of an unknown task: %q", msg)
	}
	b.do(chromedp.Click(chromedp.CSS("#predict-complete")))
	b.waitFor(`spmtlApp.predictions() !== null`, 20*time.Second)
	type preds struct {
		Rows     [][]string `json:"rows"`
		Warnings []string   `json:"warnings"`
	}
	p := eval[preds](b, `spmtlApp.predictions()`)
	if len(p.Rows) != 3 || p.Rows[1][0] != "3" || p.Rows[1][1] != "zz" || p.Rows[1][2] != "" || p.Rows[0][2] == "" || p.Rows[2][2] == "" || len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "at line 3") {
		t.Errorf("predictions %q, warnings %q: want the zz row kept without a prediction, the others predicted", p.Rows, p.Warnings)
	}
	b.noConsoleErrors()
}

// TestSparseRowsMissingAValue: a visitor's sparse file with a missing
// label and a missing value is refused at the first, with the button that
// leaves such rows out (the option was ignored for this format); the file
// then reads without them, and the notes say which.
func TestSparseRowsMissingAValue(t *testing.T) {
	var sb strings.Builder
	for i := 0; i < 30; i++ {
		y, x := fmt.Sprintf("%d.5", i%4), fmt.Sprint(i%5)
		if i == 4 {
			y = "NA"
		}
		if i == 9 {
			x = ""
		}
		fmt.Fprintf(&sb, "t%d %s 1:%s 2:%d\n", i%3, y, x, (i*3)%7)
	}
	b := newBrowser(t)
	b.openPage(true)
	b.upload("#file", writeTemp(t, "na.svm", sb.String()))
	b.waitFor(`spmtlApp.dataError() !== ""`, 20*time.Second)
	if msg := eval[string](b, dataErrorText); !strings.HasPrefix(msg, `na.svm:5:4: missing label ("NA")`) {
		t.Errorf("refusal %q", msg)
	}
	b.do(chromedp.Click(chromedp.CSS("#leave-out-rows")))
	b.waitFor(`spmtlApp.summary() && spmtlApp.summary().name === "na.svm" && spmtlApp.state() === "idle"`, 20*time.Second)
	if rows := eval[int](b, `spmtlApp.summary().rows`); rows != 28 {
		t.Errorf("%d rows read, want 28 of 30", rows)
	}
	if notes := eval[string](b, `document.getElementById("data-notes").textContent`); !strings.Contains(notes, `2 of the 30 rows were left out for a missing value (label: 1, "feature 1": 1), at lines 5, 10.`) {
		t.Errorf("notes %q", notes)
	}
	b.noConsoleErrors()
}

// TestPublishedSparseRunKeepsItsModel: a run on a visitor's sparse file,
// published and opened from disk, shows its model in the Model panel (the
// page read the model's feature names, which a sparse file has none of,
// and lost the model with a TypeError in the console).
func TestPublishedSparseRunKeepsItsModel(t *testing.T) {
	var sb strings.Builder
	for g := 0; g < 3; g++ {
		for i := 0; i < 30; i++ {
			fmt.Fprintf(&sb, "g%d %d 1:%g 4:%g\n", g, (i+g)%2, float64(i%5)/5+float64((i+g)%2), float64(g)/3)
		}
	}
	b := newBrowser(t)
	b.openPage(true)
	b.interceptDownloads()
	b.loadFile("pub.svm", sb.String())
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.model() !== null`, 60*time.Second)
	b.do(chromedp.Click(chromedp.CSS("#publish-page")))
	page := writeTemp(t, "pub-spmtl.html", b.downloaded("pub-spmtl.html"))
	off := newBrowser(t)
	off.openPublished(page)
	off.waitFor(`spmtlApp.model() !== null`, 20*time.Second)
	if n := eval[int](off, `spmtlApp.model().features`); n != 4 {
		t.Errorf("the published run's model reads %d features, want 4", n)
	}
	off.noConsoleErrors()
}
