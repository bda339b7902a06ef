package e2e

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestServeSendsTheBuiltGzip: serve.go sends the learner as ./build.sh
// gzipped it (GNU gzip -9, about 1% smaller than Go's level 9), not a
// stream of its own.
func TestServeSendsTheBuiltGzip(t *testing.T) {
	built, err := os.ReadFile(filepath.Join(distDir(t), "spmtl.wasm.gz"))
	if err != nil {
		t.Fatalf("./build.sh wrote no spmtl.wasm.gz: %v", err)
	}
	body, enc := fetchEncoded(t, serveGo(t), "/spmtl.wasm", "gzip")
	if enc != "gzip" || !bytes.Equal(body, built) {
		t.Errorf("served %d bytes (%q), want the build's %d-byte stream", len(body), enc, len(built))
	}
}

// fetchEncoded asks serve.go for path with the Accept-Encoding given and
// returns the body as sent (not decoded) and its Content-Encoding.
func fetchEncoded(t *testing.T, base, path, accept string) ([]byte, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", base+path, nil)
	req.Header.Set("Accept-Encoding", accept) // set by hand: the body stays encoded
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return body, resp.Header.Get("Content-Encoding")
}

// TestServeSendsTheBuiltZstd: a client that accepts zstd gets the
// learner as ./build.sh compressed it with zstd (when this machine has the
// command), one that refuses it (q=0) or does not ask gets the gzip stream,
// and a browser decodes the zstd stream into the learner.
func TestServeSendsTheBuiltZstd(t *testing.T) {
	dist := distDir(t)
	built, err := os.ReadFile(filepath.Join(dist, "spmtl.wasm.zst"))
	if err != nil {
		if _, lookErr := exec.LookPath("zstd"); lookErr != nil {
			t.Skip("this machine has no zstd command, so ./build.sh wrote no spmtl.wasm.zst")
		}
		t.Fatalf("./build.sh wrote no spmtl.wasm.zst though this machine has zstd: %v", err)
	}
	gz, err := os.ReadFile(filepath.Join(dist, "spmtl.wasm.gz"))
	if err != nil {
		t.Fatal(err)
	}
	base := serveGo(t)
	for _, tc := range []struct {
		accept, encoding string
		want             []byte
	}{
		{"gzip, deflate, br, zstd", "zstd", built},
		{"zstd;q=0.5, gzip", "zstd", built},
		{"gzip, zstd;q=0", "gzip", gz},
		{"gzip", "gzip", gz},
	} {
		body, enc := fetchEncoded(t, base, "/spmtl.wasm", tc.accept)
		if enc != tc.encoding || !bytes.Equal(body, tc.want) {
			t.Errorf("Accept-Encoding %q: served %d bytes (%q), want the build's %d-byte %s stream", tc.accept, len(body), enc, len(tc.want), tc.encoding)
		}
	}
	info, err := os.Stat(filepath.Join(dist, "spmtl.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.do(chromedp.Navigate(base + "/catalog.json"))
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]float64](`(async () => {
  const r = await fetch("spmtl.wasm");
  const bytes = await r.arrayBuffer();
  await WebAssembly.compile(bytes);
  const e = performance.getEntriesByName(new URL("spmtl.wasm", location.href).href)[0];
  return [e.encodedBodySize, bytes.byteLength];
})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != float64(len(built)) || got[1] != float64(info.Size()) {
		t.Errorf("the browser received [sent bytes, decoded bytes] %v, want [%d, %d]: the zstd stream, decoded into the learner", got, len(built), info.Size())
	}
}

// TestServeSkipsAStaleZstd: a .zst older than its file, or one whose frame
// declares another size, is not sent: the file goes gzipped instead.
func TestServeSkipsAStaleZstd(t *testing.T) {
	zstd, err := exec.LookPath("zstd")
	if err != nil {
		t.Skip("this machine has no zstd command to write the test's streams")
	}
	dir := t.TempDir()
	page, err := os.ReadFile(filepath.Join(distDir(t), "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.html", string(page))
	write("spmtl.wasm", "stands in for the learner") // serveGo checks that it is there
	write("fresh.js", "const fresh = 1;\n")
	write("stale.js", "const stale = 1;\n")
	write("other.js", "const another = 1;\n")
	for name, from := range map[string]string{"fresh.js": "fresh.js", "stale.js": "stale.js", "other.js": "fresh.js"} {
		cmd := exec.Command(zstd, "-19", "-q", "-f", "-o", filepath.Join(dir, name+".zst"), filepath.Join(dir, from))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("zstd %s: %v\n%s", from, err, out)
		}
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "stale.js"), later, later); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SPMTL_DIST", dir)
	base := serveGo(t)
	for name, want := range map[string]string{"fresh.js": "zstd", "stale.js": "gzip", "other.js": "gzip"} {
		if _, enc := fetchEncoded(t, base, "/"+name, "gzip, zstd"); enc != want {
			t.Errorf("%s: sent as %q, want %q", name, enc, want)
		}
	}
}
