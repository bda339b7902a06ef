package mtl

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/internal/linalg"
	"gonum.org/v1/gonum/mat"
)

// randTask returns a dense task with n rows in d dimensions; labels are
// ±1 when classification is set.
func randTask(rng *rand.Rand, n, d int, classification bool) data.Task {
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	w := make([]float64, d)
	for j := range w {
		w[j] = rng.NormFloat64()
	}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, rng.NormFloat64()+0.3)
		}
		f := linalg.Dot(x.RawRowView(i), w) + 0.5 + 0.5*rng.NormFloat64()
		if classification {
			y[i] = 1
			if f < 0.5 {
				y[i] = -1
			}
		} else {
			y[i] = f
		}
	}
	return data.Task{Name: "t", X: x, Y: y}
}

// toSparse returns the task with X in CSR form.
func toSparse(t data.Task) data.Task {
	n, d := t.X.Dims()
	s := &data.CSR{Rows: n, Cols: d, Indptr: []int{0}}
	for i := 0; i < n; i++ {
		for j, v := range t.X.RawRowView(i) {
			if v != 0 {
				s.Indices = append(s.Indices, j)
				s.Values = append(s.Values, v)
			}
		}
		s.Indptr = append(s.Indptr, len(s.Indices))
	}
	return data.Task{Name: t.Name, S: s, Y: t.Y}
}

// randMetric returns a metric M⁻¹ = βI + U diag(γ) Uᵀ with r random
// orthonormal directions.
func randMetric(rng *rand.Rand, d, r int) *metric {
	if r == 0 {
		return scaledIdentityMetric(d, 0.3)
	}
	a := mat.NewDense(d, r, nil)
	for i := 0; i < d; i++ {
		for j := 0; j < r; j++ {
			a.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(a)
	var q mat.Dense
	qr.QTo(&q)
	m := &metric{d: d, beta: 0.3, r: r, u: make([]float64, d*r), gamma: make([]float64, r)}
	for j := 0; j < d; j++ {
		for i := 0; i < r; i++ {
			m.u[j*r+i] = q.At(j, i)
		}
	}
	for i := range m.gamma {
		m.gamma[i] = 0.5 + 2*rng.Float64()
	}
	return m
}

// randRowWeights returns n row weights in [0.2, 1.2).
func randRowWeights(rng *rand.Rand, n int) []float64 {
	rw := make([]float64, n)
	for i := range rw {
		rw[i] = 0.2 + rng.Float64()
	}
	return rw
}

func randVec(rng *rand.Rand, d int) []float64 {
	v := make([]float64, d)
	for j := range v {
		v[j] = rng.NormFloat64()
	}
	return v
}

// applyInv sets dst = M⁻¹v = βv + U(γ ∘ Uᵀv), the metric's definition
// written out (the solvers only ever apply M), for the tests to check M and
// D against.
func applyInv(m *metric, dst, v []float64) {
	c := make([]float64, m.r)
	for i := range c {
		for j := range v {
			c[i] += m.u[j*m.r+i] * v[j]
		}
		c[i] *= m.gamma[i]
	}
	for j := range v {
		x := m.beta * v[j]
		for i := range c {
			x += m.u[j*m.r+i] * c[i]
		}
		dst[j] = x
	}
}

// TestMetricInverse checks that applyM and the definition of M⁻¹ are
// inverse and that denseM is M.
func TestMetricInverse(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, r := range []int{0, 3, 7} {
		m := randMetric(rng, 7, r)
		v := randVec(rng, 7)
		u := make([]float64, 7)
		applyInv(m, u, v)
		m.applyM(u, u)
		for j := range v {
			if math.Abs(u[j]-v[j]) > 1e-12 {
				t.Fatalf("r=%d: M M⁻¹ v differs from v at %d: %v vs %v", r, j, u[j], v[j])
			}
		}
		mv := make([]float64, 7)
		for j := range mv {
			mv[j] = linalg.Dot(m.denseM()[j*7:j*7+7], v)
		}
		m.applyM(u, v)
		for j := range v {
			if math.Abs(u[j]-mv[j]) > 1e-10 {
				t.Fatalf("r=%d: dense M differs: %v vs %v", r, mv[j], u[j])
			}
		}
		if q := m.quad(v); math.Abs(q-linalg.Dot(v, mv)) > 1e-10 {
			t.Fatalf("r=%d: quad %v, want %v", r, q, linalg.Dot(v, mv))
		}
	}
}

// gradNorm returns the max-norm of the W-step gradient at (w, b).
func gradNorm(td *taskData, ws *wstep, w []float64, b float64) float64 {
	gw := make([]float64, len(w))
	var gb float64
	td.objGrad(ws, w, b, gw, &gb)
	g := math.Abs(gb)
	for _, v := range gw {
		g = math.Max(g, math.Abs(v))
	}
	return g
}

// TestObjGradFiniteDifference checks the W-step gradient against central
// finite differences, for both losses and both data layouts.
func TestObjGradFiniteDifference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name   string
		loss   Loss
		sparse bool
	}{
		{"squared-dense", Squared, false},
		{"squared-sparse", Squared, true},
		{"logistic-dense", Logistic, false},
		{"logistic-sparse", Logistic, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tk := randTask(rng, 30, 6, tc.loss == Logistic)
			if tc.sparse {
				tk = toSparse(tk)
			}
			td := newTaskData(&tk, 6)
			ws := &wstep{loss: tc.loss, scale: 1 / 30.0, rho: 0.7, m: randMetric(rng, 6, 2), anchor: randVec(rng, 6)}
			w, b := randVec(rng, 6), 0.3
			gw := make([]float64, 6)
			var gb float64
			td.objGrad(ws, w, b, gw, &gb)
			scratch := make([]float64, 6)
			var tmp float64
			f := func(w []float64, b float64) float64 { return td.objGrad(ws, w, b, scratch, &tmp) }
			const h = 1e-6
			for j := 0; j <= 6; j++ {
				wp, wm := append([]float64(nil), w...), append([]float64(nil), w...)
				bp, bm := b, b
				want := gb
				if j < 6 {
					wp[j] += h
					wm[j] -= h
					want = gw[j]
				} else {
					bp += h
					bm -= h
				}
				fd := (f(wp, bp) - f(wm, bm)) / (2 * h)
				if math.Abs(fd-want) > 1e-6*math.Max(1, math.Abs(fd)) {
					t.Errorf("coordinate %d: gradient %v, finite difference %v", j, want, fd)
				}
			}
		})
	}
}

