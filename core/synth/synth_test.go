package synth

import (
	"fmt"
	"math"
	"testing"
)

func TestSyn1(t *testing.T) {
	a, err := Syn1(Syn1Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Syn1(Syn1Options{Seed: 3})
	if len(a.Train.Tasks) != 30 || a.Train.Features != 20 || a.Train.Tasks[0].Rows() != 15 || a.Test.Tasks[0].Rows() != 100 {
		t.Fatalf("sizes: %d tasks, %d features, %d/%d rows", len(a.Train.Tasks), a.Train.Features, a.Train.Tasks[0].Rows(), a.Test.Tasks[0].Rows())
	}
	if err := a.Train.Validate(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(a.Train.Tasks[7].Y) != fmt.Sprint(b.Train.Tasks[7].Y) {
		t.Error("same seed, different data")
	}
	hard := 0
	for _, h := range a.Hard {
		if h {
			hard++
		}
	}
	if hard != 15 {
		t.Errorf("%d hard tasks, want 15", hard)
	}
	// Groups use disjoint feature blocks.
	for t1, w := range a.W {
		for j, v := range w {
			if v != 0 && j/6 != t1/10 {
				t.Fatalf("task %d has weight on feature %d outside its group's block", t1, j)
			}
		}
	}
}

func TestSyn2Noiseless(t *testing.T) {
	r, err := Syn2(Syn2Options{Seed: 1, Noise: 1e-300})
	if err != nil {
		t.Fatal(err)
	}
	for ti, w := range r.W {
		nz := 0
		for _, v := range w {
			if v != 0 {
				nz++
			}
		}
		if nz != ti+1 {
			t.Fatalf("task %d has %d nonzero weights, want %d", ti+1, nz, ti+1)
		}
		task := r.Train.Tasks[ti]
		for i := 0; i < task.Rows(); i++ {
			if f := task.Dot(i, w); math.Abs(f-task.Y[i]) > 1e-12 {
				t.Fatalf("task %d row %d: y = %v, wᵀx = %v", ti+1, i, task.Y[i], f)
			}
		}
	}
}
