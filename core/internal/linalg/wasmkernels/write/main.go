// Command write writes linalg's kernels_module_js.go, the kernels'
// WebAssembly module as a string constant (wasmkernels.GoFile), to the
// file its argument names: `go generate ./core/internal/linalg`.
package main

import (
	"fmt"
	"os"

	"github.com/spmtl/spmtl/core/internal/linalg/wasmkernels"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: write FILE")
		os.Exit(2)
	}
	if err := os.WriteFile(os.Args[1], wasmkernels.GoFile(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "write:", err)
		os.Exit(1)
	}
}
