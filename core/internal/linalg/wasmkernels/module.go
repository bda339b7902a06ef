// Package wasmkernels writes the WebAssembly module of linalg's kernels:
// Dot, Axpy, Cholesky, the triangular solves, QuadForm, Combine, Dots,
// LowerSystem, RankOneLower and SymEigen's inner loops (eigen.go),
// in two forms, with SIMD and without (simd.go), the same arithmetic in
// the same order as linalg's Go loops, for the js/wasm learner to call in
// place of them (linalg/kernels_js.go, docs/bench.md "Twenty-first round").
//
// Go's WebAssembly code for these loops is three to five times slower
// than the same loops written directly in WebAssembly: Go keeps its
// variables in linear memory, checks bounds, and returns to each loop's
// head through its function's block dispatch, where a hand-written loop
// keeps everything in WebAssembly locals that the engine's compiler puts
// in registers. So these loops are written by hand, as instructions, and
// this package encodes them (the binary format of WebAssembly 1.0).
//
// The module imports its memory ("env" "mem", the Go program's) and exports
//
//	dot(p, q i32, n i32) f64          Σ p[i]·q[i], as linalg.Dot sums it
//	axpy(dst i32, a f64, x i32, n i32) dst[i] += a·x[i], as linalg.Axpy
//	chol(a i32, n i32) i32            linalg.Cholesky of the n×n matrix at a: 1 or 0
//	lowersolve(l i32, n i32, b i32)   linalg.LowerSolve
//	cholsolve(l i32, n i32, b i32)    linalg.CholSolve
//	quadform(c i32, w i32, d i32) f64 linalg.QuadForm
//	combine(c i32, u i32, r i32, w i32, d i32) linalg.Combine
//	dots(x, rows, stride, n, k, out i32)    linalg.Dots
//	lowersystem(l, c, m, d i32, rho f64, xbar i32, eta f64) linalg.LowerSystem
//	rankonelower(a, d, w i32, s f64)        linalg.RankOneLower
//	tdproduct(a, stride, m, v, p i32)       linalg.trailingProduct
//	tdupdate(a, stride, m, v, w i32)        linalg.trailingUpdate
//	reflect(z, stride, k, v, n i32)         linalg.reflectRows
//	rotate(vt, n, lo, hi, cs i32)           linalg.rotateRows
//
// where p, q, dst, x, a, l and b are byte addresses of float64 arrays.
package wasmkernels

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
)

// Value types and opcodes of WebAssembly 1.0 used here.
const (
	i32 = 0x7f
	f64 = 0x7c

	opBlock   = 0x02
	opLoop    = 0x03
	opIf      = 0x04
	opEnd     = 0x0b
	opBr      = 0x0c
	opBrIf    = 0x0d
	opReturn  = 0x0f
	opCall    = 0x10
	opGet     = 0x20
	opSet     = 0x21
	opF64Load = 0x2b
	opF64Stor = 0x39
	opI32     = 0x41
	opF64     = 0x44
	opI32Eqz  = 0x45
	opI32LtS  = 0x48
	opI32LeS  = 0x4c
	opI32GeS  = 0x4e
	opF64Eq   = 0x61
	opF64Ne   = 0x62
	opF64Gt   = 0x64
	opI32Add  = 0x6a
	opI32Sub  = 0x6b
	opI32Mul  = 0x6c
	opI32Or   = 0x72
	opI32Shl  = 0x74
	opF64Neg  = 0x9a
	opF64Sqrt = 0x9f
	opF64Add  = 0xa0
	opF64Sub  = 0xa1
	opF64Mul  = 0xa2
	opF64Div  = 0xa3
	blockVoid = 0x40
)

// code is one function's body being written.
type code struct {
	b      bytes.Buffer
	params []byte // the parameters' types: locals 0..len-1
	locals []byte // the further locals' types
}

func (c *code) op(ops ...byte) *code { c.b.Write(ops); return c }
func (c *code) uleb(v uint32) *code  { c.b.Write(binary.AppendUvarint(nil, uint64(v))); return c }

// local declares a further local of type t and returns its index.
func (c *code) local(t byte) uint32 {
	c.locals = append(c.locals, t)
	return uint32(len(c.params) + len(c.locals) - 1)
}

