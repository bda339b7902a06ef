//go:build js && wasm && spmtlkernels

package linalg

import "unsafe"

// The learner's build (build.sh: -tags spmtlkernels) calls hand-written
// WebAssembly for Dot, Axpy, Cholesky, the triangular solves, QuadForm and
// Combine
// (wasmkernels: the same arithmetic in the same order, three to five
// times faster than Go's WebAssembly code for the same loops). The host
// provides the imports "spmtl" (web/js/api.js): load compiles the module
// from its bytes against this program's memory, the others call it.
// The kernels keep no pointer they are given (//go:noescape): a slice on
// the stack stays there.

//go:wasmimport spmtl load
func kload(p unsafe.Pointer, n int32, simd int32) int32

//go:wasmimport spmtl dot
//go:noescape
func kdot(p, q unsafe.Pointer, n int32) float64

//go:wasmimport spmtl axpy
//go:noescape
func kaxpy(dst unsafe.Pointer, a float64, x unsafe.Pointer, n int32)

//go:wasmimport spmtl chol
//go:noescape
func kchol(a unsafe.Pointer, n int32) int32

//go:wasmimport spmtl lowersolve
//go:noescape
func klowersolve(l unsafe.Pointer, n int32, b unsafe.Pointer)

//go:wasmimport spmtl cholsolve
//go:noescape
func kcholsolve(l unsafe.Pointer, n int32, b unsafe.Pointer)

//go:wasmimport spmtl quadform
//go:noescape
func kquadform(c, w unsafe.Pointer, d int32) float64

//go:wasmimport spmtl combine
//go:noescape
func kcombine(c, u unsafe.Pointer, r int32, w unsafe.Pointer, d int32)

//go:wasmimport spmtl lowersystem
//go:noescape
func klowersystem(l, c, m unsafe.Pointer, d int32, rho float64, x unsafe.Pointer, eta float64)

//go:wasmimport spmtl rankonelower
//go:noescape
func krankonelower(a unsafe.Pointer, d int32, w unsafe.Pointer, s float64)

//go:wasmimport spmtl tdproduct
//go:noescape
func ktdproduct(a unsafe.Pointer, stride, m int32, v, p unsafe.Pointer)

//go:wasmimport spmtl tdupdate
//go:noescape
func ktdupdate(a unsafe.Pointer, stride, m int32, v, w unsafe.Pointer)

//go:wasmimport spmtl reflect
//go:noescape
func kreflect(z unsafe.Pointer, stride, k int32, v unsafe.Pointer, n int32)

//go:wasmimport spmtl rotate
//go:noescape
func krotate(vt unsafe.Pointer, n, lo, hi int32, cs unsafe.Pointer)

//go:wasmimport spmtl dots
//go:noescape
func kdots(x, rows unsafe.Pointer, stride, n, k int32, out unsafe.Pointer)

// kernels is set when the host loaded the kernels, at the program's start
// (init): the module with SIMD, or without it where the engine refuses
// SIMD; when neither loads, the Go loops serve.
var kernels bool

func init() {
	kernels = loadKernels(true) || loadKernels(false)
}

// loadKernels has the host load one form of the module in place of any
// loaded before (the tests load both in turn).
func loadKernels(simd bool) bool {
	m, flag := kernelModule, int32(0)
	if simd {
		m, flag = kernelModuleSIMD, 1
	}
	return kload(unsafe.Pointer(unsafe.StringData(m)), int32(len(m)), flag) == 1
}

func ptr(s []float64) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s)) }

// The calls are functions of their own so that Dot, Axpy and the rest stay
// small enough for the compiler to inline into their callers: a call
// costs more than a short Dot under js/wasm.

//go:noinline
func kernelDot(a, b []float64) float64 {
	b = b[:len(a)]
	return kdot(ptr(a), ptr(b), int32(len(a)))
}

//go:noinline
func kernelAxpy(dst []float64, a float64, x []float64) {
	dst = dst[:len(x)]
	kaxpy(ptr(dst), a, ptr(x), int32(len(x)))
}

//go:noinline
func kernelCholesky(a []float64, n int) bool {
	_ = a[n*n-1]
	return kchol(ptr(a), int32(n)) == 1
}

//go:noinline
func kernelLowerSolve(l []float64, n int, b []float64) {
	_, _ = l[n*n-1], b[n-1]
	klowersolve(ptr(l), int32(n), ptr(b))
}

//go:noinline
func kernelCholSolve(l []float64, n int, b []float64) {
	_, _ = l[n*n-1], b[n-1]
	kcholsolve(ptr(l), int32(n), ptr(b))
}

//go:noinline
func kernelQuadForm(c, w []float64) float64 {
	_ = c[len(w)*len(w)-1]
	return kquadform(ptr(c), ptr(w), int32(len(w)))
}

//go:noinline
func kernelCombine(c, u []float64, r int, w []float64) {
	_, _ = c[r-1], u[len(w)*r-1]
	kcombine(ptr(c), ptr(u), int32(r), ptr(w), int32(len(w)))
}

//go:noinline
func kernelDots(out, x, rows []float64, stride int) {
	k := len(out)
	_ = rows[(k-1)*stride+len(x)-1]
	kdots(ptr(x), ptr(rows), int32(8*stride), int32(len(x)), int32(k), ptr(out))
}

//go:noinline
func kernelLowerSystem(l, c, m []float64, d int, rho float64, x []float64, eta float64) {
	_, _, _, _ = l[d*d-1], c[d*d-1], m[d*d-1], x[d-1]
	klowersystem(ptr(l), ptr(c), ptr(m), int32(d), rho, ptr(x), eta)
}

//go:noinline
func kernelRankOneLower(a, w []float64, s float64) {
	_ = a[len(w)*len(w)-1]
	krankonelower(ptr(a), int32(len(w)), ptr(w), s)
}

// kernelTrailing runs trailingProduct (update false: v and p) or
// trailingUpdate (v and w) on the m×m block at a[off].
//
//go:noinline
func kernelTrailing(update bool, a []float64, n, off, m int, v, x []float64) {
	if m == 0 {
		return
	}
	_, _, _ = a[off+(m-1)*(n+1)], v[m-1], x[m-1]
	if update {
		ktdupdate(ptr(a[off:]), int32(8*n), int32(m), ptr(v), ptr(x))
	} else {
		ktdproduct(ptr(a[off:]), int32(8*n), int32(m), ptr(v), ptr(x))
	}
}

//go:noinline
func kernelReflect(z []float64, n, k int, v []float64) {
	_ = z[(k-1)*n+len(v)-1]
	kreflect(ptr(z), int32(8*n), int32(k), ptr(v), int32(len(v)))
}

//go:noinline
func kernelRotate(vt []float64, n, lo, hi int, cs []float64) {
	_, _ = vt[(hi+1)*n-1], cs[2*hi-1]
	krotate(ptr(vt), int32(n), int32(lo), int32(hi), ptr(cs))
}
