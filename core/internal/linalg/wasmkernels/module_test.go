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

// TestModuleShape: both forms of the module start with WebAssembly's magic and version
// and is small (the learner carries it).
func TestModuleShape(t *testing.T) {
	for _, simd := range []bool{false, true} {
		m := Module(simd)
		if !bytes.HasPrefix(m, []byte("\x00asm\x01\x00\x00\x00")) || len(m) > 8192 {
			t.Errorf("module (SIMD %v) of %d bytes, starting % x", simd, len(m), m[:min(8, len(m))])
		}
	}
}
