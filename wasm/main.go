//go:build js && wasm

// Command wasm is the learner's WebAssembly build: it registers a global
// `spmtlRaw` object with the functions of wasm/bridge and waits.
//
//	spmtl.load(text, {name, format, task, label, splitText, splitColumn}) → summary
//	spmtl.generate("syn1" | "syn2", seed) → summary
//	spmtl.train({data, model, selfPaced, tau, variant, solver, loss, rho, lambda0, c, delta, h, maxIter, train, seed}) → run info
//	spmtl.step(run) → {iter, lambda, tau: Float64Array, cost, loss, penalty, objective, spObjective, tauChange, converged, done}
//	spmtl.evaluate(run) → {metric, tasks, test: Float64Array, mean, iter, done}
//	spmtl.free(handle)
//
// web/js/api.js wraps spmtlRaw as spmtl, turning error results into thrown
// Errors. The reproduction of the paper's table has its own, larger build
// (wasm/repro), so that this one stays under 1 MB gzipped.
package main

import "github.com/spmtl/spmtl/wasm/bridge"

func main() {
	if err := bridge.Register("spmtlRaw", bridge.Learner()); err != nil {
		panic(err)
	}
	select {} // keep the functions alive
}
