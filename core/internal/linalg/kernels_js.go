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
