//go:build js && wasm

// Package bridge converts between JavaScript values and the pure-Go session
// (core/session) for the one WebAssembly build (wasm/), which the page's
// learner worker and its reproduction workers both load. It holds no
// learning logic. Each
// function returns {__error: message} on failure (with the error's remedy,
// data.RemedyOf, as drop: COLUMN, text: COLUMN or choose: "task"|"label" when it has
// one), and every panic is recovered at the boundary; web/js/api.js turns
// errors into thrown Errors that keep those fields (a Go callback cannot
// throw into JavaScript itself).
package bridge

import (
	"fmt"
	"math"

	"github.com/hack-pad/safejs"
	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/session"
	"github.com/spmtl/spmtl/wasm/internal/jsonlite"
)

// Func is one function of the JavaScript API.
type Func func(args []safejs.Value) (any, error)

var sess = session.New()

// Learner returns the learner's API: catalog, load, generate, train,
// compare, step, finish, evaluate, free; exportModel, importModel,
// predict, inspect, header; tuneStart, tuneFeed, tuneEnd, tuneScore (the
// model search, tune.go).
func Learner() map[string]Func {
	return map[string]Func{"catalog": catalog, "load": load, "generate": generate, "train": train, "compare": compare,
		"step": step, "finish": finish, "evaluate": evaluate, "free": free,
		"exportModel": exportModel, "importModel": importModel, "predict": predict, "inspect": inspect,
		"header": header, "tuneStart": tuneStart, "tuneFeed": tuneFeed, "tuneEnd": tuneEnd, "tuneScore": tuneScore}
}

// Reproduction returns the API of the reproduction workers: addSource,
// reproduceRun and summarize.
func Reproduction() map[string]Func {
	return map[string]Func{"addSource": addSource, "reproduceRun": reproduceRun, "summarize": summarize}
}

// Register sets globalThis[name] to an object holding the functions and
// the version.
func Register(name string, fns map[string]Func) error {
	api, err := safejs.ValueOf(map[string]any{})
	if err != nil {
		return err
	}
	for n, fn := range fns {
		f, err := safejs.FuncOf(wrap(n, fn))
		if err != nil {
			return err
		}
		if err := api.Set(n, f.Value()); err != nil {
			return err
		}
	}
	if err := api.Set("version", Version); err != nil {
		return err
	}
	return safejs.Global().Set(name, api)
}

// Version is reported to the page.
const Version = "0.1.0"

// wrap turns a Go function into a JS function that returns {__error} on
// failure (errorJS) and recovers panics at the boundary.
func wrap(name string, fn Func) func(safejs.Value, []safejs.Value) any {
	return func(_ safejs.Value, args []safejs.Value) (result any) {
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("spmtl.%s: internal error: %v", name, r)
				}
			}()
			result, err = fn(args)
		}()
		if err != nil {
			return errorJS(err)
		}
		return result
	}
}

// errorJS is a failure as the page gets it: {__error: message}, and what
// the page can offer against it (data.Remedy): drop, a column to leave
// out; text, a column to read as words; choose, "task" or "label", the column to choose anew.
func errorJS(err error) map[string]any {
	out := map[string]any{"__error": err.Error()}
	r := data.RemedyOf(err)
	if r.Drop != "" {
		out["drop"] = r.Drop
	}
	if r.Text != "" {
		out["text"] = r.Text
	}
	if r.Choose != "" {
		out["choose"] = string(r.Choose)
	}
	return out
}

func arg(args []safejs.Value, i int) safejs.Value {
	if i < len(args) {
		return args[i]
	}
	return safejs.Undefined()
}

// opts reads optional properties of a JS object.
type opts struct{ v safejs.Value }

func (o opts) has(p string) bool {
	if o.v.IsUndefined() || o.v.IsNull() {
		return false
	}
	x, err := o.v.Get(p)
	return err == nil && !x.IsUndefined() && !x.IsNull()
}

func (o opts) str(p, def string) (string, error) {
	if !o.has(p) {
		return def, nil
	}
	x, _ := o.v.Get(p)
	if x.Type() != safejs.TypeString {
		return "", fmt.Errorf("option %s must be a string", p)
	}
	return x.String()
}

