package e2e

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// TestServeSendsTheBuiltGzip: serve.go sends the learner as ./build.sh
// gzipped it (GNU gzip -9, about 1% smaller than Go's level 9), not a
// stream of its own.
func TestServeSendsTheBuiltGzip(t *testing.T) {
	built, err := os.ReadFile(filepath.Join(distDir(t), "spmtl.wasm.gz"))
	if err != nil {
		t.Fatalf("./build.sh wrote no spmtl.wasm.gz: %v", err)
	}
	base := serveGo(t)
	req, _ := http.NewRequest("GET", base+"/spmtl.wasm", nil)
	req.Header.Set("Accept-Encoding", "gzip") // set by hand: the body stays gzipped
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(body, built) {
		t.Errorf("served %d bytes (%q), want the build's %d-byte stream", len(body), resp.Header.Get("Content-Encoding"), len(built))
	}
}
