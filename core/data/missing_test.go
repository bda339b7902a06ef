package data

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestOmitMissing reads files with missing values leaving their rows out:
// which rows go (a missing task, label or number, an empty or NA cell of a
// text column, as R's na.omit drops a row whose factor is NA; not a value
// in a column left out), where the rest come from in the file, what
// Omitted says, and that no text column keeps a level for the cells left
// out.
func TestOmitMissing(t *testing.T) {
	const file = "task,y,x1,colour,note\n" +
		"a,1,2,red,\n" + // line 2, row 0: kept (an empty left-out cell)
		"a,NA,3,blue,x\n" + // row 1: the label
		"b,2,,red,x\n" + // row 2: a number
		",3,4,red,x\n" + // row 3: the task
		"b,4,5,,x\n" + // row 4: an empty text cell
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
			map[string][]int{"a": {0, 6}},
			&Omitted{Rows: 5, Of: 7, Columns: []MissingColumn{{"x1", 2}, {"task", 1}, {"y", 1}, {"colour", 1}}, Lines: []int{3, 4, 5, 6, 7}, Tasks: []string{"b", "c"}}},
		{"an NA of words", TableOptions{OmitMissing: true, Drop: []string{"note", "x1"}, Text: []string{"y"}, LabelColumn: "colour"},
			map[string][]int{"a": {0, 6}, "b": {2, 3, 4}, "c": {5}},
			&Omitted{Rows: 1, Of: 7, Columns: []MissingColumn{{"y", 1}}, Lines: []int{3}}},
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
			for _, c := range tab.Encoding.Columns {
				if c.Values != nil && slices.ContainsFunc(c.Values, MissingMarker) {
					t.Errorf("column %s keeps a level for the rows left out: %q", c.Name, c.Values)
				}
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
			"12 of the 749 rows were left out for a missing value (a: 5, b: 4, c: 3, d: 2, e: 1, f: 1, and 1 more column), the first at lines 2, 3, 4, 5, 6; 2 tasks had no other rows and are not in the data: s3, s4"},
	}
	for _, tc := range tests {
		if got := tc.o.Text(); got != tc.want {
			t.Errorf("Text() = %q\nwant %q", got, tc.want)
		}
	}
}

// TestOmitMissingWordsPredict: new rows read with a model's encoding and
// OmitMissing leave out a row whose text cell is NA when the encoding has
// no level for it (the model was trained leaving such rows out), and keep
// it at its level when the encoding has one (trained without omit).
func TestOmitMissingWordsPredict(t *testing.T) {
	const rows = "task,x,colour\na,1,red\na,2,NA\nb,3,blue\n"
	for _, tc := range []struct {
		name, train string
		omit        bool
		kept        int
	}{
		{"trained leaving NA out", "task,y,x,colour\na,1,1,red\na,2,2,NA\nb,3,3,blue\nb,4,4,red\n", true, 2},
		{"trained with NA a level", "task,y,x,colour\na,1,1,red\na,2,2,NA\nb,3,3,blue\nb,4,4,red\n", false, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			train, err := ReadTable([]byte(tc.train), "train.csv", TableOptions{OmitMissing: tc.omit})
			if err != nil {
				t.Fatal(err)
			}
			tab, err := LoadNewRowsWith([]byte(rows), "new.csv", train.Encoding, NewRowsOptions{OmitMissing: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := tab.Data.Rows(); got != tc.kept {
				t.Errorf("%d rows read, want %d (omitted: %q)", got, tc.kept, tab.Omitted.Text())
			}
		})
	}
}

// TestWordGapWithoutOmit: without omit an NA word is a value of its own,
// but the model trained leaving such rows out has no indicator for it:
// predict refuses it as a missing value with omit as the remedy, and the
// training refusal that offers omit counts the rows omit would also take.
func TestWordGapWithoutOmit(t *testing.T) {
	train, err := ReadTable([]byte("task,y,x,colour\na,1,1,red\na,2,2,NA\nb,3,3,blue\nb,4,4,red\n"), "train.csv", TableOptions{OmitMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	_, err = LoadNewRowsWith([]byte("task,x,colour\na,1,red\na,2,NA\n"), "new.csv", train.Encoding, NewRowsOptions{})
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrMissingValue) || pe.Line != 3 || pe.Column != 3 || !pe.Remedy.Omit {
		t.Errorf("an NA word the model has no value for: %v (%+v), want a missing value at new.csv:3:3 with omit as the remedy", err, pe)
	}
	_, err = ReadTable([]byte("task,y,x,colour\na,1,1,red\na,NA,2,red\nb,3,3,NA\nb,4,4,\nb,5,5,blue\n"), "m.csv", TableOptions{})
	if err == nil || !strings.Contains(err.Error(), "1 of the 5 rows has a missing value") || !strings.Contains(err.Error(), "3 in all") || !strings.Contains(err.Error(), "colour: 2") {
		t.Errorf("refusal %v: want the label's one row, and 3 rows in all with colour's two gaps", err)
	}
	tab, err := ReadTable([]byte("task,y,x,colour\na,1,1,red\na,NA,2,red\nb,3,3,NA\nb,4,4,\nb,5,5,blue\n"), "m.csv", TableOptions{OmitMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Omitted.Rows != 3 {
		t.Errorf("omit left out %d rows, the refusal said 3", tab.Omitted.Rows)
	}
}
