package main

import (
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"regexp"
	"sort"
)

// Size is a number of bytes, raw and compressed.
type Size struct {
	Raw, Gz int
}

// Package is the code of one package.
type Package struct {
	Name string
	Size
	Funcs int
}

// Report is what Measure finds in a WebAssembly file.
type Report struct {
	Functions, Named int
	// Code is the function bodies together; Data the data section.
	Code, Data Size
	// Packages are sorted by compressed size, largest first.
	Packages []Package
}

// Measure reads a WebAssembly module and sums its function bodies per
// package, from the function names of its "name" custom section.
func Measure(b []byte) (*Report, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly module")
	}
	var (
		imported int
		bodies   [][]byte
		names    = map[int]string{}
		data     []byte
	)
	for i := 8; i < len(b); {
		id := b[i]
		size, j, err := uleb(b, i+1)
		if err != nil {
			return nil, fmt.Errorf("section at byte %d: %w", i, err)
		}
		end := j + size
		if end > len(b) || end < j {
			return nil, fmt.Errorf("section %d at byte %d runs past the end", id, i)
		}
		sec := b[j:end]
		switch id {
		case 2:
			if imported, err = importedFuncs(sec); err != nil {
				return nil, fmt.Errorf("import section: %w", err)
			}
		case 10:
			if bodies, err = codeBodies(sec); err != nil {
				return nil, fmt.Errorf("code section: %w", err)
			}
		case 11:
			data = sec
		case 0:
			if err := funcNames(sec, names); err != nil {
				return nil, fmt.Errorf("name section: %w", err)
			}
		}
		i = end
	}
	r := &Report{Functions: len(bodies), Data: Size{len(data), deflated(data)}}
	group := map[string][][]byte{}
	var all [][]byte
	for k, body := range bodies {
		name, ok := names[imported+k]
		if ok {
			r.Named++
		}
		p := packageOf(name)
		group[p] = append(group[p], body)
		all = append(all, body)
	}
	joined := bytes.Join(all, nil)
	r.Code = Size{len(joined), deflated(joined)}
	for name, bs := range group {
		j := bytes.Join(bs, nil)
		r.Packages = append(r.Packages, Package{Name: name, Size: Size{len(j), deflated(j)}, Funcs: len(bs)})
	}
	sort.Slice(r.Packages, func(i, j int) bool {
		if r.Packages[i].Gz != r.Packages[j].Gz {
			return r.Packages[i].Gz > r.Packages[j].Gz
		}
		return r.Packages[i].Name < r.Packages[j].Name
	})
	return r, nil
}

// Go's linker names a function by its package path with "/" (and other
// punctuation) turned into "_", a ".", then the function: a path that
// starts with a domain ("github.com_spmtl_spmtl_core_mtl.Run") has one
// "." more (a top-level domain is recognised by name).
var (
	domainPkg = regexp.MustCompile(`^([a-z0-9-]+\.(?:com|org|net|io|dev|in|cc|co|me|xyz)_[^.]*)\.`)
	plainPkg  = regexp.MustCompile(`^([^.]+)\.`)
)

// packageOf returns the package part of a function's name: the path with
// "_" for "/", "(type equality)" for the compiler's type:.eq functions,
// "(unnamed)" without a name.
func packageOf(name string) string {
	switch {
	case name == "":
		return "(unnamed)"
	case len(name) > 6 && name[:6] == "type_.":
		return "(type equality)"
	}
	if m := domainPkg.FindStringSubmatch(name); m != nil {
		return m[1]
	}
	if m := plainPkg.FindStringSubmatch(name); m != nil {
		return m[1]
	}
	return name
}

// deflated is the size of b compressed with DEFLATE's best compression.
func deflated(b []byte) int {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression) // the level is valid
	w.Write(b)
	w.Close()
	return buf.Len()
}

// uleb reads an unsigned LEB128 number at b[i:], returning it and the
// index after it.
func uleb(b []byte, i int) (int, int, error) {
	var v uint64
	for shift := uint(0); shift < 35; shift += 7 {
		if i >= len(b) {
			return 0, i, errors.New("number cut short")
		}
		c := b[i]
		i++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return int(v), i, nil
		}
	}
	return 0, i, errors.New("number too long")
}

// name reads a length-prefixed name at b[i:].
func name(b []byte, i int) (string, int, error) {
	n, i, err := uleb(b, i)
	if err != nil {
		return "", i, err
	}
	if n > len(b)-i {
		return "", i, errors.New("name runs past its section")
	}
	return string(b[i : i+n]), i + n, nil
}

// importedFuncs counts the imported functions, which come before the
// module's own in the function index space.
func importedFuncs(sec []byte) (int, error) {
	count, i, err := uleb(sec, 0)
	if err != nil {
		return 0, err
	}
	funcs := 0
	for k := 0; k < count; k++ {
		for range 2 { // module and field names
			if _, i, err = name(sec, i); err != nil {
				return 0, err
			}
		}
		if i >= len(sec) {
			return 0, errors.New("import cut short")
		}
		kind := sec[i]
		i++
		switch kind {
		case 0: // function: a type index
			funcs++
			_, i, err = uleb(sec, i)
		case 1: // table: element type, limits
			i++
			i, err = limits(sec, i)
		case 2: // memory: limits
			i, err = limits(sec, i)
		case 3: // global: value type, mutability
			i += 2
		default:
			return 0, fmt.Errorf("import of unknown kind %d", kind)
		}
		if err != nil {
			return 0, err
		}
	}
	return funcs, nil
}

// limits skips a table's or memory's limits.
func limits(sec []byte, i int) (int, error) {
	if i >= len(sec) {
		return i, errors.New("limits cut short")
	}
	flags := sec[i]
	_, i, err := uleb(sec, i+1)
	if err == nil && flags&1 != 0 {
		_, i, err = uleb(sec, i)
	}
	return i, err
}

// codeBodies splits the code section into function bodies.
func codeBodies(sec []byte) ([][]byte, error) {
	count, i, err := uleb(sec, 0)
	if err != nil {
		return nil, err
	}
	bodies := make([][]byte, 0, count)
	for k := 0; k < count; k++ {
		var n int
		if n, i, err = uleb(sec, i); err != nil {
			return nil, err
		}
		if n > len(sec)-i {
			return nil, fmt.Errorf("body %d runs past the section", k)
		}
		bodies = append(bodies, sec[i:i+n])
		i += n
	}
	return bodies, nil
}

// funcNames reads the function names of a "name" custom section into
// names; other custom sections are skipped.
func funcNames(sec []byte, names map[int]string) error {
	title, i, err := name(sec, 0)
	if err != nil || title != "name" {
		return err
	}
	for i < len(sec) {
		sub := sec[i]
		var n int
		if n, i, err = uleb(sec, i+1); err != nil {
			return err
		}
		if n > len(sec)-i {
			return errors.New("subsection runs past the section")
		}
		if sub == 1 { // function names
			part := sec[i : i+n]
			count, j, err := uleb(part, 0)
			if err != nil {
				return err
			}
			for k := 0; k < count; k++ {
				var idx int
				var s string
				if idx, j, err = uleb(part, j); err != nil {
					return err
				}
				if s, j, err = name(part, j); err != nil {
					return err
				}
				names[idx] = s
			}
		}
		i += n
	}
	return nil
}
