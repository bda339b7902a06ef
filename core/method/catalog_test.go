package method

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/mtl"
	"gonum.org/v1/gonum/mat"
)

// toy returns three small classification tasks.
func toy() *data.Dataset {
	ds := &data.Dataset{Name: "toy", Features: 2, Kind: data.Classification}
	for t := 0; t < 3; t++ {
		x := mat.NewDense(12, 2, nil)
		y := make([]float64, 12)
		for i := 0; i < 12; i++ {
			a, b := float64(i%5)-2, float64((i*7+t)%5)-2
			x.Set(i, 0, a)
			x.Set(i, 1, b)
			y[i] = -1
			if a+0.3*b+0.2*float64(t) > 0 {
				y[i] = 1
			}
		}
		ds.Tasks = append(ds.Tasks, data.Task{Name: fmt.Sprint("t", t), X: x, Y: y})
	}
	return ds
}

// TestEveryMethodTrains: every entry of the catalogue builds a learner that
// runs to the end, with and without self-pacing where it has it, and the
// refusals name what is wrong.
func TestEveryMethodTrains(t *testing.T) {
	p, err := mtl.Prepare(toy())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range All() {
		for _, sp := range []bool{false, true} {
			if sp && !m.SelfPaced {
				continue
			}
			cfg := mtl.Config{Model: m.Key, SelfPaced: sp, MaxIter: 3}
			l, err := New(p, cfg)
			if err != nil {
				t.Fatalf("%s sp=%v: %v", m.Key, sp, err)
			}
			last, err := mtl.Run(context.Background(), l)
			if err != nil || !last.Done || last.Stop == mtl.NotStopped {
				t.Fatalf("%s sp=%v: %+v, %v", m.Key, sp, last, err)
			}
			if (m.Kind == Sequential) != (last.Seq != nil) {
				t.Errorf("%s: kind %s, snapshot Seq %v", m.Key, m.Kind, last.Seq)
			}
			if got := len(l.Model().W); got != 3 {
				t.Errorf("%s: %d predictors", m.Key, got)
			}
		}
	}
	for _, tc := range []struct {
		cfg  mtl.Config
		want string
	}{
		{mtl.Config{Model: "nope"}, `unknown model "nope"`},
		{mtl.Config{Model: "itl", SelfPaced: true}, "itl has no self-paced version"},
		{mtl.Config{Model: "mmtl-joint", SelfPaced: true}, "mmtl-joint has no self-paced version"},
		{mtl.Config{Model: "mtfl", Select: "infomax"}, "mtfl has no task-selection rule"},
		{mtl.Config{Model: "ella", Select: "best"}, `unknown selection rule "best" for ella`},
	} {
		if _, err := New(p, tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.cfg, err, tc.want)
		}
	}
}

