package seq

// ELLA's task-selection rules (docs/algorithms.md §9, "Select").

import (
	"fmt"
	"math"

	"github.com/spmtl/spmtl/core/internal/linalg"
)

// logdet returns log det((A + (s sᵀ) ⊗ D_u)/(seen+1) + λI).
func (e *ELLA) logdet(u int, s []float64) (float64, bool) {
	p, k := e.p, e.k
	n := p * k
	M := make([]float64, n*n)
	copy(M, e.info)
	D := e.curv[u]
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			if f := s[i] * s[j]; f != 0 {
				for r := 0; r < p; r++ {
					linalg.Axpy(M[(i*p+r)*n+j*p:(i*p+r)*n+j*p+p], f, D[r*p:r*p+p])
				}
			}
		}
	}
	inv := 1 / float64(e.seen+1)
	for i := range M {
		M[i] *= inv
	}
	for i := 0; i < n; i++ {
		M[i*n+i] += e.cfg.Lambda
	}
	if !linalg.Cholesky(M, n) {
		return math.Inf(-1), false
	}
	var ld float64
	for i := 0; i < n; i++ {
		ld += 2 * math.Log(M[i*n+i])
	}
	return ld, true
}

// selectTask applies the selection rule to the tasks not learned yet. It
// returns the pick and every task's score (NaN for learned tasks, 0 for
// the candidates of the random rule).
func (e *ELLA) selectTask() (int, []float64, error) {
	U := remaining(e.learned)
	scores := make([]float64, len(e.learned))
	for t := range scores {
		if e.learned[t] {
			scores[t] = math.NaN()
		}
	}
	if e.cfg.Select == SelectRandom {
		return U[e.rng.IntN(len(U))], scores, nil
	}
	for _, u := range U {
		s, err := e.encodeChecked(u)
		if err != nil {
			return 0, nil, err
		}
		if e.cfg.Select == SelectInfoMax {
			ld, ok := e.logdet(u, s)
			if !ok {
				return 0, nil, fmt.Errorf("task %s: the information matrix is not positive definite", e.ds.Tasks[u].Name)
			}
			scores[u] = ld
			continue
		}
		var sum float64
		for _, v := range s {
			sum += v
		}
		if sum != 0 { // the authors test the sum of the code, not its norm
			r := e.residual(u, s)
			var q float64
			for a := 0; a < e.p; a++ {
				q += r[a] * linalg.Dot(e.curv[u][a*e.p:a*e.p+e.p], r)
			}
			if math.IsNaN(q) || math.IsInf(q, 0) {
				return 0, nil, fmt.Errorf("task %s: non-finite diversity score", e.ds.Tasks[u].Name)
			}
			scores[u] = q
		}
	}
	if e.cfg.Select != SelectDiversityPP {
		// InfoMax and Diversity: the first largest score.
		pick := U[0]
		for _, u := range U[1:] {
			if scores[u] > scores[pick] {
				pick = u
			}
		}
		return pick, scores, nil
	}
	// Diversity++: sample u with probability score_u² / Σ score²; the first
	// candidate when every score is 0.
	var total float64
	last := -1 // the last candidate with a positive weight
	for _, u := range U {
		if w := scores[u] * scores[u]; w > 0 {
			total += w
			last = u
		}
	}
	if last < 0 {
		return U[0], scores, nil
	}
	if math.IsInf(total, 0) {
		return 0, nil, fmt.Errorf("the squared diversity scores overflow")
	}
	x := e.rng.Float64() * total
	for _, u := range U {
		w := scores[u] * scores[u]
		if w <= 0 {
			continue
		}
		if x -= w; x < 0 {
			return u, scores, nil
		}
	}
	return last, scores, nil // x ran past the total by rounding
}
