package app

import (
	"fmt"
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
// (pairs of columns: their square) and maxLeakCells of their values (a
// copy of them is made) are looked at.
func formulaLeak(d *Data) (string, []string) {
	ds, enc := d.All, d.Encoding
	if ds.Kind != data.Regression || enc == nil || ds.Sparse() || ds.Rows() < minLeakRows {
		return "", nil
	}
	cols, names := enc.Numeric()
	if len(cols) == 0 || len(cols) > maxLeakColumns || ds.Rows()*len(cols) > maxLeakCells {
		return "", nil
	}
	x, y := rawColumns(ds, enc, cols)
	label := "the label"
	if d.Table != nil && d.Table.Encoding.LabelColumn != "" {
		label = d.Table.Encoding.LabelColumn
	}
	for a := range cols {
		if holds(y, func(i int) float64 { return x[a][i] }) {
			return fmt.Sprintf("%s equals %s in every row: a model given %s reads the label off it; if it is the label in other words, leave it out", label, names[a], names[a]), []string{names[a]}
		}
	}
	ops := []struct {
		sign string
		f    func(u, v float64) float64
	}{
		{"+", func(u, v float64) float64 { return u + v }},
		{"−", func(u, v float64) float64 { return u - v }},
		{"×", func(u, v float64) float64 { return u * v }},
		{"/", func(u, v float64) float64 { return u / v }},
	}
	for a := range cols {
		for b := range cols {
			if a == b {
				continue
			}
			for _, op := range ops {
				if (op.sign == "+" || op.sign == "×") && b < a {
					continue // the same as a op b
				}
				if holds(y, func(i int) float64 { return op.f(x[a][i], x[b][i]) }) {
					return fmt.Sprintf("%s is %s %s %s in every row: a model given them reads the label off them and scores as near perfect; if %s is computed from them, leave them out, or learn what they are computed from",
						label, names[a], op.sign, names[b], label), []string{names[a], names[b]}
				}
			}
		}
	}
	return "", nil
}

// formulaLeak's bounds: 40 columns make 1,560 ordered pairs, most refuted
// at their first rows; a million values are 8 MB copied.
const (
	maxLeakColumns = 40
	maxLeakCells   = 1 << 20
)

// holds says whether y[i] equals f(i) to a millionth in every row where
// f is a number, and such rows are nine in ten or more: a label written
// with seven significant digits still matches what it was computed from.
func holds(y []float64, f func(i int) float64) bool {
	n := 0
	for i, yi := range y {
		v := f(i)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		if math.Abs(yi-v) > 1e-6*math.Max(math.Abs(yi), math.Abs(v))+1e-12 {
			return false
		}
		n++
	}
	return n >= len(y)-len(y)/10
}

// rawColumns returns, for the features cols of ds, their values in every
// row as the file wrote them (the encoding's divisor and origin undone),
// and the labels, in row order.
func rawColumns(ds *data.Dataset, enc *data.Encoding, cols []int) (x [][]float64, y []float64) {
	x = make([][]float64, len(cols))
	for i := range ds.Tasks {
		t := &ds.Tasks[i]
		for r := 0; r < t.Rows(); r++ {
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
