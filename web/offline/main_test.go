package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func writeModules(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestModuleOrderOfThePage: every module of web/js that main.js reaches
// comes after the modules it imports, and main.js comes last.
func TestModuleOrderOfThePage(t *testing.T) {
	order, srcs, err := moduleOrder(filepath.Join("..", "js"))
	if err != nil {
		t.Fatal(err)
	}
	if order[len(order)-1] != entry {
		t.Fatalf("order %v does not end with %s", order, entry)
	}
	pos := map[string]int{}
	for i, m := range order {
		pos[m] = i
	}
	dep := regexp.MustCompile(`(?m)^import \{[^}]*\} from "\./([a-z0-9-]+\.js)";`)
	for _, m := range order {
		for _, g := range dep.FindAllStringSubmatch(srcs[m], -1) {
			if pos[g[1]] >= pos[m] {
				t.Errorf("%s imports %s, which comes later in %v", m, g[1], order)
			}
		}
	}
	for _, worker := range []string{"worker.js", "repro-worker.js", "api.js"} {
		if _, ok := pos[worker]; ok {
			t.Errorf("the page's bundle holds the worker script %s", worker)
		}
	}
}

// TestModuleOrderFollowsImports: a module comes after what it imports,
// whatever the file names; a module nothing imports is left out.
func TestModuleOrderFollowsImports(t *testing.T) {
	dir := writeModules(t, map[string]string{
		"main.js":   "import { b } from \"./b.js\";\nimport { a as x } from \"./a.js\";\nx(b);\n",
		"a.js":      "import { c } from \"./c.js\";\nexport function a(v) { return c(v); }\n",
		"b.js":      "import { c } from \"./c.js\";\nexport const b = c(1);\n",
		"c.js":      "export function c(v) { return v; }\n",
		"unused.js": "export const u = 1;\n",
	})
	order, _, err := moduleOrder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(order, " "); got != "c.js b.js a.js main.js" {
		t.Errorf("order %q, want c.js b.js a.js main.js", got)
	}
	js, _, err := bundle(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js, `const { a: x } = __spmtlModules["a.js"];`) || strings.Contains(js, "export ") {
		t.Errorf("bundle:\n%s", js)
	}
	// The classic script (inlined in the offline file) has no
	// import.meta; the served module keeps it, so URLs resolve as from
	// main.js beside it.
	dir = writeModules(t, map[string]string{"main.js": "const w = new URL(\"./worker.js\", import.meta.url);\n"})
	classic, _, err := join(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	module, _, err := join(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(classic, "import.meta") || !strings.Contains(classic, "location.href") || !strings.Contains(module, `new URL("./worker.js", import.meta.url)`) {
		t.Errorf("classic:\n%s\nmodule:\n%s", classic, module)
	}
}

// TestModuleOrderRefuses a cycle and imports or exports it cannot join.
func TestModuleOrderRefuses(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"import cycle": {"main.js": "import { a } from \"./a.js\";\n", "a.js": "import { m } from \"./main.js\";\nexport const a = 1;\n"},
		"understand":   {"main.js": "import * as a from \"./a.js\";\n", "a.js": "export const a = 1;\n"},
		"no such file": {"main.js": "import { a } from \"./gone.js\";\n"},
	} {
		_, _, err := bundle(writeModules(t, files))
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error %v", name, err)
		}
	}
	_, _, err := bundle(writeModules(t, map[string]string{"main.js": "const a = 1;\nexport { a };\n"}))
	if err == nil || !strings.Contains(err.Error(), "export the bundler does not understand") {
		t.Errorf("export list: error %v", err)
	}
}

// TestInlineSources: the footer's links to the data sets' provenance notes,
// which do not exist beside the offline file, become their names, and each
// note is in the footer, escaped, in a closed <details>.
func TestInlineSources(t *testing.T) {
	web := t.TempDir()
	if err := os.MkdirAll(filepath.Join(web, "data", "cs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(web, "data", "cs", "SOURCE.md"), []byte("# cs\nLicence: <CC BY> & co.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	page := `<main></main><footer><p>Data: <a href="data/cs/SOURCE.md">cs</a>.</p></footer>`
	got, err := inlineSources(page, web)
	if err != nil {
		t.Fatal(err)
	}
	want := "<footer><p>Data: cs.</p><div class=\"sources\">\n<details><summary>cs: source and licence</summary><pre># cs\nLicence: &lt;CC BY&gt; &amp; co.\n</pre></details>\n</div>\n</footer>"
	if !strings.Contains(got, want) || strings.Contains(got, `href="data/`) {
		t.Errorf("footer:\n%s\nwant:\n%s", got, want)
	}
	page = `<footer><p><a href="data/gone/SOURCE.md">gone</a></p></footer>`
	if _, err := inlineSources(page, web); err == nil || !strings.Contains(err.Error(), "gone") {
		t.Errorf("a missing note: error %v", err)
	}
}
