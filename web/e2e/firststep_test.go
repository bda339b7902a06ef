package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// promptShown is true while the data panel asks for a file's columns.
const promptShown = `spmtlApp.columnPrompt() !== ""`

// shownErrors lists the text of every error element the page shows (the
// data panel's, the panels', Play's, the banner, a field's) and every
// field marked invalid.
const shownErrors = `Array.from(document.querySelectorAll(".error, .data-error, .panel-error, .field-error, [aria-invalid=true]"))
	.filter((e) => !e.hidden && e.offsetParent !== null).map((e) => e.id + ": " + (e.textContent || e.value || ""))`

// waitForPrompt waits for the data panel's column prompt (or a refusal
// in its place) and fails the test when an error is shown.
func (b *browser) waitForPrompt(timeout time.Duration) string {
	b.t.Helper()
	b.waitFor(`!document.getElementById("data-error").hidden || (typeof spmtlApp.columnPrompt === "function" && `+promptShown+`)`, timeout)
	if errs := eval[[]string](b, shownErrors); len(errs) > 0 {
		b.t.Fatalf("the file is greeted with errors: %q", errs)
	}
	return eval[string](b, `spmtlApp.columnPrompt()`)
}

// TestFirstStepNotAnError: a file whose columns are not named task and y
// (exam.csv: school, score, sex, intake, student, hours) is greeted by a
// neutral prompt, not an error: no error element is shown, the menus
// offer the file's columns with the suggested ones marked (school, a text
// column whose values repeat, for the task; score, a numeric column named
// as labels are, for the label, before hours, the last numeric one), and
// the summary, the run bar and the hint name
// the file, not the data set loaded before it. The error comes only after
// something wrong: Play before the columns are chosen (nothing is
// trained, the task menu takes the focus), a label column that cannot be
// one (intake, three words). A valid choice then reads the file.
func TestFirstStepNotAnError(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	exam, _ := examCSV(t)
	b.upload("#file", exam)
	prompt := b.waitForPrompt(20 * time.Second)
	for _, s := range []string{`exam.csv has no column named "task" or "y"`, "Suggested: school as the task, score as the label"} {
		if !strings.Contains(prompt, s) {
			t.Errorf("the prompt %q lacks %q", prompt, s)
		}
	}
	if c := eval[string](b, `getComputedStyle(document.getElementById("column-prompt")).color`); c == eval[string](b, `getComputedStyle(document.getElementById("data-error")).color`) {
		t.Errorf("the prompt is written in the error's colour %s", c)
	}
	type menus struct {
		Task, Label           string
		TaskText, LabelText   []string
		TaskIndex, LabelIndex int
	}
	m := eval[menus](b, `(() => { const t = document.getElementById("task-col"), l = document.getElementById("label-col");
		const texts = (s) => Array.from(s.options, (o) => o.textContent);
		return {Task: t.value, Label: l.value, TaskText: texts(t), LabelText: texts(l), TaskIndex: t.selectedIndex, LabelIndex: l.selectedIndex}; })()`)
	if m.TaskIndex != -1 || m.LabelIndex != -1 {
		t.Errorf("the menus have %q and %q chosen before the visitor chose", m.Task, m.Label)
	}
	if !strings.Contains(strings.Join(m.TaskText, "|"), "school (suggested)") || !strings.Contains(strings.Join(m.LabelText, "|"), "score (suggested)") {
		t.Errorf("the menus %q and %q do not mark the suggestions", m.TaskText, m.LabelText)
	}
	for _, id := range []string{"summary", "bar-summary", "first-hint"} {
		text := eval[string](b, `document.getElementById("`+id+`").textContent`)
		if !strings.Contains(text, "exam.csv") || strings.Contains(text, "landmine") {
			t.Errorf("#%s reads %q, want the file now in the panel, exam.csv", id, text)
		}
	}

	// Play before choosing: the visitor's mistake, said in red; nothing runs.
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.dataError() !== ""`, 10*time.Second)
	if msg := eval[string](b, `spmtlApp.dataError()`); !strings.Contains(msg, "Choose the task and label columns of exam.csv first") {
		t.Errorf("Play before choosing says %q", msg)
	}
	if st := eval[string](b, `spmtlApp.state()`); st != "idle" || eval[int](b, `spmtlApp.snapshots().length`) != 0 {
		t.Errorf("Play before choosing left the page %q with %d snapshots, want idle with none", st, eval[int](b, `spmtlApp.snapshots().length`))
	}
	if f := eval[string](b, `document.activeElement.id`); f != "task-col" {
		t.Errorf("the focus is on %q, want the task menu", f)
	}

	// A valid task column: the prompt asks for the label only, nothing red.
	b.do(chromedp.SetValue(chromedp.CSS("#task-col"), "school"))
	b.waitFor(`spmtlApp.columnPrompt().includes("Choose which column holds the label")`, 10*time.Second)
	if errs := eval[[]string](b, shownErrors); len(errs) > 0 {
		t.Errorf("after a valid task column: errors %q", errs)
	}
	if p := eval[string](b, `spmtlApp.columnPrompt()`); strings.Contains(p, "as the task") {
		t.Errorf("the prompt %q still asks for the task", p)
	}

	// A label that cannot be one (three words): now an error.
	b.do(chromedp.SetValue(chromedp.CSS("#label-col"), "intake"))
	b.waitFor(`spmtlApp.dataError() !== ""`, 20*time.Second)
	if msg := eval[string](b, `spmtlApp.dataError()`); !strings.Contains(msg, "exam.csv") || !strings.Contains(msg, "label") {
		t.Errorf("the label intake is refused with %q", msg)
	}
	if p := eval[string](b, `spmtlApp.columnPrompt()`); p != "" {
		t.Errorf("the prompt %q is shown beside the refusal", p)
	}
	b.do(chromedp.SetValue(chromedp.CSS("#label-col"), "score"))
	b.waitFor(`spmtlApp.summary().name === "exam.csv" && spmtlApp.state() === "idle"`, 20*time.Second)
	if msg := eval[string](b, `spmtlApp.dataError()`); msg != "" {
		t.Errorf("exam.csv read, and the data panel still says %q", msg)
	}
	b.noConsoleErrors()
}

// TestFirstStepSuggestions: "Use these" reads the file with the suggested
// columns (the grouped file's group as the task: its label y is found by
// name, so only the task is asked for); axe-core finds no violation in
// the prompt at 390×844.
func TestFirstStepSuggestions(t *testing.T) {
	b := newBrowser(t)
	b.viewport(390, 844, true)
	b.openPage(true)
	b.upload("#file", writeTemp(t, "grouped.csv", groupedCSV(3, 4, 8, 12, false)))
	prompt := b.waitForPrompt(30 * time.Second)
	if !strings.Contains(prompt, `grouped.csv has no column named "task"`) || strings.Contains(prompt, `"y"`) || !strings.Contains(prompt, "Suggested: group as the task") {
		t.Errorf("the prompt %q", prompt)
	}
	if l := eval[string](b, `document.getElementById("label-col").value`); l != "y" {
		t.Errorf("the label menu shows %q, want y (the file has it)", l)
	}
	b.axe(axeSource(t), "phone 390×844, the column prompt")
	b.do(chromedp.Click(chromedp.CSS("#use-suggested")))
	b.waitFor(`spmtlApp.summary().name === "grouped.csv" && spmtlApp.state() === "idle"`, 30*time.Second)
	if got := eval[[]string](b, `[spmtlApp.summary().taskColumn, spmtlApp.summary().labelColumn]`); got[0] != "group" || got[1] != "y" {
		t.Errorf("read with task and label columns %q, want group and y", got)
	}
	if p := eval[string](b, `spmtlApp.columnPrompt()`); p != "" {
		t.Errorf("the prompt %q is still shown after the file was read", p)
	}
	if n := eval[int](b, `spmtlApp.summary().tasks.length`); n != 4 {
		t.Errorf("grouped.csv: %d tasks, want 4", n)
	}
	b.noConsoleErrors()
}

// TestPromptShowsTheFilesSettings: while a file waits for its columns,
// the Model panel shows the settings a visitor's file starts from (not
// the bundled data set's before it), an edit made meanwhile is the one
// the file is read with, and the map says which file it waits for rather
// than listing the tasks of the data set before it.
func TestPromptShowsTheFilesSettings(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	if v := eval[string](b, `document.getElementById("maxIter").value`); v != "10" {
		t.Fatalf("the bundled preset's max iterations %q, want 10", v)
	}
	b.upload("#file", writeTemp(t, "grouped.csv", groupedCSV(3, 4, 8, 12, false)))
	b.waitForPrompt(30 * time.Second)
	own := eval[[]string](b, `["maxIter", "train", "preset"].map((id) => document.getElementById(id).value)`)
	if own[0] != "1000" || own[1] != "0.75" || own[2] != "custom" {
		t.Errorf("while the file waits, max iterations, train rows/task and Preset read %q; want a visitor's file's 1000, 0.75 and \"your data\" (custom)", own)
	}
	if l := eval[string](b, `document.getElementById("heatmap").getAttribute("aria-label")`); !strings.Contains(l, "grouped.csv waits for its task and label columns") || strings.Contains(l, "landmine") {
		t.Errorf("while the file waits, the map says %q", l)
	}
	b.setField("rho", "0.0321")
	b.do(chromedp.Click(chromedp.CSS("#use-suggested")))
	b.waitFor(`spmtlApp.summary().name === "grouped.csv" && spmtlApp.state() === "idle"`, 30*time.Second)
	if v := eval[string](b, `document.getElementById("rho").value`); v != "0.0321" {
		t.Errorf("ρ edited while the file waited reads %q once it is read, want 0.0321", v)
	}
	if l := eval[string](b, `document.getElementById("heatmap").getAttribute("aria-label")`); !strings.Contains(l, "of 4 tasks of grouped.csv") {
		t.Errorf("once read, the map says %q", l)
	}
	b.noConsoleErrors()
}

// TestRefusedFileShowsItsSettings: a file refused before it was ever read
// leaves "your data" in Preset; the Model panel then shows the settings a
// visitor's file starts from (not the bundled data set's before it), the
// map says which file is not read rather than listing the tasks of the data
// set before it, and an edit made meanwhile is the one the file is read
// with once the refusal's remedy is taken.
func TestRefusedFileShowsItsSettings(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	var sb strings.Builder
	sb.WriteString("task,y,x,w\n")
	for i := 0; i < 24; i++ {
		w := fmt.Sprint(i % 5)
		if i == 17 {
			w = "n.d."
		}
		fmt.Fprintf(&sb, "t%d,%d,%.2f,%s\n", i%3, i%4, float64(i)/7, w)
	}
	b.upload("#file", writeTemp(t, "bad.csv", sb.String()))
	b.waitFor(`!document.getElementById("data-error").hidden`, 30*time.Second)
	own := eval[[]string](b, `["maxIter", "train", "preset"].map((id) => document.getElementById(id).value)`)
	if own[0] != "1000" || own[1] != "0.75" || own[2] != "custom" {
		t.Errorf("after the refusal, max iterations, train rows/task and Preset read %q; want a visitor's file's 1000, 0.75 and \"your data\" (custom)", own)
	}
	if l := eval[string](b, `document.getElementById("heatmap").getAttribute("aria-label")`); !strings.Contains(l, "bad.csv is not read") || strings.Contains(l, "landmine") {
		t.Errorf("after the refusal, the map says %q", l)
	}
	// The map draws it too, where its rows would be (a map of no row drew nothing).
	b.waitFor(`((spmtlApp.heatmapLayout() || {}).empty || "").includes("bad.csv is not read")`, 5*time.Second)
	b.setField("rho", "0.0321")
	b.do(chromedp.Click(chromedp.CSS("#leave-out")))
	b.waitFor(`spmtlApp.summary().name === "bad.csv" && spmtlApp.state() === "idle"`, 30*time.Second)
	if v := eval[string](b, `document.getElementById("rho").value`); v != "0.0321" {
		t.Errorf("ρ edited after the refusal reads %q once the file is read, want 0.0321", v)
	}
	b.noConsoleErrors()
}

// evalAwait evaluates a JS expression whose value is a promise, and
// returns what it resolves to.
func evalAwait[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// TestWordsAndDigits: the predictions preview shows a prediction to 4
// significant digits (its full text kept for the CSV and the cell's
// title), and the run note says a multiple of the automatic λ0 as what it
// is, not "λ0 auto × 8 chose ...".
func TestWordsAndDigits(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	for _, c := range []struct{ in, want string }{
		{"0.73123456789012345", "0.7312"},
		{"-0.045312345678901234", "-0.04531"},
		{"1234.5678901234567", "1235"},
		{"2", "2"},
		{"0", "0"},
		{"1.2345678901234567e-07", "1.235e-7"},
		{"12345678.901234567", "1.235e+7"},
		{"NaN", "NaN"},
		{"", ""},
	} {
		got := evalAwait[string](b, `import("./js/model.js").then((m) => m.previewNumber(`+strconv.Quote(c.in)+`))`)
		if got != c.want {
			t.Errorf("previewNumber(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		k    float64
		want string
	}{
		{1, "λ0 auto chose λ0 = 1.344."},
		{8, "λ0 = 1.344: 8 × the automatic choice (0.1680)."},
	} {
		got := evalAwait[string](b, fmt.Sprintf(`import("./js/controller.js").then((m) => m.chosenLambda0({config: {selfPaced: true, autoLambda0: %v}}, {lambda: 1.344}))`, c.k))
		if got != c.want {
			t.Errorf("λ0 auto × %v: the note says %q, want %q", c.k, got, c.want)
		}
	}
	b.noConsoleErrors()
}

// TestFirstStepSuggestsTheGroupAndTheLabel: a label column named as
// labels are (Outcome) is suggested over the last numeric column (a
// feature); Excel's first line "sep=;" does not hide the suggestions; and
// a file sorted by its groups, whose first group has more rows than the
// suggestions' sample, still has its group column suggested as the task;
// a column of prices is a number, not the groups; R's files get their
// grouping column (quoted codes) as the task, and no label where none is
// named and several columns could be one.
func TestFirstStepSuggestsTheGroupAndTheLabel(t *testing.T) {
	const both = "Suggested: Region as the task, Outcome as the label"
	for _, c := range []struct {
		name, head string
		rows       int
		row        func(i int) string
		want, not  string
	}{
		{"regions.csv", "sep=;\nRegion;Outcome;feat1;feat2\n", 24, func(i int) string { return fmt.Sprintf("site%02d;%d,5;%d;%d,25\n", i%4, i%7, (i*3)%5, i%3) }, both, ""},
		{"sorted.csv", "Region,Outcome,feat1\n", 1200, func(i int) string { return fmt.Sprintf("site%02d,%d.5,%d\n", i/600, i%7, (i*3)%5) }, both, ""},
		// Excel's "Unicode Text" (tabs) in a decimal-comma locale: Outcome
		// is a number ("3,5"), not words, so it is the label, as Go reads it.
		{"regions.txt", "Region\tOutcome\tfeat1\n", 24, func(i int) string { return fmt.Sprintf("site%02d\t%d,5\t%d\n", i%4, i%7, (i*3)%5) }, both, ""},
		// An accountant's negatives, "(12.5)", are numbers, as Go reads
		// them: not a column of words to suggest as the groups.
		{"ledger.csv", "Amount,Branch,Outcome\n", 40, func(i int) string { return fmt.Sprintf("(%d.5),b%02d,%d.5\n", i/8, i%4, i%7) }, "Suggested: Branch as the task, Outcome as the label", "Amount as the task"},
		// A price column left of the groups was read as words by the
		// page's suggestions (Go reads "$95" as 95), and so suggested as the task.
		{"prices.csv", "Price,Region,Outcome\n", 40, func(i int) string { return fmt.Sprintf("$%d,site%02d,%d.5\n", 90+i%5, i%4, i%7) }, both, ""},
		// R's write.csv of a growth study: the child's id in quotes, Sex
		// constant within each child (it was suggested as the label).
		// Subject is the task; of distance and age, which both vary within
		// a child, neither is named as labels are, so no label is suggested.
		{"growth.csv", "\"distance\",\"age\",\"Subject\",\"Sex\"\n", 40, func(i int) string {
			return fmt.Sprintf("%d.5,%d,\"M%02d\",\"%s\"\n", 20+i%7, 8+2*(i%4), i/4, []string{"Male", "Female"}[(i/4)%2])
		}, "Suggested: Subject as the task. ", "as the label"},
		// A file of schools whose first columns are two-valued words: the
		// school (codes in quotes, in runs) is the task, not Minority.
		{"schools.csv", "\"School\",\"Minority\",\"SES\",\"MathAch\"\n", 60, func(i int) string {
			return fmt.Sprintf("\"%d\",\"%s\",%.3f,%.3f\n", 1224+i/10, []string{"No", "Yes"}[i%3/2], float64(i%9)/7-0.5, float64(i%13)+0.25)
		}, "Suggested: School as the task.", "Minority as the task"},
		// nlme's Wafer: Site (a name groups have) numbers the sites 1 to 8
		// within each wafer; Wafer, in runs, is the groups.
		{"wafers.csv", "\"Wafer\",\"Site\",\"voltage\",\"current\"\n", 400, func(i int) string {
			return fmt.Sprintf("\"%d\",\"%d\",%.1f,%.4f\n", 1+i/40, 1+(i/5)%8, 0.8+0.4*float64(i%5), float64(i%17)/3)
		}, "Suggested: Wafer as the task", "Site as the task"},
		// carData's Vocab, sorted by year: its first 500 rows are all of
		// 1974, so the score (0 to 10, repeating) was suggested as the
		// task. The year, one whole number through a sample that is not
		// the whole file, is the groups.
		{"vocab.csv", "\"year\",\"vocabulary\",\"sex\",\"education\"\n", 1500, func(i int) string {
			return fmt.Sprintf("%d,%d,\"%s\",%d\n", 1974+2*(i/700), (i*7)%11, []string{"Male", "Female"}[i%2], 8+(i*5)%9)
		}, "Suggested: year as the task", "vocabulary as the task"},
	} {
		b := newBrowser(t)
		b.openPage(true)
		var sb strings.Builder
		sb.WriteString(c.head)
		for i := 0; i < c.rows; i++ {
			sb.WriteString(c.row(i))
		}
		b.upload("#file", writeTemp(t, c.name, sb.String()))
		if prompt := b.waitForPrompt(30 * time.Second); !strings.Contains(prompt, c.want) || c.not != "" && strings.Contains(prompt, c.not) {
			t.Errorf("%s: the prompt %q, want %q and not %q", c.name, prompt, c.want, c.not)
		}
		b.noConsoleErrors()
	}
}

// TestPromptKeepsRowChoicesAndDropsOldRefusals: a refusal of the file
// before stays no longer beside the next file's column prompt (its buttons
// did nothing there), and "Rows missing a value" and "Features' origin"
// chosen while the prompt shows are the ones the file is read with once
// its columns are chosen (they were thrown away, and the file refused).
func TestPromptKeepsRowChoicesAndDropsOldRefusals(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	b.upload("#file", writeTemp(t, "na.csv", "task,y,x1\na,1,2\na,2,NA\nb,3,1\nb,4,2\n"))
	b.shownError("data-error", 20*time.Second)
	var sb strings.Builder
	sb.WriteString("Plant,uptake,conc\n")
	for i := 0; i < 40; i++ {
		conc := fmt.Sprint(95 + 100*(i%7))
		if i%13 == 5 {
			conc = "NA"
		}
		fmt.Fprintf(&sb, "p%d,%d.5,%s\n", i%4, 10+i%9, conc)
	}
	b.upload("#file", writeTemp(t, "plants.csv", sb.String()))
	b.waitFor(`typeof spmtlApp.columnPrompt === "function" && (spmtlApp.columnPrompt() || "").includes("plants.csv")`, 20*time.Second)
	if eval[bool](b, `!document.getElementById("data-error").hidden`) {
		t.Errorf("the refusal of na.csv stays beside plants.csv's prompt: %q", eval[string](b, `document.getElementById("data-error").textContent`))
	}
	for id, v := range map[string]string{"missing-rows": "omit", "feature-origin": "zero"} {
		b.do(chromedp.SetValue(chromedp.CSS("#"+id), v))
		b.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.getElementById(%q).dispatchEvent(new Event("change"))`, id)))
	}
	b.do(chromedp.SetValue(chromedp.CSS("#task-col"), "Plant"))
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("task-col").dispatchEvent(new Event("change"))`))
	b.do(chromedp.SetValue(chromedp.CSS("#label-col"), "uptake"))
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("label-col").dispatchEvent(new Event("change"))`))
	b.waitFor(`spmtlApp.summary() !== null && spmtlApp.summary().name === "plants.csv" && spmtlApp.state() === "idle"`, 30*time.Second)
	if n := eval[string](b, `spmtlApp.summary().missingNote || ""`); !strings.Contains(n, "left out") {
		t.Errorf("the rows missing a value were not left out: note %q", n)
	}
	got := eval[[]string](b, `["missing-rows", "feature-origin"].map((id) => document.getElementById(id).value)`)
	if h := b.hashParams(); got[0] != "omit" || got[1] != "zero" || h.Get("origin") != "zero" || h.Get("missing") != "omit" {
		t.Errorf("after the columns were chosen: menus %v, link missing=%q origin=%q; want omit and zero", got, h.Get("missing"), h.Get("origin"))
	}
	b.noConsoleErrors()
}