// TestSquaredClosedForm compares the primal and span squared solvers with a
// direct solve of the normal equations of eq. (1), with an anchor and a
// non-identity metric.
func TestSquaredClosedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, d = 12, 5
	tk := randTask(rng, n, d, false)
	m := randMetric(rng, d, 2)
	a := randVec(rng, d)
	for _, scale := range []float64{1, 1.0 / n} {
		ws := &wstep{loss: Squared, scale: scale, rho: 0.4, m: m, anchor: a}
		// Normal equations of scale·½‖y − Xw − b‖² + ρ(w−a)ᵀM(w−a) in (w, b).
		p := d + 1
		A := mat.NewDense(p, p, nil)
		rhs := make([]float64, p)
		M := m.denseM()
		for i := 0; i < n; i++ {
			row := append(append([]float64(nil), tk.X.RawRowView(i)...), 1)
			for r := 0; r < p; r++ {
				rhs[r] += scale * row[r] * tk.Y[i]
				for c := 0; c < p; c++ {
					A.Set(r, c, A.At(r, c)+scale*row[r]*row[c])
				}
			}
		}
		ma := make([]float64, d)
		m.applyM(ma, a)
		for r := 0; r < d; r++ {
			rhs[r] += 2 * ws.rho * ma[r]
			for c := 0; c < d; c++ {
				A.Set(r, c, A.At(r, c)+2*ws.rho*M[r*d+c])
			}
		}
		var want mat.VecDense
		if err := want.SolveVec(A, mat.NewVecDense(p, rhs)); err != nil {
			t.Fatal(err)
		}
		primal := newTaskData(&tk, d)
		sp := toSparse(tk)
		span := newTaskData(&sp, d) // sparse rows always take the span form
		dense := newTaskData(&tk, d)
		dense.primal = false // dense rows in the span form: rebuild its Gram
		dense.k0 = span.k0
		dense.k0pi, dense.pipi = span.k0pi, span.pipi
		for name, td := range map[string]*taskData{"primal": primal, "span": span, "dense-span": dense} {
			w := make([]float64, d)
			var b float64
			if _, _, err := td.solveExact(ws, w, &b, nil); err != nil {
				t.Fatal(err)
			}
			for j := 0; j < d; j++ {
				if math.Abs(w[j]-want.AtVec(j)) > 1e-9 {
					t.Errorf("%s scale %v: w[%d] = %v, want %v", name, scale, j, w[j], want.AtVec(j))
				}
			}
			if math.Abs(b-want.AtVec(d)) > 1e-9 {
				t.Errorf("%s scale %v: b = %v, want %v", name, scale, b, want.AtVec(d))
			}
		}
	}
}

