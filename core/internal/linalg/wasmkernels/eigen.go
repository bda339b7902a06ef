package wasmkernels

// The inner loops of linalg.SymEigen: the reduction to tridiagonal form's
// product with the trailing block and its rank-two update
// (linalg.trailingProduct, linalg.trailingUpdate), the reflections'
// accumulation (linalg.reflectRows) and the QR steps' rotations of the
// eigenvectors (linalg.rotateRows). Each is a call per step of its
// algorithm over O(n²) or O(n) elements, where the Go loops spend the
// time.

const vReplace = 0x22 // f64x2.replace_lane

// eachTrailingRow writes a loop over the m rows of the block at a (row
// stride bytes apart, both locals), each from its diagonal: the local i
// counting, row at row i's diagonal, and each local of at at element i of
// its vector (advanced by one element a row); body() for each row.
func (c *code) eachTrailingRow(a, stride, m, i, row uint32, at []uint32, body func()) {
	c.i32c(0).set(i).get(a).set(row)
	c.loop(func() {
		c.get(i).get(m).op(opI32GeS).breakIf()
		body()
		c.get(row).get(stride).op(opI32Add).i32c(8).op(opI32Add).set(row)
		for _, l := range at {
			c.addTo(l, 8)
		}
		c.addTo(i, 1)
	})
}

// trailingProduct writes tdproduct(a, stride, m, v, p i32): p = A′v for
// the m×m block at a (row stride bytes) held by its upper triangle, as
// linalg.trailingProduct computes it: row i gives p_i its dot product
// with v, the diagonal's term first and then two sums over the rest, four
// elements at a time (s0 the even ones, s1 the odd), and each later p_j
// its x_ij·v_i.
func trailingProduct(simd bool) *code {
	c := &code{params: []byte{i32, i32, i32, i32, i32}}
	const a, stride, m, v, p = 0, 1, 2, 3, 4
	i, row, vp, pp, r, vv, q, cnt := c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32)
	vi, s0, s1, x := c.local(f64), c.local(f64), c.local(f64), c.local(f64)
	var sv, viv, x01, x23 uint32
	if simd {
		sv, viv, x01, x23 = c.local(v128), c.local(v128), c.local(v128), c.local(v128)
	}
	c.zero(p, m, i, q)
	c.get(v).set(vp).get(p).set(pp)
	c.eachTrailingRow(a, stride, m, i, row, []uint32{vp, pp}, func() {
		c.get(vp).load(0).set(vi)
		c.get(row).load(0).get(vi).op(opF64Mul).set(s0)
		c.f64c(0).set(s1)
		c.get(row).i32c(8).op(opI32Add).set(r)
		c.get(vp).i32c(8).op(opI32Add).set(vv)
		c.get(pp).i32c(8).op(opI32Add).set(q)
		c.get(m).get(i).op(opI32Sub).i32c(1).op(opI32Sub).set(cnt)
		if simd {
			c.vzero().get(s0).simd(vReplace).op(0).set(sv)
			c.get(vi).simd(vSplat).set(viv)
		}
		c.loop(func() {
			c.get(cnt).i32c(4).op(opI32LtS).breakIf()
			if simd {
				c.get(r).vload(0).set(x01).get(r).vload(16).set(x23)
				// (s0, s1) += (x0·y0, x1·y1) + (x2·y2, x3·y3)
				c.get(sv).get(x01).get(vv).vload(0).simd(vMul).get(x23).get(vv).vload(16).simd(vMul).simd(vAdd).simd(vAdd).set(sv)
				c.get(q).get(q).vload(0).get(x01).get(viv).simd(vMul).simd(vAdd).vstore(0)
				c.get(q).get(q).vload(16).get(x23).get(viv).simd(vMul).simd(vAdd).vstore(16)
			} else {
				for _, pair := range [][2]uint32{{0, 16}, {8, 24}} {
					s := s0
					if pair[0] == 8 {
						s = s1
					}
					c.get(s)
					c.get(r).load(pair[0]).get(vv).load(pair[0]).op(opF64Mul)
					c.get(r).load(pair[1]).get(vv).load(pair[1]).op(opF64Mul)
					c.op(opF64Add, opF64Add).set(s)
				}
				for off := uint32(0); off < 32; off += 8 {
					c.get(q).get(q).load(off).get(r).load(off).get(vi).op(opF64Mul, opF64Add).store(off)
				}
			}
			c.addTo(r, 32).addTo(vv, 32).addTo(q, 32).addTo(cnt, -4)
		})
		if simd {
			c.get(sv).lane(0).set(s0).get(sv).lane(1).set(s1)
		}
		c.loop(func() {
			c.get(cnt).i32c(0).op(opI32LeS).breakIf()
			c.get(r).load(0).set(x)
			c.get(s0).get(x).get(vv).load(0).op(opF64Mul, opF64Add).set(s0)
			c.get(q).get(q).load(0).get(x).get(vi).op(opF64Mul, opF64Add).store(0)
			c.addTo(r, 8).addTo(vv, 8).addTo(q, 8).addTo(cnt, -1)
		})
		c.get(pp).get(pp).load(0).get(s0).get(s1).op(opF64Add, opF64Add).store(0)
	})
	return c
}

