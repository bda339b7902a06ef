// Package tauscale holds the fixed colour scale of every τ heatmap, which
// the paper's figures (core/figure) draw with and the page takes from the
// catalogue (core/app). It is a package of its own so that the catalogue
// does not import core/figure: figure's html import links html's entity
// tables (about 10 KB gzipped) into the WebAssembly learner, which draws
// no figure.
package tauscale

// Scale encodes T·τ, the weight relative to uniform, on a log scale from
// Lo to Hi with colours (Stops) evenly spaced over log2(T·τ), and the
// ticks to label.
type Scale struct {
	Lo, Hi float64
	// Stops are evenly spaced over log2(T·τ) from log2 Lo to log2 Hi.
	Stops []string
	Ticks []float64
}

// Tau is the scale of the τ heatmaps (docs/algorithms.md §2.2): from 1/8 to
// 8, diverging around a neutral 1 (τ uniform), blue below, red above.
var Tau = Scale{Lo: 0.125, Hi: 8, Stops: []string{"#2166ac", "#67a9cf", "#d1e5f0", "#f7f7f7", "#fddbc7", "#ef8a62", "#b2182b"},
	Ticks: []float64{0.125, 0.5, 1, 2, 8}}
