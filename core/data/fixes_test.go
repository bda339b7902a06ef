package data

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// concCSV returns a file of 14 rows whose column conc holds the whole
// numbers 95 to 1000 (7 of them), and the value odd in row 5 (line 6).
func concCSV(odd string) string {
	concs := []string{"95", "175", "250", "350", "500", "675", "1000"}
	var b strings.Builder
	b.WriteString("task,y,conc\n")
	for i := 0; i < 14; i++ {
		c := concs[i%7]
		if i == 4 {
			c = odd
		}
		fmt.Fprintf(&b, "t%d,%d.5,%s\n", i%2, i%5, c)
	}
	return b.String()
}

// TestOpenLevelOnly: a column of whole numbers is read as words unasked
// only for an open top level of a count (a whole number N at least the
// column's largest, then a suffix without digits: "3+", "7p", "10 or
// more"), of non-negative counts; any other word is refused where it is,
// like any word in a column of numbers, with its control characters
// escaped.
func TestOpenLevelOnly(t *testing.T) {
	words := func(want bool) func(*testing.T, *Table) {
		return func(t *testing.T, tab *Table) {
			got := len(tab.Levels) == 1
			if got != want {
				t.Errorf("levels %q, want read as words: %v", tab.Levels, want)
			}
		}
	}
	refused := func(line int, value string) string {
		return fmt.Sprintf(`mine.csv:%d:3: non-numeric value %s in column conc (13 of its 14 values are numbers): correct the value, read the column as words, or leave the column out`, line, value)
	}
	runTableCases(t, []tableCase{
		{name: "a unit typed after a number", text: concCSV("175ppm"), err: refused(6, `"175ppm"`)},
		{name: "the letter O for a zero", text: concCSV("1O0"), err: refused(6, `"1O0"`)},
		{name: "a control byte before a number", text: concCSV("\x1275"), err: refused(6, `"\x1275"`)},
		{name: "a control byte after the top level", text: concCSV("1000\x12"), err: refused(6, `"1000\x12"`)},
		{name: "a level below the top", text: concCSV("500+"), err: refused(6, `"500+"`)},
		{name: "no number first", text: concCSV(">1000"), err: refused(6, `">1000"`)},
		{name: "digits in the suffix", text: concCSV("1000-2000"), err: refused(6, `"1000-2000"`)},
		{name: "the top level", text: concCSV("1000+"), check: words(true)},
		{name: "above the top", text: concCSV("2000 or more"), check: words(true)},
		{name: "negative counts", text: strings.Replace(concCSV("1000+"), ",95\n", ",-95\n", 1), err: refused(6, `"1000+"`)},
		{name: "3+ after 0, 1, 2", text: visitsCSV(12, "3+"), check: words(true)},
		{name: "7p and 10 or more", text: strings.ReplaceAll(visitsCSV(12, "7p"), ",0,", ",10 or more,"), check: words(true)},
		{name: "1+ below 2", text: visitsCSV(12, "1+"), err: `mine.csv:5:4: non-numeric value "1+" in column visits`},
	})
}

// TestMissingTaskName: a missing-value marker in the task column (NA, ?,
// as R and the UCI files write a missing factor) is a missing task name,
// as an empty cell is: refused by default with the rows counted, left out
// under OmitMissing, and refused in new rows.
func TestMissingTaskName(t *testing.T) {
	const text = "g,y,x\na,1,1\nb,2,2\nNA,3,3\na,4,4\n?,5,5\nb,6,6\n,7,7\n"
	runTableCases(t, []tableCase{
		{name: "NA refused", text: "g,y,x\na,1,1\nb,2,2\nNA,3,3\na,4,4\n", opt: TableOptions{TaskColumn: "g"},
			err: `mine.csv:4:1: missing task name ("NA") in column g: 1 of the 4 rows has a missing value; leave those rows out, or give them their tasks`},
		{name: "? refused, all counted", text: strings.Replace(text, "NA,", "b,", 1), opt: TableOptions{TaskColumn: "g"},
			err: `mine.csv:6:1: missing task name ("?") in column g: 2 of the 7 rows have a missing value, all in this column; leave those rows out, or give them their tasks`},
		{name: "empty refused as before", text: "g,y,x\na,1,1\n,2,2\n", opt: TableOptions{TaskColumn: "g"},
			err: `mine.csv:3:1: empty task name in column g: 1 of the 2 rows has a missing value`},
		{name: "left out", text: text, opt: TableOptions{TaskColumn: "g", OmitMissing: true},
			check: func(t *testing.T, tab *Table) {
				if got := taskNames(tab.Data); !slices.Equal(got, []string{"a", "b"}) {
					t.Errorf("tasks %q, want [a b]", got)
				}
				o := tab.Omitted
				if o == nil || o.Rows != 3 || !slices.Equal(o.Lines, []int{4, 6, 8}) || len(o.Tasks) != 0 {
					t.Errorf("omitted %+v, want the 3 rows at lines 4, 6 and 8, no task", o)
				}
			}},
	})
	train, err := ReadTable([]byte(text), "train.csv", TableOptions{TaskColumn: "g", OmitMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, text string
		line       int
		want       string
	}{
		{"NA", "g,x\na,1\nNA,2\n", 3, `new.csv:3:1: missing task name ("NA") in column g: give the row its task, or delete the row`},
		{"?", "g,x\n?,2\n", 2, `new.csv:2:1: missing task name ("?") in column g`},
		{"empty", "g,x\na,1\n,2\n", 3, `new.csv:3:1: empty task name in column g`},
	} {
		t.Run("new rows "+tc.name, func(t *testing.T) {
			for _, tasks := range [][]string{nil, {"a", "b"}} {
				_, err := LoadNewRows([]byte(tc.text), "new.csv", train.Encoding, tasks)
				if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrMissingValue) {
					t.Errorf("tasks %q: error %v, want %q", tasks, err, tc.want)
				}
			}
		})
	}
}

