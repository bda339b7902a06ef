package synth

import (
	"math"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"gonum.org/v1/gonum/mat"
)

// TestBLUPShrinkage: for the random-intercept-only model with the fixed
// effects known, the BLUP of b_j is the group's mean residual shrunk by
// σb²·n_j/(σ² + n_j σb²).
func TestBLUPShrinkage(t *testing.T) {
	for _, tc := range []struct {
		name           string
		sigmaB, noise  float64
		minRows, maxRs int
	}{
		{"defaults", 1, 1, 2, 20},
		{"single rows", 0.7, 2, 1, 3},
		{"strong groups", 3, 0.5, 5, 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Grouped(GroupedOptions{Seed: 11, Groups: 60, MinRows: tc.minRows, MaxRows: tc.maxRs,
				SigmaB: tc.sigmaB, Noise: tc.noise, SigmaU: []float64{0, 0, 0}})
			if err != nil {
				t.Fatal(err)
			}
			fixed := append([]float64{r.Intercept}, r.Beta...)
			v := r.Variances()
			fit, err := BLUP(r.Train, fixed, v)
			if err != nil {
				t.Fatal(err)
			}
			for j := range r.Train.Tasks {
				task := &r.Train.Tasks[j]
				n := float64(task.Rows())
				var mean float64
				for i, y := range task.Y {
					mean += y - fixed[0] - task.Dot(i, fixed[1:])
				}
				mean /= n
				want := v.Intercept * n / (v.Noise + n*v.Intercept) * mean
				if got := fit.Random[j][0]; math.Abs(got-want) > 1e-10 {
					t.Fatalf("group %s: b̂ = %.15g, shrinkage formula %.15g", task.Name, got, want)
				}
				for k, u := range fit.Random[j][1:] {
					if u != 0 {
						t.Fatalf("group %s: slope %d predicted %g with zero variance", task.Name, k, u)
					}
				}
			}
		})
	}
}

