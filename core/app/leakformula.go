package app

import (
	"fmt"
	"iter"
	"math"

	"github.com/spmtl/spmtl/core/data"
)

// formulaLeak warns when a regression label is computed from the numeric
// feature columns in every row: a copy of one (y = a), or a sum,
// difference, product or ratio of two (cbpp's rate = incidence / size).
// A model given those columns reads the label off them and cross-validates
// as near perfect, which says nothing of the label's own variation. It
// returns the warning and the columns it names, or "" and nil. Only files
// of at least minLeakRows rows, at most maxLeakColumns numeric columns
// (pairs of columns: their square) and maxLeakCells of their values are
// looked at.
func formulaLeak(d *Data) (string, []string) {
	ds, enc := d.All, d.Encoding
	if ds.Kind != data.Regression || enc == nil || ds.Sparse() || ds.Rows() < minLeakRows {
		return "", nil
	}
	cols, names := enc.Numeric()
	if len(cols) == 0 || len(cols) > maxLeakColumns || ds.Rows()*len(cols) > maxLeakCells {
		return "", nil
	}
	label := "the label"
	if d.Table != nil && d.Table.Encoding.LabelColumn != "" {
		label = d.Table.Encoding.LabelColumn
	}
	// A formula that misses one row does not hold, so a sample of rows
	// spread over the file refutes almost every candidate, and only those
	// that survive it are tried on every row, read where they are (a copy
	// of every column as the file wrote them was most of a bundled data
	// set's load time). The candidates keep their order, so the first that
	// holds in every row is the one named, as if each had been tried on
	// them all.
	x, y := rawColumns(ds, enc, cols, max(1, ds.Rows()/leakSampleRows))
	origin, scale := make([]float64, len(cols)), make([]float64, len(cols))
	for k, j := range cols {
		if j < len(enc.Center) {
			origin[k] = enc.Center[j]
		}
		scale[k] = featureScale(enc, j)
	}
	for f := range formulas(len(cols)) {
		if !agrees(y, f.at(x)) || !holdsIn(ds, f, cols, origin, scale) {
			continue
		}
		if f.b < 0 {
			return fmt.Sprintf("%s equals %s in every row: a model given %s reads the label off it; if it is the label in other words, leave it out", label, names[f.a], names[f.a]), []string{names[f.a]}
		}
		return fmt.Sprintf("%s is %s %s %s in every row: a model given them reads the label off them and scores as near perfect; if %s is computed from them, leave them out, or learn what they are computed from",
			label, names[f.a], leakOps[f.op].sign, names[f.b], label), []string{names[f.a], names[f.b]}
	}
	return "", nil
}

// holdsIn says whether formula f gives the label (near) in every row of
// ds where it is a number, and such rows are nine in ten or more; its
// columns (cols[f.a], cols[f.b]) are taken back to the file's numbers as
// rawColumns does: (stored + origin) × scale.
func holdsIn(ds *data.Dataset, f formula, cols []int, origin, scale []float64) bool {
	ja, jb := cols[f.a], -1
	var g func(u, v float64) float64
	if f.b >= 0 {
		jb, g = cols[f.b], leakOps[f.op].f
	}
	n, rows := 0, ds.Rows()
	for i := range ds.Tasks {
		t := &ds.Tasks[i]
		for r := 0; r < t.Rows(); r++ {
			row := t.X.RawRowView(r)
			v := (row[ja] + origin[f.a]) * scale[f.a]
			if g != nil {
				v = g(v, (row[jb]+origin[f.b])*scale[f.b])
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			if !near(t.Y[r], v) {
				return false
			}
			n++
		}
	}
	return n >= rows-rows/10
}

// formula is a candidate of formulaLeak: column a alone (b < 0), or a op b.
type formula struct{ a, b, op int }

// leakOps are the operations formulaLeak tries between two columns.
var leakOps = []struct {
	sign string
	f    func(u, v float64) float64
}{
	{"+", func(u, v float64) float64 { return u + v }},
	{"−", func(u, v float64) float64 { return u - v }},
	{"×", func(u, v float64) float64 { return u * v }},
	{"/", func(u, v float64) float64 { return u / v }},
}

// formulas yields formulaLeak's candidates over k columns in the order
// they are tried: each column alone, then each ordered pair with each
// operation (a + b and a × b once). Yielded, not listed: 40 columns make
// 6,280 of them, most refuted at once.
func formulas(k int) iter.Seq[formula] {
	return func(yield func(formula) bool) {
		for a := 0; a < k; a++ {
			if !yield(formula{a, -1, 0}) {
				return
			}
		}
		for a := 0; a < k; a++ {
			for b := 0; b < k; b++ {
				if a == b {
					continue
				}
				for op, o := range leakOps {
					if (o.sign == "+" || o.sign == "×") && b < a {
						continue // the same as a op b
					}
					if !yield(formula{a, b, op}) {
						return
					}
				}
			}
		}
	}
}

// at is the formula's value in row i of the columns x.
func (f formula) at(x [][]float64) func(i int) float64 {
	if f.b < 0 {
		return func(i int) float64 { return x[f.a][i] }
	}
	g := leakOps[f.op].f
	return func(i int) float64 { return g(x[f.a][i], x[f.b][i]) }
}

// formulaLeak's bounds: 40 columns make 1,560 ordered pairs, most refuted
// by the sample; a million values bound a pass over every row's numeric
// columns (separatingColumn's, and formulaLeak's of each formula that
// survives the sample).
const (
	maxLeakColumns = 40
	maxLeakCells   = 1 << 20
)

// agrees says whether y[i] equals f(i) (near) in every row where f is a
// number: for formulaLeak's sample of rows, which refutes a formula but
// cannot confirm one (holdsIn).
func agrees(y []float64, f func(i int) float64) bool {
	for i, yi := range y {
		if v := f(i); !math.IsNaN(v) && !math.IsInf(v, 0) && !near(yi, v) {
			return false
		}
	}
	return true
}

// near says whether a label y equals a formula's value v to a millionth: a
// label written with seven significant digits still matches what it was
// computed from.
func near(y, v float64) bool {
	return math.Abs(y-v) <= 1e-6*math.Max(math.Abs(y), math.Abs(v))+1e-12
}

// leakSampleRows is about how many rows, spread evenly over the file,
// formulaLeak tries every formula on before it copies all the rows.
const leakSampleRows = 128

// rawColumns returns, for the features cols of ds, their values in every
// step-th row (every row when step is 1) as the file wrote them (the
// encoding's divisor and origin undone), and the labels, in row order.
func rawColumns(ds *data.Dataset, enc *data.Encoding, cols []int, step int) (x [][]float64, y []float64) {
	n := (ds.Rows() + step - 1) / step
	x = make([][]float64, len(cols))
	for k := range x {
		x[k] = make([]float64, 0, n)
	}
	y = make([]float64, 0, n)
	at := 0 // the row's place in the file
	for i := range ds.Tasks {
		t := &ds.Tasks[i]
		for r := 0; r < t.Rows(); r, at = r+1, at+1 {
			if at%step != 0 {
				continue
			}
			row := t.X.RawRowView(r)
			for k, j := range cols {
				v := row[j]
				if j < len(enc.Center) {
					v += enc.Center[j]
				}
				x[k] = append(x[k], v*featureScale(enc, j))
			}
			y = append(y, t.Y[r])
		}
	}
	return x, y
}
