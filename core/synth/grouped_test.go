package synth

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"gonum.org/v1/gonum/mat"
)

func TestGroupedShape(t *testing.T) {
	for _, tc := range []struct {
		name               string
		opt                GroupedOptions
		groups, lo, hi, d  int
		kind               data.Kind
		slopesZero, binary bool
	}{
		{"defaults", GroupedOptions{Seed: 1}, 300, 2, 20, 3, data.Regression, false, false},
		{"many small groups", GroupedOptions{Seed: 2, Groups: 2410, MinRows: 1, MaxRows: 20}, 2410, 1, 20, 3, data.Regression, false, false},
		{"intercept only", GroupedOptions{Seed: 3, Groups: 50, Features: 2, SigmaU: []float64{0, 0}}, 50, 2, 20, 2, data.Regression, true, false},
		{"fixed size", GroupedOptions{Seed: 4, Groups: 7, MinRows: 9, MaxRows: 9, Features: 5}, 7, 9, 9, 5, data.Regression, false, false},
		{"binary", GroupedOptions{Seed: 5, Binary: true}, 300, 2, 20, 3, data.Classification, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Grouped(tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Train.Tasks) != tc.groups || len(r.Test.Tasks) != tc.groups || len(r.B) != tc.groups || len(r.U) != tc.groups {
				t.Fatalf("%d/%d tasks, %d/%d effects, want %d groups", len(r.Train.Tasks), len(r.Test.Tasks), len(r.B), len(r.U), tc.groups)
			}
			if r.Train.Features != tc.d || len(r.Beta) != tc.d || len(r.SigmaU) != tc.d {
				t.Fatalf("%d features, %d slopes, %d slope deviations; want %d", r.Train.Features, len(r.Beta), len(r.SigmaU), tc.d)
			}
			if r.Train.Kind != tc.kind || r.Test.Kind != tc.kind || r.Binary != tc.binary {
				t.Fatalf("kind %v/%v, binary %v", r.Train.Kind, r.Test.Kind, r.Binary)
			}
			if err := r.Train.Validate(); err != nil {
				t.Fatal(err)
			}
			seenLo, seenHi := false, false
			for j := range r.Train.Tasks {
				tr, te := r.Train.Tasks[j], r.Test.Tasks[j]
				if tr.Name != te.Name || tr.Name != fmt.Sprintf("g%0*d", max(3, len(fmt.Sprint(tc.groups))), j+1) {
					t.Fatalf("group %d named %q and %q", j, tr.Name, te.Name)
				}
				n := tr.Rows() + te.Rows()
				if n < tc.lo || n > tc.hi {
					t.Fatalf("group %s has %d rows, want %d to %d", tr.Name, n, tc.lo, tc.hi)
				}
				seenLo, seenHi = seenLo || n == tc.lo, seenHi || n == tc.hi
				if te.Rows() != n/4 {
					t.Fatalf("group %s: %d of %d rows held out, want every fourth (%d)", tr.Name, te.Rows(), n, n/4)
				}
				if len(r.TrainEta[j]) != tr.Rows() || len(r.TestEta[j]) != te.Rows() {
					t.Fatalf("group %s: η has %d/%d rows for %d/%d", tr.Name, len(r.TrainEta[j]), len(r.TestEta[j]), tr.Rows(), te.Rows())
				}
				for k, u := range r.U[j] {
					if (u == 0) != tc.slopesZero {
						t.Fatalf("group %s: slope %d is %g", tr.Name, k, u)
					}
				}
			}
			if tc.groups > 100 && !(seenLo && seenHi) {
				t.Errorf("no group of %d rows or none of %d", tc.lo, tc.hi)
			}
		})
	}
}