func (o opts) num(p string, def float64) (float64, error) {
	if !o.has(p) {
		return def, nil
	}
	x, _ := o.v.Get(p)
	if x.Type() != safejs.TypeNumber {
		return 0, fmt.Errorf("option %s must be a number", p)
	}
	f, err := x.Float()
	if err != nil {
		return 0, err
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("option %s must be finite, got %v", p, f)
	}
	return f, nil
}

func (o opts) boolean(p string, def bool) (bool, error) {
	if !o.has(p) {
		return def, nil
	}
	x, _ := o.v.Get(p)
	return x.Truthy()
}

// textOrBytes returns a data argument's bytes: a string (a data file's
// text) or a Uint8Array (a file's bytes, which Go decodes, or a packed
// table, which is not text).
func textOrBytes(v safejs.Value) ([]byte, error) {
	if v.Type() == safejs.TypeString {
		s, err := v.String()
		return []byte(s), err
	}
	if v.Type() == safejs.TypeObject {
		n, err := v.Length()
		if err != nil {
			return nil, err
		}
		b := make([]byte, n)
		if _, err := safejs.CopyBytesToGo(b, v); err != nil {
			return nil, fmt.Errorf("the data must be text or a Uint8Array: %w", err)
		}
		return b, nil
	}
	return nil, fmt.Errorf("the data must be text or a Uint8Array (a file's bytes or a packed table)")
}

func load(args []safejs.Value) (any, error) {
	b, err := textOrBytes(arg(args, 0))
	if err != nil {
		return nil, fmt.Errorf("spmtl.load: %w", err)
	}
	o := opts{arg(args, 1)}
	var lo session.LoadOptions
	for _, f := range []struct {
		dst      *string
		key, def string
	}{
		{&lo.Name, "name", "data"}, {&lo.Format, "format", ""}, {&lo.TaskColumn, "task", "task"},
		{&lo.LabelColumn, "label", "y"}, {&lo.SplitText, "splitText", ""}, {&lo.SplitColumn, "splitColumn", "split1"},
	} {
		if *f.dst, err = o.str(f.key, f.def); err != nil {
			return nil, fmt.Errorf("spmtl.load: %w", err)
		}
	}
	if lo.Drop, err = o.strs("drop"); err != nil {
		return nil, fmt.Errorf("spmtl.load: %w", err)
	}
	if lo.Text, err = o.strs("text"); err != nil {
		return nil, fmt.Errorf("spmtl.load: %w", err)
	}
	if lo.Bundled, err = o.boolean("bundled", false); err != nil {
		return nil, fmt.Errorf("spmtl.load: %w", err)
	}
	sum, err := sess.LoadBytes(b, lo)
	if err != nil {
		return nil, err
	}
	return summaryJS(sum), nil
}

// header(text, name) → {header: [...], delimiter: "comma"|"semicolon"|"tab"|""}:
// a CSV's columns as the intake reads them (empty for the sparse format),
// so that the page can offer a refused file's columns. The text may be a
// file's bytes, decoded as the intake decodes them (app.Header).
func header(args []safejs.Value) (any, error) {
	b, err := textOrBytes(arg(args, 0))
	if err != nil {
		return nil, fmt.Errorf("spmtl.header: %w", err)
	}
	name := "data"
	if a := arg(args, 1); a.Type() == safejs.TypeString {
		name, _ = a.String()
	}
	h, d, err := app.Header(b, name)
	if err != nil {
		return nil, err
	}
	cols := make([]any, len(h))
	for i, c := range h {
		cols[i] = c
	}
	delim := ""
	if h != nil {
		delim = data.DelimiterName(d)
	}
	return map[string]any{"header": cols, "delimiter": delim}, nil
}

// strs reads an optional array of strings.
func (o opts) strs(p string) ([]string, error) {
	if !o.has(p) {
		return nil, nil
	}
	x, _ := o.v.Get(p)
	n, err := x.Length()
	if err != nil {
		return nil, fmt.Errorf("option %s must be an array of strings", p)
	}
	out := make([]string, n)
	for i := range out {
		e, _ := x.Index(i)
		if e.Type() != safejs.TypeString {
			return nil, fmt.Errorf("option %s must be an array of strings", p)
		}
		out[i], _ = e.String()
	}
	return out, nil
}

