// Command offline writes the single-file page spmtl-offline.html: the page,
// its scripts, the wasm and every bundled data set (school with its split
// file, sentiment's sparse file) in one HTML file that works when opened
// from disk with no network, the Reproduce view included. The wasm and the
// data are packed (pack.go: gzip, a codec for each file whose text
// gzip does poorly on, base-122 text) and unpacked in a worker when first
// needed (web/js/unpack.js). A page from file:// may not fetch files or
// start a worker from a file, so the workers start from Blob URLs and the
// ES modules are joined into one classic script (each module in its own
// function scope), in the order their import statements imply: a module
// comes after every module it imports, starting from main.js, so a new
// module needs no change here.
//
// With -module FILE it also writes the same join as one ES module for the
// served page: one request and one script for the page's thread instead of
// a module graph of ~36 files (docs/architecture.md, "Start-up").
//
//	go run ./web/offline -dist dist -web web -o dist/spmtl-offline.html [-module dist/js/app.bundle.js]
package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spmtl/spmtl/core/app"
)

// entry is the page's module; the bundle holds it and what it imports.
const entry = "main.js"

var (
	importRe    = regexp.MustCompile(`(?m)^import \{([^}]*)\} from "\./([a-z][a-z0-9-]*\.js)";[ \t]*\r?$`)
	anyImportRe = regexp.MustCompile(`(?m)^\s*import[\s{*"']`)
	exportRe    = regexp.MustCompile(`(?m)^export (async function|function|class|const|let) ([A-Za-z_$][\w$]*)`)
	anyExportRe = regexp.MustCompile(`(?m)^\s*export\b`)
)

func main() {
	dist := flag.String("dist", "dist", "built site (spmtl.wasm, wasm_exec.js)")
	web := flag.String("web", "web", "web sources")
	out := flag.String("o", "dist/spmtl-offline.html", "output file")
	moduleOut := flag.String("module", "", "also write the page's modules joined into this one ES module `file` (the served page loads it instead of main.js and its ~35 imports)")
	flag.Parse()
	if *moduleOut != "" {
		js, _, err := join(filepath.Join(*web, "js"), false)
		if err == nil {
			err = os.WriteFile(*moduleOut, []byte(js), 0o644)
		}
		if err != nil {
			log.Fatalf("offline: %v", err)
		}
	}
	if err := build(*dist, *web, *out); err != nil {
		log.Fatalf("offline: %v", err)
	}
}

func read(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatalf("offline: %v", err)
	}
	return string(b)
}

// moduleOrder reads the modules reachable from entry in jsDir and returns
// them with every module after the ones it imports (a depth-first
// post-order), with their sources. A cycle, or an import the bundler
// cannot join (anything but `import { a, b as c } from "./name.js";`), is
// an error.
func moduleOrder(jsDir string) ([]string, map[string]string, error) {
	var order []string
	srcs := map[string]string{}
	const (
		visiting = 1
		done     = 2
	)
	mark := map[string]int{}
	var visit func(m string, from []string) error
	visit = func(m string, from []string) error {
		switch mark[m] {
		case done:
			return nil
		case visiting:
			return fmt.Errorf("import cycle: %s -> %s", strings.Join(from, " -> "), m)
		}
		mark[m] = visiting
		b, err := os.ReadFile(filepath.Join(jsDir, m))
		if err != nil {
			return err
		}
		src := string(b)
		srcs[m] = src
		imports := importRe.FindAllStringSubmatch(src, -1)
		if n := len(anyImportRe.FindAllString(src, -1)); n != len(imports) {
			return fmt.Errorf("%s: %d import statement(s) the bundler does not understand (import { a, b as c } from \"./name.js\";)", m, n-len(imports))
		}
		for _, g := range imports {
			if err := visit(g[2], append(append([]string(nil), from...), m)); err != nil {
				return err
			}
		}
		mark[m] = done
		order = append(order, m)
		return nil
	}
	if err := visit(entry, nil); err != nil {
		return nil, nil, err
	}
	return order, srcs, nil
}

// bundle joins the ES modules into one classic script (for the offline
// file, which inlines it: import.meta.url becomes the page's address).
func bundle(jsDir string) (string, []string, error) { return join(jsDir, true) }

