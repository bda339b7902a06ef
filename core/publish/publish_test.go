package publish

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/session"
)

// TestJSNumber writes numbers as JavaScript's String does, across its
// switch between plain and exponent notation.
func TestJSNumber(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{0, "0"}, {1, "1"}, {-1.5, "-1.5"}, {0.1, "0.1"}, {100, "100"},
		{1e20, "100000000000000000000"}, {1e21, "1e+21"}, {1.5e21, "1.5e+21"}, {123456789012345680000, "123456789012345680000"},
		{1e-6, "0.000001"}, {1.5e-6, "0.0000015"}, {1e-7, "1e-7"}, {-2.5e-7, "-2.5e-7"},
		{3.175133334984426e-05, "0.00003175133334984426"}, {5e-324, "5e-324"}, {math.MaxFloat64, "1.7976931348623157e+308"},
	} {
		if got := jsNumber(c.x); got != c.want {
			t.Errorf("jsNumber(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}

// TestJSNumberAgreesWithNode: on doubles of every size, jsNumber writes
// what node's String writes.
func TestJSNumberAgreesWithNode(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var xs []float64
	for i := 0; i < 3000; i++ {
		x := r.NormFloat64() * math.Pow(10, float64(r.IntN(60)-30))
		if i%7 == 0 {
			x = math.Round(x*1000) / 1000
		}
		xs = append(xs, x)
	}
	js, _ := json.Marshal(xs)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "xs.json"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	out := runNode(t, dir, `import fs from "fs";
for (const x of JSON.parse(fs.readFileSync("xs.json", "utf8"))) console.log(String(x));`)
	got := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(got) != len(xs) {
		t.Fatalf("node wrote %d numbers, want %d", len(got), len(xs))
	}
	for i, x := range xs {
		if jsNumber(x) != got[i] {
			t.Errorf("%v: jsNumber %q, node %q", x, jsNumber(x), got[i])
		}
	}
}

// csvWith writes a CSV with a task, a label and two numeric columns whose
// numbers are written by num; its first row has 3.2e-05, which Go and
// JavaScript write differently.
func csvWith(num func(float64) string, rows int) []byte {
	var sb strings.Builder
	sb.WriteString("task,y,a,b\n")
	fmt.Fprintf(&sb, "t0,%s,%s,%s\n", num(1.5), num(3.2e-05), num(0.25))
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < rows; i++ {
		fmt.Fprintf(&sb, "t%d,%s,%s,%s\n", i%5, num(r.NormFloat64()), num(r.NormFloat64()*1e-2), num(r.Float64()))
	}
	return []byte(sb.String())
}

// TestPackDataGivesTheBytesBack: whatever the file, the page gets back its
// bytes: numbers written as JavaScript writes them, or otherwise (Go's
// 3.2e-05, trailing zeros), pack as planes of doubles; files the codec
// cannot keep (CR line ends, quotes, Windows-1252 text, a sparse file) are
// gzipped as they are.
func TestPackDataGivesTheBytesBack(t *testing.T) {
	goNum := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, c := range []struct {
		name  string
		raw   []byte
		codec string
	}{
		{"js numbers", csvWith(jsNumber, 400), "csv-f64"},
		{"go numbers", csvWith(goNum, 400), "csv-f64"},
		{"fixed decimals", csvWith(func(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }, 400), "bin"},
		{"CRLF", bytes.ReplaceAll(csvWith(goNum, 50), []byte("\n"), []byte("\r\n")), "bin"},
		{"quoted", []byte("task,y,a\n\"t,1\",1,2\nt2,3,4\nt2,5,6\n"), "bin"},
		{"windows-1252", []byte("task,y,a\nZ\xfcrich,1,2\nZ\xfcrich,3,4\nB,5,6\n"), "bin"},
		{"sparse", []byte("t1 1 1:0.5 3:0.25\nt2 0 2:1\n"), "bin"},
	} {
		p, err := PackData(c.name, c.raw)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		back, err := Unpack(p)
		if err != nil || !bytes.Equal(back, c.raw) {
			t.Errorf("%s: %v; %d bytes back, want the file's %d", c.name, err, len(back), len(c.raw))
		}
		if p.Codec != c.codec {
			t.Errorf("%s: codec %s, want %s", c.name, p.Codec, c.codec)
		}
	}
}

// template is a stand-in for the offline page: its scripts name the
// payload elements (as the page's do) and the first payload follows.
const template = "<!doctype html>\n<html><body><main></main>\n<script>const x = '<script type=\"application/octet-stream\" id=\"spmtl-wasm\"';</script>\n" +
	"<script type=\"application/octet-stream\" id=\"spmtl-wasm\" data-rel=\"spmtl.wasm\" data-codec=\"bin\" data-gz=\"1\">A</script>\n<script>boot()</script>\n</body></html>\n"

func testManifest() Manifest {
	return Manifest{Data: DataRef{File: "exam.csv", Rows: 3, Tasks: 2, Task: "school", Label: "score", Drop: []string{"student"}},
		Run: RunFile{Format: RunFormat, Made: "2025-01-02T03:04:05Z", By: "a test", Settings: map[string]string{"model": "mtfl", "rho": "0.1"},
			Snapshots: []Snapshot{{Snapshot: mtl.Snapshot{Iter: 1, Tau: []float64{0.25, 0.75}, TauChange: mtl.Float(math.NaN())}, StopMessage: "done"}},
			Results:   map[string]Result{"main": {Label: "spMTFL", Metric: "rmse", Tasks: []string{"a", "b"}, Test: []mtl.Float{0.5, mtl.Float(math.NaN())}, Mean: 0.5}},
			Model:     json.RawMessage(`{"format":"spmtl-model"}`)}}
}

// TestWriteRead: a published page reads back to its manifest and data;
// publishing it again replaces them; a page that is not the offline page,
// a bundle given data, and damaged data are refused.
func TestWriteRead(t *testing.T) {
	data := []byte("school,score,student\nA,1,1\nB,2,2\n")
	page, sizes, err := Write(template, testManifest(), data)
	if err != nil {
		t.Fatal(err)
	}
	if sizes.Page != len(page) || sizes.Template != len(template) || sizes.Data == 0 || sizes.Manifest == 0 {
		t.Errorf("sizes %+v for a page of %d bytes", sizes, len(page))
	}
	m, got, err := Read(page)
	if err != nil {
		t.Fatal(err)
	}
	want := testManifest()
	want.Format, want.Version = ManifestFormat, ManifestVersion
	want.Data.Bytes, want.Data.SHA256 = len(data), m.Data.SHA256
	if !bytes.Equal(got, data) || len(m.Data.SHA256) != 64 {
		t.Errorf("data %q (SHA-256 %q), want %q", got, m.Data.SHA256, data)
	}
	if a, b := mustJSON(t, m), mustJSON(t, want); a != b {
		t.Errorf("manifest read back:\n%s\nwant:\n%s", a, b)
	}
	// Again, from the published page, with other data.
	again, _, err := Write(page, testManifest(), []byte("school,score\nC,3\n"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(again, `id="spmtl-publish"`); n != 1 || strings.Count(again, `id="spmtl-publish-data"`) != 1 {
		t.Errorf("published twice: %d manifests", n)
	}
	if _, d, err := Read(again); err != nil || string(d) != "school,score\nC,3\n" {
		t.Errorf("published twice: data %q, %v", d, err)
	}
	bundled := testManifest()
	bundled.Data = DataRef{Bundle: "school", File: "school"}
	if _, _, err := Write(template, bundled, data); err == nil || !strings.Contains(err.Error(), "in the page already") {
		t.Errorf("a bundle with a data file: %v", err)
	}
	if p, _, err := Write(template, bundled, nil); err != nil || strings.Contains(p, DataID) {
		t.Errorf("a bundle: %v", err)
	}
	if _, _, err := Write("<html>no payloads</html>", testManifest(), data); err == nil || !strings.Contains(err.Error(), "not the offline page") {
		t.Errorf("a page that is not the offline page: %v", err)
	}
	if _, _, err := Read(template); err == nil || !strings.Contains(err.Error(), "no published run") {
		t.Errorf("the offline page read as a published one: %v", err)
	}
	// Other data in place of the data the manifest's SHA-256 was taken of.
	pl, _, _ := payloadOf(page, DataID)
	other, _ := PackData("x", []byte("school,score\nX,9\n"))
	damaged := strings.Replace(page, pl.Text, other.Text, 1)
	damaged = strings.Replace(damaged, fmt.Sprintf(`data-gz="%d"`, pl.Gz), fmt.Sprintf(`data-gz="%d"`, other.Gz), 1)
	if _, _, err := Read(damaged); err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("damaged data: %v", err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPageDecodesWhatGoWrites: the page's decoder (unpack.js, in node)
// gives back the manifest and the data file Go packed, byte for byte.
func TestPageDecodesWhatGoWrites(t *testing.T) {
	for _, data := range [][]byte{
		csvWith(func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }, 300), // csv-f64, with exceptions
		[]byte("task,y,a\nZ\xfcrich,1,2\nB,3,4\n"),                                          // bin
	} {
		page, _, err := Write(template, testManifest(), data)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		var els []map[string]any
		for _, id := range []string{ManifestID, DataID} {
			p, _, err := payloadOf(page, id)
			if err != nil {
				t.Fatal(err)
			}
			els = append(els, map[string]any{"codec": p.Codec, "gz": p.Gz, "text": p.Text})
		}
		js, _ := json.Marshal(els)
		if err := os.WriteFile(filepath.Join(dir, "payloads.json"), js, 0o644); err != nil {
			t.Fatal(err)
		}
		runNode(t, dir, `import fs from "fs"; import { spmtlUnpack } from "./unpack.mjs";
const [m, d] = JSON.parse(fs.readFileSync("payloads.json", "utf8"));
fs.writeFileSync("manifest.json", await spmtlUnpack(m));
const body = await spmtlUnpack(d);
fs.writeFileSync("data", typeof body === "string" ? body : Buffer.from(body));`)
		m, want, err := Read(page)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(filepath.Join(dir, "data"))
		if !bytes.Equal(got, want) || !bytes.Equal(got, data) {
			t.Errorf("the page decodes %d bytes of data, want the file's %d", len(got), len(data))
		}
		var pm Manifest
		mj, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
		if err := json.Unmarshal(mj, &pm); err != nil || mustJSON(t, pm) != mustJSON(t, m) {
			t.Errorf("the page decodes the manifest %s (%v), Go %s", mj, err, mustJSON(t, m))
		}
	}
}

// TestGoReadsWhatThePageWrites: a page published by the page's encoder
// (pack.js, in node: CompressionStream, base-122) reads back in Go, and
// its base-122 is Go's.
func TestGoReadsWhatThePageWrites(t *testing.T) {
	dir := t.TempDir()
	data := []byte("task,y,a\nZ\xfcrich,1,2\nB,3,4\n<\x00\r\n")
	m, _ := json.Marshal(testManifest())
	for name, b := range map[string][]byte{"template.html": []byte(template), "data": data, "manifest.json": m} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw := make([]byte, 5000)
	for i := range raw {
		raw[i] = byte(i*37 + i/9)
	}
	if err := os.WriteFile(filepath.Join(dir, "raw"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	runNode(t, dir, `import fs from "fs"; import { publishedPage, b122 } from "./pack.mjs";
const { html } = await publishedPage(fs.readFileSync("template.html", "utf8"), JSON.parse(fs.readFileSync("manifest.json", "utf8")), new Uint8Array(fs.readFileSync("data")));
fs.writeFileSync("page.html", html);
const { html: again } = await publishedPage(html, JSON.parse(fs.readFileSync("manifest.json", "utf8")), null);
fs.writeFileSync("again.html", again);
fs.writeFileSync("b122.txt", b122(new Uint8Array(fs.readFileSync("raw"))));`)
	page, _ := os.ReadFile(filepath.Join(dir, "page.html"))
	got, d, err := Read(string(page))
	if err != nil {
		t.Fatal(err)
	}
	want := testManifest()
	want.Format, want.Version, want.Data.Bytes, want.Data.SHA256 = ManifestFormat, ManifestVersion, len(data), got.Data.SHA256
	if !bytes.Equal(d, data) || mustJSON(t, got) != mustJSON(t, want) {
		t.Errorf("Go reads the page's file as data %q, manifest %s", d, mustJSON(t, got))
	}
	again, _ := os.ReadFile(filepath.Join(dir, "again.html"))
	if strings.Count(string(again), `id="spmtl-publish"`) != 1 || strings.Contains(string(again), DataID) {
		t.Error("published again without data, the page keeps the old payloads")
	}
	text, _ := os.ReadFile(filepath.Join(dir, "b122.txt"))
	if string(text) != EncodeB122(raw) {
		t.Error("pack.js's base-122 differs from Go's")
	}
}

// TestRecordIsTheRun: a recorded run holds what a run of the same options
// computes step by step (app.Run), the test score after each step, the
// comparisons' results, and its model file.
func TestRecordIsTheRun(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "cmd", "spmtl", "testdata", "exam.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, model := range []string{"mtfl", "ella"} {
		s := session.New()
		sum, err := s.LoadBytes(text, session.LoadOptions{Name: "exam.csv", TaskColumn: "school", LabelColumn: "score", Drop: []string{"student"}})
		if err != nil {
			t.Fatal(err)
		}
		opt := app.TrainOptions{Config: mtl.Config{Model: model, SelfPaced: model == "mtfl", Seed: 3}, Train: 0.75, Seed: 3}
		steps := 0
		rf, err := Record(s, sum.Handle, opt, app.Trained{File: "exam.csv"}, func(mtl.Snapshot) { steps++ })
		if err != nil {
			t.Fatal(err)
		}
		d, err := app.Load(text, app.LoadOptions{Name: "exam.csv", TaskColumn: "school", LabelColumn: "score", Drop: []string{"student"}})
		if err != nil {
			t.Fatal(err)
		}
		r, err := app.NewRun(d, opt)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Finish(); err != nil {
			t.Fatal(err)
		}
		ev, _ := r.Evaluate()
		hist := r.Learner.History()
		if len(rf.Snapshots) != len(hist) || len(rf.Evals) != len(hist) || steps != len(hist) {
			t.Fatalf("%s: %d snapshots, %d evals, %d steps; the run took %d", model, len(rf.Snapshots), len(rf.Evals), steps, len(hist))
		}
		for k := range hist {
			if !reflect.DeepEqual(rf.Snapshots[k].Tau, hist[k].Tau) || rf.Snapshots[k].Objective != hist[k].Objective {
				t.Errorf("%s: step %d differs from the run's", model, k+1)
			}
		}
		main := rf.Results["main"]
		if float64(main.Mean) != ev.Mean || float64(rf.Evals[len(hist)-1].Mean) != ev.Mean || main.Label != r.Name() {
			t.Errorf("%s: recorded mean %v (%s), the run's %v (%s)", model, main.Mean, main.Label, ev.Mean, r.Name())
		}
		if len(rf.Run.Comparisons) == 0 || len(rf.Results) != len(rf.Run.Comparisons)+1 {
			t.Errorf("%s: %d comparisons, results %v", model, len(rf.Run.Comparisons), len(rf.Results))
		}
		mf, err := app.ReadModel(rf.Model, "recorded")
		if err != nil || mf.Trained.Rows != r.Train.Rows() || mf.Trained.File != "exam.csv" {
			t.Errorf("%s: the recorded model: %v, trained %+v", model, err, mf)
		}
		if len(s.Handles()) != 1 {
			t.Errorf("%s: the session keeps handles %v, want only the data set's", model, s.Handles())
		}
		if _, err := json.Marshal(rf); err != nil {
			t.Errorf("%s: the record does not encode: %v", model, err)
		}
	}
}

// TestPackWithAnotherGzip: another encoder's stream is refused when it
// does not unpack to the payload, and a larger one leaves Go's (the
// offline build's GNU gzip, smaller, is web/offline's TestGzip9).
func TestPackWithAnotherGzip(t *testing.T) {
	raw := bytes.Repeat([]byte("a table of numbers 1.25, 2.5, 3.75\n"), 400)
	goOwn, err := Pack("t", "bin", raw)
	if err != nil {
		t.Fatal(err)
	}
	short := func(b []byte) ([]byte, error) { return gzipBytes(b[:len(b)-40]), nil }
	if _, err := PackWith("t", "bin", raw, short); err == nil || !strings.Contains(err.Error(), "does not unpack to the payload") {
		t.Errorf("a stream of other bytes: %v, want a refusal", err)
	}
	long := func(b []byte) ([]byte, error) { return append(gzipBytes(b), 0, 0, 0), nil }
	if p, err := PackWith("t", "bin", raw, long); err != nil || p.Text != goOwn.Text {
		t.Errorf("a larger stream: %v, want Go's kept", err)
	}
}

// TestPackCSVCodes: a split file (row numbers, columns of a few words)
// packs to codes that write the same text back, in a fraction of its
// gzipped size; a file it could not write back byte for byte is refused.
func TestPackCSVCodes(t *testing.T) {
	var b strings.Builder
	b.WriteString("row,split1,split2\n")
	for r := 0; r < 3000; r++ {
		w := [2]string{"train", "train"}
		if (r*7)%4 == 0 {
			w[0] = "test"
		}
		if (r*5+1)%4 == 0 {
			w[1] = "test"
		}
		fmt.Fprintf(&b, "%d,%s,%s\n", r, w[0], w[1])
	}
	text := b.String()
	p, err := Pack("splits.csv", "csv-codes", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if plain, _ := Pack("splits.csv", "gz", []byte(text)); p.Gz >= plain.Gz {
		t.Errorf("codes gzip to %d bytes, the text to %d", p.Gz, plain.Gz)
	}
	for _, bad := range []string{
		"row,a\n0,x\n2,y\n",     // a row number out of order
		"row,a\n0,\"x\"\n1,y\n", // quoted
		"row,a\n0,x\n1,y",       // no newline at the end
		"row,a\n0,x,z\n1,y\n",   // a cell too many
	} {
		if _, err := Pack("bad.csv", "csv-codes", []byte(bad)); err == nil {
			t.Errorf("%q: packed, want a refusal", bad)
		}
	}
}