// jsonText returns v as JSON text, which api.js parses: one string crosses
// into JavaScript instead of a value per number, and jsonlite instead of
// encoding/json keeps the wasm smaller (its package comment).
func jsonText(fn string, v any) (any, error) {
	b, err := jsonlite.Encode(v)
	if err != nil {
		return nil, fmt.Errorf("spmtl.%s: %w", fn, err)
	}
	return string(b), nil
}

// exportModel returns a finished run's model file, as JSON text to save.
func exportModel(args []safejs.Value) (any, error) {
	h, err := handleArg(args, "exportModel")
	if err != nil {
		return nil, err
	}
	o := opts{arg(args, 1)}
	var tr app.Trained
	if tr.File, err = o.str("file", ""); err != nil {
		return nil, err
	}
	if tr.All, err = o.boolean("all", false); err != nil {
		return nil, err
	}
	rows, err := o.num("rows", 0)
	if err != nil {
		return nil, err
	}
	train, err := o.num("train", 0)
	if err != nil {
		return nil, err
	}
	seed, err := o.num("seed", 0)
	if err != nil {
		return nil, err
	}
	tr.Rows, tr.Train, tr.Seed = int(rows), train, uint64(seed)
	m, err := sess.ExportModel(h, tr)
	if err != nil {
		return nil, err
	}
	return jsonText("exportModel", m)
}

// importModel(file, name) takes a model file as JSON.parse gave it (api.js
// parses the text, so that a file that is not JSON is refused there with
// the parser's message) and answers JSON text of {handle, name, method,
// kind, tasks, features, trained}.
func importModel(args []safejs.Value) (any, error) {
	name := "model"
	if a := arg(args, 1); a.Type() == safejs.TypeString {
		name, _ = a.String()
	}
	t, err := treeOf(arg(args, 0))
	if err != nil {
		return nil, fmt.Errorf("read model %s: %w", name, err)
	}
	var m app.ModelFile
	if err := jsonlite.Assign(&m, t); err != nil {
		return nil, fmt.Errorf("read model %s: %w", name, err)
	}
	mi, err := sess.AddModel(&m, name)
	if err != nil {
		return nil, err
	}
	return jsonText("importModel", mi)
}

