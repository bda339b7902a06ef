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

	"github.com/spmtl/spmtl/core/internal/tauscale"
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

// esc escapes text for the SVG: the markup characters as entities, a
// control character that XML 1.0 does not allow as its visible picture
// (U+0001 as ␁), U+FFFE, U+FFFF and bytes that are not UTF-8 as U+FFFD, so
// that a drawing is well-formed whatever a task's name holds.
func esc(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		switch {
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r':
			return 0x2400 + r
		case r == 0xFFFE || r == 0xFFFF:
			return 0xFFFD
		}
		return r
	}, s)
	return html.EscapeString(s)
}

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
	fmt.Fprintf(b, `<text x="%g" y="22" font-size="14">%s</text>`+"\n", left, esc(title))
	fmt.Fprintf(b, `<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="#999"/>`+"\n", left, top, width-left-right, height-top-bottom)
	for k := 0; k <= 4; k++ {
		xv := xs.lo + (xs.hi-xs.lo)*float64(k)/4
		yv := ys.lo + (ys.hi-ys.lo)*float64(k)/4
		fmt.Fprintf(b, `<text x="%.1f" y="%g" text-anchor="middle" fill="#555">%s</text>`+"\n", xs.at(xv), height-bottom+16, num(xv))
		fmt.Fprintf(b, `<text x="%g" y="%.1f" text-anchor="end" fill="#555">%s</text>`+"\n", left-6, ys.at(yv)+4, num(yv))
	}
	fmt.Fprintf(b, `<text x="%g" y="%g" text-anchor="middle">%s</text>`+"\n", (left+width-right)/2, height-12, esc(xlabel))
	fmt.Fprintf(b, `<text transform="translate(16 %g) rotate(-90)" text-anchor="middle">%s</text>`+"\n", (top+height-bottom)/2, esc(ylabel))
}

func legend(b *strings.Builder, names []string) {
	for i, n := range names {
		y := top + 10 + float64(i)*18
		fmt.Fprintf(b, `<rect x="%g" y="%g" width="12" height="12" fill="%s"/><text x="%g" y="%g">%s</text>`+"\n",
			width-right+12, y-10, Palette[i%len(Palette)], width-right+30, y, esc(n))
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
		fmt.Fprintf(&b, `<path d="%s" fill="none" stroke="%s" stroke-width="2"><title>%s</title></path>`+"\n", strings.TrimSpace(path.String()), col, esc(s.Name))
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
			xs.at(p.X), ys.at(p.Y), Palette[p.Group%len(Palette)], esc(p.Label), num(p.X), num(p.Y))
	}
	legend(&b, groups)
	b.WriteString("</svg>\n")
	return b.String()
}

// TauScale is the fixed colour scale of every τ heatmap (docs/algorithms.md
// §2.2): colour encodes T·τ, the weight relative to uniform, on a log scale
// from Lo = 1/8 to Hi = 8, diverging around a neutral 1 (τ uniform), with
// values beyond the range clipped to the end colours. A run that leaves τ
// uniform is all neutral, whatever its numbers; a run that separates the
// tasks shows blue (trusted less than uniform) and red (more). The page
// takes the same stops from the catalogue.
// (The scale itself is in core/internal/tauscale, which the catalogue
// reads without importing this package.)
var TauScale = tauscale.Tau

// TauColour returns the colour of a cell with relative weight T·τ = rel.
func TauColour(rel float64) string {
	if math.IsNaN(rel) {
		return "#bbbbbb"
	}
	lo, hi := math.Log2(TauScale.Lo), math.Log2(TauScale.Hi)
	t := (math.Log2(math.Max(rel, 1e-300)) - lo) / (hi - lo)
	t = math.Min(1, math.Max(0, t))
	n := len(TauScale.Stops) - 1
	x := t * float64(n)
	i := min(n-1, int(x))
	f := x - float64(i)
	a, b := hexRGB(TauScale.Stops[i]), hexRGB(TauScale.Stops[i+1])
	return fmt.Sprintf("#%02x%02x%02x", mix(a[0], b[0], f), mix(a[1], b[1], f), mix(a[2], b[2], f))
}

func hexRGB(s string) [3]int {
	var c [3]int
	fmt.Sscanf(s, "#%02x%02x%02x", &c[0], &c[1], &c[2])
	return c
}

func mix(a, b int, f float64) int { return int(math.Round(float64(a) + f*float64(b-a))) }

