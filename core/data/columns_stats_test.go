package data

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestColumnStatsSmallSets: a column's statistics count its distinct
// values, keep the first maxCat+1 in order and tell an id as a map of
// every value would, whether the values stay few (kept in a list) or pass
// smallSet (kept in a map) and whatever maxCat.
func TestColumnStatsSmallSets(t *testing.T) {
	cases := []struct {
		name   string
		values func(r *rand.Rand, i int) string
		n      int
	}{
		{"four digits", func(r *rand.Rand, i int) string { return fmt.Sprint(r.IntN(4)) }, 40},
		{"a different number each", func(_ *rand.Rand, i int) string { return fmt.Sprint(100 + i) }, 40},
		{"ten different numbers", func(_ *rand.Rand, i int) string { return fmt.Sprint(100 + i) }, 10},
		{"different, then one again", func(_ *rand.Rand, i int) string { return fmt.Sprint(100 + i%12) }, 20},
		{"different, one again early", func(_ *rand.Rand, i int) string { return fmt.Sprint(100 + i%6) }, 20},
		{"words and numbers", func(r *rand.Rand, i int) string {
			return []string{"a", "b", "1", "2.5", "", "c", "d", "e", "f", "g"}[r.IntN(10)]
		}, 60},
		{"many words", func(r *rand.Rand, i int) string { return fmt.Sprintf("w%d", r.IntN(30)) }, 200},
	}
	for _, c := range cases {
		for _, maxCat := range []int{1, 2, 5, 7, 8, 50} {
			t.Run(fmt.Sprintf("%s, maxCat %d", c.name, maxCat), func(t *testing.T) {
				r := rand.New(rand.NewPCG(1, uint64(maxCat)))
				var st columnStats
				var seen []string
				var all []string
				notID := false
				for i := 0; i < c.n; i++ {
					raw := c.values(r, i)
					ns := numClass(raw)
					st.add(raw, ns, maxCat)
					st.whole(raw, ns)
					key := raw
					if ns == numEmpty {
						key = emptyValue
					}
					if !slices.Contains(seen, key) {
						seen = append(seen, key)
					}
					// An id: every value a whole number, none twice.
					if ns != numOK || strings.ContainsAny(raw, ".eE") || slices.Contains(all, raw) {
						notID = true
					}
					all = append(all, raw)
				}
				if st.overflow {
					return // the count stops once a numeric column passes maxCat+1
				}
				if st.distinct != len(seen) || !slices.Equal(st.values, seen[:min(len(seen), maxCat+1)]) {
					t.Errorf("distinct %d, values %q; want %d, %q", st.distinct, st.values, len(seen), seen[:min(len(seen), maxCat+1)])
				}
				if want := !notID && len(all) >= minIDRows && st.text == 0 && st.empty == 0; st.isID() != want {
					t.Errorf("isID %v, want %v (values %q)", st.isID(), want, all)
				}
			})
		}
	}
}
