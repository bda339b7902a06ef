package mtl

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/data"
)

// TestPredictInSpan: scoring in span coordinates gives the model's scores
// to rounding, for every model on a reduced problem, with the test tasks in
// another order; without a reduction, or for a test set larger than the
// training set, Predict is the model's prediction.
func TestPredictInSpan(t *testing.T) {
	for _, sparse := range []bool{true, false} {
		train := spanData(3, 4, 12, 300, sparse, false)
		// 36 and 20 test rows against 48 training rows (projected), and 60
		// (through the model)
		tests := []*data.Dataset{spanData(11, 4, 9, 300, sparse, false), spanData(12, 4, 5, 300, sparse, false), spanData(13, 4, 15, 300, sparse, false)}
		for _, ts := range tests {
			// the tasks in reverse order: predictions follow the names
			for a, b := 0, len(ts.Tasks)-1; a < b; a, b = a+1, b-1 {
				ts.Tasks[a], ts.Tasks[b] = ts.Tasks[b], ts.Tasks[a]
			}
		}
		for _, allow := range []bool{true, false} {
			p, err := prepare(train, allow)
			if err != nil {
				t.Fatal(err)
			}
			if (p.red != nil) != allow {
				t.Fatalf("reduction %v, want %v", p.red != nil, allow)
			}
			var learners []Learner
			for _, model := range []string{"itl", "stl", "mmtl", "mtfl", "mtaso"} {
				for _, sp := range []bool{false, true} {
					tr, err := NewTrainer(p, Config{Model: model, Loss: Squared, Solver: Exact, SelfPaced: sp, Rho: 0.05, Lambda0: 0.5, H: 2, MaxIter: 4})
					if err != nil {
						t.Fatal(err)
					}
					learners = append(learners, tr)
				}
			}
			j, err := NewJointMMTL(p, Config{Loss: Squared, Rho: 0.05})
			if err != nil {
				t.Fatal(err)
			}
			learners = append(learners, j)
			for li, l := range learners {
				if _, err := Run(context.Background(), l); err != nil {
					t.Fatal(err)
				}
				// the second test set, then the first again: the cache
				// must follow the data set asked for
				for _, ts := range []*data.Dataset{tests[0], tests[1], tests[0], tests[2]} {
					name := fmt.Sprintf("sparse=%v/reduced=%v/learner %d/%d rows", sparse, allow, li, ts.Tasks[0].Rows())
					got, err := Predict(l, ts)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					projected := allow && ts != tests[2]
					if did := p.held != nil && p.held.ds == ts; did != projected {
						t.Fatalf("%s: projected %v, want %v", name, did, projected)
					}
					want, err := l.Model().PredictDataset(ts)
					if err != nil {
						t.Fatal(err)
					}
					for i := range want {
						if len(got[i]) != len(want[i]) {
							t.Fatalf("%s: task %d has %d scores, want %d", name, i, len(got[i]), len(want[i]))
						}
						for r := range want[i] {
							tol := 1e-10 * (1 + math.Abs(want[i][r]))
							if !projected {
								tol = 0 // the same computation
							}
							if d := math.Abs(got[i][r] - want[i][r]); !(d <= tol) {
								t.Fatalf("%s: task %d row %d: %v, model %v", name, i, r, got[i][r], want[i][r])
							}
						}
					}
				}
			}
		}
	}
}

// TestPredictErrors: a test set with other features or an untrained task
// is refused, in span coordinates as in the model.
func TestPredictErrors(t *testing.T) {
	train := spanData(3, 3, 10, 200, true, false)
	p, err := Prepare(train)
	if err != nil {
		t.Fatal(err)
	}
	if p.red == nil {
		t.Fatal("want a reduced problem")
	}
	tr, err := NewTrainer(p, Config{Model: "mmtl", Loss: Squared, Rho: 0.1, MaxIter: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), tr); err != nil {
		t.Fatal(err)
	}
	other := spanData(4, 3, 5, 201, true, false)
	if _, err := Predict(tr, other); err == nil || !strings.Contains(err.Error(), "201 features") {
		t.Errorf("other features: %v", err)
	}
	unknown := spanData(4, 3, 5, 200, true, false)
	unknown.Tasks[2].Name = "elsewhere"
	if _, err := Predict(tr, unknown); err == nil || !strings.Contains(err.Error(), `"elsewhere"`) {
		t.Errorf("unknown task: %v", err)
	}
}
