package main

// The offline file's payloads are packed by core/publish (its pack.go says
// how), which also packs a published run's manifest and data into the
// same file.

import "github.com/spmtl/spmtl/core/publish"

// payload is one packed file as the page carries it.
type payload = publish.Payload

// pack packs raw with codec; name is for errors.
func pack(name, codec string, raw []byte) (payload, error) { return publish.Pack(name, codec, raw) }

// encodeB122 writes b as base-122 text.
func encodeB122(b []byte) string { return publish.EncodeB122(b) }