// join joins the ES modules into one script: classic (see bundle), or a
// module that keeps import.meta.url (the served site's js/app.bundle.js,
// which sits beside main.js, so URLs made from it resolve alike).
func join(jsDir string, classic bool) (string, []string, error) {
	order, srcs, err := moduleOrder(jsDir)
	if err != nil {
		return "", nil, err
	}
	var sb strings.Builder
	sb.WriteString("const __spmtlModules = {};\n")
	for _, m := range order {
		src := importRe.ReplaceAllStringFunc(srcs[m], func(line string) string {
			g := importRe.FindStringSubmatch(line)
			// import { a as b } becomes the destructuring { a: b }.
			names := strings.ReplaceAll(g[1], " as ", ": ")
			return fmt.Sprintf("const {%s} = __spmtlModules[%q];", names, g[2])
		})
		var names []string
		src = exportRe.ReplaceAllStringFunc(src, func(decl string) string {
			g := exportRe.FindStringSubmatch(decl)
			names = append(names, g[2])
			return g[1] + " " + g[2]
		})
		if anyExportRe.MatchString(src) {
			return "", nil, fmt.Errorf("%s: an export the bundler does not understand (export function|class|const|let NAME)", m)
		}
		if classic {
			src = strings.ReplaceAll(src, "import.meta.url", "location.href")
		}
		fmt.Fprintf(&sb, "__spmtlModules[%q] = (() => {\n%s\nreturn {%s};\n})();\n", m, src, strings.Join(names, ", "))
	}
	return sb.String(), order, nil
}

// file is one bundled data file the offline file carries, and its codec.
type file struct{ rel, codec string }

// codecs are the files that pack better than their gzipped text
// (pack.go); the others are gzipped as they are.
var codecs = map[string]string{"sentiment/data.svm": "svm-tfidf", "school/splits.csv": "csv-codes"}

// tables are the bundled CSVs the file carries as packed tables (app.Pack,
// as ./build.sh writes data.packed beside the served CSVs) instead of their
// text: the worker and the Reproduce view's workers read a table without
// parsing a number (the intake knows it by its first bytes), where
// landmine's 1.9 MB of decimals took about 0.5 s to rebuild as text and
// parse when the file was opened (docs/bench.md, "Fourth round"). The
// payload keeps the CSV's name, so that everything that finds a bundle's
// file finds it. School's small whole numbers parse quickly, and their table
// would be larger than their CSV.
var tables = map[string]bool{"landmine/data.csv": true}

// payloadFiles lists the data and split files of every bundle that is not
// generated, as the catalogue names them ("landmine/data.csv"), checking
// that each is in web's data folder.
func payloadFiles(web string) ([]file, error) {
	var out []file
	for _, b := range app.Bundles() {
		for _, rel := range []string{b.Data, b.Splits} {
			if rel == "" {
				continue
			}
			if _, err := os.Stat(filepath.Join(web, "data", filepath.FromSlash(rel))); err != nil {
				return nil, err
			}
			codec := codecs[rel]
			if tables[rel] {
				codec = "packed"
			} else if codec == "" {
				codec = "gz"
			}
			out = append(out, file{rel, codec})
		}
	}
	return out, nil
}

// scriptText makes text safe inside a <script> element.
func scriptText(s string) string { return strings.ReplaceAll(s, "</script", `<\/script`) }

