package reml

import (
	"bufio"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/synth"
	"gonum.org/v1/gonum/mat"
)

// readFixture reads testdata/twolevel.csv and lme4's estimates for it
// (testdata/fixture.R wrote both).
func readFixture(t *testing.T) (*data.Dataset, map[string]float64) {
	t.Helper()
	return readFixtureFiles(t, "twolevel.csv", "lme4.txt")
}

// readFixtureFiles reads the data file csv of testdata and lme4's figures
// for it (txt: "name value" lines).
func readFixtureFiles(t *testing.T, csv, txt string) (*data.Dataset, map[string]float64) {
	t.Helper()
	f, err := os.Open("testdata/" + csv)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ds, err := data.ReadCSV(f, csv, data.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("testdata/" + txt)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), " ")
		want[k], err = strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatal(err)
		}
	}
	return ds, want
}

// TestAgainstLme4: on one feature, MMTL's model is lme4's
// y ~ x + (1|task) + (0+x|task). The criterion at lme4's REML variances,
// with the constant lme4 keeps, is lme4's REML deviance, and the search
// finds lme4's variances.
func TestAgainstLme4(t *testing.T) {
	ds, want := readFixture(t)
	pr, err := newProblem(ds.Tasks, ds.Features)
	if err != nil {
		t.Fatal(err)
	}
	s2 := want["sigma2"]
	l0, l1 := math.Log10(s2/want["var_intercept"]), math.Log10(s2/want["var_slope"])
	c, sigma2 := pr.criterion(l0, l1)
	dof := float64(pr.n - pr.p)
	if got := c + dof*(1+math.Log(2*math.Pi)); math.Abs(got-want["reml_deviance"]) > 1e-6 {
		t.Errorf("criterion at lme4's estimate: %.10g, lme4's REML deviance %.10g", got, want["reml_deviance"])
	}
	if math.Abs(sigma2-s2) > 1e-6*s2 {
		t.Errorf("sigma² at lme4's estimate: %.10g, lme4 %.10g", sigma2, s2)
	}
	est, err := Fit(ds.Tasks, ds.Features)
	if err != nil {
		t.Fatal(err)
	}
	p1, p0 := 2*est.Rho, 2*est.Rho*est.Kappa
	// The search stops at a hundredth of a decade.
	if math.Abs(math.Log10(p0)-l0) > 0.02 || math.Abs(math.Log10(p1)-l1) > 0.02 {
		t.Errorf("precisions found (%.4g, %.4g), lme4's (%.4g, %.4g)", p0, p1, math.Pow(10, l0), math.Pow(10, l1))
	}
	// A hundredth of a decade from the optimum moves the deviance by about
	// a thousandth.
	if math.Abs(est.Criterion-c) > 2e-3 {
		t.Errorf("criterion at the estimate %.8g, at lme4's %.8g", est.Criterion, c)
	}
}

