package main

import (
	"strings"
	"testing"
)

// section returns a section with its id and length.
func section(id byte, body ...byte) []byte {
	return append([]byte{id, byte(len(body))}, body...)
}

// str returns a length-prefixed name.
func str(s string) []byte { return append([]byte{byte(len(s))}, s...) }

func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// module is a small module: one imported function (index 0), three
// bodies (indices 1-3) of which two are named in one package, a data
// section, and a name section.
func module() []byte {
	imports := cat([]byte{1}, str("go"), str("debug"), []byte{0, 0})
	code := cat([]byte{3}, []byte{2, 0, 0x0b}, []byte{3, 0, 0x01, 0x0b}, []byte{2, 0, 0x0b})
	data := []byte{1, 0, 0x41, 0x10, 0x0b, 3, 'a', 'b', 'c'}
	fnames := cat([]byte{3}, []byte{1}, str("github.com_spmtl_spmtl_core_mtl.Run"), []byte{2}, str("github.com_spmtl_spmtl_core_mtl.(*Trainer).Step"), []byte{3}, str("fmt.Sprintf"))
	names := cat(str("name"), []byte{1, byte(len(fnames))}, fnames)
	return cat([]byte("\x00asm\x01\x00\x00\x00"), section(2, imports...), section(10, code...), section(11, data...), section(0, names...))
}

func TestMeasure(t *testing.T) {
	r, err := Measure(module())
	if err != nil {
		t.Fatal(err)
	}
	if r.Functions != 3 || r.Named != 3 || r.Code.Raw != 7 || r.Data.Raw != 9 {
		t.Fatalf("functions %d, named %d, code %d bytes, data %d: want 3, 3, 7, 9", r.Functions, r.Named, r.Code.Raw, r.Data.Raw)
	}
	got := map[string]Package{}
	for _, p := range r.Packages {
		got[p.Name] = p
	}
	if p := got["github.com_spmtl_spmtl_core_mtl"]; p.Funcs != 2 || p.Raw != 5 {
		t.Errorf("core/mtl: %+v, want 2 functions, 5 bytes", p)
	}
	if p := got["fmt"]; p.Funcs != 1 || p.Raw != 2 {
		t.Errorf("fmt: %+v, want 1 function, 2 bytes", p)
	}
	if len(got) != 2 {
		t.Errorf("packages %v, want core/mtl and fmt", r.Packages)
	}
}

func TestMeasureRefusesBadFiles(t *testing.T) {
	good := module()
	tests := []struct {
		name string
		b    []byte
		want string
	}{
		{"not wasm", []byte("hello, world"), "not a WebAssembly module"},
		{"cut in a section", good[:20], "runs past the end"},
		{"body longer than its section", cat(good[:8], section(10, 1, 9, 0)), "body 0 runs past"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Measure(tc.b)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

func TestPackageOf(t *testing.T) {
	tests := []struct{ name, want string }{
		{"runtime.mallocgc", "runtime"},
		{"internal_runtime_maps.__Iter_.Next", "internal_runtime_maps"},
		{"github.com_hack_pad_safejs_internal_catch.Try", "github.com_hack_pad_safejs_internal_catch"},
		{"gonum.org_v1_gonum_mat.__Dense_.At", "gonum.org_v1_gonum_mat"},
		{"type_.eq.reflect.Method", "(type equality)"},
		{"wasm_pc_f_loop", "wasm_pc_f_loop"},
		{"runtime.dopanic_m.func1", "runtime"},
		{"strconv.bsearch_go.shape.uint16_", "strconv"},
		{"", "(unnamed)"},
	}
	for _, tc := range tests {
		if got := packageOf(tc.name); got != tc.want {
			t.Errorf("packageOf(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestComma(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1422832: "1,422,832"} {
		if got := comma(n); got != want {
			t.Errorf("comma(%d) = %q, want %q", n, got, want)
		}
	}
}
