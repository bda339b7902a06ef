//go:build ignore

// serve.go builds the app when needed and serves it on the loopback address.
//
//	go run serve.go [-addr 127.0.0.1:8080] [-dir dist] [-build=true]
//
// It runs ./build.sh when dist/ is missing or older than any source under
// web/, wasm/, core/ or go.mod; serves .wasm as application/wasm; gzips
// compressible responses for clients that accept it (a file's zstd copy
// written by ./build.sh, the learner's, to those that accept zstd: see
// builtZstd); and serves nothing
// outside dist/ (no directory listings, no dot files, no symlinks out).
// The gzipped copies are made when it starts: the wasm and the page's own
// files before it listens (about a second here), so that a first visit
// does not wait for them, and the data sets' files in the background, the
// packed tables first. A page is sent with the Content-Security-Policy its
// own meta tag states, as a header, with frame-ancestors * (a header's
// alone: any site may embed the page); every other file with index.html's,
// which binds the workers started from them.
package main

import (
	"compress/gzip"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"mime"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	dir := flag.String("dir", "dist", "folder to serve")
	build := flag.Bool("build", true, "run ./build.sh when the folder is missing or stale")
	flag.Parse()
	if *build {
		if stale, why := isStale(*dir); stale {
			log.Printf("building %s (%s)", *dir, why)
			cmd := exec.Command("bash", "./build.sh")
			cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
			if err := cmd.Run(); err != nil {
				log.Fatalf("build: %v", err)
			}
		}
	}
	root, err := filepath.Abs(*dir)
	if err == nil {
		root, err = filepath.EvalSymlinks(root) // compared with resolved paths below
	}
	if err != nil {
		log.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "index.html")); err != nil {
		log.Fatalf("%s has no index.html: %v", root, err)
	}
	if pagePolicy(filepath.Join(root, "index.html")) == "" {
		log.Fatalf("%s has no Content-Security-Policy meta tag", filepath.Join(root, "index.html"))
	}
	gz := &gzipCache{root: root, files: map[string]*gzEntry{}}
	gz.warm(func(rel string) bool { return !strings.HasPrefix(rel, "data/") })
	go func() {
		gz.warm(func(string) bool { return true })
		// Said once the data sets are compressed too: until then this
		// process keeps a core busy (about 3 s of gzip -9 for dist/data's
		// 18 MB), which ./build.sh bench waits out before it measures.
		log.Printf("every file's gzipped copy is ready")
	}()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("listen: %v", err)
	}
	fmt.Printf("spmtl is served at http://%s/ (Ctrl-C to stop)\n", ln.Addr())
	srv := &http.Server{Handler: handler(root, gz), ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}

// isStale reports whether dir must be rebuilt, and why.
func isStale(dir string) (bool, string) {
	st, err := os.Stat(filepath.Join(dir, "spmtl.wasm"))
	if err != nil {
		return true, "no build yet"
	}
	built := st.ModTime()
	newer := ""
	for _, src := range []string{"web", "wasm", "core", "go.mod", "go.sum"} {
		filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil || newer != "" {
				return nil
			}
			if info, err := d.Info(); err == nil && !d.IsDir() && info.ModTime().After(built) {
				newer = p
				return filepath.SkipAll
			}
			return nil
		})
	}
	if newer != "" {
		return true, newer + " changed"
	}
	return false, ""
}

var compressible = map[string]bool{".html": true, ".js": true, ".css": true, ".wasm": true, ".csv": true, ".svm": true, ".packed": true, ".md": true, ".json": true, ".txt": true}

