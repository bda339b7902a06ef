package e2e

// Tests of a visitor's own file, end to end in the page: the intake that
// never guesses columns, the column roles, the defaults for own data,
// tuning in a worker pool, saving, loading and predicting with a model,
// and the shared-knowledge view. Go computes the same things natively
// here, and the page must agree with it.

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/chromedp/chromedp"
	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/mtl"
)

// interceptDownloads makes the page's downloads land in window.__downloads
// (file name → text) instead of on disk. The blobs are kept as the page
// makes their URLs and read from there: the page's Content-Security-Policy
// lets it fetch nothing from a blob: URL.
func (b *browser) interceptDownloads() {
	b.t.Helper()
	b.do(chromedp.Evaluate[chromedp.Void](`(() => {
		window.__downloads = {};
		const blobs = new Map(), make = URL.createObjectURL;
		URL.createObjectURL = (blob) => { const u = make(blob); blobs.set(u, blob); return u; };
		HTMLAnchorElement.prototype.click = function () {
			if (!this.download || !blobs.has(this.href)) return;
			const name = this.download;
			blobs.get(this.href).text().then((t) => { window.__downloads[name] = t; });
		};
	})()`))
}

// downloaded waits for a download and returns its text.
func (b *browser) downloaded(name string) string {
	b.t.Helper()
	b.waitFor(fmt.Sprintf(`window.__downloads && typeof window.__downloads[%q] === "string"`, name), 20*time.Second)
	return eval[string](b, fmt.Sprintf(`window.__downloads[%q]`, name))
}

// upload chooses a file in a file input.
func (b *browser) upload(sel, path string) {
	b.t.Helper()
	b.do(chromedp.SetUploadFiles(chromedp.CSS(sel), []string{path}))
}

// loadFile drops a file named name holding text on the page, as a visitor
// does, and waits until it is the loaded data set and the page is idle.
func (b *browser) loadFile(name, text string) {
	b.t.Helper()
	b.upload("#file", writeTemp(b.t, name, text))
	b.waitFor(fmt.Sprintf(`spmtlApp.summary() !== null && spmtlApp.summary().name === %q && spmtlApp.state() === "idle"`, name), 90*time.Second)
}

// menu returns a select's options.
func (b *browser) menu(id string) []string {
	b.t.Helper()
	return eval[[]string](b, fmt.Sprintf(`Array.from(document.getElementById(%q).options).map((o) => o.value)`, id))
}

