//go:build !(js && wasm && spmtlkernels)

package linalg

// Without the learner's WebAssembly kernels (kernels_js.go) the Go loops
// serve; these stand-ins are never called.
const (
	kernelsBuilt = false
	kernels      = false
)

func kernelDot(a, b []float64) float64                 { panic("linalg: no kernels") }
func kernelAxpy(dst []float64, a float64, x []float64) { panic("linalg: no kernels") }
func kernelCholesky(a []float64, n int) bool           { panic("linalg: no kernels") }
func kernelLowerSolve(l []float64, n int, b []float64) { panic("linalg: no kernels") }
func kernelCholSolve(l []float64, n int, b []float64)  { panic("linalg: no kernels") }
func kernelQuadForm(c, w []float64) float64            { panic("linalg: no kernels") }
func kernelCombine(c, u []float64, r int, w []float64) { panic("linalg: no kernels") }
func kernelDots(out, x, rows []float64, stride int)    { panic("linalg: no kernels") }
func kernelLowerSystem(l, c, m []float64, d int, rho float64, x []float64, eta float64) {
	panic("linalg: no kernels")
}
func kernelRankOneLower(a, w []float64, s float64) { panic("linalg: no kernels") }
func kernelTrailing(update bool, a []float64, n, off, m int, v, x []float64) {
	panic("linalg: no kernels")
}
func kernelReflect(z []float64, n, k int, v []float64)       { panic("linalg: no kernels") }
func kernelRotate(vt []float64, n, lo, hi int, cs []float64) { panic("linalg: no kernels") }