// handler serves files under root only, as the build's zstd copy or
// gzipped through gz when the client accepts it.
func handler(root string, gz *gzipCache) http.Handler {
	mime.AddExtensionType(".wasm", "application/wasm")
	mime.AddExtensionType(".mjs", "text/javascript")
	mime.AddExtensionType(".svm", "text/plain; charset=utf-8")
	mime.AddExtensionType(".md", "text/markdown; charset=utf-8")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		clean := path.Clean("/" + r.URL.Path)
		if clean == "/" {
			clean = "/index.html"
		}
		for _, part := range strings.Split(clean, "/") {
			if strings.HasPrefix(part, ".") {
				http.NotFound(w, r)
				return
			}
		}
		file := filepath.Join(root, filepath.FromSlash(clean))
		real, err := filepath.EvalSymlinks(file)
		if err != nil || !strings.HasPrefix(real, root+string(filepath.Separator)) {
			http.NotFound(w, r)
			return
		}
		info, err := os.Stat(real)
		if err != nil || info.IsDir() {
			http.NotFound(w, r)
			return
		}
		ext := filepath.Ext(real)
		if ct := mime.TypeByExtension(ext); ct != "" {
			w.Header().Set("Content-Type", ct)
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		policyFrom := filepath.Join(root, "index.html")
		if ext == ".html" {
			policyFrom = real
		}
		if p := pagePolicy(policyFrom); p != "" {
			w.Header().Set("Content-Security-Policy", p+"; frame-ancestors *")
		}
		if compressible[ext] && accepts(r.Header.Get("Accept-Encoding"), "zstd") {
			if body, ok := builtZstd(real, info); ok {
				w.Header().Set("Content-Encoding", "zstd")
				w.Header().Set("Vary", "Accept-Encoding")
				http.ServeContent(w, r, "", info.ModTime(), strings.NewReader(body))
				return
			}
		}
		if compressible[ext] && accepts(r.Header.Get("Accept-Encoding"), "gzip") {
			body, err := gz.get(real, info)
			if err == nil {
				w.Header().Set("Content-Encoding", "gzip")
				w.Header().Set("Vary", "Accept-Encoding")
				http.ServeContent(w, r, "", info.ModTime(), strings.NewReader(body))
				return
			}
		}
		http.ServeFile(w, r, real)
	})
}

// cspMeta matches a page's Content-Security-Policy meta tag.
var cspMeta = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)

// pagePolicy returns the Content-Security-Policy the meta tag in the head
// of the page at p states ("" when it has none, or cannot be read).
func pagePolicy(p string) string {
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 32<<10)
	n, _ := io.ReadFull(f, head)
	if m := cspMeta.FindSubmatch(head[:n]); m != nil {
		return string(m[1])
	}
	return ""
}

// gzipCache keeps the gzipped bytes of each file until it changes. A file
// is compressed once: a request for it while that runs waits for it.
type gzipCache struct {
	root  string
	mu    sync.Mutex
	files map[string]*gzEntry
}

type gzEntry struct {
	mod  time.Time
	size int64
	done chan struct{} // closed when body and err are set
	body string
	err  error
}

func (c *gzipCache) get(p string, info fs.FileInfo) (string, error) {
	c.mu.Lock()
	e, ok := c.files[p]
	if !ok || !e.mod.Equal(info.ModTime()) || e.size != info.Size() {
		e = &gzEntry{mod: info.ModTime(), size: info.Size(), done: make(chan struct{})}
		c.files[p] = e
		c.mu.Unlock()
		e.body, e.err = gzipFile(p)
		close(e.done)
		return e.body, e.err
	}
	c.mu.Unlock()
	<-e.done
	return e.body, e.err
}

// warm compresses every compressible file under root whose slash-separated
// path relative to root passes want: the wasm first, then the packed
// tables, then the rest, so that a visit does not wait for them (gzip -9
// of the 4.8 MB wasm takes about a second here). A file already
// compressed is not compressed again.
func (c *gzipCache) warm(want func(rel string) bool) {
	var paths []string
	filepath.WalkDir(c.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !compressible[filepath.Ext(p)] {
			return nil
		}
		if rel, err := filepath.Rel(c.root, p); err == nil && want(filepath.ToSlash(rel)) {
			paths = append(paths, p)
		}
		return nil
	})
	rank := map[string]int{".wasm": 0, ".packed": 1}
	order := func(p string) int {
		if r, ok := rank[filepath.Ext(p)]; ok {
			return r
		}
		return 2
	}
	sort.SliceStable(paths, func(i, j int) bool { return order(paths[i]) < order(paths[j]) })
	for _, p := range paths {
		if info, err := os.Stat(p); err == nil {
			c.get(p, info)
		}
	}
}

