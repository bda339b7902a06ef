package mtl

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/spmtl/spmtl/core/data"
)

// spanData returns T tasks of n rows in d ≫ T·n dimensions, sparse or
// dense, with a duplicated row (the Gram matrix is then singular).
func spanData(seed uint64, T, n, d int, sparse, classification bool) *data.Dataset {
	rng := rand.New(rand.NewPCG(seed, 5))
	ds := &data.Dataset{Name: "span", Features: d, Kind: data.Regression}
	if classification {
		ds.Kind = data.Classification
	}
	for k := 0; k < T; k++ {
		tk := randTask(rng, n, d, classification)
		tk.Name = fmt.Sprint("t", k)
		if sparse {
			// keep about a tenth of the entries
			for i := 0; i < n; i++ {
				row := tk.X.RawRowView(i)
				for j := range row {
					if rng.IntN(10) != 0 {
						row[j] = 0
					}
				}
			}
		}
		if k == 1 {
			tk.X.SetRow(3, tk.X.RawRowView(2))
		}
		if sparse {
			tk = toSparse(tk)
		}
		ds.Tasks = append(ds.Tasks, tk)
	}
	return ds
}

// TestSpanReductionIsExact: every model fitted in span coordinates gives the
// fit of the original coordinates, iteration for iteration: the same
// objectives, τ and weights (docs/algorithms.md §11), including MTFL, whose
// trace normalization must count all d dimensions.
func TestSpanReductionIsExact(t *testing.T) {
	for _, tc := range []struct {
		sparse bool
		loss   Loss
	}{{true, Squared}, {false, Squared}, {true, Logistic}} {
		ds := spanData(3, 4, 12, 300, tc.sparse, tc.loss == Logistic)
		red, err := prepare(ds, true)
		if err != nil {
			t.Fatal(err)
		}
		if red.red == nil || red.red.k != 47 {
			t.Fatalf("want a reduction to rank 47 (48 rows, one duplicated)")
		}
		plain, err := prepare(ds, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, model := range []string{"itl", "stl", "mmtl", "mtfl", "mtaso"} {
			for _, v := range []Variant{Paper, Reference} {
				for _, sp := range []bool{false, true} {
					name := fmt.Sprintf("sparse=%v/%s/%s/%s/sp=%v", tc.sparse, tc.loss, model, v, sp)
					cfg := Config{Model: model, Loss: tc.loss, Variant: v, Solver: Exact, SelfPaced: sp, Rho: 0.05, Lambda0: 0.5, H: 2, MaxIter: 6}
					run := func(p *Problem) *Trainer {
						tr, err := NewTrainer(p, cfg)
						if err != nil {
							t.Fatal(err)
						}
						if _, err := Run(context.Background(), tr); err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						return tr
					}
					a, b := run(red), run(plain)
					if !a.reduced || b.reduced {
						t.Fatalf("%s: reduced %v / %v", name, a.reduced, b.reduced)
					}
					ha, hb := a.History(), b.History()
					if len(ha) != len(hb) {
						t.Fatalf("%s: %d iterations reduced, %d not", name, len(ha), len(hb))
					}
					for k := range ha {
						if d := math.Abs(ha[k].Objective - hb[k].Objective); d > 1e-7*math.Abs(hb[k].Objective) {
							t.Errorf("%s: iteration %d objective %v, unreduced %v", name, k+1, ha[k].Objective, hb[k].Objective)
						}
						for i := range ha[k].Tau {
							if math.Abs(ha[k].Tau[i]-hb[k].Tau[i]) > 1e-8 {
								t.Errorf("%s: iteration %d τ differs", name, k+1)
								break
							}
						}
					}
					ma, mb := a.Model(), b.Model()
					for k := range mb.W {
						for j := range mb.W[k] {
							if math.Abs(ma.W[k][j]-mb.W[k][j]) > 1e-6*(1+math.Abs(mb.W[k][j])) {
								t.Fatalf("%s: w[%d][%d] = %v, unreduced %v", name, k, j, ma.W[k][j], mb.W[k][j])
							}
						}
						if math.Abs(ma.B[k]-mb.B[k]) > 1e-6*(1+math.Abs(mb.B[k])) {
							t.Fatalf("%s: b[%d] = %v, unreduced %v", name, k, ma.B[k], mb.B[k])
						}
					}
				}
			}
		}
		// The joint MMTL too.
		ja, err := NewJointMMTL(red, Config{Loss: tc.loss, Rho: 0.05})
		if err != nil {
			t.Fatal(err)
		}
		jb, _ := NewJointMMTL(plain, Config{Loss: tc.loss, Rho: 0.05})
		sa, err := ja.Step()
		if err != nil {
			t.Fatal(err)
		}
		sb, err := jb.Step()
		if err != nil {
			t.Fatal(err)
		}
		// (separable logistic data: the mean is unpenalized and both runs
		// drive the objective towards 0, so compare absolutely too)
		if math.Abs(sa.Objective-sb.Objective) > 1e-7*sb.Objective+1e-9 {
			t.Errorf("sparse=%v/%s joint MMTL: objective %v, unreduced %v", tc.sparse, tc.loss, sa.Objective, sb.Objective)
		}
	}
}

// TestPivotedCholesky: the factor reproduces the Gram matrix and finds its
// rank.
func TestPivotedCholesky(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	const n, r = 12, 7
	x := make([][]float64, n)
	for i := range x {
		x[i] = randVec(rng, 5)
	}
	// rows 7.. are combinations of the first 7: rank 5 anyway (5 columns)
	_ = r
	g := make([]float64, n*n)
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			for j := range x[a] {
				g[a*n+b] += x[a][j] * x[b][j]
			}
		}
	}
	want := append([]float64(nil), g...)
	piv, l, k := pivotedCholesky(g, n)
	if k != 5 {
		t.Fatalf("rank %d, want 5", k)
	}
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			var s float64
			for c := 0; c < k; c++ {
				s += l[a*k+c] * l[b*k+c]
			}
			if math.Abs(s-want[piv[a]*n+piv[b]]) > 1e-9 {
				t.Fatalf("LLᵀ[%d][%d] = %v, G = %v", a, b, s, want[piv[a]*n+piv[b]])
			}
		}
	}
}

