//go:build js && wasm

// Package bridge carries the page's calls into the pure-Go session
// (core/session) for the one WebAssembly build (wasm/), which the page's
// learner worker and its reproduction workers both load. It holds no
// learning logic and no defaults: each call's request arrives as JSON text
// (web/js/api.js writes it), is read into its core/session type
// (jsonlite.Reader, bounded), and the answer goes back as JSON text. A
// data text, a file's bytes or a packed table crosses beside the request
// as it is (the payload), and so do the model search's row losses
// (tune.go).
//
// A failure is answered as {__error: message}, with the error's remedy
// (data.RemedyOf) as drop: COLUMN, text: COLUMN, choose: "task"|"label" or
// omit: true when it has one, and every panic is recovered at the boundary;
// web/js/api.js turns the answer into a thrown Error that keeps those
// fields (a Go callback cannot throw into JavaScript itself).
package bridge

import (
	"fmt"

	"github.com/hack-pad/safejs"
	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/session"
	"github.com/spmtl/spmtl/wasm/internal/jsonlite"
)

// Func is one function of the JavaScript API: it reads its request (JSON
// text) and its payload, and returns the answer to encode.
type Func struct {
	call func(name string, req []byte, payload safejs.Value) (any, error)
	// every writes the answer with every member of its type present and
	// nil lists as [] (jsonlite.EncodeAll): the page reads those answers
	// member by member.
	every bool
}

var sess = session.New()

// The bounds of the JSON the bridge reads: the page's requests, whose
// largest member is a split file's text, and a visitor's model files (the
// bundled data sets' models are at most a few megabytes; a text of 10^8
// numbers, 191 MB, is refused by its length alone). Neither nests deeper
// than 5.
var (
	requests = jsonlite.Reader{MaxBytes: 256 << 20, MaxDepth: 32}
	models   = jsonlite.Reader{MaxBytes: 128 << 20, MaxDepth: 32}
)

// fn makes a Func whose request is read into a new R (after R's
// SetDefaults, when it has one).
func fn[R any](every bool, do func(R, payload) (any, error)) Func {
	return Func{every: every, call: func(name string, text []byte, p safejs.Value) (any, error) {
		var r R
		if d, ok := any(&r).(interface{ SetDefaults() }); ok {
			d.SetDefaults()
		}
		if err := requests.Decode(text, "spmtl."+name, &r); err != nil {
			return nil, err
		}
		return do(r, payload{p, name})
	}}
}

// withBytes makes a Func whose payload is a text or a file's bytes.
func withBytes[R any](every bool, do func(R, []byte) (any, error)) Func {
	return fn(every, func(r R, p payload) (any, error) {
		b, err := p.bytes()
		if err != nil {
			return nil, err
		}
		return do(r, b)
	})
}

// handle makes a Func of a handle: compare, step, finish, evaluate, free,
// inspect.
func handle[T any](every bool, do func(int) (T, error)) Func {
	return fn(every, func(r session.Handle, _ payload) (any, error) { return do(r.Handle) })
}

// Learner returns the learner's API: catalog, load, generate, header,
// train, compare, step, finish, evaluate, free; exportModel, importModel,
// predict, inspect; tuneStart, tuneFeed, tuneEnd, tuneScore (the model
// search, tune.go). The answers the page reads member by member are
// written with every member (Func.every).
func Learner() map[string]Func {
	return map[string]Func{
		"catalog":  fn(false, func(struct{}, payload) (any, error) { return sess.Catalog(), nil }),
		"load":     withBytes(true, func(r session.LoadOptions, b []byte) (any, error) { return sess.LoadBytes(b, r) }),
		"generate": fn(true, func(r session.GenerateRequest, _ payload) (any, error) { return sess.Generate(r.Name, r.Seed) }),
		"header":   withBytes(true, func(r session.Named, b []byte) (any, error) { return session.Header(b, r.Name) }),
		"train": fn(true, func(r session.TrainRequest, _ payload) (any, error) {
			o, err := r.Options()
			if err != nil {
				return nil, fmt.Errorf("spmtl.train: %w", err)
			}
			return sess.Train(o)
		}),
		"compare":  handle(true, sess.Compare),
		"step":     handle(false, snapshot(sess.Step)),
		"finish":   handle(false, snapshot(sess.Finish)),
		"evaluate": handle(true, sess.Evaluate),
		"free":     handle(false, func(h int) (any, error) { sess.Free(h); return nil, nil }),
		"inspect":  handle(false, sess.Inspect),
		"exportModel": fn(false, func(r session.ExportRequest, _ payload) (any, error) {
			return sess.ExportModel(r.Handle.Handle, r.Trained, r.Tuned)
		}),
		"importModel": fn(false, importModel),
		"predict": withBytes(false, func(r session.PredictRequest, b []byte) (any, error) {
			return sess.Predict(r.Handle.Handle, string(b), r.Name, r.Missing, r.NewTasks, r.Tuned)
		}),
		"tuneStart": fn(false, tuneStart), "tuneFeed": fn(false, tuneFeed), "tuneScore": fn(false, tuneScore),
		"tuneEnd": fn(false, func(r session.Search, _ payload) (any, error) { sess.TuneEnd(r.ID); return nil, nil }),
	}
}

