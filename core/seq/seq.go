package seq

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/spmtl/spmtl/core/mtl"
)

// Snapshot is the state after one step of a sequential learner.
type Snapshot struct {
	// Step is 1-based; step k learned Order[k-1].
	Step int `json:"step"`
	// Task is the index of the task learned at this step.
	Task int `json:"task"`
	// Order lists the tasks learned so far, in order.
	Order []int `json:"order"`
	// Scores is every task's selection score at this step, NaN for tasks
	// already learned: CL's regularized objective (lowest learned), ELLA's
	// log-determinant (InfoMax) or residual (θ−Ls)ᵀD(θ−Ls) (Diversity and
	// Diversity++; highest learned or most likely), 0 for ELLA-random. In
	// JSON a NaN score is written as null.
	Scores []float64 `json:"scores"`
	// Done is true once every task is learned.
	Done bool `json:"done"`
	// L is ELLA's basis after this step, row-major: L[r][j] is row r of
	// column j, d+1 rows of k entries, the last row being the bias. Nil for
	// CL.
	L [][]float64 `json:"L,omitempty"`
	// S holds ELLA's code s_t of every task after this step (k entries
	// each): frozen for learned tasks, the latest encoding for the others.
	// Nil for CL.
	S [][]float64 `json:"S,omitempty"`
}

// MarshalJSON writes the snapshot with the non-finite scores (the NaN of
// learned tasks) as null, since JSON has no NaN.
func (s Snapshot) MarshalJSON() ([]byte, error) {
	type plain Snapshot // without the methods
	out := struct {
		plain
		Scores []*float64 `json:"scores"`
	}{plain: plain(s)}
	if s.Scores != nil {
		out.Scores = make([]*float64, len(s.Scores))
		for t := range s.Scores {
			if v := s.Scores[t]; !math.IsNaN(v) && !math.IsInf(v, 0) {
				out.Scores[t] = &v
			}
		}
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes, a null score as NaN.
func (s *Snapshot) UnmarshalJSON(b []byte) error {
	type plain Snapshot
	var in struct {
		plain
		Scores []*float64 `json:"scores"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	*s = Snapshot(in.plain)
	s.Scores = nil
	if in.Scores != nil {
		s.Scores = make([]float64, len(in.Scores))
		for t, v := range in.Scores {
			s.Scores[t] = math.NaN()
			if v != nil {
				s.Scores[t] = *v
			}
		}
	}
	return nil
}

// Learner is a sequential multitask learner.
type Learner interface {
	// Step learns one more task.
	Step() (Snapshot, error)
	// Done reports whether every task is learned.
	Done() bool
	// Model returns the current predictors of every task.
	Model() *mtl.Model
	// History returns the snapshots so far.
	History() []Snapshot
}

// Run steps l until every task is learned or ctx is cancelled, and returns
// the last snapshot (that of the final step when l was already done).
func Run(ctx context.Context, l Learner) (last Snapshot, err error) {
	defer guard(&err, "run")
	if l == nil {
		return last, fmt.Errorf("run: nil learner")
	}
	if h := l.History(); len(h) > 0 {
		last = h[len(h)-1]
	}
	for !l.Done() {
		if err := ctx.Err(); err != nil {
			return last, fmt.Errorf("run: stopped after step %d: %w", last.Step, err)
		}
		s, err := l.Step()
		if err != nil {
			return last, fmt.Errorf("run: %w", err)
		}
		last = s
	}
	return last, nil
}

// guard turns a panic inside a step into an error.
func guard(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: internal error: %v", what, r)
	}
}

func remaining(learned []bool) []int {
	var u []int
	for t, l := range learned {
		if !l {
			u = append(u, t)
		}
	}
	return u
}