// TestSpanLossAndPenalty checks the loss and penalty the span form reads
// off α (docs/algorithms.md §1.1) against a pass over the rows and the
// quadratic form of M, with and without row weights and an anchor.
func TestSpanLossAndPenalty(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	const n, d = 9, 14
	tk := toSparse(randTask(rng, n, d, false))
	rw := randRowWeights(rng, n)
	m := randMetric(rng, d, 3)
	for _, c := range []struct {
		name   string
		rw     []float64
		scale  float64
		anchor []float64
	}{
		{"plain", nil, 1, nil},
		{"anchored", nil, 1.0 / n, randVec(rng, d)},
		{"weighted", rw, 1, nil},
		{"weighted anchored", rw, 0.5, randVec(rng, d)},
	} {
		td := newWeightedTaskData(&tk, d, c.rw)
		if td.primal {
			t.Fatal("a sparse task should take the span form")
		}
		for _, rho := range []float64{1e-4, 0.3, 50} {
			ws := &wstep{loss: Squared, scale: c.scale, rho: rho, m: m, anchor: c.anchor}
			w := make([]float64, d)
			var b float64
			loss, pen, err := td.solveExact(ws, w, &b, nil)
			if err != nil {
				t.Fatal(err)
			}
			wantLoss, wantPen := td.lossValue(Squared, c.scale, w, b), ws.penalty(w)
			if math.Abs(loss-wantLoss) > 1e-9*math.Max(wantLoss, 1e-12) {
				t.Errorf("%s, ρ %v: loss %v, rows give %v", c.name, rho, loss, wantLoss)
			}
			if math.Abs(pen-wantPen) > 1e-9*math.Max(wantPen, 1e-12) {
				t.Errorf("%s, ρ %v: penalty %v, M gives %v", c.name, rho, pen, wantPen)
			}
		}
	}
}

// TestLogisticOptimality checks that both Newton solvers reach a zero
// gradient and agree with each other.
func TestLogisticOptimality(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n, d = 40, 6
	tk := randTask(rng, n, d, true)
	ws := &wstep{loss: Logistic, scale: 1.0 / n, rho: 0.05, m: randMetric(rng, d, 2), anchor: randVec(rng, d)}
	primal := newTaskData(&tk, d)
	sp := toSparse(tk)
	span := newTaskData(&sp, d)
	if span.primal {
		t.Fatal("sparse task should use the span form")
	}
	var ws0 [2][]float64
	var bs [2]float64
	for k, td := range []*taskData{primal, span} {
		w := make([]float64, d)
		var b float64
		if _, _, err := td.solveExact(ws, w, &b, nil); err != nil {
			t.Fatal(err)
		}
		if g := gradNorm(td, ws, w, b); g > 1e-8 {
			t.Errorf("solver %d: gradient norm %v at the solution", k, g)
		}
		ws0[k], bs[k] = w, b
	}
	for j := 0; j < d; j++ {
		if math.Abs(ws0[0][j]-ws0[1][j]) > 1e-7 {
			t.Errorf("primal and span disagree at %d: %v vs %v", j, ws0[0][j], ws0[1][j])
		}
	}
	if math.Abs(bs[0]-bs[1]) > 1e-7 {
		t.Errorf("intercepts disagree: %v vs %v", bs[0], bs[1])
	}
}

// TestRidgeRecoversNoiseless: with noiseless data and a tiny ρ, the squared
// W-step recovers the generating w and b.
func TestRidgeRecoversNoiseless(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const n, d = 50, 8
	x := mat.NewDense(n, d, nil)
	wTrue := randVec(rng, d)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
		y[i] = linalg.Dot(x.RawRowView(i), wTrue) - 1.5
	}
	tk := data.Task{Name: "t", X: x, Y: y}
	td := newTaskData(&tk, d)
	w := make([]float64, d)
	var b float64
	if _, _, err := td.solveExact(&wstep{loss: Squared, scale: 1, rho: 1e-10, m: identityMetric(d)}, w, &b, nil); err != nil {
		t.Fatal(err)
	}
	for j := range w {
		if math.Abs(w[j]-wTrue[j]) > 1e-7 {
			t.Errorf("w[%d] = %v, want %v", j, w[j], wTrue[j])
		}
	}
	if math.Abs(b+1.5) > 1e-7 {
		t.Errorf("b = %v, want -1.5", b)
	}
}