// TestBLUPHenderson checks the BLUP with random slopes against Henderson's
// mixed-model equations for one group with known fixed effects,
// û = (ZᵀZ/σ² + G⁻¹)⁻¹ Zᵀ(y − Zβ)/σ², an algebraically equal form that
// needs no V⁻¹.
func TestBLUPHenderson(t *testing.T) {
	r, err := Grouped(GroupedOptions{Seed: 12, Groups: 25, MinRows: 1, MaxRows: 12, SigmaU: []float64{0.5, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	v := r.Variances()
	fixed := []float64{1.5, -0.5, 0.3, 2}
	fit, err := BLUP(r.Train, fixed, v)
	if err != nil {
		t.Fatal(err)
	}
	g := append([]float64{v.Intercept}, v.Slopes...)
	for j := range r.Train.Tasks {
		task := &r.Train.Tasks[j]
		z := design(task)
		var lhs mat.Dense
		lhs.Mul(z.T(), z)
		lhs.Scale(1/v.Noise, &lhs)
		for k, s := range g {
			lhs.Set(k, k, lhs.At(k, k)+1/s)
		}
		res := mat.NewVecDense(task.Rows(), nil)
		for i, y := range task.Y {
			res.SetVec(i, (y-fixed[0]-task.Dot(i, fixed[1:]))/v.Noise)
		}
		var rhs, u mat.VecDense
		rhs.MulVec(z.T(), res)
		if err := u.SolveVec(&lhs, &rhs); err != nil {
			t.Fatal(err)
		}
		for k := range g {
			if d := math.Abs(u.AtVec(k) - fit.Random[j][k]); d > 1e-10 {
				t.Fatalf("group %s effect %d: BLUP %.15g, Henderson %.15g", task.Name, k, fit.Random[j][k], u.AtVec(k))
			}
		}
	}
}

// TestGLSBLUP: on much data the GLS estimates are near the true fixed
// effects, and the held-out RMSEs are ordered truth < oracle ≈ GLS+BLUP <
// pooled.
func TestGLSBLUP(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  GroupedOptions
	}{
		{"intercepts and slopes", GroupedOptions{Seed: 1, Groups: 1500}},
		{"intercepts only", GroupedOptions{Seed: 2, Groups: 1500, SigmaU: []float64{0, 0, 0}}},
		{"many small groups", GroupedOptions{Seed: 3, Groups: 3000, MinRows: 1, MaxRows: 8}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Grouped(tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			fit, err := GLSBLUP(r.Train, r.Variances())
			if err != nil {
				t.Fatal(err)
			}
			truth := append([]float64{r.Intercept}, r.Beta...)
			for k, b := range fit.Fixed {
				if math.Abs(b-truth[k]) > 0.1 {
					t.Errorf("fixed effect %d: %.3f, true %.3f", k, b, truth[k])
				}
			}
			ref, err := r.ReferenceRMSE()
			if err != nil {
				t.Fatal(err)
			}
			if ref.Rows != r.Test.Rows() || !(ref.Truth < ref.Oracle && ref.Oracle < ref.Pooled && ref.GLSBLUP < ref.Pooled) ||
				math.Abs(ref.GLSBLUP-ref.Oracle) > 0.02 || math.Abs(ref.Truth-1) > 0.1 {
				t.Errorf("reference RMSEs %+v", ref)
			}
		})
	}
}

// TestPooled: with no random effects and no noise, the pooled fits recover
// the fixed effects.
func TestPooled(t *testing.T) {
	r, err := Grouped(GroupedOptions{Seed: 4, Groups: 30, SigmaB: 1e-300, SigmaU: []float64{0, 0, 0}, Noise: 1e-300})
	if err != nil {
		t.Fatal(err)
	}
	w, err := PooledOLS(r.Train)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range append([]float64{r.Intercept}, r.Beta...) {
		if math.Abs(w[k]-want) > 1e-10 {
			t.Errorf("pooled coefficient %d = %.15g, want %g", k, w[k], want)
		}
	}
	b, err := Grouped(GroupedOptions{Seed: 4, Groups: 3000, SigmaB: 1e-300, SigmaU: []float64{0, 0, 0}, Binary: true, Intercept: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	w, err = PooledLogistic(b.Train)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range append([]float64{b.Intercept}, b.Beta...) {
		if math.Abs(w[k]-want) > 0.15 {
			t.Errorf("pooled logistic coefficient %d = %.3f, want %g", k, w[k], want)
		}
	}
	ref, err := b.ReferenceBinary()
	if err != nil {
		t.Fatal(err)
	}
	// Without random effects the pooled model is the true one.
	if math.Abs(ref.Pooled.LogLoss-ref.Oracle.LogLoss) > 0.01 || math.Abs(ref.Pooled.AUC-ref.Oracle.AUC) > 0.01 {
		t.Errorf("pooled %+v, oracle %+v", ref.Pooled, ref.Oracle)
	}
}

func TestScoreProbabilities(t *testing.T) {
	for _, tc := range []struct {
		name string
		p, y []float64
		want ProbabilityScores
	}{
		{"perfect", []float64{1, 0, 1}, []float64{1, -1, 1}, ProbabilityScores{LogLoss: -math.Log(1 - 1e-15), Brier: 0, AUC: 1}},
		{"coin", []float64{0.5, 0.5}, []float64{1, -1}, ProbabilityScores{LogLoss: math.Ln2, Brier: 0.25, AUC: 0.5}},
		{"mixed", []float64{0.8, 0.4, 0.3, 0.6}, []float64{1, 1, -1, -1}, ProbabilityScores{
			LogLoss: -(math.Log(0.8) + math.Log(0.4) + math.Log(0.7) + math.Log(0.4)) / 4,
			Brier:   (0.04 + 0.36 + 0.09 + 0.36) / 4, AUC: 0.75}},
		{"ties", []float64{0.5, 0.5, 0.5, 0.9}, []float64{1, -1, -1, 1}, ProbabilityScores{
			LogLoss: -(3*math.Log(0.5) + math.Log(0.9)) / 4, Brier: (0.25*3 + 0.01) / 4, AUC: 0.75}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ScoreProbabilities(tc.p, tc.y)
			if a := auc(tc.p, tc.y); a != got.AUC {
				t.Errorf("auc %v, scores %v", a, got.AUC)
			}
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got.LogLoss-tc.want.LogLoss) > 1e-12 || math.Abs(got.Brier-tc.want.Brier) > 1e-12 || math.Abs(got.AUC-tc.want.AUC) > 1e-12 {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestAUCAgreesWithEval: the package's AUC is eval.AUC's.
func TestAUCAgreesWithEval(t *testing.T) {
	r, err := Grouped(GroupedOptions{Seed: 8, Groups: 100, Binary: true})
	if err != nil {
		t.Fatal(err)
	}
	y := flat(labels(r.Train))
	scores := flat(r.TrainEta)
	for i := range scores {
		scores[i] = math.Round(scores[i] * 4) // ties
	}
	want, _ := eval.AUC(scores, y)
	if got := auc(scores, y); math.Abs(got-want) > 1e-12 {
		t.Errorf("auc %v, eval.AUC %v", got, want)
	}
}

func TestReferenceErrors(t *testing.T) {
	reg, _ := Grouped(GroupedOptions{Seed: 1, Groups: 10})
	bin, _ := Grouped(GroupedOptions{Seed: 1, Groups: 10, Binary: true})
	tiny, _ := Grouped(GroupedOptions{Seed: 1, Groups: 10, MaxRows: 3})
	for _, tc := range []struct {
		name string
		f    func() error
		want string
	}{
		{"rmse of binary", func() error { _, err := bin.ReferenceRMSE(); return err }, "binary"},
		{"binary of regression", func() error { _, err := reg.ReferenceBinary(); return err }, "not binary"},
		{"no held-out rows", func() error { _, err := tiny.ReferenceRMSE(); return err }, "no held-out rows"},
		{"zero noise", func() error { _, err := GLSBLUP(reg.Train, Variances{Intercept: 1}); return err }, "residual variance"},
		{"negative variance", func() error { _, err := GLSBLUP(reg.Train, Variances{Intercept: -1, Noise: 1}); return err }, "variance -1"},
		{"slope count", func() error { _, err := GLSBLUP(reg.Train, Variances{Slopes: []float64{1}, Noise: 1}); return err }, "1 slope variances for 3"},
		{"fixed count", func() error { _, err := BLUP(reg.Train, []float64{1}, reg.Variances()); return err }, "1 fixed effects"},
		{"task count", func() error {
			f := &MixedFit{Fixed: []float64{0, 0, 0, 0}}
			_, err := f.Predict(reg.Test)
			return err
		}, "10 tasks, the fit has 0"},
		{"probability range", func() error { _, err := ScoreProbabilities([]float64{1.5}, []float64{1}); return err }, "outside"},
		{"lengths", func() error { _, err := ScoreProbabilities([]float64{0.5}, nil); return err }, "1 probabilities for 0"},
		{"too few rows", func() error {
			_, err := PooledOLS(&data.Dataset{Features: 3, Tasks: []data.Task{reg.Train.Tasks[0].Subset([]int{0})}})
			return err
		}, "1 rows for 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.f(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
