package main

// The offline file's payloads are packed by core/publish (its pack.go says
// how), which also packs a published run's manifest and data into the
// same file.

import "github.com/spmtl/spmtl/core/publish"

// payload is one packed file as the page carries it.
type payload = publish.Payload

// pack packs raw with codec; name is for errors. A "packed" payload is a
// packed table (app.Pack), gzipped as it is ("bin") and unpacked to its
// bytes (web/js/unpack.js), which the learner reads as a data set.
func pack(name, codec string, raw []byte) (payload, error) {
	if codec != "packed" {
		return publish.Pack(name, codec, raw)
	}
	p, err := publish.Pack(name, "bin", raw)
	p.Codec = codec
	return p, err
}

// encodeB122 writes b as base-122 text.
func encodeB122(b []byte) string { return publish.EncodeB122(b) }
