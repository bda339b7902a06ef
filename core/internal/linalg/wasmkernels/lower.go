package wasmkernels

// Two kernels that fill the lower triangle (and diagonal) of a d×d
// row-major matrix row by row, each row one or two elementwise passes:
// the primal W-step's system and the Gram matrix of MTFL's and MTASO's
// Θ-step. One call does what took a Go loop of d short calls.

// xpay writes the internal xpay(dst, x i32, a f64, y, n i32):
// dst[i] = x[i] + a·y[i]; with simd, two to an instruction, eight to an
// iteration, then one at a time.
func xpay(simd bool) *code {
	c := &code{params: []byte{i32, i32, f64, i32, i32}}
	const dst, x, a, y, n = 0, 1, 2, 3, 4
	advance := func(bytes int32) { c.addTo(dst, bytes).addTo(x, bytes).addTo(y, bytes).addTo(n, -bytes/8) }
	if simd {
		av := c.local(v128)
		c.get(a).simd(vSplat).set(av)
		c.loop(func() {
			c.get(n).i32c(8).op(opI32LtS).breakIf()
			for k := uint32(0); k < 4; k++ {
				c.get(dst).get(x).vload(16 * k).get(av).get(y).vload(16 * k).simd(vMul).simd(vAdd).vstore(16 * k)
			}
			advance(64)
		})
	}
	c.loop(func() {
		c.get(n).i32c(0).op(opI32LeS).breakIf()
		c.get(dst).get(x).load(0).get(a).get(y).load(0).op(opF64Mul, opF64Add).store(0)
		advance(8)
	})
	return c
}

// lowerSystem writes linalg.LowerSystem: row a of l's lower triangle is
// c + ρ·m over its first a+1 entries, then, when η is not zero, plus
// (η·x̄_a)·x̄ (an Axpy).
func lowerSystem() *code {
	c := &code{params: []byte{i32, i32, i32, i32, f64, i32, f64}}
	const l, cc, m, d, rho, xbar, eta = 0, 1, 2, 3, 4, 5, 6
	a, off, stride := c.local(i32), c.local(i32), c.local(i32)
	c.get(d).i32c(3).op(opI32Shl).set(stride)
	c.loop(func() {
		c.get(a).get(d).op(opI32GeS).breakIf()
		c.get(l).get(off).op(opI32Add)
		c.get(cc).get(off).op(opI32Add)
		c.get(rho)
		c.get(m).get(off).op(opI32Add)
		c.get(a).i32c(1).op(opI32Add)
		c.op(opCall).uleb(fnXpay)
		c.get(eta).f64c(0).op(opF64Ne).op(opIf, blockVoid)
		c.get(l).get(off).op(opI32Add)
		c.get(eta).get(xbar).get(a).i32c(3).op(opI32Shl, opI32Add).load(0).op(opF64Mul)
		c.get(xbar)
		c.get(a).i32c(1).op(opI32Add)
		c.op(opCall).uleb(fnAxpy)
		c.op(opEnd)
		c.get(off).get(stride).op(opI32Add).set(off)
		c.addTo(a, 1)
	})
	return c
}

// rankOneLower writes linalg.RankOneLower: for each i with w_i ≠ 0, row i
// of the lower triangle plus (s·w_i)·w[:i+1] (an Axpy).
func rankOneLower() *code {
	c := &code{params: []byte{i32, i32, i32, f64}}
	const m, d, w, s = 0, 1, 2, 3
	i, row, stride := c.local(i32), c.local(i32), c.local(i32)
	wi := c.local(f64)
	c.get(d).i32c(3).op(opI32Shl).set(stride)
	c.get(m).set(row)
	c.eachWeight(w, d, i, wi, row, stride, func() {
		c.get(row).get(s).get(wi).op(opF64Mul).get(w).get(i).i32c(1).op(opI32Add).op(opCall).uleb(fnAxpy)
	})
	return c
}
