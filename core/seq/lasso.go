package seq

// The Lasso of ELLA's codes (docs/algorithms.md §9, "Encoding").

import (
	"math"

	"github.com/spmtl/spmtl/core/internal/linalg"
)

// lasso returns argmin_s f(s) = ½ sᵀGs − cᵀs + h‖s‖₁ for a k×k symmetric
// positive semidefinite G (row-major) by the feature-sign search of Lee,
// Battle, Raina & Ng (2007), an active-set method that ends at an exact
// optimum after finitely many k×k solves. Coordinate descent, the fallback
// when a support's system is singular, can need many thousands of sweeps
// when the basis columns are nearly collinear and h tiny (as on landmine).
func lasso(G, c []float64, k int, h float64) []float64 {
	s, ok := featureSign(G, c, k, h)
	if ok {
		return s
	}
	for sweep := 0; sweep < 10000; sweep++ {
		if cdSweep(G, c, k, h, s) <= 1e-12 {
			break
		}
	}
	return s
}

// featureSign runs the feature-sign search; ok is false when a support's
// system is not positive definite (G is singular when k > d+1) or the
// search fails to make progress, and s is then the last iterate, a warm
// start for coordinate descent.
func featureSign(G, c []float64, k int, h float64) (s []float64, ok bool) {
	s = make([]float64, k)
	sign := make([]float64, k) // the active set: sign[j] ≠ 0
	// grad returns the j-th partial derivative of the smooth part and the
	// magnitude of its terms (for rounding tolerances).
	grad := func(x []float64, j int) (g, scale float64) {
		g, scale = -c[j], math.Abs(c[j])
		for i := 0; i < k; i++ {
			g += G[j*k+i] * x[i]
			scale += math.Abs(G[j*k+i] * x[i])
		}
		return g, scale
	}
	f := func(x []float64) float64 {
		var v float64
		for j := 0; j < k; j++ {
			g, _ := grad(x, j)
			v += x[j]*(g-c[j])/2 + h*math.Abs(x[j])
		}
		return v
	}
	x := make([]float64, k)
	y := make([]float64, k)
	for iter := 0; iter < 100*(k+1); iter++ {
		// Are the active coordinates optimal?
		activeOK := true
		for j := 0; j < k; j++ {
			if s[j] != 0 {
				g, scale := grad(s, j)
				if math.Abs(g+math.Copysign(h, s[j])) > 1e-10*(scale+h) {
					activeOK = false
				}
			}
		}
		if activeOK {
			// Activate the zero coordinate that violates optimality most.
			best, bestV := -1, 0.0
			for j := 0; j < k; j++ {
				if s[j] != 0 || G[j*k+j] <= 0 {
					continue
				}
				g, scale := grad(s, j)
				if v := math.Abs(g) - h; v > 1e-12*(scale+h) && v > bestV {
					best, bestV = j, v
				}
			}
			if best < 0 {
				return s, true
			}
			g, _ := grad(s, best)
			sign[best] = -math.Copysign(1, g)
		}
		// Feature-sign step: minimize the quadratic with the active signs
		// fixed, then line-search towards it through the sign changes.
		var act []int
		for j := 0; j < k; j++ {
			if sign[j] != 0 {
				act = append(act, j)
			}
		}
		n := len(act)
		M := make([]float64, n*n)
		r := make([]float64, n)
		for a, i := range act {
			for b, j := range act {
				M[a*n+b] = G[i*k+j]
			}
			r[a] = c[i] - h*sign[i]
		}
		if !linalg.SolveSPD(M, n, r) {
			return s, false
		}
		for j := range x {
			x[j] = 0
		}
		for a, i := range act {
			x[i] = r[a]
		}
		bestT, bestF, cross := 1.0, f(x), -1
		for _, j := range act {
			if s[j]*x[j] < 0 { // s[j] changes sign on the way to x
				t := s[j] / (s[j] - x[j])
				for i := range y {
					y[i] = s[i] + t*(x[i]-s[i])
				}
				y[j] = 0
				if fy := f(y); fy < bestF {
					bestT, bestF, cross = t, fy, j
				}
			}
		}
		if !(bestF <= f(s)) {
			return s, false
		}
		for i := range s {
			s[i] += bestT * (x[i] - s[i])
		}
		if cross >= 0 {
			s[cross] = 0
		}
		for j := range sign {
			switch {
			case s[j] > 0:
				sign[j] = 1
			case s[j] < 0:
				sign[j] = -1
			default:
				sign[j] = 0
			}
		}
	}
	return s, false
}

// cdSweep updates every coordinate of s once by coordinate descent and
// returns the largest move.
func cdSweep(G, c []float64, k int, h float64, s []float64) float64 {
	var change float64
	for j := 0; j < k; j++ {
		if G[j*k+j] <= 0 {
			s[j] = 0
			continue
		}
		rj := c[j]
		for i := 0; i < k; i++ {
			if i != j {
				rj -= G[j*k+i] * s[i]
			}
		}
		nj := softThreshold(rj, h) / G[j*k+j]
		change = math.Max(change, math.Abs(nj-s[j]))
		s[j] = nj
	}
	return change
}

func softThreshold(x, a float64) float64 {
	switch {
	case x > a:
		return x - a
	case x < -a:
		return x + a
	}
	return 0
}
