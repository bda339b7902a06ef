package wasmkernels

// The module's second form uses WebAssembly's 128-bit SIMD (f64x2: two
// float64 lanes per instruction), which every current browser runs; an
// engine without it refuses that module and the learner loads the first
// (docs/architecture.md, "The kernels").
//
// SIMD changes no result. linalg.Dot keeps four partial sums, s_k taking
// the products k, k+4, k+8, … of each block of eight; here the lanes of
// two vectors are those sums, (s0, s1) and (s2, s3), and each lane sees
// the same additions in the same order (WebAssembly neither fuses a
// multiply with an add nor reorders lanes). Axpy is elementwise.
//
// What SIMD alone gains on one dot product is little: its four sums are
// chains of dependent additions, and a chain of additions waits for each
// one to finish however wide the instruction. So where a kernel needs
// several dot products against one vector (a Cholesky column, the rows of
// a quadratic form, Dots), it runs four at once: sixteen independent sums
// in eight vectors, the shared vector loaded once for all four.

const (
	v128    = 0x7b
	opSIMD  = 0xfd
	vLoad   = 0x00
	vStore  = 0x0b
	vConst  = 0x0c
	vSplat  = 0x14 // f64x2.splat
	vLane   = 0x21 // f64x2.extract_lane
	vAdd    = 0xf0 // f64x2.add
	vSub    = 0xf1 // f64x2.sub
	vMul    = 0xf2 // f64x2.mul
	vAlign8 = 3    // the alignment a memory access promises: 2³ bytes
)

func (c *code) simd(op uint32) *code { c.b.WriteByte(opSIMD); return c.uleb(op) }

// vload pushes the two float64 at the address on the stack plus off.
func (c *code) vload(off uint32) *code  { return c.simd(vLoad).op(vAlign8).uleb(off) }
func (c *code) vstore(off uint32) *code { return c.simd(vStore).op(vAlign8).uleb(off) }
func (c *code) vzero() *code            { c.simd(vConst); c.b.Write(make([]byte, 16)); return c }
func (c *code) lane(i byte) *code       { return c.simd(vLane).op(i) }

// vaccumulate sets the vector local s += x·load(q+off), x a vector local.
func (c *code) vaccumulate(s, x, q, off uint32) {
	c.get(s).get(x).get(q).vload(off).simd(vMul).simd(vAdd).set(s)
}

// dotsV writes out[k] = Σ_i x[i]·r_k[i] for i < n, the rows r_k at the
// addresses in the i32 locals rows (as linalg.Dot sums each). x, rows and n
// are advanced: pass locals the caller may lose. out are f64 locals.
func (c *code) dotsV(x uint32, rows []uint32, n uint32, out []uint32) {
	K := len(rows)
	lo, hi := make([]uint32, K), make([]uint32, K) // (s0, s1) and (s2, s3)
	for k := range rows {
		lo[k], hi[k] = c.local(v128), c.local(v128)
		c.vzero().set(lo[k]).vzero().set(hi[k])
	}
	var xv [4]uint32
	for j := range xv {
		xv[j] = c.local(v128)
	}
	advance := func(bytes int32) {
		c.addTo(x, bytes)
		for _, r := range rows {
			c.addTo(r, bytes)
		}
		c.addTo(n, -bytes/8)
	}
	c.loop(func() {
		c.get(n).i32c(8).op(opI32LtS).breakIf()
		for j := range xv {
			c.get(x).vload(16 * uint32(j)).set(xv[j])
		}
		for k, r := range rows {
			c.vaccumulate(lo[k], xv[0], r, 0)
			c.vaccumulate(hi[k], xv[1], r, 16)
			c.vaccumulate(lo[k], xv[2], r, 32)
			c.vaccumulate(hi[k], xv[3], r, 48)
		}
		advance(64)
	})
	c.get(n).i32c(4).op(opI32GeS).op(opIf, blockVoid)
	c.get(x).vload(0).set(xv[0]).get(x).vload(16).set(xv[1])
	for k, r := range rows {
		c.vaccumulate(lo[k], xv[0], r, 0)
		c.vaccumulate(hi[k], xv[1], r, 16)
	}
	advance(32)
	c.op(opEnd)
	// The rest into s0, one element at a time.
	xi := c.local(f64)
	for k := range rows {
		c.get(lo[k]).lane(0).set(out[k])
	}
	c.loop(func() {
		c.get(n).i32c(0).op(opI32LeS).breakIf()
		c.get(x).load(0).set(xi)
		for k, r := range rows {
			c.get(out[k]).get(xi).get(r).load(0).op(opF64Mul, opF64Add).set(out[k])
		}
		advance(8)
	})
	// (s0 + s1) + (s2 + s3)
	for k := range rows {
		c.get(out[k]).get(lo[k]).lane(1).op(opF64Add)
		c.get(hi[k]).lane(0).get(hi[k]).lane(1).op(opF64Add, opF64Add).set(out[k])
	}
}

