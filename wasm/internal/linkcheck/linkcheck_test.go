//go:build !js

// Package linkcheck checks what the linker keeps in the WebAssembly
// learner: packages and functions that once cost it bytes for nothing the
// page uses must not come back by an innocent import (docs/bench.md,
// "Fourth round"). The test links ./wasm for js/wasm with -dumpdep, which
// prints every edge of the linker's reachability graph, and fails naming
// the edge that reaches a forbidden symbol.
package linkcheck

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// forbidden are symbols that the learner must not link (every symbol that
// starts with the name, when prefix is set), with why.
var forbidden = []struct {
	symbol string
	prefix bool
	why    string
}{
	{"type:context.Context", false, "a context links time's formatting through Deadline's time.Time (a learner that never stops early runs with mtl.Run(nil, ...))"},
	{"time.Time.Format", false, "time's formatting: nothing in the page formats a time"},
	{"html.init", false, "html's entity tables come with core/figure, which the page does not draw with (the τ scale is core/internal/tauscale)"},
}

func TestLearnerLinks(t *testing.T) {
	if testing.Short() {
		t.Skip("links the wasm learner")
	}
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-dumpdep", "-o", filepath.Join(t.TempDir(), "spmtl.wasm"), "./wasm")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build ./wasm: %v\n%s", err, tail(out))
	}
	reached := map[string]string{} // forbidden symbol -> first edge reaching it
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	edges := 0
	for sc.Scan() {
		from, to, ok := strings.Cut(sc.Text(), " -> ")
		if !ok {
			continue
		}
		edges++
		to = strings.TrimSuffix(to, " <UsedInIface>")
		for _, f := range forbidden {
			if _, seen := reached[f.symbol]; seen {
				continue
			}
			if to == f.symbol || f.prefix && strings.HasPrefix(to, f.symbol) {
				reached[f.symbol] = from + " -> " + to
			}
		}
	}
	if edges < 1000 {
		t.Fatalf("the linker printed %d edges: is -dumpdep still the linker's flag?\n%s", edges, tail(out))
	}
	for _, f := range forbidden {
		if e, ok := reached[f.symbol]; ok {
			t.Errorf("the learner links %s (%s): %s", f.symbol, f.why, e)
		}
	}
}

// tail returns the last 2,000 bytes of b, for an error message.
func tail(b []byte) string {
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}
