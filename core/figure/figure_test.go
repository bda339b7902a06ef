package figure

import (
	"encoding/xml"
	"io"
	"math"
	"strings"
	"testing"
)

// wellFormed parses the SVG as XML.
func wellFormed(t *testing.T, svg string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("not well-formed SVG: %v\n%s", err, svg[:min(400, len(svg))])
		}
	}
}

func TestDrawings(t *testing.T) {
	line := LineChart("a <title> & more", "iteration", "objective", []Series{
		{Name: "λ0 = 1", X: []float64{1, 2, 3}, Y: []float64{3, math.NaN(), 1}},
		{Name: "λ0 = 10", X: []float64{1, 2}, Y: []float64{2, 1.5}},
	})
	wellFormed(t, line)
	if strings.Contains(line, "NaN") {
		t.Error("a NaN reached the drawing")
	}
	if strings.Count(line, "<path") != 2 {
		t.Errorf("want one path per series")
	}
	sc := Scatter("s", "x", "y", []Point{{X: 1, Y: 2, Label: "t1"}, {X: math.Inf(1), Y: 1, Label: "bad"}, {X: 0.5, Y: 0.4, Label: "t3", Group: 1}}, []string{"g0", "g1"})
	wellFormed(t, sc)
	if strings.Count(sc, "<circle") != 2 || strings.Contains(sc, "bad") {
		t.Error("the non-finite point was drawn")
	}
	hm := Heatmap("τ", "iteration", []string{"a", "b"}, [][]float64{{0.5, 0.5}, {0.7, 0.3}})
	wellFormed(t, hm)
	if strings.Count(hm, "<title>") != 4 {
		t.Errorf("want 4 cells with a read-out")
	}
}