// TestGroupedModel checks that y is the model's: the noise is small, so y
// equals β0 + xᵀβ + b_j + xᵀu_j, and every fourth row is held out.
func TestGroupedModel(t *testing.T) {
	r, err := Grouped(GroupedOptions{Seed: 9, Groups: 20, Noise: 1e-300, Intercept: -1, Beta: []float64{3, 0.5}, Features: 2, SigmaU: []float64{0.2, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Intercept != -1 || r.Beta[0] != 3 || r.Beta[1] != 0.5 {
		t.Fatalf("fixed effects %v %v", r.Intercept, r.Beta)
	}
	for j := range r.Train.Tasks {
		if r.U[j][1] != 0 || r.U[j][0] == 0 {
			t.Fatalf("group %d: slopes %v", j, r.U[j])
		}
		for _, side := range []struct {
			ds  *data.Dataset
			eta [][]float64
		}{{r.Train, r.TrainEta}, {r.Test, r.TestEta}} {
			task := &side.ds.Tasks[j]
			for i := 0; i < task.Rows(); i++ {
				x := task.X.RawRowView(i)
				want := r.Intercept + r.B[j] + x[0]*(r.Beta[0]+r.U[j][0]) + x[1]*(r.Beta[1]+r.U[j][1])
				if math.Abs(side.eta[j][i]-want) > 1e-12 || math.Abs(task.Y[i]-want) > 1e-12 {
					t.Fatalf("group %d row %d: y %v, η %v, want %v", j, i, task.Y[i], side.eta[j][i], want)
				}
			}
		}
	}
}

// TestHoldOut: rows 4, 8, ... of a group (index%4 == 3) are held out, in
// order, and the others train.
func TestHoldOut(t *testing.T) {
	for _, n := range []int{1, 3, 4, 7, 8, 20} {
		x := make([]float64, 2*n)
		y := make([]float64, n)
		for i := range y {
			x[2*i], x[2*i+1], y[i] = float64(i), -float64(i), float64(i)
		}
		tr, te := holdOut("g", x, y, y, 2)
		var wantTr, wantTe []float64
		for i := range y {
			if (i+1)%4 == 0 {
				wantTe = append(wantTe, float64(i))
			} else {
				wantTr = append(wantTr, float64(i))
			}
		}
		for _, c := range []struct {
			p    part
			want []float64
		}{{tr, wantTr}, {te, wantTe}} {
			if fmt.Sprint(c.p.task.Y) != fmt.Sprint(c.want) && len(c.want) > 0 || fmt.Sprint(c.p.eta) != fmt.Sprint(c.p.task.Y) {
				t.Fatalf("n=%d: rows %v, want %v", n, c.p.task.Y, c.want)
			}
			for r, i := range c.want {
				if row := c.p.task.X.RawRowView(r); row[0] != i || row[1] != -i {
					t.Fatalf("n=%d: row %d is %v, want row %v", n, r, row, i)
				}
			}
			if len(c.want) == 0 && (c.p.task.X != nil || len(c.p.task.Y) != 0) {
				t.Fatalf("n=%d: empty side has rows", n)
			}
		}
	}
}

// TestGroupedSeed: a seed gives the same data, here and under js/wasm (the
// hashes of the CSV text are fixed), and another seed other data.
func TestGroupedSeed(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  GroupedOptions
		hash string
	}{
		{"regression", GroupedOptions{Seed: 1, Groups: 40}, "6fefc44ac0a5b1af"},
		{"binary", GroupedOptions{Seed: 1, Groups: 40, Binary: true}, "5a048b5768cf6959"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := func(opt GroupedOptions) string {
				r, err := Grouped(opt)
				if err != nil {
					t.Fatal(err)
				}
				var tr, te bytes.Buffer
				if err := r.WriteCSV(&tr, &te); err != nil {
					t.Fatal(err)
				}
				return tr.String() + te.String()
			}
			a, b := text(tc.opt), text(tc.opt)
			if a != b {
				t.Fatal("same seed, different data")
			}
			h := fnv.New64a()
			h.Write([]byte(a))
			if got := fmt.Sprintf("%x", h.Sum64()); got != tc.hash {
				t.Errorf("hash of the data %s, want %s: the draws changed", got, tc.hash)
			}
			other := tc.opt
			other.Seed++
			if text(other) == a {
				t.Error("another seed, same data")
			}
		})
	}
}

func TestGroupedBinary(t *testing.T) {
	r, err := Grouped(GroupedOptions{Seed: 2, Groups: 2000, Binary: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Train.Positive != "1" || r.Train.Negative != "0" || r.Noise != 0 {
		t.Fatalf("classes %q/%q, noise %g", r.Train.Positive, r.Train.Negative, r.Noise)
	}
	// The share of positives matches the mean true probability.
	var pos, prob, n float64
	for j := range r.Train.Tasks {
		for i, y := range r.Train.Tasks[j].Y {
			if y > 0 {
				pos++
			}
			prob += logistic(r.TrainEta[j][i])
			n++
		}
	}
	if se := math.Sqrt(prob / n * (1 - prob/n) / n); math.Abs(pos-prob)/n > 4*se {
		t.Errorf("%.4f positive, mean probability %.4f (se %.4f)", pos/n, prob/n, se)
	}
}

func TestGroupedErrors(t *testing.T) {
	for _, tc := range []struct {
		opt  GroupedOptions
		want string
	}{
		{GroupedOptions{MinRows: 10, MaxRows: 5}, "exceed"},
		{GroupedOptions{Groups: -1}, "positive"},
		{GroupedOptions{Beta: []float64{1}}, "1 fixed slopes for 3 features"},
		{GroupedOptions{SigmaU: []float64{1, 1}}, "2 random-slope deviations"},
		{GroupedOptions{SigmaU: []float64{1, -1, 1}}, "feature 2"},
		{GroupedOptions{Noise: -1}, "negative"},
	} {
		_, err := Grouped(tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one containing %q", tc.opt, err, tc.want)
		}
	}
}

// TestWriteCSVRoundTrip: data.ReadCSV reads back exactly what WriteCSV
// wrote.
func TestWriteCSVRoundTrip(t *testing.T) {
	for _, binary := range []bool{false, true} {
		t.Run(fmt.Sprint("binary=", binary), func(t *testing.T) {
			r, err := Grouped(GroupedOptions{Seed: 6, Groups: 12, Binary: binary})
			if err != nil {
				t.Fatal(err)
			}
			var tr, te bytes.Buffer
			if err := r.WriteCSV(&tr, &te); err != nil {
				t.Fatal(err)
			}
			if h, _, _ := strings.Cut(tr.String(), "\n"); h != "group,y,x1,x2,x3" {
				t.Fatalf("header %q", h)
			}
			for _, c := range []struct {
				text string
				want *data.Dataset
			}{{tr.String(), r.Train}, {te.String(), r.Test}} {
				got, err := data.ReadCSV(strings.NewReader(c.text), "g.csv", data.CSVOptions{TaskColumn: "group"})
				if err != nil {
					t.Fatal(err)
				}
				if got.Kind != c.want.Kind || (binary && got.Positive != "1") {
					t.Fatalf("kind %v, positive %q", got.Kind, got.Positive)
				}
				k := 0
				for _, w := range c.want.Tasks {
					if w.Rows() == 0 {
						continue
					}
					g := got.Tasks[k]
					k++
					if g.Name != w.Name || fmt.Sprint(g.Y) != fmt.Sprint(w.Y) || !mat.Equal(g.X, w.X) {
						t.Fatalf("task %s read back as %s, differently", w.Name, g.Name)
					}
				}
				if k != len(got.Tasks) {
					t.Fatalf("%d tasks read, %d written", len(got.Tasks), k)
				}
			}
		})
	}
}