func build(dist, web, out string) error {
	page := read(filepath.Join(web, "index.html"))
	css := read(filepath.Join(web, "style.css"))
	js, order, err := bundle(filepath.Join(web, "js"))
	if err != nil {
		return err
	}
	wasm, err := os.ReadFile(filepath.Join(dist, "spmtl.wasm"))
	if err != nil {
		return err
	}
	files, err := payloadFiles(web)
	if err != nil {
		return err
	}
	// The payloads: the wasm (after the start script), then every bundled
	// file.
	var wasmPayload, payloads strings.Builder
	var sizes []string
	to := &wasmPayload
	add := func(id, rel, codec string, raw []byte) error {
		p, err := pack(rel, codec, raw)
		if err != nil {
			return err
		}
		fmt.Fprintf(to, "<script type=\"application/octet-stream\" id=%q data-rel=%q data-codec=%q data-gz=\"%d\">%s</script>\n",
			id, rel, codec, p.Gz, p.Text)
		sizes = append(sizes, fmt.Sprintf("%s %d", rel, len(p.Text)))
		return nil
	}
	if err := add("spmtl-wasm", "spmtl.wasm", "bin", wasm); err != nil {
		return err
	}
	to = &payloads
	// The catalogue ./build.sh wrote (dist/catalog.json), gzipped: the page
	// wires its panels and asks for its data set without waiting for the
	// learner to start and answer it (main.js); without the file, the
	// learner answers.
	if cat, err := os.ReadFile(filepath.Join(dist, "catalog.json")); err == nil {
		if !json.Valid(cat) {
			return fmt.Errorf("%s is not JSON", filepath.Join(dist, "catalog.json"))
		}
		if err := add("spmtl-catalog", "catalog.json", "gz", cat); err != nil {
			return err
		}
	}
	for i, f := range files {
		raw, err := os.ReadFile(filepath.Join(web, "data", filepath.FromSlash(f.rel)))
		if err != nil {
			return err
		}
		if tables[f.rel] {
			table, err := app.Pack(raw, app.LoadOptions{Name: f.rel, TaskColumn: "task", LabelColumn: "y"})
			if err != nil {
				return fmt.Errorf("pack %s as a table: %w", f.rel, err)
			}
			raw = table
		}
		if err := add(fmt.Sprintf("spmtl-data-%d", i), f.rel, f.codec, raw); err != nil {
			return err
		}
	}
	unpack, err := classicScript("unpack.js", read(filepath.Join(web, "js", "unpack.js")))
	if err != nil {
		return err
	}
	// Both workers begin with Go's wasm_exec.js, the API and the unpacker:
	// written once (26 KB), and joined to each worker's own script when the
	// page makes its blob: URL.
	sources, _ := json.Marshal(map[string]string{
		"common": stripComments(read(filepath.Join(dist, "wasm_exec.js"))+"\n"+read(filepath.Join(web, "js", "api.js"))+"\n"+unpack) + "\n",
		"worker": stripComments(read(filepath.Join(web, "js", "worker.js"))),
		"repro":  stripComments(read(filepath.Join(web, "js", "repro-worker.js"))),
	})
	// The served page's first script fetches the wasm and starts a worker
	// from js/: nothing of that exists beside this file, which makes both
	// from its own payloads (boot below), wherever it is opened from.
	head := regexp.MustCompile(`(?s)<script>\n// The first thing the page does:.*?</script>\n`)
	if len(head.FindAllString(page, -1)) != 1 {
		return fmt.Errorf("index.html has no single start-up script (\"// The first thing the page does:\")")
	}
	if err := checkStartPolicy(page, head.FindString(page)); err != nil {
		return err
	}
	page = head.ReplaceAllString(page, "")
	// The page's own <link> and module <script> tags are replaced by inline ones.
	style := "\n" + css
	page = strings.Replace(page, `<link rel="stylesheet" href="style.css">`, "<style>"+style+"</style>", 1)
	modTag := `<script type="module" src="js/main.js"></script>`
	if !strings.Contains(page, modTag) {
		return fmt.Errorf("index.html has no %s", modTag)
	}
	var inline strings.Builder
	inline.WriteString(`<script type="application/json" id="spmtl-sources">` + scriptText(string(sources)) + "</script>\n")
	startText, bootText, jsText := "\n"+scriptText(offlineStart), "\n"+scriptText(offlineBoot), "\n\"use strict\";\n"+scriptText(stripComments(js))
	inline.WriteString("<script>" + startText + "</script>\n")
	inline.WriteString(wasmPayload.String())
	inline.WriteString("<script>" + offlineGiveWasm + "</script>\n")
	inline.WriteString(payloads.String())
	inline.WriteString("<script>" + bootText + "</script>\n")
	inline.WriteString("<script>" + jsText + "</script>")
	page = strings.Replace(page, modTag, inline.String(), 1)
	// The file's own policy: its four scripts and its stylesheet by their
	// hashes, the wasm, workers from blob: URLs, images from data: URLs
	// (the icon), and nothing from anywhere else.
	policy := fmt.Sprintf("default-src 'none'; script-src %s %s %s %s 'wasm-unsafe-eval'; worker-src blob:; style-src %s; img-src data:; object-src 'none'; base-uri 'none'; form-action 'none'",
		cspHash(startText), cspHash(offlineGiveWasm), cspHash(bootText), cspHash(jsText), cspHash(style))
	page = cspRe.ReplaceAllLiteralString(page, `<meta http-equiv="Content-Security-Policy" content="`+policy+`">`)
	page, err = inlineSources(page, web)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, []byte(page), 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %s: %d bytes (payloads in the page: %s; modules: %s)\n", out, len(page), strings.Join(sizes, ", "), strings.Join(order, " "))
	return nil
}

