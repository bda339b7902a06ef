package session

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/data"
)

// columnAt reads column j back from a ColumnTable, as the page does
// (web/js/columns.js Columns.column).
func columnAt(t *testing.T, ct ColumnTable, j int) data.ColumnInfo {
	t.Helper()
	c := data.ColumnInfo{Name: ct.Names.At(j), Role: RoleOf(ct.Roles[j])}
	k := int(ct.Menus[j] - 'a')
	if k < 0 || k >= len(ct.Menu) {
		t.Fatalf("column %d: menu letter %q names none of %d menus", j, ct.Menus[j], len(ct.Menu))
	}
	c.Roles = ct.Menu[k]
	bits := ct.Marks[j] - '0'
	c.Thousands, c.ID, c.DecimalComma, c.Percent, c.Money = bits&1 != 0, bits&2 != 0, bits&4 != 0, bits&8 != 0, bits&16 != 0
	n := ct.Notes
	for k, i := range n.Index {
		if i != j {
			continue
		}
		c.Distinct, c.Reason = n.Distinct[k], n.Reasons.At(k)
		from := 0
		if k > 0 {
			from = n.Kept[k-1]
		}
		for v := from; v < n.Kept[k]; v++ {
			c.Values = append(c.Values, n.Values.At(v))
		}
	}
	return c
}

// TestPack: texts packed with their ends in UTF-16 code units, as
// JavaScript cuts them, whatever their characters; At reads each back.
func TestPack(t *testing.T) {
	cases := []struct {
		texts []string
		ends  []int
	}{
		{nil, []int{}},
		{[]string{"task", "", "y"}, []int{4, 4, 5}},
		{[]string{"é", "😀x", "", "日本"}, []int{1, 4, 4, 6}},
		{[]string{"a\xffb", "c"}, []int{3, 4}},
	}
	for _, c := range cases {
		p := Pack(c.texts)
		if !reflect.DeepEqual(p.Ends, c.ends) || p.Text != strings.Join(c.texts, "") {
			t.Errorf("Pack(%q) = %+v, want ends %v", c.texts, p, c.ends)
		}
		for i, want := range c.texts {
			if got := p.At(i); got != want {
				t.Errorf("Pack(%q).At(%d) = %q", c.texts, i, got)
			}
		}
	}
	if got := (Packed{Text: "ab", Ends: []int{5}}).At(0); got != "" {
		t.Errorf("ends past the text: At(0) = %q, want \"\"", got)
	}
}

// idRows writes n rows whose column "row" holds a different whole number
// in each (an id), "city" a word of three, "big" numbers with thousands
// separators (repeating), and "many" a different word in every row.
func idRows(n int) string {
	var sb strings.Builder
	sb.WriteString("task,y,row,city,big,many,\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "t%d,%d,%d,%s,\"1,%03d\",w%d,%d\n", i%2, i%3, 100+i, []string{"oslo", "lima", "pune"}[i%3], i%5, i, i%4)
	}
	return sb.String()
}

// TestColumnTable: every column of a loaded CSV read back from its
// columnar form is the column the intake described (its name, role, the
// roles its menu offers, its marks, its words), and the per-column
// members are one byte per column.
func TestColumnTable(t *testing.T) {
	cases := []struct {
		name, text string
		opt        LoadOptions
	}{
		{"toy", toyCSV, LoadOptions{Name: "toy.csv"}},
		{"ids, words, thousands, an unnamed column", idRows(12), LoadOptions{Name: "mixed.csv", Drop: []string{"many"}}},
		{"a text column kept", idRows(12), LoadOptions{Name: "mixed.csv", Text: []string{"big"}, Drop: []string{"many"}}},
		{"a column refused", idRows(60), LoadOptions{Name: "many.csv", Text: []string{"many"}}},
		{"decimal commas and percentages", "task;y;share;rate\na;1,5;12%;0,25\na;2;7,5%;1\nb;3;10%;0,5\nb;4;1%;2\n", LoadOptions{Name: "eu.csv"}},
	}
	seen, marks := "", byte(0)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := New()
			sum, err := s.Load(c.text, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			want := s.datasets[sum.Handle].Summary()
			ct := sum.Columns
			seen += ct.Roles
			for _, m := range []byte(ct.Marks) {
				marks |= m - '0'
			}
			if sum.Summary.Header != nil || sum.Summary.Columns != nil {
				t.Errorf("the header and columns are also sent as lists: %d names, %d columns", len(sum.Summary.Header), len(sum.Summary.Columns))
			}
			if !reflect.DeepEqual(ct.Names, Pack(want.Header)) {
				t.Errorf("names %+v, want the header %q", ct.Names, want.Header)
			}
			n := len(want.Columns)
			if len(ct.Roles) != n || len(ct.Menus) != n || len(ct.Marks) != n {
				t.Fatalf("%d columns: roles %q, menus %q, marks %q", n, ct.Roles, ct.Menus, ct.Marks)
			}
			for j, w := range want.Columns {
				if len(w.Values) > NoteValues {
					w.Values = w.Values[:NoteValues]
				}
				if got := columnAt(t, ct, j); !reflect.DeepEqual(got, w) {
					t.Errorf("column %d: read back %+v, want %+v", j, got, w)
				}
			}
		})
	}
	// The cases hold every role and each mark.
	for _, r := range RoleLetters {
		if !strings.ContainsRune(seen, r) {
			t.Errorf("no case has a column of role %q", r)
		}
	}
	if marks != 15 {
		t.Errorf("the cases' columns have the marks %04b, want each of the four", marks)
	}
}

// TestColumnTableCounts: a text column's note says how many values it
// has when it keeps only the first NoteValues; a file with no columns
// (the sparse format) has names and no roles.
func TestColumnTableCounts(t *testing.T) {
	s := New()
	sum, err := s.Load(idRows(30), LoadOptions{Name: "w.csv", Text: []string{"row"}, Drop: []string{"many"}})
	if err != nil {
		t.Fatal(err)
	}
	n, found := sum.Columns.Notes, false
	for k, j := range n.Index {
		if sum.Columns.Names.At(j) == "row" {
			found = true
			from := 0
			if k > 0 {
				from = n.Kept[k-1]
			}
			if n.Count[k] != 30 || n.Kept[k]-from != NoteValues || n.Values.At(from) != "100" {
				t.Errorf("row's note %d of %+v: want 30 values, the first %d kept", k, n, NoteValues)
			}
		}
	}
	if !found {
		t.Errorf("no note for the text column row: %+v", n)
	}
	sp, err := s.Load("a 1 1:0.5 3:2\nb -1 2:1\n", LoadOptions{Name: "s.svm"})
	if err != nil {
		t.Fatal(err)
	}
	if sp.Columns.Roles != "" || len(sp.Columns.Notes.Index) != 0 {
		t.Errorf("sparse: %+v, want no column roles", sp.Columns)
	}
}
