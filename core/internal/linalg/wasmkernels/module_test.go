package wasmkernels

import (
	"bytes"
	"os"
	"testing"
)

// TestGoFileUpToDate: linalg's kernels_module_js.go holds this package's
// module as it is now; else `go generate ./core/internal/linalg` was not
// run after a change here.
func TestGoFileUpToDate(t *testing.T) {
	got, err := os.ReadFile("../kernels_module_js.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, GoFile()) {
		t.Error("core/internal/linalg/kernels_module_js.go is not the module this package writes: run go generate ./core/internal/linalg")
	}
}

// TestModuleShape: the module starts with WebAssembly's magic and version
// and is small (the learner carries it).
func TestModuleShape(t *testing.T) {
	m := Module()
	if !bytes.HasPrefix(m, []byte("\x00asm\x01\x00\x00\x00")) || len(m) > 4096 {
		t.Errorf("module of %d bytes, starting % x", len(m), m[:min(8, len(m))])
	}
}