// offlineStart starts the offline file's first worker from a script before
// the wasm, so that the worker's thread starts and reads its sources while
// the page's parser reads the wasm; offlineGiveWasm, a one-line script right
// after the wasm, hands it over (unpacked, compiled and started there at
// once: api.js). The worker used to start after the ~2 MB of data sets and
// the page's own script, ~0.2 s later (docs/bench.md "Fifth round").
const offlineStart = `"use strict";
// Offline start: everything the page fetches or starts is made from this file.
// The payloads stay packed in their <script> elements until a worker needs
// one: the page's thread only reads the element's text.
window.SPMTL_OFFLINE = true;
window.spmtlPacked = (el) => ({ codec: el.dataset.codec, gz: Number(el.dataset.gz), text: el.textContent });
(() => {
  const src = JSON.parse(document.getElementById("spmtl-sources").textContent);
  const url = (text) => URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
  // A worker started from a blob: URL of a file:// page may not load other
  // blob: URLs, so its scripts are joined into its own source and the
  // packed wasm is its first message.
  const workerURL = url(src.common + src.worker), reproURL = url(src.common + src.repro);
  let wasm = null;
  const waiting = [];
  const start = (u) => {
    const w = new Worker(u);
    if (wasm) w.postMessage({ type: "wasm", packed: wasm });
    else waiting.push(w);
    return w;
  };
  window.SPMTL_MAKE_WORKER = () => start(workerURL);
  window.SPMTL_MAKE_REPRO_WORKER = () => start(reproURL);
  // The page's first worker (main.js takes it); the wasm follows.
  window.SPMTL_WORKER = window.SPMTL_MAKE_WORKER();
  window.spmtlGiveWasm = (el) => {
    wasm = spmtlPacked(el);
    for (const w of waiting.splice(0)) w.postMessage({ type: "wasm", packed: wasm });
  };
})();
`
const offlineGiveWasm = `spmtlGiveWasm(document.getElementById("spmtl-wasm"));`

// offlineBoot, after the data sets, hands them and the catalogue to the page.
const offlineBoot = `"use strict";
// The offline file's data sets and catalogue, for the page (sources.js, main.js).
(() => {
  const catalog = document.getElementById("spmtl-catalog");
  if (catalog) window.SPMTL_CATALOG_PACKED = spmtlPacked(catalog);
  window.SPMTL_PRESETS = {};
  for (const el of document.querySelectorAll("script[data-rel]")) {
    if (el !== catalog && el.id !== "spmtl-wasm") window.SPMTL_PRESETS[el.dataset.rel] = () => spmtlPacked(el);
  }
  if (typeof DecompressionStream === "undefined") {
    window.SPMTL_OFFLINE_PROBLEM = "This browser cannot unpack the offline file: it has no DecompressionStream. Open the file in a current Chrome, Edge, Firefox or Safari, or use the served site.";
  }
})();
`

// cspRe matches the page's Content-Security-Policy.
var cspRe = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)

// cspHash is the Content-Security-Policy source that allows an inline
// <script> or <style> element whose text is s.
func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// checkStartPolicy checks that index.html has one Content-Security-Policy
// and that it allows the start-up script (the element script, whose text
// a change would leave blocked by a hash written for the text before).
func checkStartPolicy(page, script string) error {
	m := cspRe.FindAllStringSubmatch(page, -1)
	if len(m) != 1 {
		return fmt.Errorf("index.html has %d Content-Security-Policy meta tags, want one", len(m))
	}
	text := strings.TrimSuffix(strings.TrimPrefix(script, "<script>"), "</script>\n")
	if h := cspHash(text); !strings.Contains(m[0][1], h) {
		return fmt.Errorf("index.html's Content-Security-Policy does not allow its start-up script as it is now: its script-src wants %s", h)
	}
	return nil
}

// sourceLinkRe matches the footer's links to a data set's provenance note.
var sourceLinkRe = regexp.MustCompile(`<a href="data/([a-z0-9]+)/SOURCE\.md">([^<]*)</a>`)

// inlineSources puts the data sets' provenance notes (web/data/NAME/SOURCE.md:
// where each data set comes from, and its licence) into the page's footer,
// each in a closed <details>, in place of links to files that do not exist
// beside the offline file. (In-page anchors would not do: the hash holds the
// page's settings.)
func inlineSources(page, web string) (string, error) {
	var notes strings.Builder
	var err error
	page = sourceLinkRe.ReplaceAllStringFunc(page, func(a string) string {
		m := sourceLinkRe.FindStringSubmatch(a)
		b, rerr := os.ReadFile(filepath.Join(web, "data", m[1], "SOURCE.md"))
		if rerr != nil && err == nil {
			err = fmt.Errorf("the footer links to %s's SOURCE.md: %w", m[1], rerr)
		}
		fmt.Fprintf(&notes, "<details><summary>%s: source and licence</summary><pre>%s</pre></details>\n", m[2], html.EscapeString(string(b)))
		return m[2]
	})
	if err != nil {
		return "", err
	}
	if notes.Len() == 0 {
		return page, nil
	}
	const end = "</footer>"
	if strings.Count(page, end) != 1 {
		return "", fmt.Errorf("index.html has no single %s for the data sets' provenance notes", end)
	}
	return strings.Replace(page, end, `<div class="sources">`+"\n"+notes.String()+"</div>\n"+end, 1), nil
}