// ownCSV writes tasks × rows of a regression CSV with the given header
// (its first column the task, the second the label, then numeric
// features).
func ownCSV(header []string, tasks, rows int) string {
	var sb strings.Builder
	sb.WriteString(strings.Join(header, ",") + "\n")
	nf := len(header) - 2
	for t := 0; t < tasks; t++ {
		for i := 0; i < rows; i++ {
			x := make([]float64, nf)
			y := 0.1 * float64(t)
			for k := range x {
				x[k] = float64((i*(3+2*k)+t*(k+1))%9) - 4
				y += float64(k%3-1) * 0.7 * x[k]
			}
			y += 0.05 * float64((i*13+t*7)%11-5)
			fmt.Fprintf(&sb, "t%d,%.4f", t+1, y)
			for _, v := range x {
				fmt.Fprintf(&sb, ",%v", v)
			}
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// TestOwnFileUTF16: Excel's "Unicode Text" export (UTF-16 with a byte
// order mark, tab-separated) loads like its UTF-8 copy, non-ASCII task
// names included.
func TestOwnFileUTF16(t *testing.T) {
	text := strings.NewReplacer("t1,", "École 1\t", "t2,", "Zürich\t", ",", "\t").Replace(ownCSV([]string{"task", "y", "x1", "x2"}, 2, 10))
	u := []byte{0xFF, 0xFE}
	for _, c := range utf16.Encode([]rune(text)) {
		u = append(u, byte(c), byte(c>>8))
	}
	b := newBrowser(t)
	b.openPage(true)
	b.loadFile("unicode.txt", string(u))
	got := eval[string](b, `spmtlApp.summary().tasks.map((t) => t.name).join("|") + " " + spmtlApp.summary().delimiter + " " + spmtlApp.summary().rows`)
	if got != "École 1|Zürich tab 20" {
		t.Errorf("tasks, delimiter and rows: %q, want \"École 1|Zürich tab 20\"", got)
	}
	// The run bar's hint names a file after its tasks.
	if hint := eval[string](b, `document.getElementById("first-hint").textContent`); !strings.HasPrefix(hint, "Press Play to train the 2 tasks in unicode.txt; ") {
		t.Errorf("the hint reads %q, want it to begin \"Press Play to train the 2 tasks in unicode.txt; \"", hint)
	}
	b.noConsoleErrors()
}

// TestOwnFileWindows1252: a spreadsheet's CSV export on Western European
// Windows is Windows-1252, where "é" is the one byte 0xE9. It loads with
// its accented task names intact (Go decodes it, as for the command line),
// and the page says how it was read. Go's decoding of every byte of the
// upper half matches the browser's own TextDecoder("windows-1252"). The
// workbook itself, dropped by mistake, is refused with what to do instead.
func TestOwnFileWindows1252(t *testing.T) {
	text := strings.NewReplacer("t1,", "\xC9cole;", "t2,", "Z\xFCrich;", "t3,", "caf\xE9 \x80;", ",", ";").Replace(ownCSV([]string{"task", "y", "x1", "x2"}, 3, 10))
	b := newBrowser(t)
	b.openPage(true)
	b.loadFile("westeuropa.csv", text)
	if got := eval[string](b, `spmtlApp.summary().tasks.map((t) => t.name).join("|")`); got != "École|Zürich|café €" {
		t.Errorf("tasks %q, want \"École|Zürich|café €\"", got)
	}
	if notes := eval[string](b, `document.getElementById("data-notes").textContent`); !strings.Contains(notes, "Read as Windows-1252 text (it is not UTF-8).") {
		t.Errorf("the data notes %q do not say the file was read as Windows-1252", notes)
	}
	// Go's tables against the browser's decoders: the upper half but the
	// five bytes Windows-1252 leaves undefined is Windows-1252; with them,
	// it is Mac OS Roman (the Encoding Standard's "macintosh").
	var upper []byte
	for c := 128; c < 256; c++ {
		if c != 0x81 && c != 0x8D && c != 0x8F && c != 0x90 && c != 0x9D {
			upper = append(upper, byte(c))
		}
	}
	goText, enc := data.DecodeText(upper)
	codes := make([]int, len(upper)) // as numbers: JSON writes a []byte as base64
	for i, c := range upper {
		codes[i] = int(c)
	}
	browser := eval[string](b, fmt.Sprintf(`new TextDecoder("windows-1252").decode(Uint8Array.from(%s))`, jsonOf(t, codes)))
	if enc != data.Windows1252 || string(goText) != browser {
		t.Errorf("Go decodes the upper half (%s) as\n%q\nthe browser as\n%q", enc, goText, browser)
	}
	whole := make([]byte, 128)
	for i := range whole {
		whole[i] = byte(128 + i)
	}
	goText, enc = data.DecodeText(whole)
	browser = eval[string](b, `new TextDecoder("macintosh").decode(Uint8Array.from({ length: 128 }, (_, i) => 128 + i))`)
	if enc != data.MacRoman || string(goText) != browser {
		t.Errorf("Go decodes the whole upper half (%s) as\n%q\nthe browser's macintosh as\n%q", enc, goText, browser)
	}
	// The workbook itself, dropped by mistake, is named with what to do.
	b.upload("#file", writeTemp(t, "westeuropa.xlsx", "PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00"))
	b.waitFor(`spmtlApp.dataError() !== ""`, 20*time.Second)
	if msg := eval[string](b, `spmtlApp.dataError()`); !strings.Contains(msg, "westeuropa.xlsx: not a text file: it is a zip archive, such as an Excel workbook (.xlsx)") || !strings.Contains(msg, "save the sheet as CSV") {
		t.Errorf("the data panel says %q for a workbook", msg)
	}
	b.noConsoleErrors()
}

// TestOwnFileRefusedThenPreset: a file without a "task" column is asked
// for it in the data panel (a prompt naming the file, no error); the two
// column menus offer exactly that file's columns; choosing them
// loads it (here with x1 as the label), and the link carries that choice.
// The landmine preset chosen after
// it loads as shipped: 19 tasks, classification on y, train 80, and no
// column choice of the file in the link.
func TestOwnFileRefusedThenPreset(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	header := []string{"group", "y", "x1", "x2"}
	b.upload("#file", writeTemp(t, "mine.csv", ownCSV(header, 3, 12)))
	if msg := b.waitForPrompt(20 * time.Second); !strings.Contains(msg, `mine.csv has no column named "task"`) {
		t.Errorf("the data panel asks %q, want the task column of mine.csv", msg)
	}
	for _, id := range []string{"task-col", "label-col"} {
		if got := b.menu(id); !slices.Equal(got, header) {
			t.Errorf("the %s menu offers %v, want exactly the file's columns %v", id, got, header)
		}
		if dis := eval[bool](b, fmt.Sprintf(`document.getElementById(%q).disabled`, id)); dis {
			t.Errorf("the %s menu is disabled beside the prompt", id)
		}
	}
	b.do(chromedp.SetValue(chromedp.CSS("#task-col"), "group"))
	b.waitFor(`spmtlApp.summary().name === "mine.csv" && spmtlApp.state() === "idle"`, 20*time.Second)
	b.do(chromedp.SetValue(chromedp.CSS("#label-col"), "x1"))
	b.waitFor(`spmtlApp.summary().labelColumn === "x1" && spmtlApp.state() === "idle"`, 20*time.Second)
	if n := eval[int](b, `spmtlApp.summary().tasks.length`); n != 3 {
		t.Errorf("mine.csv by group: %d tasks, want 3", n)
	}
	// A link made on the file carries its column choice (issue 32: it used
	// to carry none), for the file the link asks for when opened.
	if h := eval[string](b, `location.hash`); !strings.Contains(h, "label=x1") || !strings.Contains(h, "task=group") {
		t.Errorf("the link %q does not carry the file's column choice", h)
	}

	b.do(chromedp.SetValue(chromedp.CSS("#preset"), "landmine"))
	b.waitFor(`spmtlApp.summary().name === "landmine/data.csv" && spmtlApp.state() === "idle"`, 30*time.Second)
	type sum struct {
		Tasks       []any  `json:"tasks"`
		Kind        string `json:"kind"`
		LabelColumn string `json:"labelColumn"`
		TaskColumn  string `json:"taskColumn"`
	}
	got := eval[sum](b, `spmtlApp.summary()`)
	if len(got.Tasks) != 19 || got.Kind != "classification" || got.LabelColumn != "y" || got.TaskColumn != "task" {
		t.Errorf("landmine after mine.csv: %d tasks, %s, task column %q, label column %q; want 19 tasks, classification, task and y",
			len(got.Tasks), got.Kind, got.TaskColumn, got.LabelColumn)
	}
	if v := eval[string](b, `document.getElementById("train").value`); v != "80" {
		t.Errorf("train after choosing landmine: %q, want its preset 80", v)
	}
	if v := eval[string](b, `document.getElementById("lambda0").value`); v != "1" {
		t.Errorf("λ0 after choosing landmine: %q, want its preset 1", v)
	}
	if h := eval[string](b, `location.hash`); strings.Contains(h, "x1") || strings.Contains(h, "label=") || strings.Contains(h, "task=") || !strings.Contains(h, "data=landmine") {
		t.Errorf("the link after choosing landmine is %q: want data=landmine and no column choice", h)
	}
	if msg := eval[string](b, `spmtlApp.error()`); msg != "" {
		t.Errorf("an error is still shown after landmine loaded: %q", msg)
	}
	b.noConsoleErrors()
}

// withColumn appends a column to a CSV text: name in the header, value(i)
// on data row i.
func withColumn(text, name string, value func(i int) string) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i := range lines {
		if i == 0 {
			lines[i] += "," + name
		} else {
			lines[i] += "," + value(i-1)
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestOwnFileTrainsOnFirstPlay: a file separated by semicolons with 12
// rows per task (and a task of one row, and a text column with a value per
// row, too many to encode)
// trains on the first Play with the defaults for own data: a train
// fraction of 0.75 and the automatic λ0, whose chosen value the page
// shows, and it names the task too small to test. The text column is
// shown left out, its menu disabled, with the reason.
func TestOwnFileTrainsOnFirstPlay(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	text := ownCSV([]string{"task", "y", "x1", "x2", "x3"}, 5, 12) + "tiny,0.5,1,2,3\n"
	text = withColumn(text, "note", func(i int) string { return fmt.Sprintf("row %d", i+1) })
	text = strings.ReplaceAll(text, ",", ";") // as a spreadsheet in many locales writes it
	b.loadFile("twelve.csv", text)
	// Its numbers have decimal points: the notes say nothing of decimal
	// commas (they once did for every file separated by semicolons).
	if notes := eval[string](b, `document.getElementById("data-notes").textContent`); !strings.Contains(notes, "Read with ; as the delimiter.") || strings.Contains(notes, "decimal comma") {
		t.Errorf("the data notes %q do not say (only) that the file was read with ; as the delimiter", notes)
	}
	type col struct {
		Role, Text        string
		Checked, Disabled bool
	}
	note := eval[col](b, `(() => { const tr = document.querySelector('#columns tr[data-column="note"]'), menu = tr.querySelector("select");
		return {Role: tr.dataset.role, Text: tr.cells[1].textContent, Checked: menu.value !== "dropped", Disabled: menu.disabled}; })()`)
	if note.Role != "refused" || note.Checked || !note.Disabled || !strings.Contains(note.Text, "more than 50") {
		t.Errorf("the text column with 61 values: %+v, want it refused, left out, its menu disabled, with the reason", note)
	}
	form := eval[[]string](b, `["train", "lambda0"].map((id) => document.getElementById(id).value)`)
	if form[0] != "0.75" || form[1] != "auto" {
		t.Errorf("own file: train %q, λ0 %q; want 0.75 and auto", form[0], form[1])
	}
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 30*time.Second)
	auto := eval[float64](b, `spmtlApp.runInfo().config.autoLambda0`)
	if auto != 1 {
		t.Errorf("the run's autoLambda0 is %v, want 1 (λ0 auto)", auto)
	}
	lambda := eval[float64](b, `spmtlApp.snapshots()[0].lambda`)
	want := eval[string](b, `"chose λ0 = " + spmtlApp.snapshots()[0].lambda.toPrecision(4)`)
	runNote := eval[string](b, `document.getElementById("run-note").textContent`)
	if !(lambda > 0) || !strings.Contains(runNote, want) {
		t.Errorf("the run note %q does not show the λ0 chosen, %q (%v)", runNote, want, lambda)
	}
	if !strings.Contains(runNote, "1 task too small to test") || !strings.Contains(runNote, "tiny") {
		t.Errorf("the run note %q does not name the task too small to test", runNote)
	}
	if res := eval[string](b, `document.getElementById("results-note").textContent`); !strings.Contains(res, want) {
		t.Errorf("the results note %q does not show the λ0 chosen", res)
	}
	b.noConsoleErrors()
}

// TestOwnFileExportQuirks: pandas' unnamed row index before the columns,
// a spreadsheet's trailing delimiter after them, and numbers with
// thousands separators ("12,345"). The column menus offer only the named
// columns; once the task column is chosen the file loads, both unnamed
// columns listed by position, refused with the reason, the separated
// numbers read as numbers and said so, and it trains.
func TestOwnFileExportQuirks(t *testing.T) {
	text := ownCSV([]string{"group", "y", "x1", "x2"}, 3, 12)
	text = withColumn(text, "income", func(i int) string { return fmt.Sprintf("\"%d,%03d\"", 10+i%7, (i*137)%1000) })
	lines := strings.Split(strings.TrimSpace(text), "\n")
	for i := range lines {
		idx := ""
		if i > 0 {
			idx = fmt.Sprint(i - 1)
		}
		lines[i] = idx + "," + lines[i] + ","
	}
	b := newBrowser(t)
	b.openPage(true)
	b.upload("#file", writeTemp(t, "frame.csv", strings.Join(lines, "\n")+"\n"))
	b.waitForPrompt(20 * time.Second)
	for _, id := range []string{"task-col", "label-col"} {
		if got, want := b.menu(id), []string{"group", "y", "x1", "x2", "income"}; !slices.Equal(got, want) {
			t.Errorf("the %s menu offers %q, want the named columns %q", id, got, want)
		}
	}
	b.do(chromedp.SetValue(chromedp.CSS("#task-col"), "group"))
	b.waitFor(`spmtlApp.summary().name === "frame.csv" && spmtlApp.state() === "idle"`, 20*time.Second)
	if n := eval[int](b, `spmtlApp.summary().features`); n != 3 {
		t.Errorf("%d features, want 3 (x1, x2, income)", n)
	}
	if notes := eval[string](b, `document.getElementById("data-notes").textContent`); !strings.Contains(notes, "Numbers: income has numbers written with thousands separators: 1,234 is read as 1234.") {
		t.Errorf("the data notes %q do not say income's thousands separators were read", notes)
	}
	rows := eval[[]string](b, `Array.from(document.querySelectorAll("#columns tbody tr")).map((tr) => tr.dataset.role + ": " + tr.cells[0].textContent + ": " + tr.cells[1].textContent + ": " + (tr.querySelector("select") ? tr.querySelector("select").getAttribute("aria-label") : ""))`)
	want := []string{
		"refused: column 1: left out: no name, so its values are not read: read column 1 as",
		"task: group: task: ", "label: y: label: ",
		"numeric: x1: numeric: read x1 as", "numeric: x2: numeric: read x2 as",
		// A different whole number in every row: flagged as an id could be.
		"numeric: income: numeric, written with thousands separators; a different whole number in every row, like an id: leave it out unless its numbers measure something: read income as",
		"refused: column 7: left out: no name, no values: read column 7 as",
	}
	if !slices.Equal(rows, want) {
		t.Errorf("the columns table lists\n%q\nwant\n%q", rows, want)
	}
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 30*time.Second)
	b.noConsoleErrors()
}

// examCSV returns a copy of the command line's exam.csv (a path the
// browser can read) and its text.
func examCSV(t *testing.T) (string, []byte) {
	text, err := os.ReadFile(filepath.Join("..", "..", "core", "cmd", "spmtl", "testdata", "exam.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return writeTemp(t, "exam.csv", string(text)), text
}

// loadExam drops exam.csv on the page and chooses its task (school) and
// label (score) columns at the first-step prompt; with dropStudent it
// also leaves out the student id. It returns the file's path and text.
func (b *browser) loadExam(t *testing.T, dropStudent bool) (string, []byte) {
	t.Helper()
	path, text := examCSV(t)
	b.upload("#file", path)
	b.waitForPrompt(20 * time.Second)
	b.do(chromedp.SetValue(chromedp.CSS("#task-col"), "school"))
	b.waitFor(`spmtlApp.columnPrompt().includes("holds the label")`, 20*time.Second)
	b.do(chromedp.SetValue(chromedp.CSS("#label-col"), "score"))
	b.waitFor(`spmtlApp.summary().name === "exam.csv" && spmtlApp.state() === "idle"`, 20*time.Second)
	if dropStudent {
		b.do(chromedp.SetValue(chromedp.CSS(`#columns tr[data-column="student"] select`), "dropped"))
		b.waitFor(`spmtlApp.columns().find((c) => c.name === "student").role === "dropped" && spmtlApp.state() === "idle"`, 20*time.Second)
	}
	return path, text
}

// TestOwnFileRolesSavePredict: a file with text columns (exam.csv: task
// column school, label score, text columns sex and intake, an id column
// student, flagged as one) shows every column's role; its role menu
// leaves student out; a
// run finishes; the model is saved, loaded back and used to predict the
// file, and the predictions (shown, and downloaded as CSV) are Go's:
// app.Predict on the same model file gives the same numbers and text. The
// shared-knowledge panel shows MTFL's feature relevance over the encoded
// feature names.
func TestOwnFileRolesSavePredict(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	b.interceptDownloads()
	examPath, examText := examCSV(t)
	b.upload("#file", examPath)
	b.waitForPrompt(20 * time.Second)
	if got := b.menu("task-col"); !slices.Equal(got, []string{"school", "score", "sex", "intake", "student", "hours"}) {
		t.Errorf("task menu %v, want exam.csv's columns", got)
	}
	b.do(chromedp.SetValue(chromedp.CSS("#task-col"), "school"))
	b.waitFor(`spmtlApp.columnPrompt().includes("holds the label")`, 20*time.Second)
	b.do(chromedp.SetValue(chromedp.CSS("#label-col"), "score"))
	b.waitFor(`spmtlApp.summary().name === "exam.csv" && spmtlApp.state() === "idle"`, 20*time.Second)

	type row struct {
		Name, Role, Text string
		Box, Checked     bool
	}
	roles := func() map[string]row {
		rows := eval[[]row](b, `Array.from(document.querySelectorAll("#columns tbody tr")).map((tr) => {
			const menu = tr.querySelector("select");
			return {Name: tr.dataset.column, Role: tr.dataset.role, Text: tr.cells[1].textContent, Box: !!menu, Checked: !!menu && menu.value !== "dropped"};
		})`)
		out := map[string]row{}
		for _, r := range rows {
			out[r.Name] = r
		}
		return out
	}
	r := roles()
	for name, want := range map[string]string{"school": "task", "score": "label", "sex": "text", "intake": "text", "student": "numeric", "hours": "numeric"} {
		if r[name].Role != want {
			t.Errorf("column %s: role %q, want %q", name, r[name].Role, want)
		}
	}
	if !strings.Contains(r["sex"].Text, "one-hot (2 values") || !strings.Contains(r["intake"].Text, "one-hot (3 values") {
		t.Errorf("text columns read %q and %q, want one-hot with their counts", r["sex"].Text, r["intake"].Text)
	}
	if r["school"].Box || !r["student"].Box || !r["student"].Checked || !r["sex"].Checked {
		t.Errorf("role menus: %+v", r)
	}
	if !strings.Contains(r["student"].Text, "like an id: leave it out") {
		t.Errorf("student, a different whole number in every row, reads %q: not flagged as an id", r["student"].Text)
	}
	if vis := eval[bool](b, `!document.getElementById("columns-box").hidden && document.getElementById("columns-box").open`); !vis {
		t.Error("the column roles are not shown")
	}
	// "leave out" in student's menu re-loads the file without it.
	b.do(chromedp.SetValue(chromedp.CSS(`#columns tr[data-column="student"] select`), "dropped"))
	b.waitFor(`spmtlApp.columns().find((c) => c.name === "student").role === "dropped" && spmtlApp.state() === "idle"`, 20*time.Second)
	if r := roles(); r["student"].Checked || r["student"].Role != "dropped" {
		t.Errorf("student after leaving it out: %+v", r["student"])
	}
	ft := eval[string](b, `spmtlApp.summary().featureText`)
	notes := eval[string](b, `document.getElementById("data-notes").textContent`)
	if !strings.Contains(ft, "left out: student") || !strings.Contains(notes, ft) {
		t.Errorf("feature text %q (notes %q) does not say student was left out", ft, notes)
	}
	names := eval[[]string](b, `spmtlApp.summary().featureNames`)
	if !slices.Contains(names, "sex=F") || slices.Contains(names, "student") {
		t.Errorf("feature names %v, want the encoded sex=F and no student", names)
	}

	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null && spmtlApp.model() !== null`, 30*time.Second)

	// The shared knowledge of the finished run: MTFL's relevance over the encoded features.
	b.waitFor(`spmtlApp.knowledge() !== null`, 20*time.Second)
	type knowledge struct {
		Title  string `json:"title"`
		Charts []struct {
			Labels []string  `json:"labels"`
			Values []float64 `json:"values"`
		} `json:"charts"`
		Shown [][]string `json:"shown"`
		SVGs  []string   `json:"svgs"`
	}
	k := eval[knowledge](b, `spmtlApp.knowledge()`)
	if !strings.Contains(k.Title, "MTFL") || len(k.Charts) != 1 || len(k.Shown) != 1 {
		t.Fatalf("shared knowledge: %+v", k)
	}
	if !slices.Equal(k.Charts[0].Labels, names) || !slices.Contains(k.Shown[0], "sex=F") || !strings.Contains(k.SVGs[0], "sex=F") {
		t.Errorf("the relevance chart's features %v (shown %v), want the encoded names %v with sex=F drawn", k.Charts[0].Labels, k.Shown[0], names)
	}
	label := eval[string](b, `document.getElementById("knowledge-chart-1").getAttribute("aria-label") + "|" + document.getElementById("knowledge-chart-1").getAttribute("role")`)
	if !strings.HasSuffix(label, "|img") || !strings.Contains(label, "relevance") {
		t.Errorf("the chart's role and label: %q", label)
	}

	// Save, load back, predict.
	b.do(chromedp.Click(chromedp.CSS("#save-model")))
	modelText := b.downloaded("spmtl-model.json")
	modelPath := writeTemp(t, "spmtl-model.json", modelText)
	b.upload("#model-file", modelPath)
	b.waitFor(`spmtlApp.model() && spmtlApp.model().from === "file"`, 20*time.Second)
	b.upload("#predict-file", examPath)
	b.waitFor(`spmtlApp.predictions() !== null`, 20*time.Second)
	type preds struct {
		Header   []string   `json:"header"`
		Rows     [][]string `json:"rows"`
		Values   []float64  `json:"values"`
		Column   string     `json:"column"`
		Warnings []string   `json:"warnings"`
	}
	got := eval[preds](b, `spmtlApp.predictions()`)
	b.do(chromedp.Click(chromedp.CSS("#predict-csv")))
	csvText := b.downloaded("exam-predictions.csv")

	m, err := app.ReadModel([]byte(modelText), "spmtl-model.json")
	if err != nil {
		t.Fatalf("the page's model file: %v", err)
	}
	if m.Encoding == nil || slices.ContainsFunc(m.Encoding.Columns, func(c data.EncodedColumn) bool { return c.Name == "student" }) {
		t.Errorf("the model's encoding %+v keeps student", m.Encoding)
	}
	want, err := app.Predict(m, examText, "exam.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Values) != len(want.Values) || len(got.Values) != 71 {
		t.Fatalf("the page predicted %d rows, Go %d (the file has 71)", len(got.Values), len(want.Values))
	}
	for i := range want.Values {
		if math.Abs(got.Values[i]-want.Values[i]) > 1e-12 {
			t.Errorf("row %d: the page predicts %.17g, Go %.17g", i+1, got.Values[i], want.Values[i])
		}
	}
	if !slices.Equal(got.Header, want.Header) || got.Column != want.Column {
		t.Errorf("header %v (%s), Go %v (%s)", got.Header, got.Column, want.Header, want.Column)
	}
	recs, err := csv.NewReader(strings.NewReader(csvText)).ReadAll()
	if err != nil {
		t.Fatalf("the downloaded CSV: %v", err)
	}
	wantRecs, err := csv.NewReader(bytes.NewReader(want.CSV())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(wantRecs) {
		t.Fatalf("the downloaded CSV has %d records, Go's %d", len(recs), len(wantRecs))
	}
	for i := range recs {
		if !slices.Equal(recs[i], wantRecs[i]) {
			t.Errorf("CSV record %d: %q, Go %q", i+1, recs[i], wantRecs[i])
		}
	}
	// The preview: the header and the first 20 rows.
	shape := eval[[]int](b, `[document.querySelectorAll("#predict-preview thead th").length, document.querySelectorAll("#predict-preview tbody tr").length]`)
	if shape[0] != len(want.Header) || shape[1] != 20 {
		t.Errorf("the preview has %d columns and %d rows, want %d and 20", shape[0], shape[1], len(want.Header))
	}
	// Its predictions, first (the CSV's last column; a wide file's preview
	// once hid them past the box's edge), to 4 significant digits, each
	// Go's full text in its title.
	if h := eval[string](b, `document.querySelector("#predict-preview thead th").textContent`); h != want.Header[len(want.Header)-1] {
		t.Errorf("the preview's first column is %q, want the prediction's %q", h, want.Header[len(want.Header)-1])
	}
	cells := eval[[][]string](b, `Array.from(document.querySelectorAll("#predict-preview tbody tr"), (tr) => {
		const c = tr.cells[0]; return [c.textContent, c.title || c.textContent]; })`)
	for i, c := range cells {
		full := want.Rows[i][len(want.Header)-1]
		if c[1] != full {
			t.Errorf("preview row %d: the prediction's full text %q, Go %q", i+1, c[1], full)
		}
		digits := strings.TrimLeft(strings.NewReplacer("-", "", ".", "").Replace(c[0]), "0")
		if v, err := strconv.ParseFloat(c[0], 64); err != nil || len(digits) > 4 || math.Abs(v-want.Values[i]) > 5e-4*math.Abs(want.Values[i]) {
			t.Errorf("preview row %d shows the prediction %q, want %.17g to 4 significant digits", i+1, c[0], want.Values[i])
		}
	}
	// The loaded model's shared knowledge is the same as the run's.
	b.waitFor(`spmtlApp.knowledge() !== null && document.getElementById("knowledge-title").textContent.includes("loaded from")`, 20*time.Second)
	b.noConsoleErrors()
	b.screenshot("own-file.png")
}

// TestTuneMatchesGo: Tune on a small file cross-validates the grid in a
// pool of workers and fills the settings with the point app.Tune chooses
// natively on the same data and options (the same scores, too); the link
// then reproduces it and a run trains with it.
func TestTuneMatchesGo(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	text := ownCSV([]string{"task", "y", "x1", "x2", "x3"}, 3, 20)
	b.loadFile("tune.csv", text)
	b.do(chromedp.Click(chromedp.CSS("#tune-scope-one"))) // this model's grid (a visitor's file defaults to every model)
	b.do(chromedp.Click(chromedp.CSS("#tune")))
	b.waitFor(`spmtlApp.tune().state === "done"`, 120*time.Second)
	if w := eval[int](b, `spmtlApp.tune().workers`); w < 2 || w > 4 {
		t.Errorf("the tuning pool had %d workers, want 2 to 4", w)
	}
	type tuned struct {
		Scores [][]*float64 `json:"scores"`
		Result struct {
			Best   [2]int     `json:"best"`
			Config mtl.Config `json:"config"`
		} `json:"result"`
	}
	got := eval[tuned](b, `spmtlApp.tune()`)

	d, err := app.Load([]byte(text), app.LoadOptions{Name: "tune.csv", TaskColumn: "task", LabelColumn: "y", DropRefused: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := app.Tune(context.Background(), d, app.TuneOptions{Config: mtl.Config{Model: "mtfl", SelfPaced: true, Seed: 1}, Folds: 3, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Result.Best != res.Best || got.Result.Config.Rho != res.Config.Rho || got.Result.Config.AutoLambda0 != res.Config.AutoLambda0 {
		t.Errorf("the page chose %v (ρ %v, %v × auto), Go %v (ρ %v, %v × auto)", got.Result.Best, got.Result.Config.Rho,
			got.Result.Config.AutoLambda0, res.Best, res.Config.Rho, res.Config.AutoLambda0)
	}
	// The same to 1e-9 relative, not bit for bit: math.Exp is assembly on
	// amd64 and Go under js/wasm, and their last bits differ (math.Log's
	// do not), so the self-paced τ, and everything fitted after it,
	// differs in the last bits. On this file the two differed by up to
	// 8e-13 with the Jacobi eigensolver and 3.5e-12 with SymEigen's QR.
	for i := range res.Scores {
		for j, w := range res.Scores[i] {
			g := got.Scores[i][j]
			if (g == nil) != math.IsNaN(w) || (g != nil && math.Abs(*g-w) > 1e-9*math.Max(1, math.Abs(w))) {
				page := "none"
				if g != nil {
					page = fmt.Sprint(*g)
				}
				t.Errorf("score at ρ %v, κ %v: page %v, Go %v", res.Rho[i], res.Kappa[j], page, w)
			}
		}
	}
	wantLambda := "auto"
	if res.Config.AutoLambda0 != 1 {
		wantLambda = fmt.Sprintf("auto*%v", res.Config.AutoLambda0)
	}
	form := eval[[]string](b, `["rho", "lambda0"].map((id) => document.getElementById(id).value)`)
	if form[0] != fmt.Sprint(res.Config.Rho) || form[1] != wantLambda {
		t.Errorf("the form after tuning: ρ %q, λ0 %q; want %v and %s", form[0], form[1], res.Config.Rho, wantLambda)
	}
	if h := eval[string](b, `location.hash`); wantLambda != "auto" && !strings.Contains(h, "lambda0="+strings.ReplaceAll(wantLambda, "*", "%2A")) && !strings.Contains(h, "lambda0="+wantLambda) {
		t.Errorf("the link %q does not carry λ0 %s", h, wantLambda)
	}
	status := eval[string](b, `document.getElementById("tune-status").textContent`)
	if !strings.Contains(status, "chose ρ = ") {
		t.Errorf("tune status %q does not say what it chose", status)
	}
	// The settings train: the run's λ0 is the chosen multiple of auto.
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 30*time.Second)
	if k := eval[float64](b, `spmtlApp.runInfo().config.autoLambda0`); k != res.Config.AutoLambda0 {
		t.Errorf("the run after tuning has autoLambda0 %v, want %v", k, res.Config.AutoLambda0)
	}

	// The run on screen is the current model, trained with the form's settings.
	const drift = "settings have changed since this run"
	if s := eval[string](b, `document.getElementById("model-current").textContent`); strings.Contains(s, drift) {
		t.Errorf("the model panel says the settings changed right after the run: %q", s)
	}

	// The baseline (not self-paced) has no λ0 to tune: one column of ρ.
	b.do(chromedp.Click(chromedp.CSS("#selfPaced")))
	// An edited setting: the saves would use the run's, and the panel says so.
	if s := eval[string](b, `document.getElementById("model-current").textContent`); !strings.Contains(s, drift) || !strings.Contains(s, "\"Save this run's model\" saves the run's") {
		t.Errorf("after the self-paced box changed, the model panel says %q; want which save fits which settings", s)
	}
	b.do(chromedp.Click(chromedp.CSS("#tune")))
	b.waitFor(`spmtlApp.tune().state === "done" && spmtlApp.tune().grid.kappa.length === 0`, 120*time.Second)
	base, err := app.Tune(context.Background(), d, app.TuneOptions{Config: mtl.Config{Model: "mtfl", Seed: 1}, Folds: 3, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got = eval[tuned](b, `spmtlApp.tune()`)
	if got.Result.Best != base.Best || got.Result.Config.Rho != base.Config.Rho || len(got.Scores) != len(base.Scores) || len(got.Scores[0]) != 1 {
		t.Errorf("baseline: the page chose %v (ρ %v) over %d×%d scores, Go %v (ρ %v)", got.Result.Best, got.Result.Config.Rho,
			len(got.Scores), len(got.Scores[0]), base.Best, base.Config.Rho)
	}
	if v := eval[string](b, `document.getElementById("rho").value`); v != fmt.Sprint(base.Config.Rho) {
		t.Errorf("baseline: the form's ρ is %q, want %v", v, base.Config.Rho)
	}
	if s := eval[string](b, `document.getElementById("model-current").textContent`); !strings.Contains(s, drift) {
		t.Errorf("after Tune set other settings, the model panel says %q; want that the run's settings are not the form's", s)
	}
	b.noConsoleErrors()
	b.screenshot("tune.png")
}

// TestTuneAfterARunSaysItsSettingsChanged: Tune after a run fills the form
// with its choice; the run bar's note and the model panel then say that
// the settings shown are not the run's, and that Play trains with them
// (the saves use the run's). A ρ off Tune's grid makes its choice differ.
func TestTuneAfterARunSaysItsSettingsChanged(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	b.loadFile("tuned.csv", ownCSV([]string{"task", "y", "x1", "x2", "x3"}, 3, 20))
	b.setField("rho", "0.0123")
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 30*time.Second)
	note := func() string { return eval[string](b, `document.getElementById("run-note").textContent`) }
	model := func() string { return eval[string](b, `document.getElementById("model-current").textContent`) }
	if strings.Contains(note(), "not this run's") || strings.Contains(model(), "changed since this run") {
		t.Errorf("right after the run, the notes say its settings changed: %q; %q", note(), model())
	}
	b.do(chromedp.Click(chromedp.CSS("#tune-scope-one")), chromedp.Click(chromedp.CSS("#tune")))
	b.waitFor(`spmtlApp.tune().state === "done"`, 120*time.Second)
	if rho := eval[string](b, `document.getElementById("rho").value`); rho == "0.0123" {
		t.Fatalf("Tune left ρ at %s", rho)
	}
	if !strings.Contains(note(), "The settings shown are not this run's: Play trains a new run with them.") {
		t.Errorf("after Tune the run's note says %q; want that the settings shown are not the run's", note())
	}
	if !strings.Contains(model(), "settings have changed since this run: \"Save model for prediction\" fits them on every row") {
		t.Errorf("after Tune the model panel says %q; want that Save model for prediction fits the settings shown", model())
	}
	// The model saved for prediction is Tune's choice, as tune -save's.
	b.interceptDownloads()
	b.do(chromedp.Click(chromedp.CSS("#save-model")))
	var mf struct {
		Config struct {
			Rho float64 `json:"rho"`
		} `json:"config"`
	}
	if err := json.Unmarshal([]byte(b.downloaded("spmtl-model.json")), &mf); err != nil {
		t.Fatal(err)
	}
	if rho := eval[float64](b, `Number(document.getElementById("rho").value)`); mf.Config.Rho != rho {
		t.Errorf("the model saved for prediction after Tune has ρ %v; the settings shown %v", mf.Config.Rho, rho)
	}
	b.noConsoleErrors()
}

// visitsFile writes a file whose column visits holds 0, 1, 2 and, in every
// fourth row, last.
func visitsFile(last string) string {
	var sb strings.Builder
	sb.WriteString("task,y,student,visits,hours\n")
	for i := 0; i < 36; i++ {
		v := fmt.Sprint(i % 3)
		if i%4 == 3 {
			v = last
		}
		fmt.Fprintf(&sb, "t%d,%.2f,%d,%s,%d.5\n", i%3, float64((i*7)%11)/3, 1000+i, v, i%5)
	}
	return sb.String()
}

// TestOwnFileTextColumn: a category written 0, 1, 2, many is refused with
// the offer to read it as words; taking the offer reads it one-hot and the
// run trains. On a 390 px phone the Columns table's role menus (labelled,
// axe-clean, tap-sized) offer words only where Go says a column may be
// read so, and flag the id column; "number" in the menu brings the
// refusal back, the file still loaded as it was. Written 0, 1, 2, 3+, the
// category is read as words unasked, the notes say so, and its menu
// offers no number.
func TestOwnFileTextColumn(t *testing.T) {
	b := newBrowser(t)
	b.viewport(390, 844, true)
	b.openPage(true)
	b.upload("#file", writeTemp(t, "visits.csv", visitsFile("many")))
	b.waitFor(`spmtlApp.dataError() !== ""`, 20*time.Second)
	msg := eval[string](b, dataErrorText)
	if !strings.HasPrefix(msg, `visits.csv:5:4: non-numeric value "many" in column visits`) || !strings.HasSuffix(msg, "correct the value, read the column as words, or leave the column out") {
		t.Errorf("refusal %q", msg)
	}
	noFlags(t, msg)
	words := `(() => { const b = document.getElementById("read-as-words"); return b && !b.closest("[hidden]") ? b.textContent : ""; })()`
	if got := eval[string](b, words); got != "Read visits as words and read the file again" {
		t.Fatalf("the refusal offers %q, want to read visits as words", got)
	}
	if got := eval[string](b, leaveOutButton); got != "Leave out visits and read the file again" {
		t.Errorf("the refusal's leave-out button says %q", got)
	}
	b.do(chromedp.Click(chromedp.CSS("#read-as-words")))
	b.waitFor(`spmtlApp.summary() && spmtlApp.summary().name === "visits.csv" && spmtlApp.state() === "idle"`, 20*time.Second)
	if names := eval[[]string](b, `spmtlApp.summary().featureNames`); !slices.Equal(names, []string{"student", "visits=0", "visits=1", "visits=2", "visits=many", "hours"}) {
		t.Errorf("features %q, want visits one-hot", names)
	}
	type menu struct {
		Value, Label string
		Options      []string
		Disabled     bool
		Height       float64
	}
	menus := eval[map[string]menu](b, `Object.fromEntries(Array.from(document.querySelectorAll("#columns tbody tr select")).map((m) =>
		[m.name, {Value: m.value, Label: m.getAttribute("aria-label"), Options: Array.from(m.options).map((o) => o.textContent), Disabled: m.disabled, Height: m.getBoundingClientRect().height}]))`)
	for name, want := range map[string]menu{
		"student": {Value: "numeric", Label: "read student as", Options: []string{"number", "words", "leave out"}}, // whole numbers, few enough to encode
		"visits":  {Value: "text", Label: "read visits as", Options: []string{"number", "words", "leave out"}},
		"hours":   {Value: "numeric", Label: "read hours as", Options: []string{"number", "leave out"}},
	} {
		got := menus[name]
		if got.Value != want.Value || got.Label != want.Label || !slices.Equal(got.Options, want.Options) || got.Disabled {
			t.Errorf("%s's menu: %+v, want %+v", name, got, want)
		}
		if got.Height < 24 {
			t.Errorf("%s's menu is %v px tall, under 24", name, got.Height)
		}
	}
	if role := eval[string](b, `document.querySelector('#columns tr[data-column="student"]').cells[1].textContent`); !strings.Contains(role, "like an id: leave it out") {
		t.Errorf("student's role %q does not flag it as an id", role)
	}
	if notes := eval[string](b, `document.getElementById("data-notes").textContent`); !strings.Contains(notes, "Ids: student holds a different whole number in every row") {
		t.Errorf("the data notes %q do not flag student", notes)
	}
	if w := eval[float64](b, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("phone: the page is %v px wide with the columns table open", w)
	}
	b.axe(axeSource(t), "phone 390×844, the columns' role menus")
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 30*time.Second)

	// "number" for visits: refused again, the file still loaded with visits as words.
	b.do(chromedp.SetValue(chromedp.CSS(`#columns tr[data-column="visits"] select`), "numeric"))
	b.waitFor(`spmtlApp.dataError().includes('"many"')`, 20*time.Second)
	b.waitFor(`spmtlApp.state() === "idle"`, 20*time.Second)
	if v := eval[string](b, `document.querySelector('#columns tr[data-column="visits"] select').value`); v != "text" {
		t.Errorf("after the refusal visits's menu shows %q, want the words it is still read as", v)
	}
	// "leave out" in student's menu: left out, visits still words.
	b.do(chromedp.SetValue(chromedp.CSS(`#columns tr[data-column="student"] select`), "dropped"))
	b.waitFor(`spmtlApp.state() === "idle" && spmtlApp.columns().find((c) => c.name === "student").role === "dropped"`, 20*time.Second)
	if names := eval[[]string](b, `spmtlApp.summary().featureNames`); !slices.Equal(names, []string{"visits=0", "visits=1", "visits=2", "visits=many", "hours"}) {
		t.Errorf("features after leaving out student: %q", names)
	}

	// 0, 1, 2, 3+: a category, read as words unasked.
	b.upload("#file", writeTemp(t, "kids.csv", visitsFile("3+")))
	b.waitFor(`spmtlApp.summary() && spmtlApp.summary().name === "kids.csv" && spmtlApp.state() === "idle"`, 20*time.Second)
	if names := eval[[]string](b, `spmtlApp.summary().featureNames`); !slices.Equal(names, []string{"student", "visits=0", "visits=1", "visits=2", "visits=3+", "hours"}) {
		t.Errorf("kids.csv: features %q, want visits one-hot", names)
	}
	if notes := eval[string](b, `document.getElementById("data-notes").textContent`); !strings.Contains(notes, "Categories: visits holds whole numbers and 3+: it is read as a category, one indicator per value (0, 1, 2, 3+).") {
		t.Errorf("kids.csv: the notes %q do not say visits is a category", notes)
	}
	if opts := eval[[]string](b, `Array.from(document.querySelector('#columns tr[data-column="visits"] select').options).map((o) => o.textContent)`); !slices.Equal(opts, []string{"words", "leave out"}) {
		t.Errorf("kids.csv: visits's menu offers %q, want words and leave out", opts)
	}

	// Every number in quotes (R's write.csv of factors only): period is
	// read as a number, and the notes say how to read it as words.
	var herds strings.Builder
	herds.WriteString("\"herd\",\"period\",\"y\"\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&herds, "%q,%q,%q\n", fmt.Sprint(i%5), fmt.Sprint(1+i%4), []string{"no", "yes"}[(i/3)%2])
	}
	b.upload("#file", writeTemp(t, "herds.csv", herds.String()))
	b.waitForPrompt(20 * time.Second)
	b.do(chromedp.SetValue(chromedp.CSS("#task-col"), "herd"))
	b.waitFor(`spmtlApp.summary() && spmtlApp.summary().name === "herds.csv" && spmtlApp.state() === "idle"`, 20*time.Second)
	if notes := eval[string](b, `document.getElementById("data-notes").textContent`); !strings.Contains(notes, `Numbers in quotes: period holds a few whole numbers, all in quotes as every number of the file is`) || !strings.Contains(notes, `(its menu in Columns: "words")`) {
		t.Errorf("herds.csv: the notes %q do not say period may be codes", notes)
	}
	b.noConsoleErrors()
}

// TestOwnFileLeakWarning: a classifier's file with a column of words that
// fixes its label (the label derived from it) loads with a warning that
// names the column and says to leave it out.
func TestOwnFileLeakWarning(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("task,y,resp,x\n")
	words := []string{"no", "perhaps", "yes"}
	for i := 0; i < 30; i++ {
		y := "Y"
		if i%3 == 0 {
			y = "N"
		}
		fmt.Fprintf(&sb, "p%d,%s,%s,%d\n", i%5, y, words[i%3], i%7)
	}
	b := newBrowser(t)
	b.openPage(true)
	b.loadFile("verbal.csv", sb.String())
	if notes := eval[string](b, `document.getElementById("data-notes").textContent`); !strings.Contains(notes, "Warning: resp fixes the label: each of its values is seen with one class only (no: N; perhaps: Y; yes: Y)") {
		t.Errorf("the data notes %q do not warn that resp fixes the label", notes)
	}
	b.noConsoleErrors()
}

// TestRefusedLabelKeepsTheFileRead: choosing a label the intake refuses
// (intake: three words) on a file already read keeps it read with its
// columns, and the refusal says so, as the menu goes back to them; the
// next run on it takes the refusal, now of a choice no longer on screen,
// off the page.
func TestRefusedLabelKeepsTheFileRead(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	b.loadExam(t, false)
	b.do(chromedp.SetValue(chromedp.CSS("#label-col"), "intake"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("label-col").dispatchEvent(new Event("change"))`))
	msg := b.shownError("data-error", 30*time.Second)
	if !strings.Contains(msg, "exam.csv is still read as before, with school as the task and score as the label.") {
		t.Errorf("the refusal of a label on a file read before: %q", msg)
	}
	if v := eval[string](b, `document.getElementById("label-col").value`); v != "score" {
		t.Errorf("the label menu after the refusal shows %q, want score (the file's read columns)", v)
	}
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done"`, 60*time.Second)
	if s := eval[string](b, `spmtlApp.dataError()`); s != "" {
		t.Errorf("after a run on the file as read, the refusal of another label is still shown: %q", s)
	}
}

// TestManyCategoriesReadAsWords: a category of 68 values over 240 rows is
// more than the 50 a column of words takes unasked, so it is left out
// with the reason; its menu offers "words", which reads it with its 68
// indicators (up to 500 when asked: hunt9's 68 zip codes were the whole
// gap to lmer's fit). A column of a value per row is no such category.
func TestManyCategoriesReadAsWords(t *testing.T) {
	b := newBrowser(t)
	b.openPage(true)
	var sb strings.Builder
	sb.WriteString("group,y,zip,x1\n")
	for i := 0; i < 240; i++ {
		fmt.Fprintf(&sb, "g%d,%d,z%d,%d\n", i%4, (i*7)%11, i%68, i%13)
	}
	b.loadGrouped("zips.csv", sb.String())
	type col struct {
		Role, Text string
		Options    []string
		Disabled   bool
	}
	zip := func() col {
		return eval[col](b, `(() => { const tr = document.querySelector('#columns tr[data-column="zip"]'), menu = tr.querySelector("select");
			return {Role: tr.dataset.role, Text: tr.cells[1].textContent, Options: Array.from(menu.options).map((o) => o.textContent), Disabled: menu.disabled}; })()`)
	}
	if c := zip(); c.Role != "refused" || c.Disabled || !slices.Equal(c.Options, []string{"words", "leave out"}) || !strings.Contains(c.Text, "up to 500 when it is named among the columns read as words") {
		t.Errorf("the 68-value category: %+v, want it left out with the reason, its menu offering words", c)
	}
	b.do(chromedp.SetValue(chromedp.CSS(`#columns tr[data-column="zip"] select`), "text"))
	b.waitFor(`spmtlApp.columns().find((c) => c.name === "zip").role === "text" && spmtlApp.state() === "idle"`, 20*time.Second)
	n := eval[int](b, `spmtlApp.summary().featureNames.filter((f) => f.startsWith("zip=")).length`)
	if n != 68 {
		t.Errorf("zip read as words has %d indicators, want 68", n)
	}
	b.noConsoleErrors()
}
