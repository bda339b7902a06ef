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
