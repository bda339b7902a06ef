package e2e

// The README's screenshots of a visitor's own file (web/docs/own-*.png):
// a run, its results and the tuning map, at 1280×800 and at 390×844. The
// test runs with SPMTL_DOCS=1 (beside SPMTL_E2E=1; not in ./build.sh test,
// whose other tests check what these pictures show) and writes them to
// $E2E_OUT (default: the temp dir's spmtl-e2e), from where they are copied
// into web/docs.

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// shotAt1x saves what a phone's viewport (w × h CSS px) shows at one
// device pixel per CSS pixel: half the phone's pixels each way, a quarter
// of the file.
func (b *browser) shotAt1x(name string, w, h float64) {
	b.t.Helper()
	xy := eval[[]float64](b, `[window.scrollX, window.scrollY]`)
	png, err := chromedp.Run(b.ctx, func(ctx context.Context, tg *chromedp.Target) ([]byte, error) {
		r, err := cdp.Call(ctx, tg, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format: page.CaptureScreenshotFormatPng, Clip: &page.Viewport{X: xy[0], Y: xy[1], Width: w, Height: h, Scale: 0.5}})
		if err != nil {
			return nil, err
		}
		return r.Data, nil
	})
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	p := filepath.Join(outDir(b.t), name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", p)
}

// examsCSV is a visitor's file made from the bundled school data
// (web/data/school/SOURCE.md gives the columns' meanings): the first 65
// schools, one row per student, with a student number, the school's name,
// the exam year, two school-level percentages, the student's VR band and
// the score. Its task and label columns are not named task and y.
func examsCSV(t *testing.T) string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "data", "school", "data.csv"))
	if err != nil {
		t.Fatalf("the school data: %v", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("the school data: %v", err)
	}
	var sb strings.Builder
	sb.WriteString("student,school,year,fsm_pct,vr1_pct,vr_band,score\n")
	schools := map[string]bool{}
	for i, r := range rows[1:] {
		if !schools[r[0]] && len(schools) == 65 {
			continue
		}
		schools[r[0]] = true
		x := r[2:]
		year := map[string]string{"100": "1985", "010": "1986", "001": "1987"}[x[0]+x[1]+x[2]]
		band := map[string]string{"100": "VR1", "010": "VR2", "001": "VR3"}[x[7]+x[8]+x[9]]
		if band == "" {
			band = "none"
		}
		fmt.Fprintf(&sb, "%d,School %s,%s,%s,%s,%s,%s\n", 1001+i, strings.TrimPrefix(r[0], "school"), year, x[3], x[4], band, r[1])
	}
	return sb.String()
}

// TestOwnFileScreenshots: a visitor's file of 65 schools, its columns
// chosen, trained, its results and this model's tuning, photographed at
// 1280×800 and 390×844 (the README's screenshots).
func TestOwnFileScreenshots(t *testing.T) {
	if os.Getenv("SPMTL_DOCS") == "" {
		t.Skip("writes the README's screenshots: run with SPMTL_DOCS=1")
	}
	b := newBrowserFor(t, 5*time.Minute)
	b.viewport(1280, 800, false)
	b.openPage(true)
	b.upload("#file", writeTemp(t, "exams.csv", examsCSV(t)))
	b.waitForPrompt(30 * time.Second)
	b.do(chromedp.SetValue(chromedp.CSS("#task-col"), "school"))
	b.waitFor(`spmtlApp.columnPrompt().includes("holds the label")`, 30*time.Second)
	b.do(chromedp.SetValue(chromedp.CSS("#label-col"), "score"))
	b.waitFor(`spmtlApp.summary() !== null && spmtlApp.summary().name === "exams.csv" && spmtlApp.state() === "idle"`, 60*time.Second)
	if n := eval[int](b, `spmtlApp.summary().tasks.length`); n != 65 {
		t.Fatalf("exams.csv has %d tasks, want 65", n)
	}
	b.do(chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`), chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null && spmtlApp.heatmapLayout().cols === spmtlApp.snapshots().length`, 120*time.Second)
	b.frames()
	at := func(id string) {
		b.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.getElementById(%q).scrollIntoView({block: "start", behavior: "instant"})`, id)))
		b.frames()
	}
	at("heat-panel")
	b.shot("own-run-1280.png")
	at("results-panel")
	b.shot("own-results-1280.png")
	b.do(chromedp.Click(chromedp.CSS("#tune-scope-one")), chromedp.Click(chromedp.CSS("#tune")))
	b.waitFor(`spmtlApp.tune().state !== "running"`, 240*time.Second)
	if st := eval[string](b, `spmtlApp.tune().state`); st != "done" {
		t.Fatalf("tuning ended %q: %s", st, eval[string](b, `document.getElementById("tune-error").textContent`))
	}
	at("tune-panel")
	b.shot("own-tune-1280.png")

	b.viewport(390, 844, true)
	b.do(chromedp.Evaluate[chromedp.Void](`window.dispatchEvent(new Event("resize")); window.scrollTo(0, 0)`))
	b.frames()
	b.shotAt1x("own-run-390.png", 390, 844)
	at("results-panel")
	b.shotAt1x("own-results-390.png", 390, 844)
	at("tune-status")
	b.shotAt1x("own-tune-390.png", 390, 844)
	b.noConsoleErrors()
}
