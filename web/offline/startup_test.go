package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/app"
)

// TestOfflineStartsFromItsOwnCopies: the offline file carries landmine as
// its packed table, byte for byte what app.Pack writes (the workers read
// it without parsing a number), and the catalogue that
// ./build.sh wrote, which the page reads instead of asking the learner.
func TestOfflineStartsFromItsOwnCopies(t *testing.T) {
	dist, out := t.TempDir(), filepath.Join(t.TempDir(), "offline.html")
	const catalog = `{"methods":[{"key":"itl","summary":"a </script> inside"}]}`
	for name, body := range map[string]string{"spmtl.wasm": "\x00asm", "wasm_exec.js": "// wasm_exec\n", "catalog.json": catalog} {
		if err := os.WriteFile(filepath.Join(dist, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := build(dist, "..", out); err != nil {
		t.Fatal(err)
	}
	page := read(out)

	m := regexp.MustCompile(`<script type="application/octet-stream" id="spmtl-data-\d+" data-rel="landmine/data.csv" data-codec="packed" data-gz="(\d+)">([^<]*)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the offline file carries no packed table of landmine/data.csv")
	}
	gz, _ := strconv.Atoi(m[1])
	got := unpackWithNode(t, payload{Codec: "packed", Gz: gz, Text: m[2]})
	csv, err := os.ReadFile(filepath.Join("..", "data", "landmine", "data.csv"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := app.Pack(csv, app.LoadOptions{Name: "landmine/data.csv", TaskColumn: "task", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the carried table unpacks to %d bytes that differ from app.Pack's %d", len(got), len(want))
	}

	c := regexp.MustCompile(`<script type="application/octet-stream" id="spmtl-catalog" data-rel="catalog.json" data-codec="gz" data-gz="(\d+)">([^<]*)</script>`).FindStringSubmatch(page)
	if c == nil {
		t.Fatal("the offline file carries no catalogue")
	}
	gz, _ = strconv.Atoi(c[1])
	if got := unpackWithNode(t, payload{Codec: "gz", Gz: gz, Text: c[2]}); string(got) != catalog {
		t.Errorf("the carried catalogue unpacks to %s, want %s", got, catalog)
	}
	if !strings.Contains(page, `window.SPMTL_CATALOG_PACKED = spmtlPacked(catalog)`) {
		t.Error("the offline boot script does not hand the carried catalogue to the page")
	}
}

// TestOfflineStartsItsWorkerFirst: the offline file starts its first
// worker from a script before the wasm, right after the workers' sources,
// and hands it the wasm from a script right after the wasm: both come
// before the data sets and the page's script (which used to start it,
// ~0.2 s later: docs/bench.md "Fifth round").
func TestOfflineStartsItsWorkerFirst(t *testing.T) {
	dist, out := t.TempDir(), filepath.Join(t.TempDir(), "offline.html")
	for name, body := range map[string]string{"spmtl.wasm": "\x00asm", "wasm_exec.js": "// wasm_exec\n", "catalog.json": "{}"} {
		if err := os.WriteFile(filepath.Join(dist, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := build(dist, "..", out); err != nil {
		t.Fatal(err)
	}
	page := read(out)
	at := func(what string) int {
		t.Helper()
		i := strings.Index(page, what)
		if i < 0 {
			t.Fatalf("the offline file has no %s", what)
		}
		return i
	}
	sources, first := at(`id="spmtl-sources"`), at("window.SPMTL_WORKER = window.SPMTL_MAKE_WORKER();")
	wasm, give := at(`id="spmtl-wasm"`), at(`<script>spmtlGiveWasm(document.getElementById("spmtl-wasm"));</script>`)
	data, catalog, page0 := at(`id="spmtl-data-0"`), at(`id="spmtl-catalog"`), at(`__spmtlModules`)
	if !(sources < first && first < wasm && wasm < give && give < catalog && give < data && give < page0) {
		t.Errorf("want the sources (at %d), the first worker (%d), the wasm (%d), its hand-over (%d), then the catalogue (%d), the data sets (%d) and the page's script (%d)",
			sources, first, wasm, give, catalog, data, page0)
	}
}
