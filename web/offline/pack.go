package main

// The offline file's payloads are packed by core/publish (its pack.go says
// how), which also packs a published run's manifest and data into the
// same file.

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"sync"

	"github.com/spmtl/spmtl/core/publish"
)

// payload is one packed file as the page carries it.
type payload = publish.Payload

// pack packs raw with codec; name is for errors. A "packed" payload is a
// packed table (app.Pack), gzipped as it is ("bin") and unpacked to its
// bytes (web/js/unpack.js), which the learner reads as a data set.
func pack(name, codec string, raw []byte) (payload, error) {
	if codec != "packed" {
		return publish.PackWith(name, codec, raw, gzip9)
	}
	p, err := publish.PackWith(name, "bin", raw, gzip9)
	p.Codec = codec
	return p, err
}

// gzip9 gzips b with the best gzip stream the machine can write (nil when
// it has no tool: Go's level 9 then): zopfli's, else GNU gzip's -9. Both
// are gzip, which the page's DecompressionStream reads. GNU gzip's streams
// are about 1% smaller than Go's level 9 (the learner: 1,535,005 bytes
// against 1,549,094); zopfli's 4.3% smaller than gzip's (1,537,811
// against 1,607,450, in 10 s; 2026-11-28), room the offline file's 4 MB
// holds for features. Neither writes a name or a time, so a build is the
// same bytes on any day.
var gzip9 = func() func([]byte) ([]byte, error) {
	if path, err := exec.LookPath("zopfli"); err == nil {
		return remembered(func(b []byte) ([]byte, error) { return zopfli(path, b) })
	}
	path, err := exec.LookPath("gzip")
	if err != nil {
		return nil
	}
	return func(b []byte) ([]byte, error) {
		cmd := exec.Command(path, "-9", "-n", "-c")
		cmd.Stdin = bytes.NewReader(b)
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("gzip -9: %w (%s)", err, bytes.TrimSpace(stderr.Bytes()))
		}
		return out.Bytes(), nil
	}
}()

// remembered returns gz remembering its streams by their input's SHA-256:
// zopfli takes 10 s on the learner and 20 on the bundled data sets, and
// the tests pack the same payloads in several offline files (each of
// three tests took 30 s).
func remembered(gz func([]byte) ([]byte, error)) func([]byte) ([]byte, error) {
	var mu sync.Mutex
	seen := map[[sha256.Size]byte][]byte{}
	return func(b []byte) ([]byte, error) {
		key := sha256.Sum256(b)
		mu.Lock()
		out, ok := seen[key]
		mu.Unlock()
		if ok {
			return out, nil
		}
		out, err := gz(b)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		seen[key] = out
		mu.Unlock()
		return out, nil
	}
}

// zopfli gzips b with the zopfli at path (5 iterations: 0.3% smaller than
// 1, for 8% more time). It reads a file, not its input, so b goes through
// a temporary one.
func zopfli(path string, b []byte) ([]byte, error) {
	f, err := os.CreateTemp("", "spmtl-offline-*")
	if err != nil {
		return nil, fmt.Errorf("zopfli: %w", err)
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(b); err != nil {
		f.Close()
		return nil, fmt.Errorf("zopfli: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("zopfli: %w", err)
	}
	cmd := exec.Command(path, "--i5", "--gzip", "-c", f.Name())
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("zopfli: %w (%s)", err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out.Bytes(), nil
}

// encodeB122 writes b as base-122 text.
func encodeB122(b []byte) string { return publish.EncodeB122(b) }