// TestFISTAApproachesExact: the authors' inexact solver decreases the
// objective from the warm start and never beats the exact optimum.
func TestFISTAApproachesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const d = 4
	var tasks []*taskData
	var steps []*wstep
	for k := 0; k < 3; k++ {
		tk := randTask(rng, 20, d, false)
		tasks = append(tasks, newTaskData(&tk, d))
		steps = append(steps, &wstep{loss: Squared, scale: 1, rho: 0.5, m: identityMetric(d)})
	}
	W := [][]float64{make([]float64, d), make([]float64, d), make([]float64, d)}
	B := make([]float64, 3)
	start := 0.0
	for k, td := range tasks {
		start += td.objGrad(steps[k], W[k], B[k], make([]float64, d), new(float64))
	}
	if err := fistaJoint(tasks, steps, W, B, nil); err != nil {
		t.Fatal(err)
	}
	var got, best float64
	for k, td := range tasks {
		got += td.objGrad(steps[k], W[k], B[k], make([]float64, d), new(float64))
		w := make([]float64, d)
		var b float64
		if _, _, err := td.solveExact(steps[k], w, &b, nil); err != nil {
			t.Fatal(err)
		}
		best += td.objGrad(steps[k], w, b, make([]float64, d), new(float64))
	}
	if !(got < start) || got < best-1e-9 {
		t.Fatalf("fista objective %v: start %v, exact optimum %v", got, start, best)
	}
	if (got-best)/best > 0.05 {
		t.Errorf("fista objective %v is more than 5%% above the optimum %v on an easy problem", got, best)
	}
}

// TestThinSVD compares the Gram-based thin SVD with gonum's SVD, for d ≤ T
// and d > T, with one zero weight.
func TestThinSVD(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, dims := range [][2]int{{5, 8}, {30, 6}} {
		d, T := dims[0], dims[1]
		W := make([][]float64, T)
		omega := make([]float64, T)
		wt := mat.NewDense(d, T, nil)
		for k := range W {
			W[k] = randVec(rng, d)
			omega[k] = rng.Float64() + 0.2
			if k == 1 {
				omega[k] = 0
			}
			for j, v := range W[k] {
				wt.Set(j, k, v*omega[k])
			}
		}
		got, err := newThinSVD(W, omega, d, nil)
		if err != nil {
			t.Fatal(err)
		}
		var ref mat.SVD
		if !ref.Factorize(wt, mat.SVDThinU) {
			t.Fatal("gonum SVD failed")
		}
		want := ref.Values(nil)
		var u mat.Dense
		ref.UTo(&u)
		for i := 0; i < min(len(want), got.r); i++ {
			if want[i] < 1e-10 {
				continue // the null direction of the zero column is arbitrary
			}
			if math.Abs(got.s[i]-want[i]) > 1e-10*want[0] {
				t.Errorf("d=%d T=%d: s[%d] = %v, want %v", d, T, i, got.s[i], want[i])
			}
			// Same direction up to sign.
			var dot float64
			for j := 0; j < d; j++ {
				dot += got.u[j*got.r+i] * u.At(j, i)
			}
			if math.Abs(math.Abs(dot)-1) > 1e-9 {
				t.Errorf("d=%d T=%d: singular vector %d differs (|cos| = %v)", d, T, i, math.Abs(dot))
			}
		}
		for k, w := range W {
			for i := 0; i < got.r; i++ {
				var p float64
				for j := 0; j < d; j++ {
					p += got.u[j*got.r+i] * w[j]
				}
				if math.Abs(p-got.proj[k][i]) > 1e-9*(1+math.Abs(p)) {
					t.Errorf("d=%d T=%d: projection of task %d on direction %d: %v, want %v", d, T, k, i, got.proj[k][i], p)
				}
			}
		}
	}
}

// TestTinyColumnWeight: tasks whose τ is ~1e-20 or 1e-30 contribute nothing
// to W̃ (here one task holds all the weight, as the reference variant's
// unshifted softmax produces), and their projections Uᵀw_t must still be
// Uᵀw_t. Dividing S·Vᵀe_t by the tiny ω_t amplified round-off without bound
// (the sentiment objective went to −1e60); the MTFL penalties read off the
// SVD must equal the quadratic form and stay non-negative.
func TestTinyColumnWeight(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	const d, T = 60, 7
	W := make([][]float64, T)
	omega := make([]float64, T)
	for k := range W {
		W[k] = randVec(rng, d)
		omega[k] = 1e-20 * (rng.Float64() + 0.5)
	}
	omega[3] = 1e-30
	omega[5] = 1
	svd, err := newThinSVD(W, omega, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, w := range W {
		for i := 0; i < svd.r; i++ {
			var p float64
			for j := 0; j < d; j++ {
				p += svd.u[j*svd.r+i] * w[j]
			}
			if math.Abs(p-svd.proj[k][i]) > 1e-9*(1+math.Abs(p)) {
				t.Errorf("task %d (ω %g), direction %d: projection %v, want %v", k, omega[k], i, svd.proj[k][i], p)
			}
		}
	}
	m, pen, _, err := mtflMetric(W, omega, d, d, 1e-8, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, w := range W {
		q := m.quad(w)
		if !(pen[k] >= 0) || !(q >= 0) || math.Abs(pen[k]-q) > 1e-6*q {
			t.Errorf("task %d (ω %g): penalty from the SVD %v, quadratic form %v", k, omega[k], pen[k], q)
		}
	}
}