// dot4 writes the internal dot4(x, r0, r1, r2, r3, n) -> (f64, f64, f64,
// f64): the four rows' dot products with x (a function of four results,
// WebAssembly's multi-value, which every engine with SIMD has).
func dot4() *code {
	c := &code{params: []byte{i32, i32, i32, i32, i32, i32}}
	const x, n = 0, 5
	d := []uint32{c.local(f64), c.local(f64), c.local(f64), c.local(f64)}
	c.dotsV(x, []uint32{1, 2, 3, 4}, n, d)
	for _, l := range d {
		c.get(l)
	}
	return c
}

// call4 pushes dot4's arguments, x, the rows first + k·stride for k < 4
// and n, from the locals named, and calls it.
func (c *code) call4(x, first, stride, n uint32) {
	c.get(x)
	c.get(first)
	for k := int32(1); k < 4; k++ {
		c.get(first).get(stride).i32c(k).op(opI32Mul, opI32Add)
	}
	c.get(n).op(opCall).uleb(fnDot4)
}

// dotSIMD writes dot with dotsV.
func dotSIMD() *code {
	c := &code{params: []byte{i32, i32, i32}}
	const p, q, n = 0, 1, 2
	s := c.local(f64)
	c.dotsV(p, []uint32{q}, n, []uint32{s})
	c.get(s)
	return c
}

// axpySIMD writes axpy two elements to an instruction, eight to an
// iteration, then one at a time.
func axpySIMD() *code {
	c := &code{params: []byte{i32, f64, i32, i32}}
	const dst, a, x, n = 0, 1, 2, 3
	av := c.local(v128)
	c.get(a).simd(vSplat).set(av)
	c.loop(func() {
		c.get(n).i32c(8).op(opI32LtS).breakIf()
		for k := uint32(0); k < 4; k++ {
			c.get(dst).get(dst).vload(16 * k).get(av).get(x).vload(16 * k).simd(vMul).simd(vAdd).vstore(16 * k)
		}
		c.addTo(dst, 64).addTo(x, 64).addTo(n, -8)
	})
	c.loop(func() {
		c.get(n).i32c(0).op(opI32LeS).breakIf()
		c.get(dst).get(dst).load(0).get(a).get(x).load(0).op(opF64Mul, opF64Add).store(0)
		c.addTo(dst, 8).addTo(x, 8).addTo(n, -1)
	})
	return c
}

// eachRowDot writes a loop over rows first, first+stride, … (stride bytes,
// a local), the local i counting up to the local end: for each row,
// body(k, push), where push() pushes the row's dot product with x (n
// long; linalg.Dot's sum) and k is the row's place after first; then
// step(count) moves first, and whatever else follows the rows, on by
// count rows. With simd, the rows go four to a dot4 call while four
// remain (k from 0 to 3, then step(4)), then one at a time; without, one
// at a time (k = 0).
func (c *code) eachRowDot(simd bool, i, end, x, first, stride, n uint32, body func(k int, push func()), step func(count int32)) {
	one := func() {
		body(0, func() { c.get(first).get(x).get(n).op(opCall).uleb(fnDot) })
		step(1)
	}
	if simd {
		d := []uint32{c.local(f64), c.local(f64), c.local(f64), c.local(f64)}
		c.loop(func() {
			c.get(end).get(i).op(opI32Sub).i32c(4).op(opI32LtS).breakIf()
			c.call4(x, first, stride, n)
			for k := 3; k >= 0; k-- {
				c.set(d[k])
			}
			for k := range d {
				body(k, func() { c.get(d[k]) })
			}
			step(4)
			c.addTo(i, 4)
		})
	}
	c.loop(func() {
		c.get(i).get(end).op(opI32GeS).breakIf()
		one()
		c.addTo(i, 1)
	})
}

// rowAt pushes the address of row k after the one in the local first.
func (c *code) rowAt(first, stride uint32, k int) *code {
	c.get(first)
	if k > 0 {
		c.get(stride).i32c(int32(k)).op(opI32Mul, opI32Add)
	}
	return c
}

// advance sets the local l on by count times the local stride.
func (c *code) advance(l, stride uint32, count int32) {
	c.rowAt(l, stride, int(count)).set(l)
}

// dotsFn writes dots(x, rows, stride, n, k, out): out[c] = x·r_c over the
// k rows r_c = rows + c·stride bytes, n long; with SIMD four rows at a
// time.
func dotsFn(simd bool) *code {
	c := &code{params: []byte{i32, i32, i32, i32, i32, i32}}
	const x, rows, stride, n, k, out = 0, 1, 2, 3, 4, 5
	i := c.local(i32)
	c.eachRowDot(simd, i, k, x, rows, stride, n, func(j int, push func()) {
		c.get(out)
		push()
		c.store(8 * uint32(j))
	}, func(count int32) {
		c.advance(rows, stride, count)
		c.addTo(out, 8*count)
	})
	return c
}