// TestNaNMissing: NaN in a label or a numeric feature, as Python and
// numpy write a missing number, is a missing value: left out with
// OmitMissing, and refused without it with the offer to leave the rows
// out. Inf is refused either way, and new rows keep refusing NaN.
func TestNaNMissing(t *testing.T) {
	const text = "task,y,x1,x2\na,1,2,1\na,2,NaN,2\nb,3,4,3\nb,nan,5,4\nb,5,6,NA\n"
	for _, tc := range []struct {
		name, text string
		opt        TableOptions
		err        string
		sentinel   error
		remedy     Remedy
		rows       int // rows read
		left       string
	}{
		{name: "NaN left out", text: text, opt: TableOptions{OmitMissing: true}, rows: 2,
			left: "3 of the 5 rows were left out for a missing value (y: 1, x1: 1, x2: 1), at lines 3, 5, 6"},
		{name: "NAN and nan in a feature left out", text: "task,y,x1\na,1,NAN\nb,2,nan\nb,3,4\na,4,5\n", opt: TableOptions{OmitMissing: true}, rows: 2,
			left: "2 of the 4 rows were left out for a missing value (x1: 2), at lines 2, 3"},
		{name: "NaN refused, rows counted", text: text,
			err:      `mine.csv:3:3: NaN or Inf value "NaN" in column x1: 3 of the 5 rows have a missing value or NaN (y: 1, x1: 1, x2: 1); leave those rows out, correct the values, or leave the column out`,
			sentinel: ErrNotFinite, remedy: Remedy{Drop: "x1", Omit: true}},
		{name: "a NaN label refused", text: "task,y,x1\na,1,2\na,NaN,3\nb,3,4\n",
			err:      `mine.csv:3:2: NaN or Inf label "NaN" in column y: 1 of the 3 rows has a missing value or NaN; leave those rows out, or give them their labels`,
			sentinel: ErrNotFinite, remedy: Remedy{Omit: true}},
		{name: "NA first, NaN later", text: "task,y,x1\na,1,NA\na,2,nan\nb,3,4\n",
			err:      `mine.csv:2:3: missing value ("NA") in column x1: 2 of the 3 rows have a missing value or NaN, all in this column`,
			sentinel: ErrMissingValue, remedy: Remedy{Drop: "x1", Omit: true}},
		{name: "Inf refused with omit", text: "task,y,x1\na,1,2\na,2,Inf\nb,3,4\n", opt: TableOptions{OmitMissing: true},
			err: `mine.csv:3:3: NaN or Inf value "Inf" in column x1: correct the value, or leave the column out`, sentinel: ErrNotFinite, remedy: Remedy{Drop: "x1"}},
		{name: "Inf label refused with omit", text: "task,y,x1\na,1,2\na,-inf,3\nb,3,4\n", opt: TableOptions{OmitMissing: true},
			err: `mine.csv:3:2: NaN or Inf label "-inf"`, sentinel: ErrNotFinite},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := ReadTable([]byte(tc.text), "mine.csv", tc.opt)
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) || !errors.Is(err, tc.sentinel) || RemedyOf(err) != tc.remedy {
					t.Fatalf("error %v (remedy %+v), want %q wrapping %v, remedy %+v", err, RemedyOf(err), tc.err, tc.sentinel, tc.remedy)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := tab.Data.Rows(); got != tc.rows {
				t.Errorf("%d rows read, want %d", got, tc.rows)
			}
			if got := tab.Omitted.Text(); got != tc.left {
				t.Errorf("omitted %q, want %q", got, tc.left)
			}
		})
	}
	train, err := ReadTable([]byte(text), "train.csv", TableOptions{OmitMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	_, err = LoadNewRows([]byte("task,x1,x2\na,NaN,1\n"), "new.csv", train.Encoding, nil)
	if err == nil || !strings.Contains(err.Error(), `new.csv:2:2: NaN or Inf value "NaN" in column x1: correct the value, or delete the row`) {
		t.Errorf("new rows: error %v, want NaN refused", err)
	}
}

// TestRowNamesLeftOut: the unnamed columns a file starts with (R's
// write.csv row names under "", pandas' index under an empty name) are
// left out by default with the reason, as R's read.csv takes them as row
// names, and as with DropRefused; an unnamed column after a named one
// that holds a value is refused where the value is, unless DropRefused.
func TestRowNamesLeftOut(t *testing.T) {
	const why = "no name, so its values are not read"
	leftOut := func(cols ...int) func(*testing.T, *Table) {
		return func(t *testing.T, tab *Table) {
			for j, c := range tab.Columns {
				if want := slices.Contains(cols, j); want != (c.Role == RoleRefused && c.Reason == why) {
					t.Errorf("column %d %+v: left out for no name %v", j+1, c, want)
				}
			}
			if tab.Data.Features != 1 || tab.Data.Rows() != 3 {
				t.Errorf("%d features, %d rows, want x alone and 3 rows", tab.Data.Features, tab.Data.Rows())
			}
		}
	}
	for _, o := range []struct {
		label string
		opt   TableOptions
	}{{"", TableOptions{}}, {", unticked", TableOptions{DropRefused: true}}, {", numbers only", TableOptions{NumericOnly: true}}} {
		opt := o.opt
		runTableCases(t, []tableCase{
			{name: "R row names" + o.label, text: "\"\",\"task\",\"y\",\"x\"\n\"1\",\"a\",1,2\n\"2\",\"a\",0,3\n\"3\",\"b\",1,4\n", opt: opt, check: leftOut(0)},
			{name: "R row names as text" + o.label, text: "\"\",task,y,x\nr1,a,1,2\nr2,a,0,3\nr3,b,1,4\n", opt: opt, check: leftOut(0)},
			{name: "pandas index" + o.label, text: ",task,y,x\n0,a,1,2\n1,a,0,3\n2,b,1,4\n", opt: opt, check: leftOut(0)},
			{name: "pandas two-level index" + o.label, text: ",,task,y,x\n0,p,a,1,2\n1,q,a,0,3\n2,r,b,1,4\n", opt: opt, check: leftOut(0, 1)},
		})
	}
	runTableCases(t, []tableCase{
		{name: "a later unnamed column refused", text: "task,,y,x\na,1,1,2\na,2,0,3\nb,3,1,4\n",
			err: `mine.csv:2:2: column 2 has values ("1") but no name in the header; name it in the header, or delete the column`},
		{name: "a later unnamed column unticked", text: "task,,y,x\na,1,1,2\na,2,0,3\nb,3,1,4\n", opt: TableOptions{DropRefused: true}, check: leftOut(1)},
	})
}

// TestDotThousands: in a file that writes its numbers with a decimal comma
// (a semicolon-separated one with a number such as "30,4", or a
// comma-separated one with such numbers in quotes), a point that groups
// three digits separates thousands ("1.750" is 1750, "3.227,64" 3227.64),
// in every numeric column and the label, and a point anywhere else in a
// number is refused where it is. Without a decimal comma in the file, a
// point is a decimal point ("1.750" is 1.75).
func TestDotThousands(t *testing.T) {
	col := func(tab *Table, name string) ColumnInfo {
		for _, c := range tab.Columns {
			if c.Name == name {
				return c
			}
		}
		return ColumnInfo{}
	}
	xs := func(tab *Table) []float64 {
		var out []float64
		for _, tk := range tab.Data.Tasks {
			for _, r := range denseRows(&tk) {
				out = append(out, r[0])
			}
		}
		return out
	}
	ys := func(tab *Table) []float64 {
		var out []float64
		for _, tk := range tab.Data.Tasks {
			out = append(out, tk.Y...)
		}
		return out
	}
	for _, tc := range []struct {
		name, text string
		x, y       []float64 // the feature's values and the labels, in task order
		thousands  bool      // conc is flagged Thousands
		comma      bool      // the encoding says DecimalComma
		err        string
	}{
		{name: "German integers with thousands", text: "g;conc;y\na;950;16\na;1.750;30,4\nb;10.000;39,7\nb;-2.500;1\n",
			x: []float64{950, 1750, 10000, -2500}, y: []float64{16, 30.4, 39.7, 1}, thousands: true, comma: true},
		{name: "German thousands and decimals", text: "g;conc;y\na;3.227,64;3,20\na;950,5;1\nb;1.234.567,8;2\n",
			x: []float64{3227.64, 950.5, 1234567.8}, y: []float64{3.2, 1, 2}, thousands: true, comma: true},
		{name: "a grouped label", text: "g;x;y\na;0,5;1.500\na;1,5;2.250,5\nb;2;3\n",
			x: []float64{0.5, 1.5, 2}, y: []float64{1500, 2250.5, 3}, comma: true},
		{name: "quoted decimal commas in a comma-separated file", text: "g,conc,y\na,\"0,5\",1.000\na,2,\"3,5\"\nb,\"1.750,25\",4\n",
			x: []float64{0.5, 2, 1750.25}, y: []float64{1000, 3.5, 4}, thousands: true, comma: true},
		{name: "a stray point refused", text: "g;conc;y\na;950;16\na;1.75;30,4\nb;10.000;39,7\n",
			err: `mine.csv:3:2: number "1.75" in column conc has a point, but the file writes its numbers with a decimal comma, where a point only separates thousands ("1.750" is 1750, "1.750,5" is 1750.5): correct the value, or leave the column out`},
		{name: "a group of two refused", text: "g;conc;y\na;950;16\na;1.75,5;30,4\nb;10.000;39,7\n", err: `mine.csv:3:2: number "1.75,5" in column conc has a point`},
		{name: "a leading zero refused", text: "g;conc;y\na;950;16\na;0.500;30,4\nb;10.000;39,7\n", err: `mine.csv:3:2: number "0.500" in column conc has a point`},
		{name: "a stray point in the label refused", text: "g;x;y\na;1;16,5\na;2;30.4\n",
			err: `mine.csv:3:3: label "30.4" in column y has a point, but the file writes its numbers with a decimal comma`},
		{name: "no decimal comma: a point is a decimal point", text: "g;conc;y\na;950;16\na;1.750;30\nb;10.000;39.7\n",
			x: []float64{950, 1.75, 10}, y: []float64{16, 30, 39.7}},
		{name: "a dot-decimal comma file", text: "g,conc,y\na,1.75,\"1,000\"\nb,10.000,2.5\nb,3,4\n",
			x: []float64{1.75, 10, 3}, y: []float64{1000, 2.5, 4}},
		{name: "a tab-separated file", text: "g\tconc\ty\na\t1.750\t1\nb\t2\t2\nb\t3\t3\n", x: []float64{1.75, 2, 3}, y: []float64{1, 2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := ReadTable([]byte(tc.text), "mine.csv", TableOptions{TaskColumn: "g"})
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) || !errors.Is(err, ErrNotNumber) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := xs(tab); !slices.Equal(got, tc.x) {
				t.Errorf("feature %v, want %v", got, tc.x)
			}
			if got := ys(tab); !slices.Equal(got, tc.y) {
				t.Errorf("labels %v, want %v", got, tc.y)
			}
			if got := col(tab, "conc").Thousands; got != tc.thousands {
				t.Errorf("conc thousands %v, want %v", got, tc.thousands)
			}
			if got := tab.Encoding.DecimalComma; got != tc.comma {
				t.Errorf("encoding's decimal comma %v, want %v", got, tc.comma)
			}
		})
	}
	// New rows are read as the training file wrote its numbers, even
	// without a decimal comma of their own.
	train, err := ReadTable([]byte("g;conc;y\na;950;16\na;1.750;30,4\nb;10.000;39,7\n"), "train.csv", TableOptions{TaskColumn: "g"})
	if err != nil {
		t.Fatal(err)
	}
	for _, nc := range []struct{ name, text, err string }{
		{"semicolons", "g;conc\na;1.000\nb;2.500\n", ""},
		{"commas", "g,conc\na,1.000\nb,2.500\n", ""},
		{"a stray point", "g;conc\na;1.000\nb;2.5\n", `new.csv:3:2: number "2.5" in column conc has a point, but the file writes its numbers with a decimal comma, where a point only separates thousands ("1.750" is 1750, "1.750,5" is 1750.5): correct the value, or delete the row`},
	} {
		t.Run("new rows, "+nc.name, func(t *testing.T) {
			tab, err := LoadNewRows([]byte(nc.text), "new.csv", train.Encoding, nil)
			if nc.err != "" {
				if err == nil || err.Error() != nc.err {
					t.Fatalf("error %v, want %q", err, nc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := xs(tab); !slices.Equal(got, []float64{1000, 2500}) {
				t.Errorf("conc %v, want [1000 2500]", got)
			}
		})
	}
}
