package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestFormulaLeak: a regression label computed from numeric columns in
// every row (a ratio, as cbpp's rate = incidence / size; a difference, in
// its order; a copy; even written to seven digits) is named with the
// columns to leave out; one row off, a label merely near a column, a file
// of few rows, and columns of words, are not.
func TestFormulaLeak(t *testing.T) {
	file := func(rows int, y func(i int, a, b float64) string) string {
		var sb strings.Builder
		sb.WriteString("g,y,a,b,kind\n")
		for i := 0; i < rows; i++ {
			a, b := float64(1+(i*7)%13), float64(2+(i*5)%11)
			fmt.Fprintf(&sb, "g%d,%s,%g,%g,%s\n", i%4, y(i, a, b), a, b, []string{"u", "v"}[i%2])
		}
		return sb.String()
	}
	g := func(v float64) string { return fmt.Sprintf("%.15g", v) }
	for _, c := range []struct {
		name string
		text string
		want string
		cols []string
	}{
		{"a ratio", file(30, func(_ int, a, b float64) string { return g(a / b) }), "y is a / b in every row", []string{"a", "b"}},
		{"a ratio to seven digits", file(30, func(_ int, a, b float64) string { return fmt.Sprintf("%.7g", a/b) }), "y is a / b in every row", []string{"a", "b"}},
		{"a difference", file(30, func(_ int, a, b float64) string { return g(b - a) }), "y is b − a in every row", []string{"b", "a"}},
		{"a sum", file(30, func(_ int, a, b float64) string { return g(a + b) }), "y is a + b", []string{"a", "b"}},
		{"a copy", file(30, func(_ int, _, b float64) string { return g(b) }), "y equals b in every row", []string{"b"}},
		{"one row off", file(30, func(i int, a, b float64) string {
			if i == 17 {
				return g(a/b + 0.01)
			}
			return g(a / b)
		}), "", nil},
		{"near a column only", file(30, func(i int, a, _ float64) string { return g(a + 0.1*float64(i%3)) }), "", nil},
		{"few rows", file(12, func(_ int, a, b float64) string { return g(a / b) }), "", nil},
		// Many rows: a sample of them is tried first, every row decides.
		{"one row off of many", file(2000, func(i int, a, b float64) string {
			if i == 1717 {
				return g(a/b + 0.01)
			}
			return g(a / b)
		}), "", nil},
		{"a ratio of many rows", file(2000, func(_ int, a, b float64) string { return g(a / b) }), "y is a / b in every row", []string{"a", "b"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := Load([]byte(c.text), LoadOptions{Name: "f.csv", TaskColumn: "g", LabelColumn: "y"})
			if err != nil {
				t.Fatal(err)
			}
			sum := d.Summary()
			if (c.want == "") != (sum.LeakNote == "") || !strings.Contains(sum.LeakNote, c.want) || !slices.Equal(sum.LeakColumns, c.cols) {
				t.Errorf("note %q, columns %q; want %q, %q", sum.LeakNote, sum.LeakColumns, c.want, c.cols)
			}
		})
	}
}
