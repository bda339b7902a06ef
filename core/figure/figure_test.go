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

// TestControlCharacters: names holding characters XML does not allow (a
// control character, U+FFFF, a byte that is not UTF-8) leave every
// drawing well-formed, the control character shown as its picture.
func TestControlCharacters(t *testing.T) {
	for _, name := range []string{"a\x01b", "bell\x07", "\x00nul", "esc\x1b[31m", "odd\uffff", "bad\xffbyte", "tab\tand\nline"} {
		for kind, svg := range map[string]string{
			"line":    LineChart(name, name, name, []Series{{Name: name, X: []float64{1, 2}, Y: []float64{1, 2}}}),
			"scatter": Scatter(name, "x", "y", []Point{{X: 1, Y: 2, Label: name}}, []string{name}),
			"heatmap": Heatmap(name, "iteration", []string{name, "b"}, [][]float64{{0.5, 0.5}}),
			"bars":    Bars(name, "θ", []string{name}, []float64{1}),
		} {
			t.Run(kind+" "+name, func(t *testing.T) { wellFormed(t, svg) })
		}
	}
	if svg := Heatmap("τ", "iteration", []string{"a\x01b"}, [][]float64{{1}}); !strings.Contains(svg, "a\u2401b") {
		t.Errorf("the task a\\x01b is not shown as a␁b")
	}
}

// TestTauScale: the τ heatmap's colour encodes T·τ on a fixed scale:
// uniform τ is the neutral colour whatever T is, runs within 1% of uniform
// look the same, a peaked run does not, and values beyond 1/8 and 8 are
// clipped to the end colours.
func TestTauScale(t *testing.T) {
	neutral := TauScale.Stops[len(TauScale.Stops)/2]
	if got := TauColour(1); got != neutral {
		t.Errorf("T·τ = 1 is %s, want the neutral %s", got, neutral)
	}
	if TauColour(0.99) != TauColour(1.01) && (TauColour(0.99) == TauColour(8) || TauColour(1.01) == TauColour(0.125)) {
		t.Error("T·τ within 1% of 1 reach the ends of the scale")
	}
	dist := func(a, b string) int {
		x, y := hexRGB(a), hexRGB(b)
		d := 0
		for k := range x {
			d = max(d, abs(x[k]-y[k]))
		}
		return d
	}
	if d := dist(TauColour(0.99), TauColour(1.01)); d > 3 {
		t.Errorf("T·τ 0.99 and 1.01 differ by %d in a channel", d)
	}
	if d := dist(TauColour(0.3), TauColour(3)); d < 100 {
		t.Errorf("a peaked run's cells differ by only %d", d)
	}
	if TauColour(20) != TauScale.Stops[len(TauScale.Stops)-1] || TauColour(0.01) != TauScale.Stops[0] {
		t.Error("values beyond the scale are not clipped to its ends")
	}
	// Uniform τ on 19 tasks and on 3: every cell neutral.
	for _, T := range []int{3, 19} {
		col := make([]float64, T)
		rows := make([]string, T)
		for i := range col {
			col[i], rows[i] = 1/float64(T), string(rune('a'+i))
		}
		hm := Heatmap("τ", "iteration", rows, [][]float64{col, col})
		if n := strings.Count(hm, `fill="`+neutral+`"><title>`); n != 2*T {
			t.Errorf("T = %d: %d of %d cells neutral", T, n, 2*T)
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