func TestComparisonsAndTables(t *testing.T) {
	for _, tc := range []struct {
		cfg  mtl.Config
		want string
	}{
		{mtl.Config{Model: "mtfl", SelfPaced: true}, "baseline:MTFL itl:ITL"},
		{mtl.Config{Model: "mtfl"}, "itl:ITL"},
		{mtl.Config{Model: "itl"}, ""},
		{mtl.Config{Model: "ella", Select: "infomax"}, "baseline:spMTFL itl:ITL"},
		{mtl.Config{Model: "mmtl-joint"}, "itl:ITL"},
	} {
		cs, err := Comparisons(tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range cs {
			got = append(got, c.Role+":"+c.Label)
			if _, err := Lookup(c.Config.Model); err != nil {
				t.Error(err)
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%+v: comparisons %q, want %q", tc.cfg, got, tc.want)
		}
	}
	names := func(rows []Row) string {
		var s []string
		for _, r := range rows {
			s = append(s, r.Name+"/"+r.Baseline)
		}
		return strings.Join(s, " ")
	}
	if got := names(PaperTable(mtl.Paper)); got != "STL/ ITL/ MMTL/ spMMTL/MMTL MTFL/ spMTFL/MTFL MTASO/ spMTASO/MTASO" {
		t.Errorf("paper table %s", got)
	}
	if got := names(PaperTable(mtl.Reference)); got != "STL/ ITL/ MMTL/ MMTL-alt/ spMMTL/MMTL-alt MTFL/ spMTFL/MTFL MTASO/ spMTASO/MTASO" {
		t.Errorf("reference table %s", got)
	}
	if PaperTable(mtl.Reference)[2].Config.Model != "mmtl-joint" {
		t.Error("the reference table's MMTL row is not the joint model")
	}
	if got := names(SequentialTable()); got != "ITL/ CL/ ELLA-random/ ELLA-infomax/ ELLA-diversity/ ELLA-diversity++/ MTFL/ spMTFL/MTFL" {
		t.Errorf("sequential table %s", got)
	}
}

// Example trains a self-paced MTFL through the catalogue.
func Example() {
	p, _ := mtl.Prepare(toy())
	l, err := New(p, mtl.Config{Model: "mtfl", SelfPaced: true, MaxIter: 5})
	if err != nil {
		fmt.Println(err)
		return
	}
	last, _ := mtl.Run(context.Background(), l)
	m, _ := Lookup("mtfl")
	fmt.Println(m.Name(mtl.Config{SelfPaced: true}), len(l.Model().W), "tasks,", last.Iter, "iterations")
	// Output: spMTFL 3 tasks, 5 iterations
}

// TestCatalogFacts: what an entry says of its method holds. Its Theta is
// the kind of shared knowledge its learner saves; TunedAs names a simpler
// entry without self-pacing; BySimplicity lists every ranked method,
// simplest first; MTASO is idle where its subspace holds every feature.
func TestCatalogFacts(t *testing.T) {
	p, err := mtl.Prepare(toy())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range All() {
		l, err := New(p, mtl.Config{Model: m.Key, MaxIter: 2})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := mtl.Run(context.Background(), l); err != nil {
			t.Fatal(err)
		}
		saved := ""
		if h, ok := l.(interface{ Theta() *mtl.Theta }); ok && h.Theta() != nil {
			saved = h.Theta().Kind
		}
		if saved != m.Theta {
			t.Errorf("%s: the catalogue says its model saves Θ %q, its learner saves %q", m.Key, m.Theta, saved)
		}
		if m.TunedAs != "" {
			as, err := Lookup(m.TunedAs)
			if err != nil || as.SelfPaced || as.Simplicity == 0 || as.Simplicity >= m.Simplicity {
				t.Errorf("%s is tuned as %q (%+v, %v), want a simpler candidate without self-pacing", m.Key, m.TunedAs, as, err)
			}
		}
	}
	ranked := BySimplicity()
	for i, m := range ranked {
		if m.Simplicity <= 0 || (i > 0 && m.Simplicity <= ranked[i-1].Simplicity) {
			t.Errorf("BySimplicity: %s (rank %d) at place %d is not simpler than the ones after it, nor a candidate", m.Key, m.Simplicity, i)
		}
	}
	n := 0
	for _, m := range All() {
		if m.Simplicity > 0 {
			n++
		}
	}
	if n != len(ranked) {
		t.Errorf("BySimplicity lists %d methods, the catalogue ranks %d", len(ranked), n)
	}
	mtaso, _ := Lookup("mtaso")
	for _, tc := range []struct {
		h, d int
		idle bool
	}{{5, 3, true}, {5, 5, true}, {5, 6, false}, {5, 1, true}} {
		if why := mtaso.Idle(mtl.Config{H: tc.h}, tc.d); (why != "") != tc.idle {
			t.Errorf("MTASO with h %d on %d features: idle %q, want idle %v", tc.h, tc.d, why, tc.idle)
		}
	}
	// One feature is "the one feature", not "all 1 features".
	if why := mtaso.Idle(mtl.Config{H: 5}, 1); !strings.Contains(why, "would hold the one feature") {
		t.Errorf("MTASO on one feature: %q", why)
	}
}

// TestNewTaskLabels: the models a search for new tasks chooses among are
// the catalogue's tunable parallel methods with a new-task predictor, each
// label once, simplest first, and no other.
func TestNewTaskLabels(t *testing.T) {
	got := NewTaskLabels()
	if want := []string{"STL", "MMTL", "MTFL-mean"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("NewTaskLabels() = %q, want %q (the catalogue's NewTask methods)", got, want)
	}
	for _, m := range All() {
		listed := contains(got, m.Label)
		if m.NewTask && m.Kind == Parallel && !m.Fixed && m.Simplicity > 0 && !listed {
			t.Errorf("%s predicts a new task and is a candidate, but NewTaskLabels leaves it out", m.Key)
		}
		if listed && !m.NewTask {
			t.Errorf("%s is named by NewTaskLabels (%q) but predicts no new task", m.Key, got)
		}
	}
}
