package mtl

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// TestRunRecorders: Run gives every step's snapshot to its recorders, in
// order, after the step; a recorder's error stops the run at that step and
// is returned; a finished learner is not stepped again. The snapshots a
// recorder sees are the learner's history, and a run with recorders takes
// the same steps, to the same numbers, as one without.
func TestRunRecorders(t *testing.T) {
	ds, _ := randDataset(4, 3, 20, 4, 2, false, 0.3)
	cfg := Config{Model: "mtfl", SelfPaced: true, Lambda0: 1, Rho: 0.1, MaxIter: 6, ObjTol: 1e-300, TauTol: 1e-300}
	plain := mustTrainer(t, ds, cfg)
	if _, err := Run(context.Background(), plain); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("enough")
	for _, tc := range []struct {
		name    string
		stopAt  int // the step whose recorder call fails; 0: none
		wantErr error
		steps   int
	}{
		{"to the end", 0, nil, 6},
		{"stopped at step 2", 2, stop, 2},
		{"stopped at the last step", 6, stop, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := mustTrainer(t, ds, cfg)
			var seen []Snapshot
			var order []string
			first := func(l Learner, s Snapshot) error {
				order = append(order, "first")
				if got := l.History(); len(got) == 0 || got[len(got)-1].Iter != s.Iter {
					t.Errorf("step %d: the recorder was called before the step was in the history", s.Iter)
				}
				seen = append(seen, s)
				if s.Iter == tc.stopAt {
					return stop
				}
				return nil
			}
			second := func(Learner, Snapshot) error { order = append(order, "second"); return nil }
			last, err := Run(context.Background(), tr, first, second)
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			if len(tr.History()) != tc.steps || len(seen) != tc.steps {
				t.Fatalf("%d steps taken, %d recorded, want %d", len(tr.History()), len(seen), tc.steps)
			}
			if !reflect.DeepEqual(stripNaN(seen), stripNaN(tr.History())) {
				t.Error("the recorded snapshots are not the learner's history")
			}
			calls := 2 * tc.steps
			if tc.stopAt > 0 {
				calls-- // the second recorder is not called at the step the first stopped
			}
			if len(order) != calls || order[0] != "first" || (len(order) > 1 && order[1] != "second") {
				t.Errorf("recorder calls %v, want first then second at each step (%d calls)", order, calls)
			}
			if tc.wantErr == nil {
				if last.Iter != tc.steps || !last.Done {
					t.Errorf("last snapshot at step %d (done %v), want %d and done", last.Iter, last.Done, tc.steps)
				}
				if h, p := tr.History(), plain.History(); !reflect.DeepEqual(stripNaN(h), stripNaN(p)) {
					t.Error("the run with recorders took other steps than the run without")
				}
				again, err := Run(context.Background(), tr, func(Learner, Snapshot) error { t.Error("a finished learner was stepped"); return nil })
				if err != nil || again.Iter != last.Iter {
					t.Errorf("Run on a finished learner: %v, step %d, want step %d", err, again.Iter, last.Iter)
				}
			}
		})
	}
}

// stripNaN returns the snapshots with the NaN changes of the first
// iteration zeroed, so that reflect.DeepEqual can compare them.
func stripNaN(h []Snapshot) []Snapshot {
	out := append([]Snapshot(nil), h...)
	for i := range out {
		if out[i].TauChange != out[i].TauChange {
			out[i].TauChange = 0
		}
		if out[i].ObjChange != out[i].ObjChange {
			out[i].ObjChange = 0
		}
	}
	return out
}

// TestStepRecorders: Step takes one step and gives it to the recorders; a
// failing recorder's error is returned with the step's snapshot.
func TestStepRecorders(t *testing.T) {
	ds, _ := randDataset(4, 3, 20, 4, 2, false, 0.3)
	tr := mustTrainer(t, ds, Config{Model: "mmtl", Rho: 0.1, MaxIter: 4})
	refuse := errors.New("refused")
	for k, tc := range []struct {
		rec     Recorder
		wantErr error
	}{
		{nil, nil},
		{func(Learner, Snapshot) error { return nil }, nil},
		{func(Learner, Snapshot) error { return refuse }, refuse},
	} {
		var recs []Recorder
		if tc.rec != nil {
			recs = append(recs, tc.rec)
		}
		s, err := Step(tr, recs...)
		if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
			t.Errorf("step %d: error %v, want %v", k+1, err, tc.wantErr)
		}
		if s.Iter != k+1 || len(tr.History()) != k+1 {
			t.Errorf("step %d: snapshot of step %d, history of %d", k+1, s.Iter, len(tr.History()))
		}
	}
}
