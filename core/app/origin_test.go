package app

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/mtl"
)

// offsetCSV writes groups (g,y,x1,x2,kind) whose numeric features lie
// around 4, with a text column of two words; each group's intercept is
// drawn independent of its slopes at x = at (0, or 4: the means).
func offsetCSV(seed uint64, groups int, at float64) string {
	r := rand.New(rand.NewPCG(seed, 5))
	var sb strings.Builder
	sb.WriteString("g,y,x1,x2,kind\n")
	for g := 0; g < groups; g++ {
		b, w1, w2 := r.NormFloat64(), 1+0.5*r.NormFloat64(), -1+0.5*r.NormFloat64()
		for i, n := 0, 8+r.IntN(13); i < n; i++ {
			x1, x2, k := 4+r.NormFloat64(), 4+r.NormFloat64(), r.IntN(2)
			y := b + w1*(x1-at) + w2*(x2-at) + 0.3*float64(k) + 0.5*r.NormFloat64()
			fmt.Fprintf(&sb, "g%d,%.4f,%.4f,%.4f,%s\n", g, y, x1, x2, []string{"a", "b"}[k])
		}
	}
	return sb.String()
}

// TestTuneOrigin: tune moves the features' origin to their means when the
// groups' intercepts were drawn there, and says why; it keeps it where
// they were drawn at x = 0, and where the visitor fixed it. Only the
// numeric features move (a text column's indicators stay 0 or 1), and a
// model saved after the move predicts its own training file as the fit
// did.
func TestTuneOrigin(t *testing.T) {
	for _, c := range []struct {
		name   string
		at     float64
		origin string
		moved  bool
	}{
		{"drawn at the means", 4, "", true},
		{"drawn at zero", 0, "", false},
		{"drawn at the means, origin fixed", 4, OriginZero, false},
	} {
		text := offsetCSV(2, 60, c.at)
		d, err := Load([]byte(text), LoadOptions{Name: "own.csv", TaskColumn: "g", LabelColumn: "y", Origin: c.origin})
		if err != nil {
			t.Fatal(err)
		}
		// A run made before tuning keeps the rows and the encoding it was made with.
		before, err := NewRun(d, TrainOptions{Config: mtl.Config{Model: "mmtl", Rho: 1}, All: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := before.Finish(); err != nil {
			t.Fatal(err)
		}
		res, err := Tune(context.Background(), d, TuneOptions{Config: mtl.Config{Model: "mmtl-joint"}, Seed: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if moved := res.Origin == OriginMeans; moved != c.moved || moved != (d.Origin == OriginMeans) || moved != (d.Encoding.Center != nil) {
			t.Errorf("%s: result's origin %q (%s), data's %q, center %v", c.name, res.Origin, res.OriginNote, d.Origin, d.Encoding.Center)
			continue
		}
		if !c.moved {
			continue
		}
		if !strings.Contains(res.OriginNote, "restricted likelihood is higher (−2 log L −") {
			t.Errorf("%s: the note %q", c.name, res.OriginNote)
		}
		// x1, x2 moved; kind=a, kind=b kept.
		if ctr := d.Encoding.Center; len(ctr) != 4 || ctr[0] == 0 || ctr[1] == 0 || ctr[2] != 0 || ctr[3] != 0 {
			t.Errorf("%s: centres %v, want the two numeric features' means and 0 for the indicators", c.name, ctr)
		}
		r, err := NewRun(d, TrainOptions{Config: res.Config, All: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Finish(); err != nil {
			t.Fatal(err)
		}
		if center := predictsItsFit(t, r, text); center == nil {
			t.Errorf("%s: the model fitted after the move has no means", c.name)
		}
		if center := predictsItsFit(t, before, text); center != nil {
			t.Errorf("%s: the model of a run made before the move took its means %v", c.name, center)
		}
	}
}

// predictsItsFit saves r's model, reads it back and checks that it
// predicts text, the file r trained on every row of, as r's fit does; it
// returns the model's means.
func predictsItsFit(t *testing.T, r *Run, text string) []float64 {
	t.Helper()
	mf, err := r.ModelFile(Trained{File: "own.csv", All: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := mf.JSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadModel(b, "model.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Predict(back, []byte(text), "own.csv")
	if err != nil {
		t.Fatal(err)
	}
	fitted, err := r.Learner.Model().PredictDataset(r.Train)
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	for _, task := range fitted { // the file is written group by group
		for _, v := range task {
			if math.Abs(p.Values[k]-v) > 1e-9*(1+math.Abs(v)) {
				t.Fatalf("row %d predicted %v from the file, %v by the fit", k+1, p.Values[k], v)
			}
			k++
		}
	}
	return back.Encoding.Center
}

// TestOriginMeansNotes: the means asked for on a file without a numeric
// feature move nothing, and the summary says so; with one, it says
// nothing (the menu says what was asked).
func TestOriginMeansNotes(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"categories only", "g,y,kind\na,1,u\na,2,v\nb,3,u\nb,5,v\n", "the features' origin at the numeric features' means moves nothing here: the file has no numeric feature, and a category's indicators stay 0 or 1"},
		{"a number", "g,y,kind,x\na,1,u,1\na,2,v,2\nb,3,u,3\nb,5,v,5\n", ""},
	} {
		d, err := Load([]byte(c.text), LoadOptions{Name: "m.csv", TaskColumn: "g", Origin: OriginMeans})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := d.Summary().OriginNote; got != c.want {
			t.Errorf("%s: OriginNote %q, want %q", c.name, got, c.want)
		}
	}
}
