package app

import (
	"fmt"
	"math"
	"strings"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/internal/words"
)

// sameNote names the feature columns that carry nothing of their own: a
// column with the same value in every row (VerbAgg's situ, when a file
// holds one situation), which no fit can tell a row apart by, and a column
// that repeats an earlier one in every row (MathAchSchool's MEANSES.x and
// MEANSES.y), between which a fit splits one effect and weakens its
// penalty (a ridge's by half). Both are used as read; the note says so and names what to leave
// out, and drop lists those columns (the constant ones, and the second
// of each pair; the first maxSameNamed of each). "" when there is none, or for a sparse file (its
// features have no columns to name).
func sameNote(d *Data) (note string, drop []string) {
	ds, enc := d.All, d.Encoding
	if enc == nil || ds == nil || ds.Sparse() || ds.Features == 0 || ds.Rows() < 2 {
		return "", nil
	}
	hash, constant := featurePrints(ds)
	at := enc.Starts()
	var still, repeats []string
	nStill, nRepeats, nColumns := 0, 0, 0
	first := map[uint64]int{} // a column block's print → the first column with it
	for k, c := range enc.Columns {
		lo, hi := at[k], at[k+1]
		if lo == hi {
			continue
		}
		nColumns++
		flat := true
		key := uint64(hi - lo)
		for j := lo; j < hi; j++ {
			flat = flat && constant[j]
			key = (key ^ hash[j]) * fnvPrime
		}
		switch e, ok := first[key]; {
		case flat:
			if nStill++; nStill <= maxSameNamed {
				still = append(still, c.Name)
				drop = append(drop, c.Name)
			}
		case ok && at[e+1]-at[e] == hi-lo && sameBlock(ds, at[e], lo, hi-lo):
			if nRepeats++; nRepeats <= maxSameNamed {
				repeats = append(repeats, fmt.Sprintf("%s repeats %s", c.Name, enc.Columns[e].Name))
				drop = append(drop, c.Name)
			}
		case len(first) < maxSamePrints:
			first[key] = k
		}
	}
	var parts []string
	if nStill > maxSameNamed {
		still = append(still, words.Grouped(int64(nStill-maxSameNamed))+" more")
	}
	switch {
	case len(still) > 0 && nStill == nColumns:
		// Nothing else to learn from: leaving them out would leave the
		// file refused for having no feature, so the note says what the
		// fit is instead of advising that (Dyestuff with a column of ones).
		parts = append(parts, agreeing(still, "has the same value in every row: with no other feature, the tasks' intercepts are all the model learns (as R's lmer(y ~ 1 + (1 | task)) fits)",
			"have the same value in every row: with no other feature, the tasks' intercepts are all the model learns (as R's lmer(y ~ 1 + (1 | task)) fits)"))
		drop = nil
	case len(still) > 0:
		parts = append(parts, agreeing(still, "has the same value in every row: it tells no row from another and acts only as a second intercept; leave it out",
			"have the same value in every row: they tell no row from another and act only as a second intercept; leave them out"))
	}
	if nRepeats > maxSameNamed {
		repeats = append(repeats, fmt.Sprintf("%s more repeat another", words.Grouped(int64(nRepeats-maxSameNamed))))
	}
	if len(repeats) > 0 {
		parts = append(parts, fmt.Sprintf("%s in every row: a fit splits one effect between the two, which also weakens its penalty; leave one of each pair out",
			words.List(repeats)))
	}
	return strings.Join(parts, "; "), drop
}

// sameNote names at most maxSameNamed columns of each kind (a wide file
// may have thousands), and keeps the prints of at most maxSamePrints
// columns to find repeats of (a million columns would otherwise hold a
// map of a million).
const (
	maxSameNamed  = 10
	maxSamePrints = 1 << 17
)

// featurePrints makes one pass over ds's rows, in order, and returns for
// each feature a print of its values in every row (equal features have
// equal prints) and whether it takes one value only. The loop is by hand:
// one pass down the rows visits each cell once, where a column at a time
// would walk the row-major matrices once per feature.
func featurePrints(ds *data.Dataset) (hash []uint64, constant []bool) {
	p := ds.Features
	hash, constant = make([]uint64, p), make([]bool, p)
	firstRow := make([]float64, p)
	seen := false
	for i := range ds.Tasks {
		t := &ds.Tasks[i]
		for r := 0; r < t.Rows(); r++ {
			row := t.X.RawRowView(r)
			if !seen {
				copy(firstRow, row)
				for j := range constant {
					constant[j] = true
					hash[j] = 14695981039346656037 // FNV-1a's offset basis
				}
				seen = true
			}
			for j, v := range row {
				if v == 0 {
					v = 0 // −0 and 0 are the same value
				}
				hash[j] = (hash[j] ^ math.Float64bits(v)) * fnvPrime
				constant[j] = constant[j] && v == firstRow[j]
			}
		}
	}
	return hash, constant
}

// fnvPrime is FNV-1a's 64-bit prime, which mixes a print's bits.
const fnvPrime = 1099511628211

// sameBlock says whether the w features from a and from b hold the same
// values in every row of ds (prints can collide; values cannot).
func sameBlock(ds *data.Dataset, a, b, w int) bool {
	for i := range ds.Tasks {
		t := &ds.Tasks[i]
		for r := 0; r < t.Rows(); r++ {
			row := t.X.RawRowView(r)
			for j := 0; j < w; j++ {
				if row[a+j] != row[b+j] {
					return false
				}
			}
		}
	}
	return true
}
