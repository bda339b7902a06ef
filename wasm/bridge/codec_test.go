//go:build js && wasm

package bridge

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall/js"
	"testing"
)

// These tests call the registered functions through JavaScript, as
// web/js/api.js does: the request as JSON text, the payload beside it,
// the answer read back as JSON (and a Float64Array beside it).

const testGlobal = "spmtlCodecTest"

var registered sync.Once

// call invokes function name with the request text and a payload (a
// string, bytes as a Uint8Array, or a js.Value as it is; nil: none). It
// returns the answer as encoding/json reads it and the Float64Array
// answered beside it, if any.
func call(t *testing.T, name, req string, payload any) (answer any, floats []float64) {
	t.Helper()
	registered.Do(func() {
		api := Learner()
		for n, f := range Reproduction() {
			api[n] = f
		}
		if err := Register(testGlobal, api); err != nil {
			t.Fatal(err)
		}
	})
	args := []any{req}
	switch p := payload.(type) {
	case nil:
	case []byte:
		u8 := js.Global().Get("Uint8Array").New(len(p))
		js.CopyBytesToJS(u8, p)
		args = append(args, u8)
	default:
		args = append(args, p)
	}
	r := js.Global().Get(testGlobal).Call(name, args...)
	text := r
	if r.Type() == js.TypeObject {
		text = r.Index(0)
		bulk := r.Index(1)
		floats = make([]float64, bulk.Length())
		for i := range floats {
			floats[i] = bulk.Index(i).Float()
		}
	}
	if err := json.Unmarshal([]byte(text.String()), &answer); err != nil {
		t.Fatalf("%s: the answer is not JSON: %v (%.200s)", name, err, text.String())
	}
	return answer, floats
}

// ok calls name and fails the test on an error answer; it returns the
// answer as an object (nil when it is not one).
func ok(t *testing.T, name, req string, payload any) map[string]any {
	t.Helper()
	a, _ := call(t, name, req, payload)
	m, _ := a.(map[string]any)
	if e, isErr := m["__error"]; isErr {
		t.Fatalf("%s(%s): %v", name, req, e)
	}
	return m
}