// trailingUpdate writes tdupdate(a, stride, m, v, w i32): the block's
// upper triangle less v wᵀ + w vᵀ, each entry x_ij − (v_i·w_j + w_i·v_j).
func trailingUpdate(simd bool) *code {
	c := &code{params: []byte{i32, i32, i32, i32, i32}}
	const a, stride, m, v, w = 0, 1, 2, 3, 4
	i, row, vp, wp, r, vv, ww, cnt := c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32)
	vi, wi := c.local(f64), c.local(f64)
	var viv, wiv uint32
	if simd {
		viv, wiv = c.local(v128), c.local(v128)
	}
	c.get(v).set(vp).get(w).set(wp)
	c.eachTrailingRow(a, stride, m, i, row, []uint32{vp, wp}, func() {
		c.get(vp).load(0).set(vi).get(wp).load(0).set(wi)
		c.get(row).set(r).get(vp).set(vv).get(wp).set(ww)
		c.get(m).get(i).op(opI32Sub).set(cnt)
		if simd {
			c.get(vi).simd(vSplat).set(viv).get(wi).simd(vSplat).set(wiv)
			c.loop(func() {
				c.get(cnt).i32c(4).op(opI32LtS).breakIf()
				for _, off := range []uint32{0, 16} {
					c.get(r).get(r).vload(off)
					c.get(viv).get(ww).vload(off).simd(vMul).get(wiv).get(vv).vload(off).simd(vMul).simd(vAdd)
					c.simd(vSub).vstore(off)
				}
				c.addTo(r, 32).addTo(vv, 32).addTo(ww, 32).addTo(cnt, -4)
			})
		}
		c.loop(func() {
			c.get(cnt).i32c(0).op(opI32LeS).breakIf()
			c.get(r).get(r).load(0)
			c.get(vi).get(ww).load(0).op(opF64Mul).get(wi).get(vv).load(0).op(opF64Mul, opF64Add)
			c.op(opF64Sub).store(0)
			c.addTo(r, 8).addTo(vv, 8).addTo(ww, 8).addTo(cnt, -1)
		})
	})
	return c
}

// reflectRows writes reflect(z, stride, k, v, n i32): each of the k rows
// z_i = z + i·stride (n long) less (z_i·v)·v where that product is not
// zero; with simd the products four rows at a time.
func reflectRows(simd bool) *code {
	c := &code{params: []byte{i32, i32, i32, i32, i32}}
	const z, stride, k, v, n = 0, 1, 2, 3, 4
	i := c.local(i32)
	s := c.local(f64)
	c.eachRowDot(simd, i, k, v, z, stride, n, func(j int, push func()) {
		push()
		c.set(s)
		c.get(s).f64c(0).op(opF64Ne).op(opIf, blockVoid)
		c.rowAt(z, stride, j).get(s).op(opF64Neg).get(v).get(n).op(opCall).uleb(fnAxpy)
		c.op(opEnd)
	}, func(count int32) { c.advance(z, stride, count) })
	return c
}

// rotateRows writes rotate(vt, n, lo, hi, cs i32): for k from lo to hi−1
// with s_k ≠ 0 ((c_k, s_k) at cs + 16k), rows k and k+1 of the n×n vt
// turn: u ← c·u + s·w, w ← c·w − s·u.
func rotateRows(simd bool) *code {
	c := &code{params: []byte{i32, i32, i32, i32, i32}}
	const vt, n, lo, hi, cs = 0, 1, 2, 3, 4
	k, zk, zk1, cnt, stride, csp := c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32), c.local(i32)
	cc, ss, u, w := c.local(f64), c.local(f64), c.local(f64), c.local(f64)
	var cv, sv, uv, wv uint32
	if simd {
		cv, sv, uv, wv = c.local(v128), c.local(v128), c.local(v128), c.local(v128)
	}
	c.get(n).i32c(3).op(opI32Shl).set(stride)
	c.get(lo).set(k)
	c.loop(func() {
		c.get(k).get(hi).op(opI32GeS).breakIf()
		c.get(cs).get(k).i32c(4).op(opI32Shl, opI32Add).set(csp)
		c.get(csp).load(0).set(cc).get(csp).load(8).set(ss)
		c.get(ss).f64c(0).op(opF64Ne).op(opIf, blockVoid)
		c.get(vt).get(k).get(stride).op(opI32Mul, opI32Add).set(zk)
		c.get(zk).get(stride).op(opI32Add).set(zk1)
		c.get(n).set(cnt)
		if simd {
			c.get(cc).simd(vSplat).set(cv).get(ss).simd(vSplat).set(sv)
			c.loop(func() {
				c.get(cnt).i32c(2).op(opI32LtS).breakIf()
				c.get(zk).vload(0).set(uv).get(zk1).vload(0).set(wv)
				c.get(zk).get(cv).get(uv).simd(vMul).get(sv).get(wv).simd(vMul).simd(vAdd).vstore(0)
				c.get(zk1).get(cv).get(wv).simd(vMul).get(sv).get(uv).simd(vMul).simd(vSub).vstore(0)
				c.addTo(zk, 16).addTo(zk1, 16).addTo(cnt, -2)
			})
		}
		c.loop(func() {
			c.get(cnt).i32c(0).op(opI32LeS).breakIf()
			c.get(zk).load(0).set(u).get(zk1).load(0).set(w)
			c.get(zk).get(cc).get(u).op(opF64Mul).get(ss).get(w).op(opF64Mul, opF64Add).store(0)
			c.get(zk1).get(cc).get(w).op(opF64Mul).get(ss).get(u).op(opF64Mul, opF64Sub).store(0)
			c.addTo(zk, 8).addTo(zk1, 8).addTo(cnt, -1)
		})
		c.op(opEnd)
		c.addTo(k, 1)
	})
	return c
}
