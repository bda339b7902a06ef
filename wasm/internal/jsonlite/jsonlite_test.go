package jsonlite_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/session"
	"github.com/spmtl/spmtl/wasm/internal/jsonlite"
)

// A CSV with a text column, so that the model file carries an encoding
// with levels.
const examCSV = `school,score,sex,hours
A,1.5,M,3.9
A,2.5,F,5.8
A,1.0,M,2.0
A,2.2,F,4.4
A,1.8,M,3.1
B,0.5,F,1.0
B,1.5,M,3.0
B,0.9,F,2.2
B,1.1,M,2.5
B,1.3,F,2.8
`

// model trains a self-paced MTFL on the CSV and returns its model file.
func model(t *testing.T) *app.ModelFile {
	t.Helper()
	d, err := app.Load([]byte(examCSV), app.LoadOptions{Name: "exam.csv", TaskColumn: "school", LabelColumn: "score"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := app.NewRun(d, app.TrainOptions{Config: mtl.Config{Model: "mtfl", SelfPaced: true, Lambda0: 1}, All: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	m, err := r.ModelFile(app.Trained{File: "exam.csv", Rows: 10, All: true})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

type inner struct {
	Deep  string `json:"deep"`
	Shade int    `json:"shade"`
}

type sample struct {
	inner
	Shade   string             `json:"shade"` // shadows inner's
	Skip    int                `json:"-"`
	private int                //nolint:unused // unexported: never written
	Plain   float64            // no tag: the Go name
	Empty   []int              `json:"empty,omitempty"`
	Nil     []int              `json:"nil"`
	Ptr     *inner             `json:"ptr,omitempty"`
	Map     map[string]float64 `json:"map"`
	IntMap  map[int]string     `json:"intMap"`
	Bytes   []byte             `json:"bytes"`
	Arr     [3]uint8           `json:"arr"`
	F32     float32            `json:"f32"`
	Any     any                `json:"any"`
	Escapes string             `json:"escapes"`
}

// TestEncodeMatchesEncodingJSON writes spmtl's result types, and a sample
// of the rules they rely on, with both encoders: the bytes must agree.
func TestEncodeMatchesEncodingJSON(t *testing.T) {
	m := model(t)
	pred, err := app.Predict(m, []byte("school,sex,hours\nA,F,4\nB,X,1\n"), "new.csv")
	if err != nil {
		t.Fatal(err)
	}
	res := app.TuneResult{Metric: "rmse", Folds: 3, Rho: []float64{0.1, 1}, Kappa: []float64{1},
		Scores: [][]float64{{0.5}, {0.25}}, Config: mtl.Config{Model: "mtfl"}}
	// sameTree: the type has its own MarshalJSON, which puts a member
	// elsewhere; compare the parsed trees, not the bytes.
	cases := []struct {
		name     string
		v        any
		sameTree bool
	}{
		{"model file", m, false},
		{"predictions", pred, false},
		{"inspection", app.Inspect(m), false},
		{"catalogue", session.New().Catalog(), false},
		{"tune result", res, true},
		{"model info", session.ModelInfo{Handle: 3, Name: "spMTFL", Tasks: []string{"A", "B"}}, false},
		{"floats", []float64{0, -0.0, 1, -1.5, 1e-6, 9.99e-7, 1e20, 1e21, 123456789012, 5e-324, math.MaxFloat64, 0.1 + 0.2}, false},
		{"float32", []float32{1e-7, 0.1, 3e21}, false},
		{"rules", sample{inner: inner{Deep: "d", Shade: 7}, Shade: "outer", Skip: 9, private: 1, Plain: 2.5,
			Map: map[string]float64{"b": 2, "a": 1}, IntMap: map[int]string{10: "x", 2: "y"}, Bytes: []byte("hi\x00"),
			Arr: [3]uint8{1, 2, 3}, F32: 0.3, Any: map[string]any{"k": []any{1.0, "s", nil, true}},
			Escapes: "quote\" back\\ nl\n tab\t ctl\x01 <a&b> \u2028 é \xff end"}, false},
		{"nil pointer", (*app.ModelFile)(nil), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, err := json.Marshal(c.v)
			if err != nil {
				t.Fatal(err)
			}
			got, err := jsonlite.Encode(c.v)
			if err != nil {
				t.Fatal(err)
			}
			if c.sameTree {
				if !reflect.DeepEqual(tree(t, got), tree(t, want)) {
					t.Errorf("jsonlite and encoding/json differ\n got %s\nwant %s", clip(got), clip(want))
				}
				return
			}
			if !bytes.Equal(got, want) {
				t.Errorf("jsonlite and encoding/json differ\n got %s\nwant %s", clip(got), clip(want))
			}
		})
	}
}

// TestEncodeNaN writes NaN and ±Inf as null, as mtl.Float and TuneResult
// do; encoding/json refuses a plain NaN.
func TestEncodeNaN(t *testing.T) {
	got, err := jsonlite.Encode(map[string]any{"x": []float64{math.NaN(), math.Inf(1), 1}})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"x":[null,null,1]}` {
		t.Errorf("got %s", got)
	}
	res := app.TuneResult{Metric: "auc", Rho: []float64{1}, Scores: [][]float64{{math.NaN()}}}
	want, err := json.Marshal(res) // TuneResult's own marshaler
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := jsonlite.Encode(res); !reflect.DeepEqual(tree(t, got), tree(t, want)) {
		t.Errorf("tune result with a failed point\n got %s\nwant %s", got, want)
	}
}

// tree parses text as JSON.parse would: objects, arrays, float64s.
func tree(t *testing.T, text []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(text, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestAssignRoundTrip reads encoded values back through the JSON tree and
// checks that they match what encoding/json reads from the same text.
func TestAssignRoundTrip(t *testing.T) {
	m := model(t)
	text, err := m.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var got app.ModelFile
	if err := jsonlite.Assign(&got, tree(t, text)); err != nil {
		t.Fatal(err)
	}
	want, err := app.ReadModel(text, "model.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := got.Check("model.json"); err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(&got)
	b, _ := json.Marshal(want)
	if !bytes.Equal(a, b) {
		t.Errorf("model file read back differs\n got %s\nwant %s", clip(a), clip(b))
	}

	// A tuning result with a failed point: null must come back as NaN,
	// never 0.
	in := `{"metric":"auc","folds":3,"newTasks":true,"rho":[0.1,1],"kappa":[],"scores":[[0.7],[null]],"best":[0,0],"config":{"model":"mtfl","rho":0.1}}`
	var res app.TuneResult
	if err := jsonlite.Assign(&res, tree(t, []byte(in))); err != nil {
		t.Fatal(err)
	}
	var ref app.TuneResult
	if err := json.Unmarshal([]byte(in), &ref); err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(res.Scores[1][0]) || res.Scores[0][0] != 0.7 || res.Folds != 3 || !res.NewTasks || res.Config.Rho != 0.1 || res.Config.Model != "mtfl" {
		t.Errorf("tune result read as %+v", res)
	}
	a, _ = jsonlite.Encode(res)
	b, _ = jsonlite.Encode(ref)
	if !bytes.Equal(a, b) {
		t.Errorf("tune result read back differs\n got %s\nwant %s", a, b)
	}
}

// TestAssignErrors names the path of a value of the wrong type.
func TestAssignErrors(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{`{"w":[[1,2],[3,"x"]]}`, "w[1][1]: want a number, got a string"},
		{`{"version":1.5}`, "version: want a whole number, got 1.5"},
		{`{"tasks":"A"}`, "tasks: want a list, got a string"},
		{`{"trained":{"seed":-1}}`, "trained.seed: want a whole number not below 0, got -1"},
		{`{"encoding":[1]}`, "encoding: want an object, got a list"},
		{`[1]`, "the value: want an object, got a list"},
	}
	for _, c := range cases {
		var m app.ModelFile
		err := jsonlite.Assign(&m, tree(t, []byte(c.in)))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got error %v, want %q", c.in, err, c.want)
		}
	}
	if err := jsonlite.Assign(app.ModelFile{}, nil); err == nil {
		t.Error("a non-pointer destination was accepted")
	}
}

func clip(b []byte) string {
	s := string(b)
	if len(s) > 400 {
		// Show where they part.
		return s[:200] + " … " + s[len(s)-200:]
	}
	return strings.TrimSpace(s)
}

// ExampleEncode writes a value as encoding/json would, NaN as null.
func ExampleEncode() {
	b, _ := jsonlite.Encode(struct {
		Name   string    `json:"name"`
		Scores []float64 `json:"scores"`
		Note   string    `json:"note,omitempty"`
	}{"spMTFL", []float64{0.5, math.NaN()}, ""})
	fmt.Println(string(b))
	// Output: {"name":"spMTFL","scores":[0.5,null]}
}

// TestEncodeErrorPath names where a value that JSON cannot hold sits.
func TestEncodeErrorPath(t *testing.T) {
	cases := []struct {
		v    any
		want string
	}{
		{make(chan int), "jsonlite: the value: cannot encode a chan int"},
		{map[string]any{"a": []any{1.5, make(chan int)}}, "jsonlite: a[1]: cannot encode a chan int"},
		{struct {
			W [][]any `json:"w"`
		}{[][]any{{1}, {2, func() {}}}}, "jsonlite: w[1][1]: cannot encode a func()"},
		{[]any{map[float64]int{1: 1}}, "jsonlite: [0]: cannot encode a map keyed by float64"},
	}
	for _, c := range cases {
		_, err := jsonlite.Encode(c.v)
		if err == nil || err.Error() != c.want {
			t.Errorf("Encode(%T): got error %v, want %q", c.v, err, c.want)
		}
	}
}

// BenchmarkEncode writes a result-sized value: a struct per task with
// its scores, as the bridge's JSON answers carry them.
func BenchmarkEncode(b *testing.B) {
	type task struct {
		Name  string    `json:"name"`
		Test  []float64 `json:"test"`
		Train []float64 `json:"train,omitempty"`
		Seq   []int     `json:"seq,omitempty"`
	}
	v := make([]task, 200)
	for i := range v {
		v[i] = task{Name: "task " + strconv.Itoa(i), Test: make([]float64, 20), Seq: []int{i}}
		for j := range v[i].Test {
			v[i].Test[j] = float64(i*j) / 7
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := jsonlite.Encode(v); err != nil {
			b.Fatal(err)
		}
	}
}