// treeOf converts a JavaScript value made by JSON.parse into the tree
// jsonlite.Assign reads: nil, bool, float64, string, []any and
// map[string]any.
func treeOf(v safejs.Value) (any, error) {
	switch v.Type() {
	case safejs.TypeNull, safejs.TypeUndefined:
		return nil, nil
	case safejs.TypeBoolean:
		return v.Bool()
	case safejs.TypeNumber:
		return v.Float()
	case safejs.TypeString:
		return v.String()
	case safejs.TypeObject:
	default:
		return nil, fmt.Errorf("a %s is not JSON", v.Type())
	}
	isArray, err := safejs.Global().Get("Array")
	if err != nil {
		return nil, err
	}
	arr, err := isArray.Call("isArray", v)
	if err != nil {
		return nil, err
	}
	if ok, _ := arr.Bool(); ok {
		n, err := v.Length()
		if err != nil {
			return nil, err
		}
		out := make([]any, n)
		for i := range out {
			x, err := v.Index(i)
			if err != nil {
				return nil, err
			}
			if out[i], err = treeOf(x); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	object, err := safejs.Global().Get("Object")
	if err != nil {
		return nil, err
	}
	keys, err := object.Call("keys", v)
	if err != nil {
		return nil, err
	}
	n, err := keys.Length()
	if err != nil {
		return nil, err
	}
	out := make(map[string]any, n)
	for i := 0; i < n; i++ {
		k, err := keys.Index(i)
		if err != nil {
			return nil, err
		}
		key, err := k.String()
		if err != nil {
			return nil, err
		}
		x, err := v.Get(key)
		if err != nil {
			return nil, err
		}
		if out[key], err = treeOf(x); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// predict(handle, text, name) predicts a file's rows (its text or bytes)
// with a model or a finished run: JSON text of {header, rows, values,
// column, meaning, warnings}.
func predict(args []safejs.Value) (any, error) {
	h, err := handleArg(args, "predict")
	if err != nil {
		return nil, err
	}
	b, err := textOrBytes(arg(args, 1))
	if err != nil {
		return nil, fmt.Errorf("spmtl.predict: %w", err)
	}
	text := string(b)
	name := "data"
	if a := arg(args, 2); a.Type() == safejs.TypeString {
		name, _ = a.String()
	}
	p, err := sess.Predict(h, text, name)
	if err != nil {
		return nil, err
	}
	return jsonText("predict", p)
}

// inspect(handle) describes a model's shared knowledge: JSON text.
func inspect(args []safejs.Value) (any, error) {
	h, err := handleArg(args, "inspect")
	if err != nil {
		return nil, err
	}
	ins, err := sess.Inspect(h)
	if err != nil {
		return nil, err
	}
	return jsonText("inspect", ins)
}

func generate(args []safejs.Value) (any, error) {
	name, err := arg(args, 0).String()
	if err != nil {
		return nil, fmt.Errorf("spmtl.generate: name: %w", err)
	}
	seed := 1.0
	if a := arg(args, 1); a.Type() == safejs.TypeNumber {
		seed, _ = a.Float()
	}
	sum, err := sess.Generate(name, uint64(seed))
	if err != nil {
		return nil, err
	}
	return summaryJS(sum), nil
}

// catalog returns the method catalogue, the bundled data sets with their
// presets, the defaults and the paper's table rows, as JSON text (api.js
// parses it): the page keeps no list of its own.
func catalog([]safejs.Value) (any, error) {
	return jsonText("catalog", sess.Catalog())
}

func summaryJS(s session.Summary) map[string]any {
	tasks := make([]any, len(s.Tasks))
	for i, t := range s.Tasks {
		tasks[i] = map[string]any{"name": t.Name, "rows": t.Rows, "positives": t.Positives}
	}
	names := make([]any, len(s.FeatureNames))
	for i, n := range s.FeatureNames {
		names[i] = n
	}
	header := make([]any, len(s.Header))
	for i, h := range s.Header {
		header[i] = h
	}
	cols := make([]any, len(s.Columns))
	for i, c := range s.Columns {
		vals := make([]any, len(c.Values))
		for k, v := range c.Values {
			vals[k] = v
		}
		roles := make([]any, len(c.Roles))
		for k, r := range c.Roles {
			roles[k] = string(r)
		}
		cols[i] = map[string]any{"name": c.Name, "role": string(c.Role), "distinct": c.Distinct, "values": vals, "reason": c.Reason, "thousands": c.Thousands,
			"roles": roles, "id": c.ID}
	}
	ids := make([]any, len(s.IDColumns))
	for i, c := range s.IDColumns {
		ids[i] = c
	}
	return map[string]any{"handle": s.Handle, "name": s.Name, "tasks": tasks, "features": s.Features, "rows": s.Rows,
		"kind": s.Kind, "positive": s.Positive, "negative": s.Negative, "fixedSplit": s.FixedSplit, "featureNames": names,
		"format": s.Format, "delimiter": s.Delimiter, "header": header, "columns": cols, "featureText": s.FeatureText,
		"labelNote": s.LabelNote, "numberNote": s.NumberNote, "textEncoding": s.TextEncoding, "taskColumn": s.TaskColumn, "labelColumn": s.LabelColumn,
		"idNote": s.IDNote, "idColumns": ids}
}

func train(args []safejs.Value) (any, error) {
	to, err := trainOptions(opts{arg(args, 0)}, "train")
	if err != nil {
		return nil, err
	}
	info, err := sess.Train(to)
	if err != nil {
		return nil, err
	}
	return runInfoJS(info), nil
}

// trainOptions reads a run's options: {data, model, selfPaced, select,
// codeBugs, tau, variant, solver, loss, rho, lambda0 (a number or "auto"),
// autoLambda0, c, delta, h, maxIter, train, all, seed}.
func trainOptions(o opts, fn string) (session.TrainOptions, error) {
	var to session.TrainOptions
	h, err := o.num("data", 0)
	if err != nil {
		return to, fmt.Errorf("spmtl.%s: %w", fn, err)
	}
	to.Dataset = int(h)
	c := &to.Config
	strs := []struct {
		dst *string
		key string
	}{
		{&c.Model, "model"}, {(*string)(&c.Tau), "tau"}, {(*string)(&c.Variant), "variant"},
		{(*string)(&c.Solver), "solver"}, {(*string)(&c.Loss), "loss"}, {&c.Select, "select"},
		{(*string)(&c.Scale), "scale"}, {(*string)(&c.PaceCost), "paceCost"},
	}
	for _, f := range strs {
		if *f.dst, err = o.str(f.key, ""); err != nil {
			return to, fmt.Errorf("spmtl.%s: %w", fn, err)
		}
	}
	if x, _ := o.v.Get("lambda0"); o.has("lambda0") && x.Type() == safejs.TypeString {
		s, _ := x.String()
		if err := app.SetLambda0(c, s); err != nil {
			return to, fmt.Errorf("spmtl.%s: option lambda0: %w", fn, err)
		}
	} else if c.Lambda0, err = o.num("lambda0", 0); err != nil {
		return to, fmt.Errorf("spmtl.%s: %w", fn, err)
	}
	nums := []struct {
		dst *float64
		key string
	}{{&c.Rho, "rho"}, {&c.Pace, "c"}, {&c.Delta, "delta"}, {&to.Train, "train"}, {&c.Intercept, "intercept"}}
	if c.AutoLambda0 == 0 {
		nums = append(nums, struct {
			dst *float64
			key string
		}{&c.AutoLambda0, "autoLambda0"})
	}
	for _, f := range nums {
		if *f.dst, err = o.num(f.key, 0); err != nil {
			return to, fmt.Errorf("spmtl.%s: %w", fn, err)
		}
	}
	var hh, mi, seed float64
	if hh, err = o.num("h", 0); err == nil {
		if mi, err = o.num("maxIter", 0); err == nil {
			seed, err = o.num("seed", 1)
		}
	}
	if err != nil {
		return to, fmt.Errorf("spmtl.%s: %w", fn, err)
	}
	if seed < 0 {
		return to, fmt.Errorf("spmtl.%s: seed must be non-negative", fn)
	}
	c.H, c.MaxIter, c.Seed, to.Seed = int(hh), int(mi), int64(seed), uint64(seed)
	if c.SelfPaced, err = o.boolean("selfPaced", false); err != nil {
		return to, err
	}
	if c.CodeBugs, err = o.boolean("codeBugs", false); err != nil {
		return to, err
	}
	if to.All, err = o.boolean("all", false); err != nil {
		return to, err
	}
	return to, nil
}

func runInfoJS(info session.RunInfo) map[string]any {
	tasks := make([]any, len(info.Tasks))
	for i, n := range info.Tasks {
		tasks[i] = n
	}
	untested := make([]any, len(info.Untested))
	for i, t := range info.Untested {
		untested[i] = t
	}
	return map[string]any{"handle": info.Handle, "name": info.Name, "kind": info.Kind, "tasks": tasks, "trainRows": info.TrainRows,
		"testRows": info.TestRows, "config": configJS(info.Config), "untested": untested, "untestedText": info.UntestedText}
}

// compare starts the runs the catalogue compares a run with, on its split:
// [{role, label, run}].
func compare(args []safejs.Value) (any, error) {
	h, err := handleArg(args, "compare")
	if err != nil {
		return nil, err
	}
	cs, err := sess.Compare(h)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(cs))
	for i, c := range cs {
		out[i] = map[string]any{"role": c.Role, "label": c.Label, "run": runInfoJS(c.Run)}
	}
	return out, nil
}

func configJS(c mtl.Config) map[string]any {
	return map[string]any{"model": c.Model, "selfPaced": c.SelfPaced, "tau": string(c.Tau), "variant": string(c.Variant),
		"solver": string(c.Solver), "loss": string(c.Loss), "rho": c.Rho, "lambda0": c.Lambda0, "c": c.Pace,
		"delta": c.Delta, "h": c.H, "maxIter": c.MaxIter, "seed": c.Seed, "codeBugs": c.CodeBugs, "select": c.Select,
		"autoLambda0": c.AutoLambda0}
}

func handleArg(args []safejs.Value, fn string) (int, error) {
	a := arg(args, 0)
	if a.Type() != safejs.TypeNumber {
		return 0, fmt.Errorf("spmtl.%s: the argument must be a handle", fn)
	}
	return a.Int()
}

func step(args []safejs.Value) (any, error) {
	h, err := handleArg(args, "step")
	if err != nil {
		return nil, err
	}
	s, err := sess.Step(h)
	if err != nil {
		return nil, err
	}
	return snapshotJS(s), nil
}

// finish steps a run to its end and returns the last snapshot.
func finish(args []safejs.Value) (any, error) {
	h, err := handleArg(args, "finish")
	if err != nil {
		return nil, err
	}
	s, err := sess.Finish(h)
	if err != nil {
		return nil, err
	}
	return snapshotJS(s), nil
}

// snapshotJS converts a snapshot: the self-paced trainer's τ, λ, costs and
// objective, or a sequential learner's step (seq: {task, order, scores}, τ
// null).
func snapshotJS(s mtl.Snapshot) map[string]any {
	out := map[string]any{"iter": s.Iter, "objective": s.Objective, "spObjective": s.SPObjective,
		"tauChange": jsNum(float64(s.TauChange)), "objChange": jsNum(float64(s.ObjChange)), "converged": s.Converged,
		"done": s.Done, "stop": string(s.Stop), "stopMessage": s.StopMessage(), "tauRule": s.TauRule, "tau": nil, "lambda": nil, "seq": nil}
	if s.Seq == nil {
		out["lambda"] = s.Lambda
		out["tau"] = f64Array(s.Tau)
		out["cost"] = f64Array(s.Cost)
		out["loss"] = f64Array(s.Loss)
		out["penalty"] = f64Array(s.Penalty)
		return out
	}
	scores := make([]float64, len(s.Seq.Scores))
	for i, v := range s.Seq.Scores {
		scores[i] = float64(v)
	}
	order := make([]any, len(s.Seq.Order))
	for i, t := range s.Seq.Order {
		order[i] = t
	}
	out["seq"] = map[string]any{"task": s.Seq.Task, "order": order, "scores": f64Array(scores)}
	return out
}

func evaluate(args []safejs.Value) (any, error) {
	h, err := handleArg(args, "evaluate")
	if err != nil {
		return nil, err
	}
	ev, err := sess.Evaluate(h)
	if err != nil {
		return nil, err
	}
	tasks := make([]any, len(ev.Tasks))
	for i, n := range ev.Tasks {
		tasks[i] = n
	}
	mean := any(nil)
	if !math.IsNaN(ev.Mean) {
		mean = ev.Mean
	}
	entered := make([]any, len(ev.EnteredAt))
	for i, k := range ev.EnteredAt {
		entered[i] = k
	}
	out := map[string]any{"metric": ev.Metric, "tasks": tasks, "test": f64Array(ev.Test), "mean": mean,
		"iter": ev.Iter, "done": ev.Done, "enteredAt": entered,
		"over": map[string]any{"mean": jsNum(ev.Over.Mean), "se": jsNum(ev.Over.SE), "n": ev.Over.N}, "versus": nil}
	if v := ev.Versus; v != nil {
		out["versus"] = map[string]any{"metric": string(v.Metric), "tasks": v.Tasks, "diff": jsNum(v.Diff), "se": jsNum(v.SE),
			"p": jsNum(v.P), "verdict": v.Verdict, "text": v.Text}
	}
	return out, nil
}

func free(args []safejs.Value) (any, error) {
	h, err := handleArg(args, "free")
	if err != nil {
		return nil, err
	}
	sess.Free(h)
	return nil, nil
}

// f64Array copies v into a new Float64Array (NaN stays NaN: the page
// shows it as "n/a", never as a number).
func f64Array(v []float64) any {
	ctor, err := safejs.Global().Get("Float64Array")
	if err != nil {
		return nil
	}
	arr, err := ctor.New(len(v))
	if err != nil {
		return nil
	}
	for i, x := range v {
		_ = arr.SetIndex(i, x)
	}
	return safejs.Unsafe(arr)
}

func addSource(args []safejs.Value) (any, error) {
	var parts [3]string
	for i := range parts {
		a := arg(args, i)
		if a.Type() == safejs.TypeString {
			parts[i], _ = a.String()
		} else if i < 2 {
			return nil, fmt.Errorf("spmtl.addSource: argument %d must be a string", i+1)
		}
	}
	return true, sess.AddSource(parts[0], parts[1], parts[2])
}

func reproduceOptions(o opts, fn string) (session.ReproduceOptions, error) {
	var ro session.ReproduceOptions
	var err error
	if ro.Dataset, err = o.str("dataset", ""); err != nil {
		return ro, fmt.Errorf("spmtl.%s: %w", fn, err)
	}
	run, err := o.num("run", 1)
	if err != nil {
		return ro, fmt.Errorf("spmtl.%s: %w", fn, err)
	}
	folds, err := o.num("folds", 3)
	if err != nil {
		return ro, fmt.Errorf("spmtl.%s: %w", fn, err)
	}
	ro.Run, ro.Folds = int(run), int(folds)
	if ro.Quick, err = o.boolean("quick", false); err != nil {
		return ro, err
	}
	v, err := o.str("variant", "paper")
	if err != nil {
		return ro, err
	}
	sv, err := o.str("solver", "")
	if err != nil {
		return ro, err
	}
	ro.Variant, ro.Solver = mtl.Variant(v), mtl.Solver(sv)
	tb, err := o.str("table", "paper")
	if err != nil {
		return ro, err
	}
	ro.Table = app.Table(tb)
	if ro.CodeBugs, err = o.boolean("codeBugs", false); err != nil {
		return ro, err
	}
	return ro, nil
}

func reproduceRun(args []safejs.Value) (any, error) {
	ro, err := reproduceOptions(opts{arg(args, 0)}, "reproduceRun")
	if err != nil {
		return nil, err
	}
	res, err := sess.ReproduceRun(ro)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(res))
	for i, r := range res {
		out[i] = map[string]any{"method": r.Method, "score": jsNum(r.Score), "rho": r.Rho, "lambda0": r.Lambda0, "seconds": r.Seconds}
	}
	return map[string]any{"dataset": ro.Dataset, "run": ro.Run, "results": out}, nil
}

func summarize(args []safejs.Value) (any, error) {
	o := opts{arg(args, 0)}
	ro, err := reproduceOptions(o, "summarize")
	if err != nil {
		return nil, err
	}
	runsV, err := o.v.Get("runs")
	if err != nil {
		return nil, fmt.Errorf("spmtl.summarize: runs: %w", err)
	}
	nr, err := runsV.Length()
	if err != nil {
		return nil, fmt.Errorf("spmtl.summarize: runs must be an array")
	}
	runs := make([][]eval.RunResult, nr)
	for r := 0; r < nr; r++ {
		rv, _ := runsV.Index(r)
		n, err := rv.Length()
		if err != nil {
			return nil, fmt.Errorf("spmtl.summarize: run %d must be an array", r+1)
		}
		for i := 0; i < n; i++ {
			cv, _ := rv.Index(i)
			c := opts{cv}
			res := eval.RunResult{Score: math.NaN()}
			if res.Method, err = c.str("method", ""); err != nil {
				return nil, err
			}
			if c.has("score") {
				if res.Score, err = c.num("score", 0); err != nil {
					return nil, err
				}
			}
			if res.Rho, err = c.num("rho", 0); err != nil {
				return nil, err
			}
			if res.Lambda0, err = c.num("lambda0", 0); err != nil {
				return nil, err
			}
			if res.Seconds, err = c.num("seconds", 0); err != nil {
				return nil, err
			}
			runs[r] = append(runs[r], res)
		}
	}
	cells, err := sess.Summarize(ro, runs)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(cells))
	for i, c := range cells {
		out[i] = map[string]any{"method": c.Method, "metric": string(c.Metric), "mean": jsNum(c.Mean), "std": jsNum(c.Std),
			"se": jsNum(c.SE), "t": jsNum(c.T), "p": jsNum(c.P), "better": c.Better, "worse": c.Worse, "scores": f64Array(c.Scores),
			"rho": f64Array(c.Rho), "lambda0": f64Array(c.Lambda0)}
	}
	return out, nil
}

// jsNum maps NaN and ±Inf to null, so no non-finite number reaches a chart.
func jsNum(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}