// TestThetaExport: the shared knowledge comes out in the data's own
// coordinates, the same with and without the span reduction: MTFL's
// relevance is diag(D) and sums to 1 over all d features, its directions
// and MTASO's are orthonormal, MMTL's mean is the mean of the tasks'
// vectors (τ uniform).
func TestThetaExport(t *testing.T) {
	ds := spanData(5, 4, 12, 300, true, false)
	red, _ := prepare(ds, true)
	plain, _ := prepare(ds, false)
	for _, model := range []string{"mtfl", "mtaso", "mmtl"} {
		var got [2]*Theta
		for k, p := range []*Problem{red, plain} {
			tr, err := NewTrainer(p, Config{Model: model, Rho: 0.05, H: 2, MaxIter: 4})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Run(context.Background(), tr); err != nil {
				t.Fatal(err)
			}
			got[k] = tr.Theta()
			th := got[k]
			switch model {
			case "mtfl":
				var sum float64
				for _, v := range th.Relevance {
					sum += v
				}
				if len(th.Relevance) != 300 || math.Abs(sum-1) > 1e-9 {
					t.Errorf("mtfl: relevance of %d features sums to %v", len(th.Relevance), sum)
				}
			case "mmtl":
				m := tr.Model()
				for j := range th.Mean {
					var mean float64
					for _, w := range m.W {
						mean += w[j] / float64(len(m.W))
					}
					if math.Abs(th.Mean[j]-mean) > 1e-9 {
						t.Fatalf("mmtl: mean[%d] = %v, mean of the tasks %v", j, th.Mean[j], mean)
					}
				}
			}
			for a, u := range th.Directions {
				for b, v := range th.Directions {
					var dot float64
					for j := range u {
						dot += u[j] * v[j]
					}
					want := 0.0
					if a == b {
						want = 1
					}
					if math.Abs(dot-want) > 1e-8 {
						t.Fatalf("%s: directions %d·%d = %v", model, a, b, dot)
					}
				}
			}
		}
		if model == "mtfl" {
			for j := range got[0].Relevance {
				if d := math.Abs(got[0].Relevance[j] - got[1].Relevance[j]); d > 1e-9 {
					t.Fatalf("mtfl: relevance[%d] %v reduced, %v not", j, got[0].Relevance[j], got[1].Relevance[j])
				}
			}
		}
	}
}

// TestToFullAllMatchesToFull: mapping all task vectors back at once gives
// each the very bits of the plain one-vector map (back substitution down
// L1's columns, then the pivot rows added one by one), sparse and dense
// rows, so batching the map changes no score.
func TestToFullAllMatchesToFull(t *testing.T) {
	for _, sparse := range []bool{true, false} {
		ds := spanData(7, 5, 10, 200, sparse, false)
		p, err := prepare(ds, true)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(9, 1))
		ws := make([][]float64, 5)
		for k := range ws {
			ws[k] = make([]float64, p.red.k)
			for j := range ws[k] {
				ws[k][j] = rng.NormFloat64()
			}
		}
		ws[2][4] = 0 // a zero coefficient is skipped by both
		all := p.toFullAll(ws, true)
		r := p.red
		for k, w := range ws {
			kk := r.k
			c := append([]float64(nil), w...)
			for i := kk - 1; i >= 0; i-- {
				s := c[i]
				for j := i + 1; j < kk; j++ {
					s -= r.l1t[i*kk+j] * c[j] // L1[j][i]
				}
				c[i] = s / r.l1t[i*kk+i]
			}
			one := make([]float64, r.dFull)
			for j, ref := range r.rows {
				if c[j] != 0 {
					addRow(&ds.Tasks[ref.t], ref.i, c[j], one)
				}
			}
			for j := range one {
				if math.Float64bits(one[j]) != math.Float64bits(all[k][j]) {
					t.Fatalf("sparse=%v: task %d entry %d: %v batched, %v alone", sparse, k, j, all[k][j], one[j])
				}
			}
		}
	}
}
