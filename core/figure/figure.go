// Package figure draws the paper's figures as standalone SVG: line charts
// (convergence against λ0 and against c), per-task scatters with the y = x
// line, and τ heatmaps. The drawings are plain SVG text, so the figures of a
// paper can be rebuilt by a script with no plotting dependency.
package figure

import (
	"fmt"
	"html"
	"math"
	"strings"
)

const (
	width, height = 640.0, 420.0
	left, right   = 70.0, 150.0
	top, bottom   = 40.0, 50.0
)

// Palette colours the series and groups in order.
var Palette = []string{"#2a6df4", "#d0562b", "#2a9d5c", "#8e44ad", "#c49a00", "#16a3b5", "#7f8c8d", "#e84393"}

// Series is one line of a line chart.
type Series struct {
	Name string
	X, Y []float64
}

// Point is one point of a scatter; Group picks its colour (Palette) and
// legend entry.
type Point struct {
	X, Y  float64
	Label string
	Group int
}

type scale struct{ lo, hi, a, b float64 }

func newScale(vals []float64, a, b float64) scale {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 0, 1
	}
	if lo == hi {
		d := math.Max(math.Abs(lo)*0.05, 0.5)
		lo, hi = lo-d, hi+d
	}
	pad := (hi - lo) * 0.05
	return scale{lo - pad, hi + pad, a, b}
}

func (s scale) at(v float64) float64 { return s.a + (v-s.lo)/(s.hi-s.lo)*(s.b-s.a) }

func num(v float64) string {
	switch a := math.Abs(v); {
	case v == 0:
		return "0"
	case a >= 1e4 || a < 1e-3:
		return fmt.Sprintf("%.2g", v)
	default:
		return fmt.Sprintf("%.4g", v)
	}
}

func frame(b *strings.Builder, title, xlabel, ylabel string, xs, ys scale) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(b, `<rect width="100%%" height="100%%" fill="#fff"/>`+"\n")
	fmt.Fprintf(b, `<text x="%g" y="22" font-size="14">%s</text>`+"\n", left, html.EscapeString(title))
	fmt.Fprintf(b, `<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="#999"/>`+"\n", left, top, width-left-right, height-top-bottom)
	for k := 0; k <= 4; k++ {
		xv := xs.lo + (xs.hi-xs.lo)*float64(k)/4
		yv := ys.lo + (ys.hi-ys.lo)*float64(k)/4
		fmt.Fprintf(b, `<text x="%.1f" y="%g" text-anchor="middle" fill="#555">%s</text>`+"\n", xs.at(xv), height-bottom+16, num(xv))
		fmt.Fprintf(b, `<text x="%g" y="%.1f" text-anchor="end" fill="#555">%s</text>`+"\n", left-6, ys.at(yv)+4, num(yv))
	}
	fmt.Fprintf(b, `<text x="%g" y="%g" text-anchor="middle">%s</text>`+"\n", (left+width-right)/2, height-12, html.EscapeString(xlabel))
	fmt.Fprintf(b, `<text transform="translate(16 %g) rotate(-90)" text-anchor="middle">%s</text>`+"\n", (top+height-bottom)/2, html.EscapeString(ylabel))
}

func legend(b *strings.Builder, names []string) {
	for i, n := range names {
		y := top + 10 + float64(i)*18
		fmt.Fprintf(b, `<rect x="%g" y="%g" width="12" height="12" fill="%s"/><text x="%g" y="%g">%s</text>`+"\n",
			width-right+12, y-10, Palette[i%len(Palette)], width-right+30, y, html.EscapeString(n))
	}
}

// LineChart draws the series against a shared x axis. Non-finite values
// leave a gap; they are never drawn.
func LineChart(title, xlabel, ylabel string, series []Series) string {
	var xv, yv []float64
	for _, s := range series {
		xv = append(xv, s.X...)
		yv = append(yv, s.Y...)
	}
	xs := newScale(xv, left, width-right)
	ys := newScale(yv, height-bottom, top)
	var b strings.Builder
	frame(&b, title, xlabel, ylabel, xs, ys)
	var names []string
	for i, s := range series {
		col := Palette[i%len(Palette)]
		var path strings.Builder
		pen := false
		for k := range s.X {
			if k >= len(s.Y) || math.IsNaN(s.Y[k]) || math.IsInf(s.Y[k], 0) {
				pen = false
				continue
			}
			cmd := "L"
			if !pen {
				cmd = "M"
			}
			fmt.Fprintf(&path, "%s%.1f %.1f ", cmd, xs.at(s.X[k]), ys.at(s.Y[k]))
			pen = true
		}
		fmt.Fprintf(&b, `<path d="%s" fill="none" stroke="%s" stroke-width="2"><title>%s</title></path>`+"\n", strings.TrimSpace(path.String()), col, html.EscapeString(s.Name))
		names = append(names, s.Name)
	}
	legend(&b, names)
	b.WriteString("</svg>\n")
	return b.String()
}