func (c *code) get(l uint32) *code { return c.op(opGet).uleb(l) }
func (c *code) set(l uint32) *code { return c.op(opSet).uleb(l) }

// i32c pushes a constant (signed LEB128).
func (c *code) i32c(v int32) *code {
	c.op(opI32)
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if v == 0 && b&0x40 == 0 || v == -1 && b&0x40 != 0 {
			c.b.WriteByte(b)
			return c
		}
		c.b.WriteByte(b | 0x80)
	}
}

func (c *code) f64c(v float64) *code {
	c.op(opF64)
	c.b.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)))
	return c
}

// load pushes the float64 at the address on the stack plus off bytes.
func (c *code) load(off uint32) *code  { return c.op(opF64Load, 3).uleb(off) }
func (c *code) store(off uint32) *code { return c.op(opF64Stor, 3).uleb(off) }

// addTo sets local l += n (an i32).
func (c *code) addTo(l uint32, n int32) *code {
	return c.get(l).i32c(n).op(opI32Add).set(l)
}

// loop writes `block loop (body) br 0 end end`: body leaves with br_if 1
// (the block) and the loop repeats after it.
func (c *code) loop(body func()) *code {
	c.op(opBlock, blockVoid, opLoop, blockVoid)
	body()
	return c.op(opBr, 0, opEnd, opEnd)
}

// breakIf writes br_if to the block around a loop (depth 1 inside it).
func (c *code) breakIf() *code { return c.op(opBrIf, 1) }

// accumulate sets local s += load(p+off)·load(q+off).
func (c *code) accumulate(s, p, q, off uint32) {
	c.get(s).get(p).load(off).get(q).load(off).op(opF64Mul, opF64Add).set(s)
}

// zero writes n float64 zeros from the address in the local p (i32
// locals i and q are the loop's scratch).
func (c *code) zero(p, n, i, q uint32) {
	c.i32c(0).set(i).get(p).set(q)
	c.loop(func() {
		c.get(i).get(n).op(opI32GeS).breakIf()
		c.get(q).f64c(0).store(0)
		c.addTo(q, 8).addTo(i, 1)
	})
}

// eachWeight writes a loop over the d weights at w, the local i counting
// and the f64 local wi holding w_i, and over rows from the address in the
// local row, stride bytes apart (a local): body() for each weight that
// is not zero, with row at its row.
func (c *code) eachWeight(w, d, i, wi, row, stride uint32, body func()) {
	c.loop(func() {
		c.get(i).get(d).op(opI32GeS).breakIf()
		c.get(w).get(i).i32c(3).op(opI32Shl, opI32Add).load(0).set(wi)
		c.get(wi).f64c(0).op(opF64Ne).op(opIf, blockVoid)
		body()
		c.op(opEnd)
		c.get(row).get(stride).op(opI32Add).set(row)
		c.addTo(i, 1)
	})
}

// Function indices, in the order Module writes them.
const (
	fnDot = iota
	fnAxpy
	fnChol
	fnLowerSolve
	fnCholSolve
	fnQuadForm
	fnCombine
	fnDots
	fnLowerSystem
	fnRankOneLower
	fnTdProduct
	fnTdUpdate
	fnReflect
	fnRotate
	fnXpay // internal
	fnDot4 // internal, in the SIMD form only
)

// dot writes linalg.Dot: four partial sums over blocks of eight, then a
// block of four, then the rest into the first; (s0+s1)+(s2+s3).
func dot() *code {
	c := &code{params: []byte{i32, i32, i32}}
	const p, q, n = 0, 1, 2
	s := [4]uint32{c.local(f64), c.local(f64), c.local(f64), c.local(f64)}
	c.loop(func() {
		c.get(n).i32c(8).op(opI32LtS).breakIf()
		for k := uint32(0); k < 8; k++ {
			c.accumulate(s[k%4], p, q, 8*k)
		}
		c.addTo(p, 64).addTo(q, 64).addTo(n, -8)
	})
	c.get(n).i32c(4).op(opI32GeS).op(opIf, blockVoid)
	for k := uint32(0); k < 4; k++ {
		c.accumulate(s[k], p, q, 8*k)
	}
	c.addTo(p, 32).addTo(q, 32).addTo(n, -4)
	c.op(opEnd)
	c.loop(func() {
		c.get(n).i32c(0).op(opI32LeS).breakIf()
		c.accumulate(s[0], p, q, 0)
		c.addTo(p, 8).addTo(q, 8).addTo(n, -1)
	})
	c.get(s[0]).get(s[1]).op(opF64Add).get(s[2]).get(s[3]).op(opF64Add, opF64Add)
	return c
}

