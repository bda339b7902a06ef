package e2e

// Tests that no screen scrolls sideways: the page at a 320 px phone's
// width, and a visitor's file with very long column and task names at a
// desktop's and a phone's width (WCAG 2.1 reflow).

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// sideways returns how far the page is wider than its viewport (0: not).
func (b *browser) sideways() int {
	b.t.Helper()
	return eval[int](b, `Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth)`)
}

// widest names the element that reaches furthest right beyond the viewport.
const widestJS = `(() => {
	let worst = "", right = document.documentElement.clientWidth;
	for (const el of document.querySelectorAll("body *")) {
		const r = el.getBoundingClientRect();
		if (r.width && r.right > right) { right = r.right; worst = el.tagName.toLowerCase() + (el.id ? "#" + el.id : ""); }
	}
	return worst;
})()`

func TestNoSidewaysScroll(t *testing.T) {
	b := newBrowser(t)
	b.viewport(320, 640, true)
	b.openPage(true)
	if w := b.sideways(); w > 0 {
		t.Errorf("at 320 px the page scrolls sideways by %d px (widest: %s)", w, eval[string](b, widestJS))
	}

	// A 300-character column name and a 500-character task name.
	long := strings.Repeat("measurement_", 25)
	task := strings.Repeat("Northside", 55)
	var sb strings.Builder
	fmt.Fprintf(&sb, "task,y,x1,%s\n", long)
	for i := 0; i < 60; i++ {
		name := fmt.Sprintf("t%d", i%3)
		if i%3 == 0 {
			name = task
		}
		fmt.Fprintf(&sb, "%s,%d,%d,%d\n", name, (i*7)%5, i%4, (i*3)%7)
	}
	for _, vp := range []struct {
		w, h   int64
		mobile bool
	}{{1280, 800, false}, {390, 844, true}} {
		b.viewport(vp.w, vp.h, vp.mobile)
		b.loadFile(fmt.Sprintf("long-%d.csv", vp.w), sb.String())
		b.do(chromedp.Click(chromedp.CSS("#play")))
		b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 30*time.Second)
		b.screenshot(fmt.Sprintf("long-names-%d.png", vp.w))
		if w := b.sideways(); w > 0 {
			t.Errorf("at %d px with long names the page scrolls sideways by %d px (widest: %s)", vp.w, w, eval[string](b, widestJS))
		}
	}
	b.noConsoleErrors()
}