// denseCriterion is the criterion written from its definition with the
// full N×N covariance: V = blockdiag(I + Z_t P⁻¹ Z_tᵀ), the fixed design
// X = Z's columns reduced to a basis of their span.
func denseCriterion(tasks []data.Task, d int, p0, p1 float64, basis *mat.Dense) float64 {
	q := d + 1
	var n int
	for _, t := range tasks {
		n += len(t.Y)
	}
	z := mat.NewDense(n, q, nil)
	y := mat.NewVecDense(n, nil)
	v := mat.NewSymDense(n, nil)
	row := 0
	for _, t := range tasks {
		start := row
		for i := range t.Y {
			z.Set(row, 0, 1)
			for j := 0; j < d; j++ {
				z.Set(row, j+1, t.X.At(i, j))
			}
			y.SetVec(row, t.Y[i])
			row++
		}
		for a := start; a < row; a++ {
			for b := start; b <= a; b++ {
				s := z.At(a, 0) * z.At(b, 0) / p0
				for j := 1; j < q; j++ {
					s += z.At(a, j) * z.At(b, j) / p1
				}
				if a == b {
					s++
				}
				v.SetSym(a, b, s)
			}
		}
	}
	var x mat.Dense
	x.Mul(z, basis)
	_, p := basis.Dims()
	var ch mat.Cholesky
	if !ch.Factorize(v) {
		panic("V not positive definite")
	}
	var vix mat.Dense
	if err := ch.SolveTo(&vix, &x); err != nil {
		panic(err)
	}
	var viy mat.VecDense
	if err := ch.SolveVecTo(&viy, y); err != nil {
		panic(err)
	}
	var f mat.Dense
	f.Mul(x.T(), &vix)
	var fy mat.VecDense
	fy.MulVec(x.T(), &viy)
	var beta mat.VecDense
	if err := beta.SolveVec(&f, &fy); err != nil {
		panic(err)
	}
	r := mat.Dot(y, &viy) - mat.Dot(&beta, &fy)
	fs := mat.NewSymDense(p, nil)
	for i := 0; i < p; i++ {
		for j := 0; j <= i; j++ {
			fs.SetSym(i, j, f.At(i, j))
		}
	}
	var fch mat.Cholesky
	fch.Factorize(fs)
	dof := float64(n - p)
	return ch.LogDet() + fch.LogDet() + dof*math.Log(r/dof)
}

// TestCriterionDense checks the moments' criterion against the dense one,
// with several features and a design whose columns are rank deficient (two
// indicators that sum to the intercept's column).
func TestCriterionDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name      string
		d         int
		deficient bool
	}{
		{"three features", 3, false},
		{"indicators beside the intercept", 4, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tasks []data.Task
			for k := 0; k < 7; k++ {
				rows := 2 + rng.IntN(8)
				x := mat.NewDense(rows, tc.d, nil)
				y := make([]float64, rows)
				for i := 0; i < rows; i++ {
					for j := 0; j < tc.d; j++ {
						x.Set(i, j, rng.NormFloat64()*float64(j+1))
					}
					if tc.deficient {
						b := float64(rng.IntN(2))
						x.Set(i, tc.d-2, b)
						x.Set(i, tc.d-1, 1-b)
					}
					y[i] = 10 + x.At(i, 0) + rng.NormFloat64()*2
				}
				tasks = append(tasks, data.Task{Name: strconv.Itoa(k), X: x, Y: y})
			}
			pr, err := newProblem(tasks, tc.d)
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.d + 1 - map[bool]int{true: 1}[tc.deficient]; pr.p != want {
				t.Fatalf("fixed effects' rank %d, want %d", pr.p, want)
			}
			basis := mat.NewDense(tc.d+1, pr.p, pr.basis)
			for _, l := range [][2]float64{{0, 0}, {-2, 1}, {1.5, -1}, {3, 3}} {
				got, _ := pr.criterion(l[0], l[1])
				// The labels' mean taken out moves nothing: the dense
				// criterion reads them as they are.
				want := denseCriterion(tasks, tc.d, math.Pow(10, l[0]), math.Pow(10, l[1]), basis)
				if math.Abs(got-want) > 1e-8*math.Abs(want) {
					t.Errorf("at %v: criterion %.12g, dense %.12g", l, got, want)
				}
			}
		})
	}
}