// Scatter draws the points with the y = x line; each point has a tooltip
// with its label and values.
func Scatter(title, xlabel, ylabel string, pts []Point, groups []string) string {
	var all []float64
	for _, p := range pts {
		all = append(all, p.X, p.Y)
	}
	xs := newScale(all, left, width-right)
	ys := newScale(all, height-bottom, top)
	ys.lo, ys.hi = xs.lo, xs.hi // the same range on both axes, so y = x is the diagonal
	var b strings.Builder
	frame(&b, title, xlabel, ylabel, xs, ys)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999" stroke-dasharray="4 3"/>`+"\n", xs.at(xs.lo), ys.at(xs.lo), xs.at(xs.hi), ys.at(xs.hi))
	for _, p := range pts {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) {
			continue
		}
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="%s" fill-opacity="0.8"><title>%s: %s, %s</title></circle>`+"\n",
			xs.at(p.X), ys.at(p.Y), Palette[p.Group%len(Palette)], html.EscapeString(p.Label), num(p.X), num(p.Y))
	}
	legend(&b, groups)
	b.WriteString("</svg>\n")
	return b.String()
}

// Heatmap draws values[col][row] (iterations × tasks) with a viridis scale
// from the smallest to the largest value.
func Heatmap(title, xlabel string, rows []string, values [][]float64) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, col := range values {
		for _, v := range col {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if !(hi > lo) {
		hi = lo + 1e-9
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" font-family="sans-serif" font-size="11">`+"\n", width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#fff"/><text x="%g" y="22" font-size="14">%s</text>`+"\n", left, html.EscapeString(title))
	pw, ph := width-left-right, height-top-bottom
	cw, rh := pw/math.Max(float64(len(values)), 1), ph/math.Max(float64(len(rows)), 1)
	every := int(math.Ceil(11 / rh))
	for r, name := range rows {
		for c, col := range values {
			fmt.Fprintf(&b, `<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"><title>%s, iteration %d: %s</title></rect>`+"\n",
				left+float64(c)*cw, top+float64(r)*rh, cw+0.3, rh+0.3, viridis((col[r]-lo)/(hi-lo)), html.EscapeString(name), c+1, num(col[r]))
		}
		if r%every == 0 {
			fmt.Fprintf(&b, `<text x="%g" y="%.1f" text-anchor="end">%s</text>`+"\n", left-4, top+(float64(r)+0.7)*rh, html.EscapeString(name))
		}
	}
	for c := range values {
		fmt.Fprintf(&b, `<text x="%.1f" y="%g" text-anchor="middle" fill="#555">%d</text>`+"\n", left+(float64(c)+0.5)*cw, height-bottom+14, c+1)
	}
	fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="middle">%s</text>`+"\n", left+pw/2, height-14, html.EscapeString(xlabel))
	for k := 0; k <= 10; k++ {
		fmt.Fprintf(&b, `<rect x="%g" y="%.1f" width="14" height="%.1f" fill="%s"/>`+"\n", width-right+16, top+ph-float64(k+1)*ph/11, ph/11+0.5, viridis(float64(k)/10))
	}
	fmt.Fprintf(&b, `<text x="%g" y="%g">%s</text><text x="%g" y="%g">%s</text>`+"\n", width-right+34, top+10, num(hi), width-right+34, top+ph, num(lo))
	b.WriteString("</svg>\n")
	return b.String()
}

var stops = [][3]float64{{68, 1, 84}, {71, 44, 122}, {59, 81, 139}, {44, 113, 142}, {33, 144, 141}, {39, 173, 129}, {92, 200, 99}, {170, 220, 50}, {253, 231, 37}}

func viridis(t float64) string {
	if math.IsNaN(t) {
		t = 0
	}
	t = math.Min(1, math.Max(0, t))
	x := t * float64(len(stops)-1)
	i := int(math.Min(float64(len(stops)-2), math.Floor(x)))
	f := x - float64(i)
	c := [3]int{}
	for k := range c {
		c[k] = int(math.Round(stops[i][k] + f*(stops[i+1][k]-stops[i][k])))
	}
	return fmt.Sprintf("rgb(%d,%d,%d)", c[0], c[1], c[2])
}

// Bars draws one horizontal bar per label, on an axis that starts at 0 (or
// spans 0 when values are negative), so that a bar's length is its value.
// Non-finite values are drawn as "n/a", never as a bar.
func Bars(title, xlabel string, labels []string, values []float64) string {
	const rowH, labelW = 18.0, 170.0
	h := top + bottom + rowH*float64(len(labels))
	lo, hi := 0.0, 0.0
	for _, v := range values {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if lo == hi {
		hi = 1
	}
	x0, x1 := labelW, width-30
	at := func(v float64) float64 { return x0 + (v-lo)/(hi-lo)*(x1-x0) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="12">`+"\n", width, h, width, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#fff"/>`+"\n")
	fmt.Fprintf(&b, `<text x="10" y="22" font-size="14">%s</text>`+"\n", html.EscapeString(title))
	for i, l := range labels {
		y := top + rowH*float64(i)
		fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="end">%s</text>`+"\n", x0-6, y+13, html.EscapeString(l))
		v := values[i]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			fmt.Fprintf(&b, `<text x="%g" y="%g" fill="#555">n/a</text>`+"\n", x0+4, y+13)
			continue
		}
		a, c := at(math.Min(0, v)), at(math.Max(0, v))
		fmt.Fprintf(&b, `<rect x="%.1f" y="%g" width="%.1f" height="%g" fill="%s"><title>%s: %s</title></rect>`+"\n",
			a, y+3, math.Max(c-a, 0.5), rowH-6, Palette[0], html.EscapeString(l), num(v))
	}
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%g" x2="%.1f" y2="%g" stroke="#333"/>`+"\n", at(0), top, at(0), h-bottom)
	for k := 0; k <= 4; k++ {
		v := lo + (hi-lo)*float64(k)/4
		fmt.Fprintf(&b, `<text x="%.1f" y="%g" text-anchor="middle" fill="#555">%s</text>`+"\n", at(v), h-bottom+16, num(v))
	}
	fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="middle">%s</text>`+"\n", (x0+x1)/2, h-12, html.EscapeString(xlabel))
	b.WriteString("</svg>\n")
	return b.String()
}
