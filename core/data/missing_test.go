package data

import (
	"reflect"
	"testing"
)

// TestOmitMissing reads files with missing values leaving their rows out:
// which rows go (a missing task, label or number; not a text column's
// empty cell, nor a value in a column left out), where the rest come
// from in the file, and what Omitted says.
func TestOmitMissing(t *testing.T) {
	const file = "task,y,x1,colour,note\n" +
		"a,1,2,red,\n" + // line 2, row 0: kept (an empty text cell, an empty left-out cell)
		"a,NA,3,blue,x\n" + // row 1: the label
		"b,2,,red,x\n" + // row 2: a number
		",3,4,red,x\n" + // row 3: the task
		"b,4,5,,x\n" + // row 4: kept (an empty text cell)
		"c,5,?,red,x\n" + // row 5: c's only row
		"\n" + // blank: not a row
		"a,6,7,blue,x\n" // line 9, row 6: kept
	tests := []struct {
		name    string
		opt     TableOptions
		sources map[string][]int
		omitted *Omitted
	}{
		{"left out", TableOptions{OmitMissing: true, Drop: []string{"note"}},
			map[string][]int{"a": {0, 6}, "b": {4}},
			&Omitted{Rows: 4, Of: 7, Columns: []MissingColumn{{"x1", 2}, {"task", 1}, {"y", 1}}, Lines: []int{3, 4, 5, 7}, Tasks: []string{"c"}}},
		{"nothing missing in what is read", TableOptions{OmitMissing: true, Drop: []string{"note", "x1"}, Text: []string{"y"}, LabelColumn: "colour"},
			map[string][]int{"a": {0, 1, 6}, "b": {2, 3, 4}, "c": {5}},
			nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := file
			if tc.opt.LabelColumn == "colour" {
				// Classes need two values; the task column keeps its gap.
				text = "task,y,x1,colour,note\na,1,2,red,\na,NA,3,blue,x\nb,2,,red,x\nb,3,4,red,x\nb,4,5,blue,x\nc,5,?,red,x\n\na,6,7,blue,x\n"
			}
			tab, err := ReadTable([]byte(text), "m.csv", tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string][]int{}
			for _, tk := range tab.Data.Tasks {
				got[tk.Name] = tk.Source
				if tk.X.RawMatrix().Rows != len(tk.Source) || len(tk.Y) != len(tk.Source) {
					t.Errorf("task %s: %d rows of X, %d labels, %d sources", tk.Name, tk.X.RawMatrix().Rows, len(tk.Y), len(tk.Source))
				}
			}
			if !reflect.DeepEqual(got, tc.sources) {
				t.Errorf("sources %v, want %v", got, tc.sources)
			}
			if tab.Data.SourceRows != 7 {
				t.Errorf("SourceRows %d, want the file's 7 data rows", tab.Data.SourceRows)
			}
			if !reflect.DeepEqual(tab.Omitted, tc.omitted) {
				t.Errorf("Omitted %+v, want %+v", tab.Omitted, tc.omitted)
			}
		})
	}
}

// TestOmittedText checks the sentence a front end shows.
func TestOmittedText(t *testing.T) {
	tests := []struct {
		o    *Omitted
		want string
	}{
		{nil, ""},
		{&Omitted{Rows: 1, Of: 10, Columns: []MissingColumn{{"x1", 1}}, Lines: []int{4}},
			"1 of the 10 rows was left out for a missing value (x1: 1), at line 4"},
		{&Omitted{Rows: 3, Of: 749, Columns: []MissingColumn{{"x1", 2}, {"dose mg", 1}}, Lines: []int{4, 9, 22}, Tasks: []string{"s3"}},
			`3 of the 749 rows were left out for a missing value (x1: 2, "dose mg": 1), at lines 4, 9, 22; task s3 had no other rows and is not in the data`},
		{&Omitted{Rows: 12, Of: 749, Columns: []MissingColumn{{"a", 5}, {"b", 4}, {"c", 3}, {"d", 2}, {"e", 1}, {"f", 1}, {"g", 1}}, Lines: []int{2, 3, 4, 5, 6}, Tasks: []string{"s3", "s4"}},
			"12 of the 749 rows were left out for a missing value (a: 5, b: 4, c: 3, d: 2, e: 1, f: 1, and 1 more column), the first at lines 2, 3, 4, 5, 6; 2 tasks had no other rows and are not in the data: s3 s4"},
	}
	for _, tc := range tests {
		if got := tc.o.Text(); got != tc.want {
			t.Errorf("Text() = %q\nwant %q", got, tc.want)
		}
	}
}