// TestFitRefuses: sparse features, no rows to spare and a problem over the
// budget are refused.
func TestFitRefuses(t *testing.T) {
	one := data.Task{Name: "a", X: mat.NewDense(2, 1, []float64{1, 2}), Y: []float64{1, 2}}
	for _, tc := range []struct {
		name  string
		tasks []data.Task
		d     int
		want  string
	}{
		{"sparse", []data.Task{{Name: "s", S: &data.CSR{}, Y: []float64{1}}}, 1, "sparse"},
		{"as many fixed effects as rows", []data.Task{one}, 1, "2 rows for 2 fixed effects"},
		{"over the budget", make([]data.Task, 100000), 10, "too many"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Fit(tc.tasks, tc.d)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestRecoversTheVariances: on rows drawn from MMTL's model (synth.Grouped:
// 300 groups, intercepts' SD 1, slopes' SD 0.5 on each of three features
// of unit variance, noise SD 1), the estimate is near the precisions the
// rows were drawn with: p₀ = 1/1², p₁ = 1/0.5², so ρ = 2 and κ = 0.25.
func TestRecoversTheVariances(t *testing.T) {
	r, err := synth.Grouped(synth.GroupedOptions{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	est, err := Fit(r.Train.Tasks, r.Train.Features)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rho %.4g kappa %.4g sigma² %.4g in %d evaluations", est.Rho, est.Kappa, est.Sigma2, est.Evaluations)
	if est.Rho < 1.4 || est.Rho > 2.8 || est.Kappa < 0.15 || est.Kappa > 0.4 || math.Abs(est.Sigma2-1) > 0.15 {
		t.Errorf("rho %.4g, kappa %.4g, sigma² %.4g; drawn with 2, 0.25, 1", est.Rho, est.Kappa, est.Sigma2)
	}
}

// BenchmarkFit times a whole search: synth.Grouped's 300 groups of three
// features, and 150 groups of 29 (T·q³ = 3.6·10⁶, a sixth of Budget);
// and, as NAME-origin, the comparison of two origins (Origin: two
// searches).
func BenchmarkFit(b *testing.B) {
	for _, c := range []struct {
		name          string
		groups, feats int
	}{{"300x3", 300, 3}, {"150x29", 150, 29}} {
		r, err := synth.Grouped(synth.GroupedOptions{Groups: c.groups, Features: c.feats, MinRows: 10, MaxRows: 40, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Fit(r.Train.Tasks, r.Train.Features); err != nil {
					b.Fatal(err)
				}
			}
		})
		means := data.Means(r.Train)
		b.Run(c.name+"-origin", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, _, _, err := Origin(r.Train.Tasks, r.Train.Features, means); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestShared: an estimate at the top of the box shares those deviations.
func TestShared(t *testing.T) {
	for _, tc := range []struct {
		e                  Estimate
		slopes, intercepts bool
	}{
		{Estimate{Rho: 5e7, Kappa: 2e-9}, true, false},
		{Estimate{Rho: 5e7, Kappa: 1}, true, true},
		{Estimate{Rho: 2, Kappa: 2.5e7}, false, true},
		{Estimate{Rho: 2, Kappa: 0.25}, false, false},
	} {
		if s, i := tc.e.Shared(); s != tc.slopes || i != tc.intercepts {
			t.Errorf("%+v: shared slopes %v, intercepts %v; want %v, %v", tc.e, s, i, tc.slopes, tc.intercepts)
		}
	}
}

// TestPooled: the pooled model's criterion (every deviation held at the
// top of the box) is above the estimate's, by far where the rows were
// drawn with task intercepts and slopes (synth.Grouped's defaults: the
// tasks differ), and by less than VaryMargin where they were drawn with
// none: there the likelihood cannot tell the tasks apart.
func TestPooled(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opt    synth.GroupedOptions
		differ bool
	}{
		{"tasks differ", synth.GroupedOptions{Groups: 60, Seed: 3}, true},
		{"one model", synth.GroupedOptions{Groups: 60, SigmaB: 1e-9, SigmaU: []float64{0, 0, 0}, Seed: 3}, false},
	} {
		r, err := synth.Grouped(tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		est, err := Fit(r.Train.Tasks, r.Train.Features)
		if err != nil {
			t.Fatal(err)
		}
		pooled, err := Pooled(r.Train.Tasks, r.Train.Features)
		if err != nil {
			t.Fatal(err)
		}
		gap := pooled - est.Criterion
		t.Logf("%s: pooled %.4f, estimate %.4f (rho %.3g, kappa %.3g): %.3f lower", tc.name, pooled, est.Criterion, est.Rho, est.Kappa, gap)
		if gap < -1e-6 || (gap > VaryMargin) != tc.differ {
			t.Errorf("%s: the estimate is %.4g below the pooled model; want above VaryMargin %v: %v", tc.name, gap, VaryMargin, tc.differ)
		}
	}
}
