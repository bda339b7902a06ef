// Command offline writes the single-file page spmtl-offline.html: the page,
// its scripts, the wasm (base64) and the small preset data sets in one HTML
// file that works when opened from disk with no network. A page from
// file:// may not fetch files or start a worker from a file, so the worker
// starts from a Blob URL and the ES modules are joined into one classic
// script (each module in its own function scope).
//
//	go run ./web/offline -dist dist -web web -o dist/spmtl-offline.html
package main

import (
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// modules in dependency order (each imports only earlier ones).
var modules = []string{"client.js", "state.js", "export.js", "heatmap.js", "charts.js", "intake.js", "repro.js", "main.js"}

// presets are the bundled data files small enough to embed.
var presets = []string{"landmine/data.csv", "cs/data.csv", "cs/splits.csv"}

var (
	importRe = regexp.MustCompile(`(?m)^import \{([^}]*)\} from "\./([a-z-]+\.js)";\s*$`)
	exportRe = regexp.MustCompile(`(?m)^export (async function|function|class|const|let) ([A-Za-z_$][\w$]*)`)
)

func main() {
	dist := flag.String("dist", "dist", "built site (spmtl.wasm, wasm_exec.js)")
	web := flag.String("web", "web", "web sources")
	out := flag.String("o", "dist/spmtl-offline.html", "output file")
	flag.Parse()
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

// bundle joins the ES modules into one classic script.
func bundle(jsDir string) (string, error) {
	var sb strings.Builder
	sb.WriteString("const __spmtlModules = {};\n")
	for _, m := range modules {
		src := read(filepath.Join(jsDir, m))
		src = importRe.ReplaceAllStringFunc(src, func(line string) string {
			g := importRe.FindStringSubmatch(line)
			// import { a as b } becomes the destructuring { a: b }.
			names := strings.ReplaceAll(g[1], " as ", ": ")
			return fmt.Sprintf("const {%s} = __spmtlModules[%q];", names, g[2])
		})
		if strings.Contains(src, "import ") && regexp.MustCompile(`(?m)^import `).MatchString(src) {
			return "", fmt.Errorf("%s: an import the bundler does not understand", m)
		}
		var names []string
		src = exportRe.ReplaceAllStringFunc(src, func(decl string) string {
			g := exportRe.FindStringSubmatch(decl)
			names = append(names, g[2])
			return g[1] + " " + g[2]
		})
		src = strings.ReplaceAll(src, "import.meta.url", "location.href")
		fmt.Fprintf(&sb, "__spmtlModules[%q] = (() => {\n%s\nreturn {%s};\n})();\n", m, src, strings.Join(names, ", "))
	}
	return sb.String(), nil
}

// scriptText makes text safe inside a <script> element.
func scriptText(s string) string { return strings.ReplaceAll(s, "</script", `<\/script`) }

func build(dist, web, out string) error {
	page := read(filepath.Join(web, "index.html"))
	css := read(filepath.Join(web, "style.css"))
	js, err := bundle(filepath.Join(web, "js"))
	if err != nil {
		return err
	}
	wasm, err := os.ReadFile(filepath.Join(dist, "spmtl.wasm"))
	if err != nil {
		return err
	}
	data := map[string]string{}
	for _, p := range presets {
		data[p] = read(filepath.Join(web, "data", filepath.FromSlash(p)))
	}
	dataJSON, _ := json.Marshal(data)
	sources, _ := json.Marshal(map[string]string{
		"exec":   read(filepath.Join(dist, "wasm_exec.js")),
		"api":    read(filepath.Join(web, "js", "api.js")),
		"worker": read(filepath.Join(web, "js", "worker.js")),
	})
	boot := `"use strict";
// Offline boot: everything the page fetches or starts is made from this file.
window.SPMTL_OFFLINE = true;
(() => {
  const src = JSON.parse(document.getElementById("spmtl-sources").textContent);
  const b64 = document.getElementById("spmtl-wasm").textContent.trim();
  const bin = atob(b64), bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const url = (text, type) => URL.createObjectURL(new Blob([text], { type }));
  // A worker started from a blob: URL of a file:// page may not load other
  // blob: URLs, so its scripts are joined into its own source and the wasm
  // bytes are its first message.
  const workerURL = url(src.exec + "\n" + src.api + "\n" + src.worker, "text/javascript");
  window.SPMTL_MAKE_WORKER = () => {
    const w = new Worker(workerURL);
    w.postMessage({ type: "wasm", bytes: bytes.slice().buffer });
    return w;
  };
  const data = JSON.parse(document.getElementById("spmtl-data").textContent);
  window.SPMTL_PRESETS = {};
  for (const k of Object.keys(data)) window.SPMTL_PRESETS[k] = () => data[k];
})();
`
	// The page's own <link> and module <script> tags are replaced by inline ones.
	page = strings.Replace(page, `<link rel="stylesheet" href="style.css">`, "<style>\n"+css+"</style>", 1)
	modTag := `<script type="module" src="js/main.js"></script>`
	if !strings.Contains(page, modTag) {
		return fmt.Errorf("index.html has no %s", modTag)
	}
	var inline strings.Builder
	inline.WriteString(`<script type="application/octet-stream" id="spmtl-wasm">` + base64.StdEncoding.EncodeToString(wasm) + "</script>\n")
	inline.WriteString(`<script type="application/json" id="spmtl-sources">` + scriptText(string(sources)) + "</script>\n")
	inline.WriteString(`<script type="application/json" id="spmtl-data">` + scriptText(string(dataJSON)) + "</script>\n")
	inline.WriteString("<script>\n" + scriptText(boot) + "</script>\n")
	inline.WriteString("<script>\n\"use strict\";\n" + scriptText(js) + "</script>")
	page = strings.Replace(page, modTag, inline.String(), 1)
	// Links to the data folder do not exist offline; keep the text.
	page = regexp.MustCompile(`<a href="data/[^"]*">([^<]*)</a>`).ReplaceAllString(page, "$1")
	if err := os.WriteFile(out, []byte(page), 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %s: %d bytes\n", out, len(page))
	return nil
}