// builtGzip returns the bytes of p.gz when they are p's gzip stream, as
// gzipFile says.
func builtGzip(p string) (string, bool) {
	info, err := os.Stat(p)
	gi, gerr := os.Stat(p + ".gz")
	if err != nil || gerr != nil || gi.ModTime().Before(info.ModTime()) {
		return "", false
	}
	b, err := os.ReadFile(p + ".gz")
	if err != nil || len(b) < 18 || b[0] != 0x1f || b[1] != 0x8b || binary.LittleEndian.Uint32(b[len(b)-4:]) != uint32(info.Size()) {
		return "", false
	}
	return string(b), true
}

// accepts reports whether an Accept-Encoding header lists coding with a
// weight above zero ("gzip, deflate, br, zstd"; "gzip;q=0" refuses it).
func accepts(header, coding string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		if !strings.EqualFold(strings.TrimSpace(name), coding) {
			continue
		}
		for _, param := range strings.Split(params, ";") {
			k, v, _ := strings.Cut(strings.TrimSpace(param), "=")
			if q, err := strconv.ParseFloat(v, 64); strings.EqualFold(k, "q") && err == nil && q <= 0 {
				return false
			}
		}
		return true
	}
	return false
}

// zstdWindowMax is the largest window a zstd stream sent here may need:
// browsers decode a Content-Encoding: zstd body with at most 8 MiB of
// window (RFC 9659), and refuse a stream that asks for more.
const zstdWindowMax = 8 << 20

// builtZstd returns the bytes of p.zst when ./build.sh wrote one (the
// zstd command, level 19: the learner is 22% smaller than gzip -9 and
// Chrome decodes it faster, docs/bench.md "Twenty-fourth round") no
// earlier than p, whose one frame says p's size and needs no more window
// than a browser gives it. There is no zstd encoder in Go's library, so
// a file without one is sent gzipped.
func builtZstd(p string, info fs.FileInfo) (string, bool) {
	zi, err := os.Stat(p + ".zst")
	if err != nil || zi.ModTime().Before(info.ModTime()) {
		return "", false
	}
	b, err := os.ReadFile(p + ".zst")
	if err != nil {
		return "", false
	}
	size, window, ok := zstdFrame(b)
	if !ok || size != uint64(info.Size()) || window > zstdWindowMax {
		return "", false
	}
	return string(b), true
}

// zstdFrame reads the header of a zstd frame (RFC 8878, 3.1.1): the
// content size it declares and the window it needs. ok is false for bytes
// that are not a frame or one that does not declare its size.
func zstdFrame(b []byte) (size, window uint64, ok bool) {
	if len(b) < 6 || binary.LittleEndian.Uint32(b) != 0xFD2FB528 {
		return 0, 0, false
	}
	desc := b[4]
	fcsFlag, single, dictFlag := desc>>6, desc&0x20 != 0, desc&3
	at := 5
	if !single {
		wd := b[at]
		log := 10 + uint64(wd>>3)
		base := uint64(1) << log
		window = base + base/8*uint64(wd&7)
		at++
	}
	at += []int{0, 1, 2, 4}[dictFlag]
	n := []int{0, 2, 4, 8}[fcsFlag]
	if fcsFlag == 0 && single {
		n = 1
	}
	if n == 0 || len(b) < at+n {
		return 0, 0, false
	}
	switch n {
	case 1:
		size = uint64(b[at])
	case 2:
		size = uint64(binary.LittleEndian.Uint16(b[at:])) + 256
	case 4:
		size = uint64(binary.LittleEndian.Uint32(b[at:]))
	case 8:
		size = binary.LittleEndian.Uint64(b[at:])
	}
	if single {
		window = size
	}
	return size, window, true
}

// gzipFile returns the gzipped bytes of file p: those of p.gz when the
// build wrote one beside it (./build.sh gzips the learner with GNU gzip -9,
// 1% smaller than Go's level 9) no earlier than p and its stream's length
// field says p's size; else p compressed here.
func gzipFile(p string) (string, error) {
	if b, ok := builtGzip(p); ok {
		return b, nil
	}
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var b strings.Builder
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if _, err := io.Copy(zw, f); err != nil {
		return "", fmt.Errorf("gzip %s: %w", p, err)
	}
	if err := zw.Close(); err != nil {
		return "", fmt.Errorf("gzip %s: %w", p, err)
	}
	return b.String(), nil
}
