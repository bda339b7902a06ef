package mtl

import (
	"fmt"
	"math"

	"github.com/spmtl/spmtl/core/internal/linalg"
)

// The authors' inexact W-step (docs/algorithms.md §1.3): one accelerated
// gradient run over all tasks jointly, warm-started, with a step 1/L whose
// L starts at 1 on every call and doubles whenever the quadratic upper bound
// fails, stopped after fistaMaxIter iterations, when a step moves the point
// by less than 1e-10 (squared norm 1e-20), or when the relative change of
// F + ‖W‖₁ falls to fistaTol. The ‖W‖₁ term is what the authors'
// projection returns as its non-smooth value even when the L1 weight is 0;
// their stopping test adds it, and so does this one.
const (
	fistaMaxIter = 100
	fistaTol     = 1e-5
)

// objGrad returns the W-step objective of task td at (w, b) and writes its
// gradient into gw and *gb.
func (td *taskData) objGrad(ws *wstep, w []float64, b float64, gw []float64, gb *float64) float64 {
	for j := range gw {
		gw[j] = 0
	}
	var val, g0 float64
	if ws.loss == Squared && td.primal {
		// ∇_w = C w − q + N x̄ (x̄ᵀw + b − ȳ), ∇_b = N (x̄ᵀw + b − ȳ).
		d := len(w)
		e := td.sumW * (linalg.Dot(td.xbar, w) + b - td.ybar)
		for j := range gw {
			gw[j] = ws.scale * (linalg.Dot(td.c[j*d:j*d+d], w) - td.q[j] + e*td.xbar[j])
		}
		g0 = ws.scale * e
		val = td.lossValue(Squared, ws.scale, w, b)
	} else {
		for i := 0; i < td.n; i++ {
			f := td.dot(i, w) + b
			var c float64
			wi := td.wt(i)
			if ws.loss == Squared {
				r := f - td.y[i]
				val += 0.5 * wi * r * r
				c = wi * r
			} else {
				z := -td.y[i] * f
				val += wi * softplus(z)
				c = -wi * td.y[i] * sigmoid(z)
			}
			td.addRowTo(gw, i, ws.scale*c)
			g0 += ws.scale * c
		}
		val *= ws.scale
	}
	u := ws.diff(w)
	ws.m.applyM(u, u)
	linalg.Axpy(gw, 2*ws.rho, u)
	val += ws.rho * linalg.Dot(ws.diff(w), u)
	if ws.kappa > 0 { // the shared intercept (docs/algorithms.md §1.4)
		val += ws.rho * ws.interceptPenalty(b)
		g0 += 2 * ws.rho * ws.kappa * (b - ws.b0)
	}
	*gb = g0
	return val
}

// jointPenalty is a penalty that couples the tasks, such as MMTL's
// ρ·tr(WΩWᵀ): it returns its value at W and, when grad is not nil, adds its
// gradient to grad.
type jointPenalty func(W, grad [][]float64) float64

// fistaJoint runs the authors' accelerated gradient on all tasks at once.
// W and B hold the warm start and receive the result. joint, when not nil,
// is added to the per-task objectives of steps.
func fistaJoint(tasks []*taskData, steps []*wstep, W [][]float64, B []float64, joint jointPenalty) error {
	T := len(tasks)
	d := len(W[0])
	clone := func(src [][]float64) [][]float64 {
		out := make([][]float64, len(src))
		for t := range src {
			out[t] = append([]float64(nil), src[t]...)
		}
		return out
	}
	x, xPrev := clone(W), clone(W)
	bx, bPrev := append([]float64(nil), B...), append([]float64(nil), B...)
	s := clone(W)
	bs := make([]float64, T)
	z := clone(W)
	bz := make([]float64, T)
	gw := make([][]float64, T)
	for t := range gw {
		gw[t] = make([]float64, d)
	}
	gb := make([]float64, T)
	total := func(W [][]float64, B []float64, grad bool) float64 {
		var f float64
		scratch := make([]float64, d)
		for t, td := range tasks {
			g := scratch
			if grad {
				g = gw[t]
			}
			var gbt float64
			f += td.objGrad(steps[t], W[t], B[t], g, &gbt)
			if grad {
				gb[t] = gbt
			}
		}
		if joint != nil {
			var g [][]float64
			if grad {
				g = gw
			}
			f += joint(W, g)
		}
		return f
	}
	L := 1.0
	tk, tPrev := 1.0, 0.0
	var prevObj float64
	for it := 0; it < fistaMaxIter; it++ {
		beta := (tPrev - 1) / tk
		for t := range s {
			for j := range s[t] {
				s[t][j] = x[t][j] + beta*(x[t][j]-xPrev[t][j])
			}
			bs[t] = bx[t] + beta*(bx[t]-bPrev[t])
		}
		fs := total(s, bs, true)
		var fz, dist float64
		small := false
		for tries := 0; ; tries++ {
			var lin float64
			dist = 0
			for t := range s {
				for j := range s[t] {
					z[t][j] = s[t][j] - gw[t][j]/L
					dd := z[t][j] - s[t][j]
					lin += gw[t][j] * dd
					dist += dd * dd
				}
				bz[t] = bs[t] - gb[t]/L
				dd := bz[t] - bs[t]
				lin += gb[t] * dd
				dist += dd * dd
			}
			fz = total(z, bz, false)
			if dist < 1e-20 {
				// The authors stop here, with the new point, before the
				// bound is tested.
				small = true
				break
			}
			if fz <= fs+lin+L/2*dist || tries > 200 {
				break
			}
			L *= 2
		}
		if math.IsNaN(fz) || math.IsInf(fz, 0) {
			return errNumeric(fmt.Sprintf("fista: objective became %v", fz))
		}
		xPrev, x, z = x, z, xPrev
		bPrev, bx, bz = bx, bz, bPrev
		if small {
			break
		}
		obj := fz + l1Norm(x)
		if it > 0 && math.Abs(obj-prevObj) <= fistaTol*math.Abs(prevObj) {
			break
		}
		prevObj = obj
		tPrev = tk
		tk = (1 + math.Sqrt(1+4*tk*tk)) / 2
	}
	for t := range W {
		copy(W[t], x[t])
	}
	copy(B, bx)
	return nil
}

// l1Norm returns Σ_t Σ_j |W_jt|.
func l1Norm(W [][]float64) float64 {
	var s float64
	for _, w := range W {
		for _, v := range w {
			s += math.Abs(v)
		}
	}
	return s
}
