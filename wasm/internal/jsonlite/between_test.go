package jsonlite_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/wasm/internal/jsonlite"
)

// TestModelWithReadingRoundTrips: a model that reads a new task's
// averages (app.Between) and scores its new-task predictor
// (app.NewTaskScore), saved as JSON, reads back through the page's
// decoder with both, and predicts a new task as the original does.
func TestModelWithReadingRoundTrips(t *testing.T) {
	var b strings.Builder
	b.WriteString("g,y,x\n")
	for t := range 40 {
		a := float64((t*7)%13-6) / 3
		for k := range 6 {
			x := a + float64(k)/2 - 1.25
			fmt.Fprintf(&b, "t%d,%.4f,%.4f\n", t, x+2*a+float64((t*5)%7-3)/10+float64((k*3+t)%5-2)/20, x)
		}
	}
	d, err := app.Load([]byte(b.String()), app.LoadOptions{Name: "levels.csv", TaskColumn: "g", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := app.NewRun(d, app.TrainOptions{Config: mtl.Config{Model: "mmtl-joint", Rho: 1, Intercept: 1}, All: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	m, err := r.ModelFile(app.Trained{File: "levels.csv", Rows: r.Train.Rows(), All: true})
	if err != nil {
		t.Fatal(err)
	}
	if m.Between == nil || m.NewTaskScore == nil {
		t.Fatalf("the model has no reading (%v) or new-task score (%v)", m.Between, m.NewTaskScore)
	}
	text, err := m.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var back app.ModelFile
	if err := (jsonlite.Reader{MaxBytes: 1 << 20, MaxDepth: 32}).Decode(text, "m.json", &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Check("m.json"); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Between, m.Between) || !reflect.DeepEqual(back.NewTaskScore, m.NewTaskScore) {
		t.Errorf("read back %+v, %+v; saved %+v, %+v", back.Between, back.NewTaskScore, m.Between, m.NewTaskScore)
	}
	rows := []byte("g,x\nnew,2\nnew,4\n")
	p, err := app.Predict(m, rows, "new.csv")
	if err != nil {
		t.Fatal(err)
	}
	q, err := app.Predict(&back, rows, "new.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Values, q.Values) {
		t.Errorf("the model read back predicts %v, the saved one %v", q.Values, p.Values)
	}
}
