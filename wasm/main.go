//go:build js && wasm

// Command wasm is the one WebAssembly build of spmtl: it registers a global
// `spmtlRaw` object with the functions of wasm/bridge — the learner's
// (catalog, load, generate, header, train, compare, step, finish, evaluate,
// free, exportModel, importModel, predict, inspect, tuneStart, tuneFeed,
// tuneEnd, tuneScore) and the reproduction's (addSource, reproduceRun,
// summarize) — and waits. Each takes a request as JSON text and answers
// JSON text; web/js/api.js wraps spmtlRaw as spmtl, writing the requests,
// reading the answers and turning error answers into thrown Errors. The
// page's learner worker and the Reproduce view's workers load the same
// file, so a visitor downloads and compiles it once (the browser caches
// it); one build instead of two saves the 3.8 MB second build the
// reproduction had, for the cost of the reproduction's share of this one
// (docs/architecture.md).
package main

import "github.com/spmtl/spmtl/wasm/bridge"

func main() {
	api := bridge.Learner()
	for name, fn := range bridge.Reproduction() {
		api[name] = fn
	}
	if err := bridge.Register("spmtlRaw", api); err != nil {
		panic(err) // the page cannot work without its functions; the worker reports Go's exit
	}
	select {} // keep the functions alive
}