// has fails the test unless every member is present in m.
func has(t *testing.T, what string, m map[string]any, members ...string) {
	t.Helper()
	for _, k := range members {
		if _, ok := m[k]; !ok {
			t.Errorf("%s: no member %q in %v", what, k, keys(m))
		}
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

const toyCSV = "task,y,a,b\n" +
	"t1,1,0.5,1\nt1,0,1.5,-1\nt1,1,0.7,0.9\nt1,0,2.0,-0.5\nt1,1,0.1,1.2\nt1,0,1.1,-0.8\n" +
	"t2,1,0.4,1.1\nt2,0,1.6,-1\nt2,1,0.6,0.8\nt2,0,1.9,-0.4\nt2,1,0.2,1.0\nt2,0,1.2,-0.9\n"

// TestLearnerAnswers decodes a request of every learner function and
// checks the answer's shape: the members the page reads, each present.
func TestLearnerAnswers(t *testing.T) {
	has(t, "catalog", ok(t, "catalog", "{}", nil), "methods", "bundles", "defaults")
	ds := ok(t, "load", `{"name":"toy.csv","drop":[]}`, toyCSV)
	has(t, "load", ds, "handle", "name", "tasks", "features", "rows", "kind", "positive", "negative", "fixedSplit", "featureNames",
		"format", "delimiter", "header", "columns", "featureText", "labelNote", "numberNote", "textEncoding", "taskColumn",
		"labelColumn", "idNote", "idColumns")
	// The columns come by column (core/session ColumnTable), whatever the width.
	cols := ds["columns"].(map[string]any)
	has(t, "load: the columns", cols, "names", "roles", "menus", "menu", "marks", "notes")
	if names := cols["names"].(map[string]any); names["text"] != "taskyab" || fmt.Sprint(names["ends"]) != "[4 5 6 7]" || cols["roles"] != "tlnn" || len(ds["header"].([]any)) != 0 {
		t.Errorf("load: columns %v, header %v", cols, ds["header"])
	}
	if ds["name"] != "toy.csv" || len(ds["tasks"].([]any)) != 2 {
		t.Errorf("load: %v", ds)
	}
	if b := ok(t, "load", "{}", []byte(toyCSV)); b["name"] != "data" {
		t.Errorf("load of bytes, no name: %v", b["name"])
	}
	if h := ok(t, "header", `{"name":"toy.csv"}`, "task;y;a\n"); fmt.Sprint(h["header"]) != "[task y a]" || h["delimiter"] != "semicolon" {
		t.Errorf("header: %v", h)
	}
	data := ds["handle"]

	info := ok(t, "train", fmt.Sprintf(`{"data":%v,"model":"mtfl","selfPaced":true,"lambda0":"auto*2","maxIter":3,"train":4}`, data), nil)
	has(t, "train", info, "handle", "name", "kind", "tasks", "trainRows", "testRows", "config", "untested", "untestedText")
	cfg := info["config"].(map[string]any)
	has(t, "train: config", cfg, "model", "selfPaced", "tau", "variant", "solver", "loss", "rho", "lambda0", "c", "delta", "h",
		"maxIter", "seed", "codeBugs", "select", "autoLambda0")
	if cfg["autoLambda0"] != 2.0 || cfg["seed"] != 1.0 || cfg["maxIter"] != 3.0 || info["trainRows"] != 8.0 {
		t.Errorf("train: %v", info)
	}
	run := fmt.Sprint(info["handle"])
	cmp, _ := call(t, "compare", `{"handle":`+run+`}`, nil)
	for _, c := range cmp.([]any) {
		has(t, "compare", c.(map[string]any), "role", "label", "run")
	}
	s := ok(t, "step", `{"handle":`+run+`}`, nil)
	has(t, "step", s, "iter", "objective", "spObjective", "tauChange", "objChange", "converged", "done", "stop", "stopMessage",
		"tau", "lambda", "seq", "cost", "loss", "penalty")
	if len(s["tau"].([]any)) != 2 || s["seq"] != nil || s["tauChange"] != nil {
		t.Errorf("step: %v", s)
	}
	if f := ok(t, "finish", `{"handle":`+run+`}`, nil); f["done"] != true {
		t.Errorf("finish: %v", f)
	}
	ev := ok(t, "evaluate", `{"handle":`+run+`}`, nil)
	has(t, "evaluate", ev, "metric", "tasks", "test", "mean", "iter", "done", "enteredAt")

	file, _ := call(t, "exportModel", `{"handle":`+run+`,"file":"toy.csv","rows":12}`, nil)
	if m := file.(map[string]any); m["format"] != "spmtl-model" || m["trained"].(map[string]any)["file"] != "toy.csv" {
		t.Fatalf("exportModel: %.300v", m)
	}
	text, _ := json.Marshal(file)
	mi := ok(t, "importModel", `{"name":"toy-model.json"}`, string(text))
	has(t, "importModel", mi, "handle", "name", "method", "kind", "tasks", "features", "featureCount", "trained")
	if mi["featureCount"] != 2.0 {
		t.Errorf("importModel: featureCount %v, want the toy's 2", mi["featureCount"])
	}
	model := fmt.Sprint(mi["handle"])
	if p := ok(t, "predict", `{"handle":`+model+`,"name":"new.csv"}`, "task,a,b\nt1,0.5,1\nt2,1,2\n"); len(p["rows"].([]any)) != 2 {
		t.Errorf("predict: %v", p)
	}
	has(t, "inspect", ok(t, "inspect", `{"handle":`+model+`}`, nil), "charts")
	for _, h := range []string{run, model} {
		if a, _ := call(t, "free", `{"handle":`+h+`}`, nil); a != nil {
			t.Errorf("free: %v", a)
		}
	}
}

// TestSequentialStep: a sequential learner's step has no λ or τ (null)
// and no costs (left out), and its scores: NaN (null) for the tasks
// learned before this step.
func TestSequentialStep(t *testing.T) {
	g := ok(t, "generate", `{"name":"syn2"}`, nil)
	info := ok(t, "train", fmt.Sprintf(`{"data":%v,"model":"cl"}`, g["handle"]), nil)
	ok(t, "step", fmt.Sprintf(`{"handle":%v}`, info["handle"]), nil)
	s := ok(t, "step", fmt.Sprintf(`{"handle":%v}`, info["handle"]), nil)
	has(t, "step", s, "tau", "lambda", "seq")
	if s["tau"] != nil || s["lambda"] != nil || s["cost"] != nil {
		t.Errorf("sequential step: %v", s)
	}
	if _, there := s["cost"]; there {
		t.Error("a sequential step has a cost member")
	}
	seq := s["seq"].(map[string]any)
	scores := seq["scores"].([]any)
	order := seq["order"].([]any)
	if len(order) != 2 || len(scores) != 30 || scores[int(order[0].(float64))] != nil || scores[int(order[1].(float64))] == nil {
		t.Errorf("seq: %v", seq)
	}
}

// TestTuneAnswers runs a model search's first batch through the bridge:
// tuneScore answers the row losses as a Float64Array beside its JSON, and
// tuneFeed takes them back as the bytes of one, each point saying how many
// are its own.
func TestTuneAnswers(t *testing.T) {
	g := ok(t, "generate", `{"name":"syn2"}`, nil)
	st := ok(t, "tuneStart", fmt.Sprintf(`{"data":%v,"model":"mtfl"}`, g["handle"]), nil)
	has(t, "tuneStart", st, "id", "batch", "done", "total")
	batch := st["batch"].([]any)
	var points []string
	var all []byte
	for _, c := range batch[:2] {
		cfg, _ := json.Marshal(c)
		a, losses := call(t, "tuneScore", fmt.Sprintf(`{"data":%v,"config":%s}`, g["handle"], cfg), nil)
		p := a.(map[string]any)
		has(t, "tuneScore", p, "scores", "metric", "failure")
		if len(p["scores"].([]any)) != 12 || len(losses) != 3450 {
			t.Fatalf("tuneScore: %v, %d losses", p, len(losses))
		}
		sc, _ := json.Marshal(p["scores"])
		points = append(points, fmt.Sprintf(`{"scores":%s,"metric":%q,"failure":"","losses":%d}`, sc, p["metric"], len(losses)))
		for _, v := range losses {
			all = append(all, le64(math.Float64bits(v))...)
		}
	}
	req := fmt.Sprintf(`{"id":%v,"results":[%s]}`, st["id"], strings.Join(points, ","))
	if len(batch) == 2 {
		next := ok(t, "tuneFeed", req, all)
		has(t, "tuneFeed", next, "id", "batch", "done", "total")
	}
	if a, _ := call(t, "tuneEnd", fmt.Sprintf(`{"id":%v}`, st["id"]), nil); a != nil {
		t.Errorf("tuneEnd: %v", a)
	}
}

func le64(u uint64) []byte {
	b := make([]byte, 8)
	for i := range b {
		b[i] = byte(u >> (8 * i))
	}
	return b
}

// TestReproductionAnswers: addSource of a bundled data set, one run of a
// synthetic one (which needs no source), and the summary of runs given by
// hand, a failed run's score null.
func TestReproductionAnswers(t *testing.T) {
	text, err := os.ReadFile("../../web/data/cs/data.csv")
	if err != nil {
		t.Fatal(err)
	}
	split, err := os.ReadFile("../../web/data/cs/splits.csv")
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := call(t, "addSource", fmt.Sprintf(`{"name":"cs","split":%q}`, split), string(text)); a != true {
		t.Errorf("addSource: %v", a)
	}
	run := ok(t, "reproduceRun", `{"dataset":"syn1","quick":true,"run":2}`, nil)
	has(t, "reproduceRun", run, "dataset", "run", "results")
	for _, r := range run["results"].([]any) {
		has(t, "reproduceRun: a result", r.(map[string]any), "method", "score", "rho", "lambda0", "seconds")
	}
	a, _ := call(t, "summarize", `{"dataset":"syn1","quick":true,"runs":[[{"method":"STL","score":0.5,"rho":0.1},{"method":"ITL","score":null}]]}`, nil)
	for _, c := range a.([]any) {
		cell := c.(map[string]any)
		has(t, "summarize", cell, "method", "metric", "mean", "std", "se", "t", "p", "better", "worse", "scores", "rho", "lambda0")
		if cell["method"] == "ITL" && (cell["mean"] != nil || cell["scores"].([]any)[0] != nil) {
			t.Errorf("a failed run's score is not null: %v", cell)
		}
	}
}

// TestOversizedModelNotCopied: a model file's bytes over the bound are
// refused by their length, before they are copied into Go's memory (a
// copy of 129 MB would show in the bytes Go allocated during the call).
func TestOversizedModelNotCopied(t *testing.T) {
	huge := js.Global().Get("Uint8Array").New(129 << 20)
	call(t, "catalog", "{}", nil) // registers the bridge first
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	a, _ := call(t, "importModel", `{"name":"huge.bin"}`, huge)
	runtime.ReadMemStats(&after)
	m, _ := a.(map[string]any)
	if got, want := m["__error"], "read model huge.bin: 129.0 MB of JSON, more than the 128.0 MB it may have"; got != want {
		t.Errorf("importModel of 129 MB: got %v, want the error %q", a, want)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("importModel of 129 MB allocated %d bytes in Go before refusing it", grew)
	}
}

// TestRefusals: a malformed request of every function is refused with an
// error naming the function, the member and what is wrong; a hostile
// model file with its name; and the bridge answers afterwards.
func TestRefusals(t *testing.T) {
	deep := strings.Repeat("[", 30000) + strings.Repeat("]", 30000)
	// 10^8 elements, built in JavaScript: the bridge refuses it by its
	// length, without copying it.
	str := func(s string) js.Value { return js.Global().Get("Object").Invoke(s) } // to call its methods
	huge := str("[").Call("concat", str("0,").Call("repeat", 1e8), "0]")
	cases := []struct {
		name, req string
		payload   any
		want      string // the whole message, or its start when it ends in "…"
	}{
		{"catalog", `[]`, nil, "spmtl.catalog: the value: want an object, got a list"},
		{"load", `{"drop":"b"}`, toyCSV, "spmtl.load: drop: want a list, got a string"},
		{"load", `{"name":"toy.csv"}`, nil, "spmtl.load: the payload must be a text or a Uint8Array, got undefined"},
		{"load", `{"task":"group"}`, toyCSV, `data:1:1: no task column "group" in header (task, y, a, b); choose the task column among these`},
		{"header", `{"name":3}`, "task,y\n", "spmtl.header: name: want a string, got a number"},
		{"generate", `{"name":"syn2","seed":-1}`, nil, "spmtl.generate: seed: want a whole number not below 0, got -1"},
		{"train", `{"data":1,"rho":"x"}`, nil, "spmtl.train: rho: want a number, got a string"},
		{"train", `{"data":1,"maxIter":2.5}`, nil, "spmtl.train: maxIter: want a whole number, got 2.5"},
		{"train", `{"data":1,"lambda0":"auto*zz"}`, nil, "spmtl.train: lambda0: want a number, auto or auto*K with K …"},
		{"train", `{"data":1,"lambda0":[1]}`, nil, "spmtl.train: lambda0: want a number, auto or auto*K, got [1]"},
		{"train", `{"data":`, nil, "spmtl.train:1:9: the text ends in the middle of the JSON (was it cut short?)"},
		{"train", `{"data":999}`, nil, "train: no data set with handle 999"},
		{"compare", `{"handle":"1"}`, nil, "spmtl.compare: handle: want a whole number, got a string"},
		{"step", `{"handle":1.5}`, nil, "spmtl.step: handle: want a whole number, got 1.5"},
		{"finish", `{"handle":true}`, nil, "spmtl.finish: handle: want a whole number, got true or false"},
		{"evaluate", `{"handle":[]}`, nil, "spmtl.evaluate: handle: want a whole number, got a list"},
		{"free", `{"handle":{}}`, nil, "spmtl.free: handle: want a whole number, got an object"},
		{"inspect", `{"handle":999}`, nil, "inspect: no model or run with handle 999"},
		{"exportModel", `{"handle":1,"rows":"x"}`, nil, "spmtl.exportModel: rows: want a whole number, got a string"},
		{"importModel", `{"name":["m"]}`, "{}", "spmtl.importModel: name: want a string, got a list"},
		{"importModel", `{"name":"deep.json"}`, deep, "read model deep.json:1:33: arrays and objects nested more than 32 deep"},
		{"importModel", `{"name":"deep.json"}`, []byte(deep), "read model deep.json:1:33: arrays and objects nested more than 32 deep"},
		{"importModel", `{"name":"huge.json"}`, huge, "read model huge.json: 190.7 MB of JSON, more than the 128.0 MB it may have"},
		{"importModel", `{"name":"bad.json"}`, `{"format": nope}`, "read model bad.json:1:12: not valid JSON (unexpected 'n')"},
		{"importModel", `{"name":"cut.json"}`, `{"format": "spmtl-model", "w": [[1,`, "read model cut.json:1:36: the text ends in the middle of the JSON (was it cut short?)"},
		{"importModel", `{"name":"w.json"}`, `{"w":"x"}`, "read model w.json: w: want a list, got a string"},
		{"importModel", `{}`, `{"format":"x"}`, `read model model: not a spmtl model file (format "x")`},
		{"importModel", `{"name":"run.json"}`, `{"format": "spmtl-run", "run": {"features": 2}}`, "read model run.json: a run, not a model file: …"},
		// A null read as NaN was shown as "got NaN"; the command line says where it is.
		{"importModel", `{"name":"null.json"}`, `{"format": "spmtl-model", "config": {"rho": null}}`, "read model null.json: config.rho is null, not a number; the file was edited or damaged: …"},
		{"importModel", `{"name":"case.json"}`, `{"format": "spmtl-model", "w": [[1]], "W": [[2]]}`, `read model case.json: w is given 2 times, as "W" and "w" (names that differ only in case are one field); …`},
		{"predict", `{"handle":1,"name":false}`, "x", "spmtl.predict: name: want a string, got true or false"},
		{"tuneStart", `{"data":1,"folds":"3"}`, nil, "spmtl.tuneStart: folds: want a whole number, got a string"},
		{"tuneStart", `{"data":1,"lambda0":"soon"}`, nil, "spmtl.tuneStart: lambda0: want a number more than 0 …"},
		{"tuneScore", `{"data":1,"config":[]}`, nil, "spmtl.tuneScore: config: want an object, got a list"},
		{"tuneFeed", `{"id":1,"results":[{"scores":[1,2],"metric":"rmse"}]}`, nil, "spmtl.tuneFeed: results[0].scores: want 12 numbers, got 2"},
		{"tuneFeed", `{"id":1,"results":[{"scores":[],"losses":5}]}`, nil, "spmtl.tuneFeed: results[0].losses: 5, more than the 0 left in the payload"},
		{"tuneFeed", `{"id":1,"results":[]}`, []byte{1, 2, 3}, "spmtl.tuneFeed: the losses: 3 bytes, not a whole number of floats"},
		{"tuneFeed", `{"id":1,"results":[]}`, make([]byte, 16), "spmtl.tuneFeed: the losses: 2 more in the payload than the results count"},
		{"tuneEnd", `{"id":"x"}`, nil, "spmtl.tuneEnd: id: want a whole number, got a string"},
		{"addSource", `{"name":1}`, "x", "spmtl.addSource: name: want a string, got a number"},
		{"reproduceRun", `{"dataset":"syn1","quick":"yes"}`, nil, "spmtl.reproduceRun: quick: want true or false, got a string"},
		{"reproduceRun", `{"dataset":"syn1","run":0}`, nil, "reproduce: run 0, want 1 or more"},
		{"summarize", `{"dataset":"syn1","runs":[[{"score":"x"}]]}`, nil, "spmtl.summarize: runs[0][0].score: want a number, got a string"},
	}
	for _, c := range cases {
		a, _ := call(t, c.name, c.req, c.payload)
		m, _ := a.(map[string]any)
		got, _ := m["__error"].(string)
		want, prefix := strings.CutSuffix(c.want, "…")
		if got == "" || !prefix && got != want || prefix && !strings.HasPrefix(got, want) {
			t.Errorf("%s(%.60s): got %v, want the error %q", c.name, c.req, a, c.want)
		}
	}
	has(t, "catalog after the refusals", ok(t, "catalog", "{}", nil), "methods")
}