// Reproduction returns the API of the reproduction workers: addSource,
// reproduceRun and summarize.
func Reproduction() map[string]Func {
	return map[string]Func{
		"addSource": withBytes(false, func(r session.SourceRequest, b []byte) (any, error) {
			return true, sess.AddSource(r.Name, string(b), r.Split)
		}),
		"reproduceRun": fn(true, func(r session.ReproduceOptions, _ payload) (any, error) {
			res, err := sess.ReproduceRun(r)
			return session.RunResults{Dataset: r.Dataset, Run: r.Run, Results: res}, err
		}),
		"summarize": fn(true, func(r session.SummarizeRequest, _ payload) (any, error) {
			return sess.Summarize(r.ReproduceOptions, r.Runs)
		}),
	}
}

// snapshot turns a session step into the page's snapshot.
func snapshot(step func(int) (mtl.Snapshot, error)) func(int) (session.Snapshot, error) {
	return func(h int) (session.Snapshot, error) {
		s, err := step(h)
		return session.SnapshotOf(s), err
	}
}

// importModel reads a model file's text (the payload) as JSON within the
// model files' bounds, and keeps it: {handle, name, method, kind, tasks,
// features, featureCount, trained}. A text or a Uint8Array over the bound is refused
// before it is copied out of JavaScript.
func importModel(r session.ModelName, p payload) (any, error) {
	n, err := p.size()
	if err != nil {
		return nil, fmt.Errorf("read model %s: %w", r.Name, err)
	}
	if err := models.CheckSize(n, r.Name); err != nil {
		return nil, fmt.Errorf("read model %w", err)
	}
	b, err := p.bytes()
	if err != nil {
		return nil, err
	}
	if err := app.NotAPage(b, r.Name); err != nil {
		return nil, err
	}
	if err := app.NotARun(b, r.Name); err != nil {
		return nil, err
	}
	var m app.ModelFile
	if err := models.DecodeWith(b, r.Name, &m, app.CheckModelTree); err != nil {
		return nil, fmt.Errorf("read model %w", err)
	}
	return sess.AddModel(&m, r.Name)
}

// payload is what crosses beside a request of function fn: a text, a
// file's bytes, a packed table, or the model search's losses.
type payload struct {
	v  safejs.Value
	fn string
}

// size returns the payload's length without copying it into Go: a
// string's in UTF-16 units (read on its String object; at most its UTF-8
// length), a Uint8Array's in bytes, and 0 for anything else (which bytes
// refuses with its own message).
func (p payload) size() (int, error) {
	if p.v.Type() == safejs.TypeString {
		return stringLength(p.v)
	}
	if ok, err := isUint8Array(p.v); err != nil || !ok {
		return 0, nil
	}
	return p.v.Length()
}

// bytes returns the payload's bytes: a string's UTF-8, or a Uint8Array's.
func (p payload) bytes() ([]byte, error) {
	if p.v.Type() == safejs.TypeString {
		s, err := p.v.String()
		if err != nil {
			return nil, fmt.Errorf("spmtl.%s: the payload: %w", p.fn, err)
		}
		return []byte(s), nil
	}
	if ok, err := isUint8Array(p.v); err != nil || !ok {
		return nil, fmt.Errorf("spmtl.%s: the payload must be a text or a Uint8Array, got %s", p.fn, p.v.Type())
	}
	n, err := p.v.Length()
	if err != nil {
		return nil, fmt.Errorf("spmtl.%s: the payload: %w", p.fn, err)
	}
	b := make([]byte, n)
	if _, err := safejs.CopyBytesToGo(b, p.v); err != nil {
		return nil, fmt.Errorf("spmtl.%s: the payload: %w", p.fn, err)
	}
	return b, nil
}

