//go:build js && wasm

// Command repro is the WebAssembly build of the reproduction workers: it
// registers `spmtlRaw` with the functions that run the paper's protocol one
// run at a time (wasm/bridge.Reproduction), the same code as the command
// line's `spmtl reproduce`.
//
//	spmtl.addSource("landmine" | "school" | "cs" | "sentiment", text, splitText)
//	spmtl.reproduceRun({dataset, run, folds, quick, variant, solver}) → {dataset, run, results: [{method, score, rho, lambda0, seconds}]}
//	spmtl.summarize({dataset, folds, quick, variant, solver, runs: [results, ...]}) → [{method, metric, mean, std, se, t, p, better, scores, rho, lambda0}]
package main

import "github.com/spmtl/spmtl/wasm/bridge"

func main() {
	if err := bridge.Register("spmtlRaw", bridge.Reproduction()); err != nil {
		panic(err)
	}
	select {}
}