// axpy writes linalg.Axpy: dst[i] += a·x[i], eight at a time, then one.
func axpy() *code {
	c := &code{params: []byte{i32, f64, i32, i32}}
	const dst, a, x, n = 0, 1, 2, 3
	step := func(off uint32) {
		c.get(dst).get(dst).load(off).get(a).get(x).load(off).op(opF64Mul, opF64Add).store(off)
	}
	c.loop(func() {
		c.get(n).i32c(8).op(opI32LtS).breakIf()
		for k := uint32(0); k < 8; k++ {
			step(8 * k)
		}
		c.addTo(dst, 64).addTo(x, 64).addTo(n, -8)
	})
	c.loop(func() {
		c.get(n).i32c(0).op(opI32LeS).breakIf()
		step(0)
		c.addTo(dst, 8).addTo(x, 8).addTo(n, -1)
	})
	return c
}

// chol writes linalg.Cholesky: for each column j, the diagonal
// a_jj − r_j·r_j (r_j: row j before the diagonal), refused unless it is
// positive and finite, then each lower entry (a_ij − r_i·r_j)·(1/l_jj);
// with simd, four rows i at a time, which share the loads of r_j.
func chol(simd bool) *code {
	c := &code{params: []byte{i32, i32}}
	const a, n = 0, 1
	j, i, rj, ri, row, jb := c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32)
	s, ljj, inv := c.local(f64), c.local(f64), c.local(f64)
	c.get(n).i32c(3).op(opI32Shl).set(row)
	c.get(a).set(rj)
	c.loop(func() {
		c.get(j).get(n).op(opI32GeS).breakIf()
		c.get(j).i32c(3).op(opI32Shl).set(jb)
		// s = a[j][j] − dot(r_j, r_j, j)
		c.get(rj).get(jb).op(opI32Add).load(0)
		c.get(rj).get(rj).get(j).op(opCall).uleb(fnDot)
		c.op(opF64Sub).set(s)
		// !(s > 0) || s == +Inf: not positive definite.
		c.get(s).f64c(0).op(opF64Gt, opI32Eqz).get(s).f64c(math.Inf(1)).op(opF64Eq, opI32Or)
		c.op(opIf, blockVoid).i32c(0).op(opReturn, opEnd)
		c.get(s).op(opF64Sqrt).set(ljj)
		c.get(rj).get(jb).op(opI32Add).get(ljj).store(0)
		c.f64c(1).get(ljj).op(opF64Div).set(inv)
		c.get(j).i32c(1).op(opI32Add).set(i)
		c.get(rj).get(row).op(opI32Add).set(ri)
		// a[i][j] = (a[i][j] − dot(r_i, r_j, j))·inv
		c.eachRowDot(simd, i, n, rj, ri, row, j, func(k int, push func()) {
			c.rowAt(ri, row, k).get(jb).op(opI32Add)
			c.rowAt(ri, row, k).get(jb).op(opI32Add).load(0)
			push()
			c.op(opF64Sub).get(inv).op(opF64Mul).store(0)
		}, func(count int32) { c.advance(ri, row, count) })
		c.get(rj).get(row).op(opI32Add).set(rj)
		c.addTo(j, 1)
	})
	c.i32c(1)
	return c
}