// isUint8Array reports whether v is a Uint8Array.
func isUint8Array(v safejs.Value) (bool, error) {
	ctor, err := safejs.Global().Get("Uint8Array")
	if err != nil {
		return false, err
	}
	return v.InstanceOf(ctor)
}

// stringLength returns a JavaScript string's length (UTF-16 units) without
// copying it into Go.
func stringLength(v safejs.Value) (int, error) {
	obj, err := safejs.Global().Get("Object")
	if err != nil {
		return 0, err
	}
	s, err := obj.Invoke(v)
	if err != nil {
		return 0, err
	}
	return s.Length()
}

// Register sets globalThis[name] to an object holding the functions and
// the version.
func Register(name string, fns map[string]Func) error {
	obj, err := safejs.Global().Get("Object")
	if err != nil {
		return fmt.Errorf("register %s: %w", name, err)
	}
	api, err := obj.New()
	if err != nil {
		return fmt.Errorf("register %s: %w", name, err)
	}
	for n, f := range fns {
		jf, err := safejs.FuncOf(wrap(n, f))
		if err != nil {
			return fmt.Errorf("register %s.%s: %w", name, n, err)
		}
		if err := api.Set(n, jf.Value()); err != nil {
			return fmt.Errorf("register %s.%s: %w", name, n, err)
		}
	}
	if err := api.Set("version", Version); err != nil {
		return fmt.Errorf("register %s: %w", name, err)
	}
	return safejs.Global().Set(name, api)
}

// Version is reported to the page.
const Version = "0.1.0"

// wrap turns a Func into a JS function of (request, payload) that answers
// JSON text (or [text, Float64Array] for an answer with bulk floats),
// {__error} on failure (errorJS), and recovers panics at the boundary.
func wrap(name string, f Func) func(safejs.Value, []safejs.Value) any {
	return func(_ safejs.Value, args []safejs.Value) (answer any) {
		defer func() {
			if r := recover(); r != nil {
				answer = encode(name, nil, fmt.Errorf("spmtl.%s: internal error: %v", name, r), false)
			}
		}()
		req, p := []byte(nil), safejs.Undefined()
		if len(args) > 0 && args[0].Type() == safejs.TypeString {
			s, err := args[0].String()
			if err != nil {
				return encode(name, nil, fmt.Errorf("spmtl.%s: the request: %w", name, err), false)
			}
			req = []byte(s)
		}
		if len(args) > 1 {
			p = args[1]
		}
		v, err := f.call(name, req, p)
		return encode(name, v, err, f.every)
	}
}

// encode writes an answer, or the failure err.
func encode(name string, v any, err error, every bool) any {
	if err != nil {
		v = errorJS(err)
	}
	var floats []float64
	if b, ok := v.(bulk); ok {
		v, floats = b.v, b.floats
	}
	enc := jsonlite.Encode
	if every {
		enc = jsonlite.EncodeAll
	}
	text, err := enc(v)
	if err != nil {
		text, _ = jsonlite.Encode(errorJS(fmt.Errorf("spmtl.%s: %w", name, err)))
		floats = nil
	}
	if floats == nil {
		return string(text)
	}
	arr, err := f64Array(floats)
	if err != nil {
		text, _ = jsonlite.Encode(errorJS(fmt.Errorf("spmtl.%s: %w", name, err)))
		return string(text)
	}
	return []any{string(text), arr}
}

// errorJS is a failure as the page gets it: {__error: message}, and what
// the page can offer against it (data.Remedy): drop, a column to leave
// out; text, a column to read as words; choose, "task" or "label", the column to choose anew;
// omit, true when leaving out the rows with a missing value would do.
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
	if r.Omit {
		out["omit"] = true
	}
	if r.Skip {
		out["skip"] = true
	}
	return out
}
