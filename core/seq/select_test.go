package seq

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/mtl"
)

// handState returns an ELLA with d = 1 (so d' = 2), k = 1 and a state set
// by hand: the basis is the single column (1, 0); task 0 is learned with
// θ_0 = (1, 0), D_0 = diag(1, 1e-6) and s_0 = 1, so A = D_0 knows almost
// nothing about the second coordinate; task u ≥ 1 has θ_u = thetas[u-1]
// and D_u = diag(diags[u-1]).
func handState(t *testing.T, rule string, thetas, diags [][2]float64) *ELLA {
	t.Helper()
	e, err := NewELLA(toy(20, len(thetas)+1, 20, 1), ELLAConfig{K: 1, Select: rule, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	e.basis = []float64{1, 0}
	e.theta[0], e.curv[0] = []float64{1, 0}, []float64{1, 0, 0, 1e-6}
	e.info, e.bvec = []float64{1, 0, 0, 1e-6}, []float64{1, 0}
	e.seen, e.learned[0], e.order, e.s[0] = 1, true, []int{0}, []float64{1}
	for i := range thetas {
		e.theta[i+1] = thetas[i][:]
		e.curv[i+1] = []float64{diags[i][0], 0, 0, diags[i][1]}
	}
	return e
}

// code1 is the Lasso code of θ under the basis (1, 0) and D = diag(d1, ·):
// argmin ½ d1 (θ_1 − s)² + (μ/2)|s| = soft(d1 θ_1, μ/2) / d1.
func code1(theta [2]float64, d1, mu float64) float64 {
	return softThreshold(d1*theta[0], mu/2) / d1
}

// TestInfoMaxByConstruction: with the hand-made state, candidate 1 has by
// far the largest curvature, but only along the coordinate A already
// knows; candidate 2 has curvature along the coordinate A lacks. InfoMax
// must pick candidate 2, and every score must equal the log-determinant,
// which is a sum of logs because everything is diagonal.
func TestInfoMaxByConstruction(t *testing.T) {
	thetas := [][2]float64{{1, 0}, {1, 0}, {1, 0}}
	diags := [][2]float64{{5, 1e-3}, {1e-3, 1}, {1e-3, 1e-3}}
	e := handState(t, SelectInfoMax, thetas, diags)
	mu, lambda := e.cfg.Mu, e.cfg.Lambda
	snap, err := e.Step()
	if err != nil {
		t.Fatal(err)
	}
	if snap.Seq.Task != 2 {
		t.Fatalf("infomax picked task %d, want 2 (scores %v)", snap.Seq.Task, snap.Seq.Scores)
	}
	if !math.IsNaN(float64(snap.Seq.Scores[0])) {
		t.Errorf("learned task 0 has score %v, want NaN", snap.Seq.Scores[0])
	}
	for i, th := range thetas {
		s := code1(th, diags[i][0], mu)
		// det((A + s² D_u)/2 + λI) for diagonal A = diag(1, 1e-6).
		want := math.Log((1+s*s*diags[i][0])/2+lambda) + math.Log((1e-6+s*s*diags[i][1])/2+lambda)
		if got := float64(snap.Seq.Scores[i+1]); math.Abs(got-want) > 1e-9 {
			t.Errorf("task %d: log-determinant %v, want %v", i+1, got, want)
		}
	}
}

// TestDiversityByConstruction checks the diversity scores (θ−Ls)ᵀD(θ−Ls)
// in closed form, including the authors' rule that a code summing to 0
// scores 0: candidate 1 lies orthogonal to the basis, so its code is 0 and
// its score 0 although its residual is the largest.
func TestDiversityByConstruction(t *testing.T) {
	thetas := [][2]float64{{0, 3}, {2, 1}, {1, 0.5}}
	diags := [][2]float64{{1, 1}, {1, 1}, {1, 8}}
	e := handState(t, SelectDiversity, thetas, diags)
	mu := e.cfg.Mu
	snap, err := e.Step()
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{math.NaN(), 0, 0, 0}
	for i, th := range thetas {
		if s := code1(th, diags[i][0], mu); s != 0 {
			r0, r1 := th[0]-s, th[1]
			want[i+1] = diags[i][0]*r0*r0 + diags[i][1]*r1*r1
		}
	}
	if want[1] != 0 || math.Abs(want[3]-2) > 1e-9 {
		t.Fatalf("test construction is off: %v", want)
	}
	for u := 1; u < len(want); u++ {
		if math.Abs(float64(snap.Seq.Scores[u])-want[u]) > 1e-12 {
			t.Errorf("task %d: diversity %v, want %v", u, snap.Seq.Scores[u], want[u])
		}
	}
	if snap.Seq.Task != 3 {
		t.Fatalf("diversity picked task %d, want 3 (scores %v)", snap.Seq.Task, snap.Seq.Scores)
	}
}

// TestSamplingRules draws many selections from one state and compares the
// frequencies with the rule: Diversity++ samples ∝ score² (here 0, ≈1, ≈2,
// ≈4, so 0, 1/21, 4/21, 16/21) and takes the first candidate when every
// score is 0; random is uniform with score 0 for every candidate.
func TestSamplingRules(t *testing.T) {
	const draws = 4000
	for _, c := range []struct {
		name   string
		rule   string
		thetas [][2]float64
		diags  [][2]float64
		want   []float64 // selection frequency of tasks 1, 2, ...
	}{
		{"diversity++", SelectDiversityPP, [][2]float64{{0, 3}, {2, 1}, {1, 0.5}, {3, 1}}, [][2]float64{{1, 1}, {1, 1}, {1, 8}, {1, 4}}, []float64{0, 1. / 21, 4. / 21, 16. / 21}},
		{"diversity++ all zero", SelectDiversityPP, [][2]float64{{0, 1}, {0, 2}, {0, 3}}, [][2]float64{{1, 1}, {1, 1}, {1, 1}}, []float64{1, 0, 0}},
		{"random", SelectRandom, [][2]float64{{0, 1}, {2, 1}, {1, 3}}, [][2]float64{{1, 1}, {1, 1}, {1, 1}}, []float64{1. / 3, 1. / 3, 1. / 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := handState(t, c.rule, c.thetas, c.diags)
			counts := make([]float64, len(c.thetas)+1)
			for range draws {
				pick, scores, err := e.selectTask()
				if err != nil {
					t.Fatal(err)
				}
				if !math.IsNaN(scores[0]) {
					t.Fatalf("learned task 0 has score %v", scores[0])
				}
				if c.rule == SelectRandom && slices.ContainsFunc(scores[1:], func(v float64) bool { return v != 0 }) {
					t.Fatalf("random scores %v, want 0 for every candidate", scores)
				}
				counts[pick]++
			}
			if counts[0] != 0 {
				t.Fatalf("the learned task was selected %v times", counts[0])
			}
			// 4000 draws: the standard error of a frequency is at most 0.008.
			for i, w := range c.want {
				if f := counts[i+1] / draws; math.Abs(f-w) > 0.04 {
					t.Errorf("task %d selected with frequency %.3f, want %.3f", i+1, f, w)
				}
			}
		})
	}
}

// TestELLALifecycle steps every rule to the end and checks the snapshots:
// the model is complete (the EncodeOnly codes in L⁽⁰⁾) before the first
// step, the first k learned tasks take the codes e_1..e_k, learned codes
// stay frozen, the model is L s_t, and stepping a finished learner returns
// its last snapshot.
func TestELLALifecycle(t *testing.T) {
	const T, k = 6, 2
	ds := toy(7, T, 30, 2)
	for _, rule := range []string{SelectRandom, SelectInfoMax, SelectDiversity, SelectDiversityPP} {
		t.Run(rule, func(t *testing.T) {
			e, err := NewELLA(ds, ELLAConfig{K: k, Select: rule, Seed: 9})
			if err != nil {
				t.Fatal(err)
			}
			p := e.p
			checkModel := func(when string, m *mtl.Model, L []float64, S [][]float64) {
				t.Helper()
				if len(m.W) != T || m.Features != 2 {
					t.Fatalf("%s: model has %d tasks and %d features", when, len(m.W), m.Features)
				}
				for ti := range m.W {
					want := make([]float64, p)
					for j := 0; j < k; j++ {
						for r := 0; r < p; r++ {
							want[r] += L[j*p+r] * S[ti][j]
						}
					}
					got := append(append([]float64(nil), m.W[ti]...), m.B[ti])
					for r := range want {
						if math.IsNaN(got[r]) || math.Abs(got[r]-want[r]) > 1e-12*(1+math.Abs(want[r])) {
							t.Fatalf("%s: task %d: (w, b) = %v, L s = %v", when, ti, got, want)
						}
					}
				}
			}
			// Before the first step: every task is encoded with L⁽⁰⁾.
			S0 := make([][]float64, T)
			nonzero := false
			for ti := range S0 {
				S0[ti] = e.encode(ti)
				nonzero = nonzero || slices.ContainsFunc(S0[ti], func(v float64) bool { return v != 0 })
			}
			if !nonzero {
				t.Fatal("every initial code is zero")
			}
			checkModel("before step 1", e.Model(), e.basis, S0)

			frozen := map[int][]float64{}
			for step := 1; step <= T; step++ {
				snap, err := e.Step()
				if err != nil {
					t.Fatal(err)
				}
				if snap.Iter != step || len(snap.Seq.Order) != step || snap.Seq.Order[step-1] != snap.Seq.Task || snap.Done != (step == T) {
					t.Fatalf("step %d: snapshot %+v", step, snap)
				}
				for ti, v := range snap.Seq.Scores {
					if _, ok := frozen[ti]; ok != math.IsNaN(float64(v)) {
						t.Fatalf("step %d: task %d (learned before: %v) has score %v", step, ti, ok, v)
					}
				}
				if step <= k {
					unit := make([]float64, k)
					unit[step-1] = 1
					if !slices.Equal(snap.Seq.S[snap.Seq.Task], unit) {
						t.Fatalf("step %d: the code of task %d is %v, want %v", step, snap.Seq.Task, snap.Seq.S[snap.Seq.Task], unit)
					}
				}
				frozen[snap.Seq.Task] = snap.Seq.S[snap.Seq.Task]
				for ti, s := range frozen {
					if !slices.Equal(snap.Seq.S[ti], s) {
						t.Fatalf("step %d: the code of learned task %d moved from %v to %v", step, ti, s, snap.Seq.S[ti])
					}
				}
				if len(snap.Seq.L) != p || len(snap.Seq.L[0]) != k {
					t.Fatalf("step %d: L is %d×%d, want %d×%d", step, len(snap.Seq.L), len(snap.Seq.L[0]), p, k)
				}
				L := make([]float64, p*k) // back to column-major
				for r := range snap.Seq.L {
					for j := range snap.Seq.L[r] {
						L[j*p+r] = snap.Seq.L[r][j]
					}
				}
				checkModel(fmt.Sprintf("after step %d", step), e.Model(), L, snap.Seq.S)
			}
			again, err := e.Step()
			if err != nil || again.Iter != T || !again.Done || len(e.History()) != T {
				t.Fatalf("stepping a finished learner: %+v, %v, history %d", again, err, len(e.History()))
			}
		})
	}
}

// TestEveryTaskOnce: CL and each ELLA rule learn each task exactly once,
// and a seed gives the same run (order, scores and model) every time.
func TestEveryTaskOnce(t *testing.T) {
	const T = 7
	ds := toy(6, T, 30, 2)
	p, err := mtl.Prepare(ds)
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range []string{"cl", SelectRandom, SelectInfoMax, SelectDiversity, SelectDiversityPP} {
		orders := map[string]bool{}
		for seed := uint64(1); seed <= 4; seed++ {
			run := func() (mtl.Learner, mtl.Snapshot) {
				var l mtl.Learner
				var err error
				if rule == "cl" {
					l, err = NewCL(p, CLConfig{})
				} else {
					l, err = NewELLA(ds, ELLAConfig{K: 3, Select: rule, Seed: seed})
				}
				if err != nil {
					t.Fatal(err)
				}
				last, err := mtl.Run(context.Background(), l)
				if err != nil {
					t.Fatal(err)
				}
				return l, last
			}
			l1, a := run()
			l2, b := run()
			if !slices.Equal(a.Seq.Order, b.Seq.Order) || historyJSON(t, l1) != historyJSON(t, l2) ||
				fmt.Sprint(l1.Model()) != fmt.Sprint(l2.Model()) {
				t.Errorf("%s seed %d: two runs differ: orders %v and %v", rule, seed, a.Seq.Order, b.Seq.Order)
			}
			if got := slices.Sorted(slices.Values(a.Seq.Order)); !slices.Equal(got, []int{0, 1, 2, 3, 4, 5, 6}) || !a.Done {
				t.Fatalf("%s seed %d: order %v is not a permutation of the %d tasks", rule, seed, a.Seq.Order, T)
			}
			orders[fmt.Sprint(a.Seq.Order)] = true
		}
		if rule == SelectRandom && len(orders) < 2 {
			t.Errorf("random: four seeds gave the same order %v", orders)
		}
	}
}

// TestRun checks mtl.Run's handling of cancellation and finished
// sequential learners.
func TestRun(t *testing.T) {
	e, err := NewELLA(toy(3, 3, 20, 2), ELLAConfig{K: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := mtl.Run(ctx, e); !errors.Is(err, context.Canceled) || len(e.History()) != 0 {
		t.Fatalf("cancelled run: error %v after %d steps", err, len(e.History()))
	}
	last, err := mtl.Run(context.Background(), e)
	if err != nil || !last.Done || last.Iter != 3 || last.Stop != mtl.StopLearned {
		t.Fatalf("run: %+v, %v", last, err)
	}
	again, err := mtl.Run(context.Background(), e)
	if err != nil || again.Iter != 3 || !slices.Equal(again.Seq.Order, last.Seq.Order) {
		t.Fatalf("running a finished learner: %+v, %v", again, err)
	}
}

// TestStepErrors: overflowing features take the authors' θ = 0, D = 0
// fallback for the logistic fit (never a NaN model) and an error for the
// squared one.
func TestStepErrors(t *testing.T) {
	huge := toy(3, 3, 20, 2)
	huge.Tasks[1].X.Scale(1e200, huge.Tasks[1].X)
	e, err := NewELLA(huge, ELLAConfig{K: 2, Select: SelectDiversity})
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(e.theta[1], func(v float64) bool { return v != 0 }) || slices.ContainsFunc(e.curv[1], func(v float64) bool { return v != 0 }) {
		t.Fatalf("overflowing task: theta %v, D %v, want zeros", e.theta[1], e.curv[1])
	}
	if _, err := mtl.Run(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	for ti, w := range e.Model().W {
		if slices.ContainsFunc(append(w, e.Model().B[ti]), math.IsNaN) {
			t.Fatalf("task %d: NaN in the model", ti)
		}
	}
	if _, err := NewELLA(huge, ELLAConfig{Loss: mtl.Squared}); err == nil {
		t.Fatal("the squared fit accepted overflowing features")
	}
}

// TestSnapshotJSON: a history with NaN scores must encode (JSON has no NaN:
// they become null) and decode back to the same snapshots.
func TestSnapshotJSON(t *testing.T) {
	ds := toy(3, 4, 20, 2)
	p, _ := mtl.Prepare(ds)
	cl, err := NewCL(p, CLConfig{})
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewELLA(ds, ELLAConfig{K: 2, Select: SelectInfoMax})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []mtl.Learner{cl, e} {
		if _, err := mtl.Run(context.Background(), l); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(map[string]any{"history": l.History()})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"scores":[null,`) && !strings.Contains(string(b), `,null`) {
			t.Fatalf("no null score in %s", b)
		}
		var back struct{ History []mtl.Snapshot }
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		b2, err := json.Marshal(map[string]any{"history": back.History})
		if err != nil || string(b2) != string(b) {
			t.Fatalf("round trip:\n got %s\nwant %s (%v)", b2, b, err)
		}
	}
}

// historyJSON returns a learner's history as JSON, to compare two runs.
func historyJSON(t *testing.T, l mtl.Learner) string {
	t.Helper()
	b, err := json.Marshal(l.History())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
