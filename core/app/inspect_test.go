package app

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/mtl"
)

// TestInspectTextColumnNetOfIntercept: a text column's indicators sum to 1
// in every row, so moving a part common to all of its values' weights into
// the intercepts changes no prediction. The chart of MMTL's shared weights
// shows the same values for every such model (it used to show whatever part
// the solver left there: on a real file, two values of one factor 0.02
// apart as the chart's two largest weights), with the values' differences
// kept: here the kinds' effects (0, 0.8, −0.5 in y's units) and a repeat
// flag with none.
func TestInspectTextColumnNetOfIntercept(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 2))
	var sb strings.Builder
	sb.WriteString("g,y,x,kind,rep\n")
	effect := map[string]float64{"a": 0, "b": 0.8, "c": -0.5}
	for g := 0; g < 30; g++ {
		b, w := r.NormFloat64(), 1+0.5*r.NormFloat64()
		for i := 0; i < 8+r.IntN(6); i++ {
			x, kind, rep := r.NormFloat64(), []string{"a", "b", "c"}[r.IntN(3)], []string{"yes", "no"}[r.IntN(2)]
			fmt.Fprintf(&sb, "g%d,%.4f,%.4f,%s,%s\n", g, 5+b+w*x+effect[kind]+0.3*r.NormFloat64(), x, kind, rep)
		}
	}
	text := sb.String()
	d, err := Load([]byte(text), LoadOptions{Name: "own.csv", TaskColumn: "g", LabelColumn: "y", Origin: OriginMeans})
	if err != nil {
		t.Fatal(err)
	}
	run, err := NewRun(d, TrainOptions{Config: mtl.Config{Model: "mmtl-joint", Rho: 1, Intercept: 1}, All: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run.Finish(); err != nil {
		t.Fatal(err)
	}
	mf, err := run.ModelFile(Trained{File: "own.csv", All: true})
	if err != nil {
		t.Fatal(err)
	}
	enc := mf.Encoding
	at := enc.Starts() // x, the 3 kinds, the 2 repeat flags (each in order of appearance)
	if len(enc.Columns) != 3 || at[3] != 6 {
		t.Fatalf("the encoding %+v, want x and two text columns of 3 and 2 values", enc.Columns)
	}
	mean := append([]float64(nil), mf.Theta.Mean...)
	ins := Inspect(mf)
	if !slices.Equal(mf.Theta.Mean, mean) {
		t.Fatal("Inspect changed the model's shared weights")
	}
	if len(ins.Charts) == 0 {
		t.Fatalf("the inspection has no chart: %q", ins.Explain)
	}
	if !strings.Contains(ins.Explain, "a part common to all of them is the intercept's") {
		t.Errorf("the inspection does not say how a text column's values are shown: %q", ins.Explain)
	}
	want := ins.Charts[0].Values

	for _, shift := range []float64{0.7, -3} {
		// The same fit with a part moved from the intercepts into the kinds'
		// weights: α per unit of each indicator is α·Scale per unit of the
		// feature the model sees (the indicators' origin is 0).
		moved := *mf
		th := *mf.Theta
		moved.Theta = &th
		th.Mean = append([]float64(nil), mf.Theta.Mean...)
		moved.W, moved.B = make([][]float64, len(mf.W)), make([]float64, len(mf.B))
		for k := range mf.W {
			moved.W[k] = append([]float64(nil), mf.W[k]...)
			moved.B[k] = mf.B[k] - shift
		}
		for j := at[1]; j < at[2]; j++ {
			th.Mean[j] += shift * enc.Scale[j]
			for k := range moved.W {
				moved.W[k][j] += shift * enc.Scale[j]
			}
		}
		p0, err := Predict(mf, []byte(text), "own.csv")
		if err != nil {
			t.Fatal(err)
		}
		p1, err := Predict(&moved, []byte(text), "own.csv")
		if err != nil {
			t.Fatal(err)
		}
		for i := range p0.Values {
			if math.Abs(p0.Values[i]-p1.Values[i]) > 1e-9*(1+math.Abs(p0.Values[i])) {
				t.Fatalf("shift %g: row %d predicted %v, not %v: not the same fit", shift, i+1, p1.Values[i], p0.Values[i])
			}
		}
		got := Inspect(&moved).Charts[0].Values
		for j := range want {
			if math.Abs(got[j]-want[j]) > 1e-9*(1+math.Abs(want[j])) {
				t.Errorf("shift %g: feature %s shown as %.6g, the fit before the shift as %.6g", shift, ins.Charts[0].Labels[j], got[j], want[j])
			}
		}
	}

	// Each text column's values, weighted by their sd, sum to 0; the
	// differences between the kinds are their effects (per unit: the chart's
	// value over the sd), up to the noise; the repeat flag's values are near 0.
	labels := ins.Charts[0].Labels
	perUnit := func(name string) float64 {
		for j, l := range labels {
			if l == name {
				return want[j] / enc.Scale[j]
			}
		}
		t.Fatalf("no feature %s among %q", name, labels)
		return 0
	}
	for k := 1; k < 3; k++ {
		var s float64
		for j := at[k]; j < at[k+1]; j++ {
			s += want[j] * enc.Scale[j]
		}
		if math.Abs(s) > 1e-9 {
			t.Errorf("column %s: its values' weights times their sd sum to %g, want 0", enc.Columns[k].Name, s)
		}
	}
	if bMinusA, cMinusA := perUnit("kind=b")-perUnit("kind=a"), perUnit("kind=c")-perUnit("kind=a"); math.Abs(bMinusA-0.8) > 0.15 || math.Abs(cMinusA+0.5) > 0.15 {
		t.Errorf("kind b − a %.3f, c − a %.3f per unit, want about 0.8 and −0.5", bMinusA, cMinusA)
	}
	if v := math.Abs(want[4]) + math.Abs(want[5]); v > 0.1 {
		t.Errorf("the repeat flag's values are shown at %.3g and %.3g, want about 0", want[4], want[5])
	}

	// A model without text columns shows its weights as they are.
	if netOfLevels([]float64{1, 2}, &data.Encoding{Columns: []data.EncodedColumn{{Name: "x"}, {Name: "z"}}, Features: 2}) {
		t.Error("numeric columns only: the weights were changed")
	}
}