// Heatmap draws τ (tau[iteration][task], each column summing to 1) as T·τ
// on TauScale: iterations across, tasks down, with a legend that shows the
// fixed scale, its ticks and this run's smallest and largest T·τ.
func Heatmap(title, xlabel string, rows []string, tau [][]float64) string {
	T := float64(len(rows))
	runLo, runHi := math.Inf(1), math.Inf(-1)
	for _, col := range tau {
		for _, v := range col {
			runLo, runHi = math.Min(runLo, T*v), math.Max(runHi, T*v)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" font-family="sans-serif" font-size="11">`+"\n", width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#fff"/><text x="%g" y="22" font-size="14">%s</text>`+"\n", left, esc(title))
	pw, ph := width-left-right, height-top-bottom
	cw, rh := pw/math.Max(float64(len(tau)), 1), ph/math.Max(T, 1)
	every := int(math.Ceil(11 / rh))
	for r, name := range rows {
		for c, col := range tau {
			fmt.Fprintf(&b, `<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"><title>%s, iteration %d: τ %s, T·τ %s</title></rect>`+"\n",
				left+float64(c)*cw, top+float64(r)*rh, cw+0.3, rh+0.3, TauColour(T*col[r]), esc(name), c+1, num(col[r]), num(T*col[r]))
		}
		if r%every == 0 {
			fmt.Fprintf(&b, `<text x="%g" y="%.1f" text-anchor="end">%s</text>`+"\n", left-4, top+(float64(r)+0.7)*rh, esc(name))
		}
	}
	for c := range tau {
		fmt.Fprintf(&b, `<text x="%.1f" y="%g" text-anchor="middle" fill="#555">%d</text>`+"\n", left+(float64(c)+0.5)*cw, height-bottom+14, c+1)
	}
	fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="middle">%s</text>`+"\n", left+pw/2, height-14, esc(xlabel))
	// Legend: the fixed scale, bottom (1/8) to top (8), ticks, and this
	// run's range marked.
	lx := width - right + 16
	at := func(rel float64) float64 {
		lo, hi := math.Log2(TauScale.Lo), math.Log2(TauScale.Hi)
		t := (math.Log2(math.Min(math.Max(rel, TauScale.Lo), TauScale.Hi)) - lo) / (hi - lo)
		return top + ph - t*ph
	}
	const steps = 48
	for k := 0; k < steps; k++ {
		rel := math.Exp2(math.Log2(TauScale.Lo) + (float64(k)+0.5)/steps*(math.Log2(TauScale.Hi)-math.Log2(TauScale.Lo)))
		fmt.Fprintf(&b, `<rect x="%g" y="%.1f" width="14" height="%.2f" fill="%s"/>`+"\n", lx, top+ph-float64(k+1)*ph/steps, ph/steps+0.4, TauColour(rel))
	}
	fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="10">T·τ (1 = uniform)</text>`+"\n", lx-4, top-8)
	for _, tk := range TauScale.Ticks {
		label := num(tk)
		switch tk {
		case 0.125:
			label = "≤ 1/8"
		case 0.5:
			label = "1/2"
		case 8:
			label = "≥ 8"
		}
		fmt.Fprintf(&b, `<line x1="%g" x2="%g" y1="%.1f" y2="%.1f" stroke="#333"/><text x="%g" y="%.1f">%s</text>`+"\n", lx+14, lx+18, at(tk), at(tk), lx+21, at(tk)+4, label)
	}
	if !math.IsInf(runLo, 0) {
		fmt.Fprintf(&b, `<path d="M%g %.1fh-6M%g %.1fh-6" stroke="#000" stroke-width="2"/><text x="%g" y="%g" font-size="10">this run: %s – %s</text>`+"\n",
			lx, at(runLo), lx, at(runHi), lx-4, height-bottom+26, num(runLo), num(runHi))
	}
	b.WriteString("</svg>\n")
	return b.String()
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
	fmt.Fprintf(&b, `<text x="10" y="22" font-size="14">%s</text>`+"\n", esc(title))
	for i, l := range labels {
		y := top + rowH*float64(i)
		fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="end">%s</text>`+"\n", x0-6, y+13, esc(l))
		v := values[i]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			fmt.Fprintf(&b, `<text x="%g" y="%g" fill="#555">n/a</text>`+"\n", x0+4, y+13)
			continue
		}
		a, c := at(math.Min(0, v)), at(math.Max(0, v))
		fmt.Fprintf(&b, `<rect x="%.1f" y="%g" width="%.1f" height="%g" fill="%s"><title>%s: %s</title></rect>`+"\n",
			a, y+3, math.Max(c-a, 0.5), rowH-6, Palette[0], esc(l), num(v))
	}
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%g" x2="%.1f" y2="%g" stroke="#333"/>`+"\n", at(0), top, at(0), h-bottom)
	for k := 0; k <= 4; k++ {
		v := lo + (hi-lo)*float64(k)/4
		fmt.Fprintf(&b, `<text x="%.1f" y="%g" text-anchor="middle" fill="#555">%s</text>`+"\n", at(v), h-bottom+16, num(v))
	}
	fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="middle">%s</text>`+"\n", (x0+x1)/2, h-12, esc(xlabel))
	b.WriteString("</svg>\n")
	return b.String()
}
