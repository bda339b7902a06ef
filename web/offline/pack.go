package main

// The offline file's payloads are packed by core/publish (its pack.go says
// how), which also packs a published run's manifest and data into the
// same file.

import (
	"bytes"
	"fmt"
	"os/exec"

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

// gzip9 gzips b with GNU gzip's -9 when the machine has it (nil
// otherwise): its streams are about 1% smaller than Go's level 9 (the
// learner: 1,535,005 bytes against 1,549,094), which the offline file's
// 4 MB holds as room for features. -n leaves the name and time out, so a
// build is the same bytes on any day.
var gzip9 = func() func([]byte) ([]byte, error) {
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

// encodeB122 writes b as base-122 text.
func encodeB122(b []byte) string { return publish.EncodeB122(b) }
