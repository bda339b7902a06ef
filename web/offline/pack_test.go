package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/publish"
)

// unpackWithNode runs web/js/unpack.js in node on p and returns what it
// decodes (the text, or the bytes of a "bin" payload).
func unpackWithNode(t *testing.T, p payload) []byte { return unpackWith(t, p, "spmtlUnpack") }

// unpackWith decodes p with unpack.js's function fn in node: spmtlUnpack,
// or spmtlUnpackStream (its stream read to the end).
func unpackWith(t *testing.T, p payload, fn string) []byte {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "p.json"), filepath.Join(dir, "out")
	js, _ := json.Marshal(map[string]any{"codec": p.Codec, "text": p.Text, "gz": p.Gz})
	if err := os.WriteFile(in, js, 0o644); err != nil {
		t.Fatal(err)
	}
	// unpack.js is an ES module: node imports it as one by its .mjs name.
	src, err := os.ReadFile(filepath.Join("..", "js", "unpack.js"))
	if err != nil {
		t.Fatal(err)
	}
	unpack := filepath.Join(dir, "unpack.mjs")
	if err := os.WriteFile(unpack, src, 0o644); err != nil {
		t.Fatal(err)
	}
	script := `import fs from "fs"; const { spmtlUnpack, spmtlUnpackStream } = await import(process.argv[1]);
const p = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
(process.argv[4] === "spmtlUnpackStream" ? Promise.resolve().then(() => new Response(spmtlUnpackStream(p)).arrayBuffer()) : spmtlUnpack(p)).then((r) =>
  fs.writeFileSync(process.argv[3], typeof r === "string" ? r : Buffer.from(r)), (e) => { console.error(e.message); process.exit(1); });`
	cmd := exec.Command(node, "--input-type=module", "-e", script, unpack, in, out, fn)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameValues: got and want have the same lines and fields, and each field
// is the same text or the same double (the codecs keep values, not digits).
func sameValues(t *testing.T, name string, got, want []byte) {
	t.Helper()
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	if len(gl) != len(wl) {
		t.Fatalf("%s: %d lines decoded, want %d", name, len(gl), len(wl))
	}
	split := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == ':' })
	}
	bad := 0
	for i := range wl {
		g, w := split(gl[i]), split(wl[i])
		if len(g) != len(w) {
			t.Fatalf("%s:%d: %d fields decoded, want %d", name, i+1, len(g), len(w))
		}
		for k := range w {
			if g[k] == w[k] {
				continue
			}
			x, err1 := strconv.ParseFloat(g[k], 64)
			y, err2 := strconv.ParseFloat(w[k], 64)
			if err1 != nil || err2 != nil || math.Float64bits(x) != math.Float64bits(y) {
				if bad++; bad <= 5 {
					t.Errorf("%s:%d: field %d decoded as %q, want %q", name, i+1, k+1, g[k], w[k])
				}
			}
		}
	}
}

// TestPayloadsRoundTrip packs every bundled file (and a wasm-like binary)
// as the offline file does and decodes it with unpack.js in node: the
// text codecs give the file back byte for byte (a packed table, the table),
// the number codecs every value as the same double.
func TestPayloadsRoundTrip(t *testing.T) {
	files, err := payloadFiles("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		t.Run(f.rel, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("..", "data", filepath.FromSlash(f.rel)))
			if err != nil {
				t.Fatal(err)
			}
			if f.codec == "packed" {
				if raw, err = app.Pack(raw, app.LoadOptions{Name: f.rel, TaskColumn: "task", LabelColumn: "y"}); err != nil {
					t.Fatal(err)
				}
			}
			p, err := pack(f.rel, f.codec, raw)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s (%s): %d bytes, gzip %d, in the page %d", f.rel, f.codec, p.Raw, p.Gz, len(p.Text))
			got := unpackWithNode(t, p)
			if f.codec == "gz" || f.codec == "packed" {
				if !bytes.Equal(got, raw) {
					t.Fatalf("decoded %d bytes differ from the file's %d", len(got), len(raw))
				}
				return
			}
			sameValues(t, f.rel, got, raw)
		})
	}
	t.Run("bin", func(t *testing.T) {
		// Every byte value, and runs of the illegal 7-bit groups.
		var raw []byte
		for i := 0; i < 5000; i++ {
			raw = append(raw, byte(i*131+i/7), 0, 0, '<', '\r', 0xff)
		}
		p, err := pack("bin", "bin", raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := unpackWithNode(t, p); !bytes.Equal(got, raw) {
			t.Fatalf("a binary payload decoded to %d different bytes", len(got))
		}
	})
	t.Run("bin as a stream", func(t *testing.T) {
		// Bytes gzip cannot shrink, so that the text spans several of the
		// stream's 64 K-character slices, with runs of the illegal groups.
		raw := make([]byte, 300000)
		x := uint32(1)
		for i := range raw {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			raw[i] = byte(x)
			if i%1000 < 30 {
				raw[i] = []byte{0, '<', '\r'}[i%3]
			}
		}
		p, err := pack("bin", "bin", raw)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Text) < 3<<16 {
			t.Fatalf("the payload is %d characters, want several slices of 65536", len(p.Text))
		}
		if got := unpackWith(t, p, "spmtlUnpackStream"); !bytes.Equal(got, raw) {
			t.Fatalf("a binary payload read as a stream decoded to %d different bytes", len(got))
		}
	})
}

// TestB122 writes no character an HTML <script> element would alter and
// stays near 8/7 of its input.
func TestB122(t *testing.T) {
	raw := make([]byte, 70000)
	for i := range raw {
		raw[i] = byte((i * 2654435761) >> 13)
	}
	s := encodeB122(raw)
	if strings.ContainsAny(s, "\x00\r<") {
		t.Error("base-122 wrote NUL, CR or '<'")
	}
	if r := float64(len(s)) / float64(len(raw)); r > 1.2 {
		t.Errorf("base-122 is %.3f of its input", r)
	}
}

// TestGzip9: where the machine has zopfli or GNU gzip, the offline file's
// learner (dist/spmtl.wasm, built by ./build.sh) takes its stream, smaller
// than Go's level 9, and the page's decoder (unpack.js, in node) gives back
// the file.
func TestGzip9(t *testing.T) {
	if gzip9 == nil {
		t.Skip("no gzip on this machine: the payloads keep Go's level 9")
	}
	body, err := os.ReadFile("../../dist/spmtl.wasm")
	if err != nil {
		t.Skip("no dist/spmtl.wasm: ./build.sh builds it")
	}
	goOwn, err := publish.Pack("spmtl.wasm", "bin", body)
	if err != nil {
		t.Fatal(err)
	}
	p, err := pack("spmtl.wasm", "bin", body)
	if err != nil {
		t.Fatal(err)
	}
	if p.Gz >= goOwn.Gz {
		t.Errorf("%d bytes gzipped, not less than Go's %d", p.Gz, goOwn.Gz)
	}
	if back := unpackWithNode(t, p); !bytes.Equal(back, body) {
		t.Fatalf("the page's decoder gives back %d bytes, not the file's %d", len(back), len(body))
	}
	t.Logf("%d bytes: the machine's gzip stream %d, Go's level 9 %d", len(body), p.Gz, goOwn.Gz)
}
