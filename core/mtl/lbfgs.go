package mtl

import (
	"math"

	"github.com/spmtl/spmtl/core/internal/linalg"
)

// lbfgs minimizes a smooth convex function from x (which it overwrites with
// the minimizer) by limited-memory BFGS with m correction pairs and a
// backtracking line search on the Armijo condition. f returns the value and
// gradient at a point; h0 scales the first step (−h0·g: an estimate of the
// inverse curvature). It stops when the largest gradient entry falls to
// gtol, when f has decreased by less than 1e-14 of its value on five
// iterations in a row or a whole line search cannot decrease it (the
// floating-point limit), or after maxEval evaluations, and returns the
// value at x.
//
// Hand-written rather than gonum/optimize's LBFGS: the joint MMTL (§5.2) is
// its only user, and gonum's package (with the distmv and x/tools code it
// links) took 76 KB of the WebAssembly build's code for it.
func lbfgs(x []float64, f func(x []float64) (float64, []float64), h0 float64, m int, gtol float64, maxEval int) float64 {
	n := len(x)
	fx, g := f(x)
	evals := 1
	var s, y [][]float64
	var rho []float64
	dir := make([]float64, n)
	alpha := make([]float64, m)
	xt := make([]float64, n)
	flat := 0 // iterations in a row with a negligible decrease
	for evals < maxEval && infNorm(g) > gtol && flat < 5 {
		// Two-loop recursion: dir = −H g.
		copy(dir, g)
		for i := len(s) - 1; i >= 0; i-- {
			alpha[i] = rho[i] * linalg.Dot(s[i], dir)
			linalg.Axpy(dir, -alpha[i], y[i])
		}
		if k := len(s) - 1; k >= 0 {
			gamma := linalg.Dot(s[k], y[k]) / linalg.Dot(y[k], y[k])
			for i := range dir {
				dir[i] *= gamma
			}
		} else {
			for i := range dir {
				dir[i] *= h0
			}
		}
		for i := 0; i < len(s); i++ {
			beta := rho[i] * linalg.Dot(y[i], dir)
			linalg.Axpy(dir, alpha[i]-beta, s[i])
		}
		for i := range dir {
			dir[i] = -dir[i]
		}
		slope := linalg.Dot(g, dir)
		if !(slope < 0) { // not a descent direction: restart from −g
			s, y, rho = nil, nil, nil
			continue
		}
		step := 1.0
		var ft float64
		var gt []float64
		accepted := false
		for ls := 0; ls < 40 && evals < maxEval; ls++ {
			for i := range xt {
				xt[i] = x[i] + step*dir[i]
			}
			ft, gt = f(xt)
			evals++
			if ft <= fx+1e-4*step*slope {
				accepted = true
				break
			}
			step /= 2
		}
		if !accepted {
			break
		}
		si, yi := make([]float64, n), make([]float64, n)
		for i := range si {
			si[i] = xt[i] - x[i]
			yi[i] = gt[i] - g[i]
		}
		if fx-ft <= 1e-14*math.Abs(fx) {
			flat++
		} else {
			flat = 0
		}
		copy(x, xt)
		fx, g = ft, gt
		if sy := linalg.Dot(si, yi); sy > 1e-300 {
			if len(s) == m {
				s, y, rho = s[1:], y[1:], rho[1:]
			}
			s, y, rho = append(s, si), append(y, yi), append(rho, 1/sy)
		}
	}
	return fx
}

func infNorm(v []float64) float64 {
	var m float64
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}