// lowerSolve writes linalg.LowerSolve: b_i = (b_i − l_i·b[:i]) / l_ii.
func lowerSolve() *code {
	c := &code{params: []byte{i32, i32, i32}}
	const l, n, b = 0, 1, 2
	i, ri, bi, row := c.local(i32), c.local(i32), c.local(i32), c.local(i32)
	c.get(n).i32c(3).op(opI32Shl).set(row)
	c.get(l).set(ri)
	c.get(b).set(bi)
	c.loop(func() {
		c.get(i).get(n).op(opI32GeS).breakIf()
		c.get(bi)
		c.get(bi).load(0)
		c.get(ri).get(b).get(i).op(opCall).uleb(fnDot)
		c.op(opF64Sub)
		c.get(ri).get(i).i32c(3).op(opI32Shl, opI32Add).load(0)
		c.op(opF64Div).store(0)
		c.get(ri).get(row).op(opI32Add).set(ri)
		c.addTo(bi, 8).addTo(i, 1)
	})
	return c
}

// cholSolve writes linalg.CholSolve: the lower solve, then for i from
// n−1 down, b_i /= l_ii and b[:i] += (−b_i)·l_i[:i].
func cholSolve() *code {
	c := &code{params: []byte{i32, i32, i32}}
	const l, n, b = 0, 1, 2
	i, ri, bi, row := c.local(i32), c.local(i32), c.local(i32), c.local(i32)
	c.get(l).get(n).get(b).op(opCall).uleb(fnLowerSolve)
	c.get(n).i32c(3).op(opI32Shl).set(row)
	c.get(n).i32c(1).op(opI32Sub).set(i)
	c.get(l).get(i).get(row).op(opI32Mul, opI32Add).set(ri)
	c.get(b).get(i).i32c(3).op(opI32Shl, opI32Add).set(bi)
	c.loop(func() {
		c.get(i).i32c(0).op(opI32LtS).breakIf()
		c.get(bi).get(bi).load(0).get(ri).get(i).i32c(3).op(opI32Shl, opI32Add).load(0).op(opF64Div).store(0)
		c.get(b).get(bi).load(0).op(opF64Neg).get(ri).get(i).op(opCall).uleb(fnAxpy)
		c.get(ri).get(row).op(opI32Sub).set(ri)
		c.addTo(bi, -8).addTo(i, -1)
	})
	return c
}

// quadForm writes linalg.QuadForm: Σ_i w_i·(c_i·w) over the rows c_i of
// the d×d matrix at c, in the rows' order; with simd, the rows' dot
// products with w four at a time.
func quadForm(simd bool) *code {
	c := &code{params: []byte{i32, i32, i32}}
	const m, w, d = 0, 1, 2
	i, row, wi, stride := c.local(i32), c.local(i32), c.local(i32), c.local(i32)
	acc := c.local(f64)
	c.get(d).i32c(3).op(opI32Shl).set(stride)
	c.get(m).set(row)
	c.get(w).set(wi)
	c.eachRowDot(simd, i, d, w, row, stride, d, func(k int, push func()) {
		c.get(acc).get(wi).load(8 * uint32(k))
		push()
		c.op(opF64Mul, opF64Add).set(acc)
	}, func(count int32) {
		c.advance(row, stride, count)
		c.addTo(wi, 8*count)
	})
	c.get(acc)
	return c
}

// combine writes linalg.Combine: c = Σ_j w_j·u_j over the d rows u_j
// (r long) of the matrix at u, c cleared first, rows of a zero weight
// skipped.
func combine() *code {
	c := &code{params: []byte{i32, i32, i32, i32, i32}}
	const out, u, r, w, d = 0, 1, 2, 3, 4
	k, p, j, row, stride := c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32)
	wj := c.local(f64)
	c.zero(out, r, k, p)
	c.get(r).i32c(3).op(opI32Shl).set(stride)
	c.get(u).set(row)
	c.eachWeight(w, d, j, wj, row, stride, func() {
		c.get(out).get(wj).get(row).get(r).op(opCall).uleb(fnAxpy)
	})
	return c
}

