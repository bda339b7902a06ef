package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestSameNote: a column with one value in every row, and one that
// repeats an earlier column in every row (a number, or a column of words
// with the same grouping), are named with what to leave out; a column
// equal to another in all rows but one, a column constant within each task
// only, and a file with neither get no note.
func TestSameNote(t *testing.T) {
	type col struct {
		name string
		cell func(i int) string
	}
	x := col{"x", func(i int) string { return fmt.Sprintf("%d.25", (i*7)%11) }}
	item := col{"item", func(i int) string { return []string{"a", "b", "c"}[i%3] }}
	file := func(cols ...col) string {
		var b strings.Builder
		b.WriteString("g,y")
		for _, c := range cols {
			b.WriteString("," + c.name)
		}
		b.WriteString("\n")
		for i := 0; i < 24; i++ {
			fmt.Fprintf(&b, "g%d,%d.5", i%4, (i*5)%9)
			for _, c := range cols {
				b.WriteString("," + c.cell(i))
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	for _, c := range []struct {
		name string
		text string
		want []string // parts of the note
		drop []string
	}{
		{"none", file(x, item), nil, nil},
		{"a number constant", file(x, col{"k", func(int) string { return "3" }}), []string{"k has the same value in every row", "leave it out"}, []string{"k"}},
		{"a word constant", file(col{"situ", func(int) string { return "other" }}, x, col{"mode", func(int) string { return "want" }}),
			[]string{"situ and mode have the same value in every row", "leave them out"}, []string{"situ", "mode"}},
		{"a number repeated", file(x, item, col{"x2", x.cell}), []string{"x2 repeats x in every row", "leave one of each pair out"}, []string{"x2"}},
		{"the same grouping in other words", file(item, x, col{"kind", func(i int) string { return []string{"p", "q", "r"}[i%3] }}), []string{"kind repeats item"}, []string{"kind"}},
		{"equal but for one row", file(x, col{"x3", func(i int) string {
			if i == 17 {
				return "99"
			}
			return x.cell(i)
		}}), nil, nil},
		{"constant within each task only", file(x, col{"diet", func(i int) string { return fmt.Sprint(i % 4) }}), nil, nil},
		// The only feature: leaving it out would leave no feature, which is
		// refused, so the note says what is fitted instead (Dyestuff, given a
		// column of ones after that refusal, was told to leave it out).
		{"the only feature constant", file(col{"one", func(int) string { return "1" }}), []string{"one has the same value in every row", "the tasks' intercepts are all the model learns", "lmer(y ~ 1 + (1 | task))"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := Load([]byte(c.text), LoadOptions{Name: "s.csv", TaskColumn: "g", LabelColumn: "y"})
			if err != nil {
				t.Fatal(err)
			}
			sum := d.Summary()
			if (len(c.want) == 0) != (sum.SameNote == "") || !slices.Equal(sum.SameColumns, c.drop) {
				t.Fatalf("note %q, columns %q; want parts %q, columns %q", sum.SameNote, sum.SameColumns, c.want, c.drop)
			}
			for _, w := range c.want {
				if !strings.Contains(sum.SameNote, w) {
					t.Errorf("note %q lacks %q", sum.SameNote, w)
				}
			}
		})
	}
}

// TestSameNoteWide: a file of 2,000 columns in ten patterns names ten
// repeats and counts the rest, and so does one of 50 constant columns and
// one that varies.
func TestSameNoteWide(t *testing.T) {
	for _, c := range []struct {
		name string
		cell func(r, k int) int
		want string
	}{
		{"ten patterns", func(r, k int) int { return (r + k) % 10 }, "x20 repeats x10 and 1,980 more repeat another in every row"},
		// 50 constant columns beside one that varies (with nothing beside
		// them, the note says what is fitted instead: TestSameNote).
		{"constant", func(r, k int) int {
			if k == 51 {
				return r
			}
			return k % 5
		}, "x1, x2, x3, x4, x5, x6, x7, x8, x9, x10 and 40 more have the same value in every row"},
	} {
		cols := 2000
		if c.name == "constant" {
			cols = 51
		}
		var sb strings.Builder
		sb.WriteString("g,y")
		for k := 1; k <= cols; k++ {
			fmt.Fprintf(&sb, ",x%d", k)
		}
		sb.WriteString("\n")
		for r := 0; r < 6; r++ {
			fmt.Fprintf(&sb, "t%d,%d", r%2, r)
			for k := 1; k <= cols; k++ {
				fmt.Fprintf(&sb, ",%d", c.cell(r, k))
			}
			sb.WriteString("\n")
		}
		d, err := Load([]byte(sb.String()), LoadOptions{Name: "wide.csv", TaskColumn: "g", LabelColumn: "y"})
		if err != nil {
			t.Fatal(err)
		}
		sum := d.Summary()
		if !strings.Contains(sum.SameNote, c.want) || len(sum.SameColumns) != 10 {
			t.Errorf("%s: note %q, %d columns to leave out; want %q and 10", c.name, sum.SameNote, len(sum.SameColumns), c.want)
		}
	}
}

// BenchmarkSameNote: the note's pass over a wide file (2,000 rows, 500
// numeric columns), as Summary makes it on every load.
func BenchmarkSameNote(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("g,y")
	for j := 0; j < 500; j++ {
		fmt.Fprintf(&sb, ",x%d", j)
	}
	sb.WriteString("\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&sb, "g%d,%d", i%20, i%7)
		for j := 0; j < 500; j++ {
			fmt.Fprintf(&sb, ",%d", (i*7919+j*104729+i*j)%1000003)
		}
		sb.WriteString("\n")
	}
	d, err := Load([]byte(sb.String()), LoadOptions{Name: "wide.csv", TaskColumn: "g", LabelColumn: "y"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		sameNote(d)
	}
}
