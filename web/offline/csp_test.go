package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// startScript is index.html's start-up script element, as build finds it.
var startScript = regexp.MustCompile(`(?s)<script>\n// The first thing the page does:.*?</script>\n`)

// TestStartPolicy: index.html's Content-Security-Policy allows its
// start-up script by its hash, and a script changed since is refused with
// the hash it needs.
func TestStartPolicy(t *testing.T) {
	page := read(filepath.Join("..", "index.html"))
	script := startScript.FindString(page)
	if script == "" {
		t.Fatal("index.html has no start-up script")
	}
	if err := checkStartPolicy(page, script); err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(script, "The first thing", "The very first thing", 1)
	err := checkStartPolicy(strings.Replace(page, script, changed, 1), changed)
	if err == nil || !strings.Contains(err.Error(), "'sha256-") {
		t.Errorf("a start-up script changed since its hash was written: error %v, want one naming the hash it needs", err)
	}
	if err := checkStartPolicy(cspRe.ReplaceAllString(page, ""), script); err == nil {
		t.Error("a page without a Content-Security-Policy was not refused")
	}
}

// TestOfflinePolicy: the offline file's policy allows exactly its own
// inline scripts and stylesheet (by their hashes), the wasm and workers
// from blob: URLs, and loads nothing from anywhere else.
func TestOfflinePolicy(t *testing.T) {
	// The policy does not depend on how the payloads are gzipped: Go's
	// level 9 here, not zopfli's 40 s over the bundled data sets.
	defer func(gz func([]byte) ([]byte, error)) { gzip9 = gz }(gzip9)
	gzip9 = nil
	dist, out := t.TempDir(), filepath.Join(t.TempDir(), "offline.html")
	for name, body := range map[string]string{"spmtl.wasm": "\x00asm", "wasm_exec.js": "// wasm_exec\n"} {
		if err := os.WriteFile(filepath.Join(dist, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := build(dist, "..", out); err != nil {
		t.Fatal(err)
	}
	page := read(out)
	m := cspRe.FindAllStringSubmatch(page, -1)
	if len(m) != 1 {
		t.Fatalf("the offline file has %d Content-Security-Policy meta tags, want one", len(m))
	}
	directives := map[string][]string{}
	for _, d := range strings.Split(m[0][1], ";") {
		f := strings.Fields(d)
		if len(f) > 0 {
			directives[f[0]] = f[1:]
		}
	}
	var scripts, styles []string
	for _, s := range regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllStringSubmatch(page, -1) {
		scripts = append(scripts, cspHash(s[1]))
	}
	for _, s := range regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindAllStringSubmatch(page, -1) {
		styles = append(styles, cspHash(s[1]))
	}
	// (Each element begins a line; a comment inside a script may name one.)
	// (The page's own code writes such elements too, so only those that
	// begin a line count.)
	if n, data := len(regexp.MustCompile(`(?m)^<script`).FindAllString(page, -1)), len(regexp.MustCompile(`(?m)^<script type="application/`).FindAllString(page, -1)); n != len(scripts)+data {
		t.Errorf("the offline file has %d script elements: %d inline scripts without a type, %d data; want no other", n, len(scripts), data)
	}
	for _, tc := range []struct {
		directive string
		want      []string
	}{
		{"default-src", []string{"'none'"}},
		{"script-src", append(scripts, "'wasm-unsafe-eval'")},
		{"style-src", styles},
		{"worker-src", []string{"blob:"}},
		{"img-src", []string{"data:"}},
		{"object-src", []string{"'none'"}},
		{"base-uri", []string{"'none'"}},
	} {
		if got := directives[tc.directive]; strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s %q, want %q", tc.directive, got, tc.want)
		}
	}
}