// Module returns the module's bytes: with simd set, the form that uses
// 128-bit SIMD (simd.go), which computes the same bits.
func Module(simd bool) []byte {
	fdot, faxpy := dot, axpy
	if simd {
		fdot, faxpy = dotSIMD, axpySIMD
	}
	fns := []struct {
		name string
		code *code
		res  []byte
	}{
		{"dot", fdot(), []byte{f64}},
		{"axpy", faxpy(), nil},
		{"chol", chol(simd), []byte{i32}},
		{"lowersolve", lowerSolve(), nil},
		{"cholsolve", cholSolve(), nil},
		{"quadform", quadForm(simd), []byte{f64}},
		{"combine", combine(), nil},
		{"dots", dotsFn(simd), nil},
		{"lowersystem", lowerSystem(), nil},
		{"rankonelower", rankOneLower(), nil},
		{"tdproduct", trailingProduct(simd), nil},
		{"tdupdate", trailingUpdate(simd), nil},
		{"reflect", reflectRows(simd), nil},
		{"rotate", rotateRows(simd), nil},
		{"", xpay(simd), nil},
	}
	if simd {
		fns = append(fns, struct {
			name string
			code *code
			res  []byte
		}{"", dot4(), []byte{f64, f64, f64, f64}})
	}
	var out bytes.Buffer
	out.Write([]byte{0, 'a', 's', 'm', 1, 0, 0, 0})
	section := func(id byte, items int, body []byte) {
		var s []byte
		s = binary.AppendUvarint(s, uint64(items))
		s = append(s, body...)
		out.WriteByte(id)
		out.Write(binary.AppendUvarint(nil, uint64(len(s))))
		out.Write(s)
	}
	name := func(s string) []byte { return append(binary.AppendUvarint(nil, uint64(len(s))), s...) }
	var types, funcs, exports, bodies []byte
	nexp := 0
	for k, f := range fns {
		types = append(types, 0x60)
		types = append(binary.AppendUvarint(types, uint64(len(f.code.params))), f.code.params...)
		types = append(binary.AppendUvarint(types, uint64(len(f.res))), f.res...)
		funcs = binary.AppendUvarint(funcs, uint64(k))
		if f.name != "" {
			exports = append(append(exports, name(f.name)...), 0x00)
			exports = binary.AppendUvarint(exports, uint64(k))
			nexp++
		}
		// The locals as runs of one type.
		var runs []byte
		nruns := 0
		for i := 0; i < len(f.code.locals); {
			j := i
			for j < len(f.code.locals) && f.code.locals[j] == f.code.locals[i] {
				j++
			}
			runs = append(binary.AppendUvarint(runs, uint64(j-i)), f.code.locals[i])
			nruns++
			i = j
		}
		body := append(binary.AppendUvarint(nil, uint64(nruns)), runs...)
		body = append(append(body, f.code.b.Bytes()...), opEnd)
		bodies = append(binary.AppendUvarint(bodies, uint64(len(body))), body...)
	}
	section(1, len(fns), types)
	imp := append(append(name("env"), name("mem")...), 0x02, 0x00, 0x01) // memory, no maximum, at least a page
	section(2, 1, imp)
	section(3, len(fns), funcs)
	section(7, nexp, exports)
	section(10, len(fns), bodies)
	return out.Bytes()
}

// GoFile returns the Go source of linalg's kernels_module_js.go, which
// holds Module's two forms as string constants: the learner carries the
// bytes, not this encoder (the encoder linked into the learner cost 11 KB
// gzipped).
// `go generate ./core/internal/linalg` writes it; a test checks that it is
// up to date.
func GoFile() []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by go generate (wasmkernels.GoFile); DO NOT EDIT.\n\n")
	b.WriteString("//go:build js && wasm && spmtlkernels\n\npackage linalg\n\n")
	constant := func(doc, name string, m []byte) {
		fmt.Fprintf(&b, "// %s\nconst %s = \"", doc, name)
		for i, c := range m {
			if i > 0 && i%32 == 0 {
				b.WriteString("\" +\n\t\"")
			}
			fmt.Fprintf(&b, "\\x%02x", c)
		}
		b.WriteString("\"\n")
	}
	constant("kernelModuleSIMD is the kernels' WebAssembly module with SIMD (wasmkernels.Module(true)).", "kernelModuleSIMD", Module(true))
	b.WriteString("\n")
	constant("kernelModule is the kernels' WebAssembly module without SIMD (wasmkernels.Module(false)).", "kernelModule", Module(false))
	return b.Bytes()
}
