package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClassicScript: an ES module's exports become plain declarations for
// the workers' joined sources; an import, or an export the bundler does
// not understand, is refused.
func TestClassicScript(t *testing.T) {
	for _, c := range []struct {
		name, src, want, err string
	}{
		{"functions", "export function a() {}\nexport async function b() {}\nfunction c() {}\n", "function a() {}\nasync function b() {}\nfunction c() {}\n", ""},
		{"const", "export const k = 1;\n", "const k = 1;\n", ""},
		{"import", "import { a } from \"./a.js\";\nexport const k = a;\n", "", "imports nothing"},
		{"export list", "const a = 1;\nexport { a };\n", "", "does not understand"},
	} {
		got, err := classicScript(c.name, c.src)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%s: %q (%v), want %q", c.name, got, err, c.want)
		}
	}
}

// TestUnpackIsClassicForWorkers: the page's unpack.js becomes a classic
// script that defines spmtlUnpack, as the workers call it.
func TestUnpackIsClassicForWorkers(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "js", "unpack.js"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := classicScript("unpack.js", string(b))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "\nasync function spmtlUnpack(") || strings.Contains(got, "export ") {
		t.Errorf("unpack.js for the workers keeps an export or lost spmtlUnpack")
	}
}
