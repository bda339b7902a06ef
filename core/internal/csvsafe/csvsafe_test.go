package csvsafe

import (
	"encoding/csv"
	"slices"
	"strings"
	"testing"
)

func TestCell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"plain", "plain"},
		{"a=b", "a=b"},
		{"=1+1", "'=1+1"},
		{`=HYPERLINK("http://x","y")`, `'=HYPERLINK("http://x","y")`},
		{"+cmd", "'+cmd"},
		{"-cmd", "'-cmd"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\r=1"},
		{"\n=1", "'\n=1"},
		{"-", "'-"},
		{"-Inf", "'-Inf"},
		{"-0.5 0.3", "'-0.5 0.3"},
		// Numbers stay numbers.
		{"-1.5", "-1.5"},
		{"+2", "+2"},
		{"-3e-07", "-3e-07"},
		{"-.5", "-.5"},
		{"-7.", "-7."},
		{"0.25", "0.25"},
		{"NaN", "NaN"},
		{"-.", "'-."},
		{"-1e", "'-1e"},
		{"-1e+", "'-1e+"},
		{"-1e+5", "-1e+5"},
		{"+1.5E-3", "+1.5E-3"},
		{"-1.5x", "'-1.5x"},
		{"--1", "'--1"},
	} {
		if got := Cell(tc.in); got != tc.want {
			t.Errorf("Cell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestTextReadsBack: the text reads back (encoding/csv) as the cells made
// inert, quotes, commas and line breaks included.
func TestTextReadsBack(t *testing.T) {
	rows := [][]string{
		{"task", "value"},
		{"=1+1", "-2.5"},
		{`a "quoted", name`, "+x"},
		{"line\nbreak", "@y"},
	}
	text := Text(rows)
	got, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatalf("read back %q: %v", text, err)
	}
	want := [][]string{{"task", "value"}, {"'=1+1", "-2.5"}, {`a "quoted", name`, "'+x"}, {"line\nbreak", "'@y"}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("read back %q, want %q", got, want)
	}
}
