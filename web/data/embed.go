// Package webdata embeds the app's bundled data sets (the files the page
// fetches from data/) so that the command line finds them from any folder:
// `spmtl train -data landmine`, `spmtl reproduce`. Only the command line
// imports it; the WebAssembly builds never carry the data.
package webdata

import "embed"

// FS holds the bundled data folders: landmine/, school/, cs/, sentiment/,
// each with its data, split file (when it has one) and SOURCE.md.
//
//go:embed */*.csv */*.svm */SOURCE.md README.md
var FS embed.FS
