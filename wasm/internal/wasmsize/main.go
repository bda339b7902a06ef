// Command wasmsize prints where a Go WebAssembly file's bytes are: its
// sections, and the code of each package (function bodies named by the
// name section of an unstripped build), raw and compressed alone with
// DEFLATE at its best compression (gzip -9's algorithm; Go's encoder, so
// a few bytes off gzip's own figures).
//
//	go run ./wasm/internal/wasmsize [-n 40] FILE.wasm
//	go run ./wasm/internal/wasmsize -md [-min 4000] BEFORE.wasm AFTER.wasm
//
// The second form prints a Markdown table of both builds, as in
// docs/bench.md. Build the file without -ldflags="-s -w" (so it keeps its
// name section) and with the same -gcflags as build.sh.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

func main() {
	n := flag.Int("n", 40, "packages to list (one file)")
	md := flag.Bool("md", false, "compare two files in a Markdown table")
	minGz := flag.Int("min", 4000, "with -md, leave out packages under this many compressed bytes in both files that did not change")
	flag.Parse()
	var err error
	switch {
	case *md && flag.NArg() == 2:
		err = compare(os.Stdout, flag.Arg(0), flag.Arg(1), *minGz)
	case !*md && flag.NArg() == 1:
		err = list(os.Stdout, flag.Arg(0), *n)
	default:
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-n N] FILE.wasm | wasmsize -md [-min BYTES] BEFORE.wasm AFTER.wasm")
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
}

// open reads and measures one file.
func open(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r, err := Measure(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

func list(w io.Writer, path string, n int) error {
	r, err := open(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %d functions (%d named)\n", path, r.Functions, r.Named)
	fmt.Fprintf(w, "code section %d bytes, %d compressed; data section %d bytes, %d compressed\n",
		r.Code.Raw, r.Code.Gz, r.Data.Raw, r.Data.Gz)
	fmt.Fprintf(w, "%10s %10s %6s  %s\n", "code", "compressed", "funcs", "package")
	for i, p := range r.Packages {
		if i == n {
			break
		}
		fmt.Fprintf(w, "%10d %10d %6d  %s\n", p.Raw, p.Gz, p.Funcs, p.Name)
	}
	return nil
}

func compare(w io.Writer, before, after string, minGz int) error {
	a, err := open(before)
	if err != nil {
		return err
	}
	b, err := open(after)
	if err != nil {
		return err
	}
	old, cur := map[string]Size{}, map[string]Size{}
	var names []string
	for _, p := range a.Packages {
		old[p.Name] = p.Size
		names = append(names, p.Name)
	}
	for _, p := range b.Packages {
		cur[p.Name] = p.Size
		if _, ok := old[p.Name]; !ok {
			names = append(names, p.Name)
		}
	}
	sort.SliceStable(names, func(i, j int) bool {
		return max(old[names[i]].Gz, cur[names[i]].Gz) > max(old[names[j]].Gz, cur[names[j]].Gz)
	})
	fmt.Fprintln(w, "| package | code | compressed | code after | compressed after |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	row := func(name string, x, y Size) {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", name, comma(x.Raw), comma(x.Gz), comma(y.Raw), comma(y.Gz))
	}
	for _, name := range names {
		x, y := old[name], cur[name]
		if max(x.Gz, y.Gz) < minGz && x == y {
			continue
		}
		row(name, x, y)
	}
	row("**all code**", a.Code, b.Code)
	row("**data section**", a.Data, b.Data)
	return nil
}

// comma writes n with thousands separators, as docs/bench.md does.
func comma(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
