package main

import "fmt"

// classicScript makes an ES module that imports nothing (unpack.js, which
// the page's thread imports) a classic script for the offline workers,
// whose sources are scripts joined into one: each export becomes a plain
// declaration, global in the worker.
func classicScript(name, src string) (string, error) {
	if anyImportRe.MatchString(src) {
		return "", fmt.Errorf("%s: a worker's script imports nothing", name)
	}
	src = exportRe.ReplaceAllString(src, "$1 $2")
	if anyExportRe.MatchString(src) {
		return "", fmt.Errorf("%s: an export the bundler does not understand (export function|class|const|let NAME)", name)
	}
	return src, nil
}
