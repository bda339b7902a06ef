package data

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestReadTableOwnFiles: files a visitor brings, through the one intake:
// the summary the intake gives, or the refusal, with its position.
// tableCase is a file ReadTable reads as mine.csv with opt: refused with
// an error containing err, or read and then checked.
type tableCase struct {
	name, text string
	opt        TableOptions
	err        string // substring of the error, or ""
	check      func(t *testing.T, tab *Table)
}

// runTableCases runs each case as a subtest.
func runTableCases(t *testing.T, cases []tableCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := ReadTable([]byte(tc.text), "mine.csv", tc.opt)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, tab)
		})
	}
}

func TestReadTableOwnFiles(t *testing.T) {
	twelve := "task,y,x\n"
	for _, tn := range []string{"a", "b"} {
		for i := 0; i < 12; i++ {
			twelve += fmt.Sprintf("%s,%d,%d\n", tn, i%2, i)
		}
	}
	runTableCases(t, []tableCase{
		{name: "no task column", text: "group,y,x1\na,1,2\n", err: `mine.csv:1:1: no task column "task" in header (group, y, x1); choose the task column among these`},
		{name: "no label column", text: "task,label,x1\na,1,2\n", err: `no label column "y" in header (task, label, x1)`},
		{name: "names with spaces quoted", text: "ward;dose mg;outcome\na;1;2\n", err: `no task column "task" in header (ward, dose mg, outcome)`},
		{name: "named columns", text: "group,label,x1\na,1,2\nb,0,3\n", opt: TableOptions{TaskColumn: "group", LabelColumn: "label"},
			check: func(t *testing.T, tab *Table) { wantTasks(t, tab, "a", "b") }},
		{name: "semicolon with decimal commas", text: "task;y;x1;x2\na;1,5;2,25;3\nb;0;1;1\nb;2;1;-0,5\n",
			check: func(t *testing.T, tab *Table) {
				if tab.Encoding.Delimiter != ";" || tab.Data.Features != 2 || tab.Data.Kind != Regression {
					t.Fatalf("delimiter %q, %d features, %v", tab.Encoding.Delimiter, tab.Data.Features, tab.Data.Kind)
				}
				if tab.Data.Tasks[0].Y[0] != 1.5 || tab.Data.Tasks[0].X.At(0, 0) != 2.25 || tab.Data.Tasks[1].X.At(1, 1) != -0.5 {
					t.Errorf("decimal commas: y %v, x %v", tab.Data.Tasks[0].Y, tab.Data.Tasks[1].X.RawMatrix().Data)
				}
			}},
		{name: "tab", text: "task\ty\tx1\na\t1\t2\nb\t0\t3\n",
			check: func(t *testing.T, tab *Table) {
				if tab.Encoding.Delimiter != "\t" || DelimiterName('\t') != "tab" {
					t.Errorf("delimiter %q", tab.Encoding.Delimiter)
				}
			}},
		{name: "one column", text: "task|y|x\na|1|2\n", err: `the header has a single column "task|y|x": the file has no comma, semicolon or tab between column names (it holds "|" between names: save the file with commas, semicolons or tabs between fields)`},
		{name: "one name", text: "score\n1\n2\n", err: `the header has a single column "score": the file has no comma, semicolon or tab between column names`},
		// Excel's first line "sep=;" names the delimiter; later lines keep
		// their numbers.
		{name: "excel sep line", text: "\ufeffsep=;\r\ntask;y;x1,x2\r\na;1;2\r\nb;0;3\r\n",
			check: func(t *testing.T, tab *Table) {
				if tab.Encoding.Delimiter != ";" || !reflect.DeepEqual(tab.Header, []string{"task", "y", "x1,x2"}) {
					t.Errorf("delimiter %q, header %q", tab.Encoding.Delimiter, tab.Header)
				}
				wantTasks(t, tab, "a", "b")
			}},
		{name: "excel sep line, tab", text: "sep=\t\ntask\ty\tx;1\na\t1\t2\n",
			check: func(t *testing.T, tab *Table) {
				if tab.Encoding.Delimiter != "\t" || tab.Header[2] != "x;1" {
					t.Errorf("delimiter %q, header %q", tab.Encoding.Delimiter, tab.Header)
				}
			}},
		{name: "excel sep line, line numbers", text: "sep=;\ntask;y;x\na;1;2\na;1;oops\n", err: "mine.csv:4:3: non-numeric value"},
		{name: "a first name that starts sep=", text: "sep=x,task,y\n1,a,2\n2,b,3\n",
			check: func(t *testing.T, tab *Table) {
				if tab.Header[0] != "sep=x" || tab.Encoding.Delimiter != "," {
					t.Errorf("header %q, delimiter %q", tab.Header, tab.Encoding.Delimiter)
				}
			}},
		{name: "excel sep line, other delimiter", text: "sep=|\ntask|y|x\na|1|2\n", err: `mine.csv:1:1: the first line "sep=|" names the delimiter "|": spmtl reads comma, semicolon or tab`},
		{name: "stray third label", text: "task,y,x\na,0,1\na,1,2\nb,1,3\nb,2,4\nb,0,5\n",
			check: func(t *testing.T, tab *Table) {
				if tab.Data.Kind != Regression || tab.Labels.Note != "y has 3 distinct values (0, 1, 2): read as regression" {
					t.Errorf("kind %v, note %q", tab.Data.Kind, tab.Labels.Note)
				}
				if th := tab.Labels.Third; th == nil || th.Line != 5 || th.Column != 2 {
					t.Errorf("third value at %+v, want line 5 column 2", th)
				}
			}},
		// A row number chosen as the label: every value one more than the
		// one before. Twelve labels counting up, and the same twelve in
		// another order (an id, or a measurement of whole numbers), which
		// get no note.
		{name: "a label that counts the rows", text: counted(12, func(i int) int { return 1001 + i }),
			check: func(t *testing.T, tab *Table) {
				if want := "y counts up by one from row to row (1001, 1002, … 1012), as a row number does: a model of it learns nothing; choose the column that holds what to predict"; tab.Labels.Note != want {
					t.Errorf("note %q,\nwant %q", tab.Labels.Note, want)
				}
			}},
		{name: "whole labels in no order", text: counted(12, func(i int) int { return 1001 + (i*5)%12 }),
			check: func(t *testing.T, tab *Table) {
				if tab.Labels.Note != "" {
					t.Errorf("note %q", tab.Labels.Note)
				}
			}},
		{name: "few whole labels, in number order", text: "task,y,x\na,10,1\na,6,2\nb,8,3\nb,0,4\n",
			check: func(t *testing.T, tab *Table) {
				if want := "y has 4 distinct values (0, 6, 8, 10): read as regression"; tab.Labels.Note != want {
					t.Errorf("note %q, want %q", tab.Labels.Note, want)
				}
			}},
		{name: "real regression labels get no note", text: "task,y,x\na,0.5,1\na,1.5,2\nb,2.25,3\n",
			check: func(t *testing.T, tab *Table) {
				if tab.Labels.Note != "" {
					t.Errorf("note %q", tab.Labels.Note)
				}
			}},
		{name: "BOM and CRLF", text: "\ufefftask,y,x\r\na,1,2\r\nb,0,3\r\n",
			check: func(t *testing.T, tab *Table) { wantTasks(t, tab, "a", "b") }},
		{name: "string labels", text: "task,y,x\na,yes,1\na,no,2\nb,no,3\n",
			check: func(t *testing.T, tab *Table) {
				if tab.Data.Kind != Classification || tab.Data.Positive != "yes" {
					t.Errorf("kind %v positive %q", tab.Data.Kind, tab.Data.Positive)
				}
			}},
		{name: "twelve rows per task", text: twelve,
			check: func(t *testing.T, tab *Table) {
				if tab.Data.Tasks[0].Rows() != 12 || tab.Data.Kind != Classification {
					t.Errorf("%d rows, %v", tab.Data.Tasks[0].Rows(), tab.Data.Kind)
				}
			}},
		{name: "unterminated quote", text: "task,y,x\na,1,2\nb,0,\"3\nb,1,4\nb,0,5\n", err: `mine.csv:3:3: a quote opened on line 3 is never closed`},
		{name: "binary", text: "ab\x00\x00binary", err: "mine.csv:1:3: not a text file: a zero byte, which text never holds: the file is binary, or damaged here"},
		{name: "a zero byte in a row", text: "task,y,x\na,1,2\nb,0,3\x00\n", err: "mine.csv:3:6: not a text file: a zero byte"},
		// Files given by mistake are named, with what to do instead.
		{name: "xlsx", text: "PK\x03\x04\x14\x00\x06\x00", err: "mine.csv: not a text file: it is a zip archive, such as an Excel workbook (.xlsx) or an OpenDocument sheet (.ods): save the sheet as CSV"},
		{name: "xls", text: "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1\x00", err: "it is an Excel 97-2003 workbook (.xls): save the sheet as CSV"},
		{name: "gzip", text: "\x1F\x8B\x08\x00", err: "it is compressed with gzip: decompress it"},
		{name: "pdf", text: "%PDF-1.7\n%\xE2\xE3\xCF\xD3\n", err: "it is a PDF document"},
		{name: "parquet", text: "PAR1\x15\x04", err: "it is a Parquet file"},
		{name: "packed", text: packedMagic + "\x07\x00", err: "mine.csv: not a text file: it is a packed table (spmtl pack), which keeps the encoded numbers but not the rows' text: give the CSV it was packed from"},
		{name: "not utf-8", text: "task,y,x\na,1,\xff\xfe\n", err: `mine.csv:2:5: the byte 0xFF after "a,1," is not UTF-8 text: save the file as UTF-8 text`},
		{name: "empty numeric cell", text: "task,y,x,z\na,1,2,\nb,0,3,1\n", err: "mine.csv:2:4: missing value in column z"},
		{name: "stray word in a numeric column", text: "task,y,x1\na,1,0.5\na,0,zz\nb,1,3\n",
			err: `mine.csv:3:3: non-numeric value "zz" in column x1 (2 of its 3 values are numbers): correct the value, read the column as words, or leave the column out`},
		{name: "stray word among too many numbers to encode", text: manyNumbers(60) + "c,1,zz\n",
			err: `mine.csv:62:3: non-numeric value "zz" in column x1 (60 of its 61 values are numbers): correct the value, or leave the column out`},
		{name: "text columns", text: "school,score,sex,intake,id\nS1,1.5,F,top 25%,17\nS1,0.5,M,mid 50%,18\nS2,-1,F,bottom 25%,19\nS2,2,,mid 50%,20\n",
			opt: TableOptions{TaskColumn: "school", LabelColumn: "score", Drop: []string{"id"}},
			check: func(t *testing.T, tab *Table) {
				want := []string{"sex=F", "sex=M", "sex=(empty)", "intake=top 25%", "intake=mid 50%", "intake=bottom 25%"}
				if !reflect.DeepEqual(tab.Data.FeatureNames, want) {
					t.Fatalf("features %q, want %q", tab.Data.FeatureNames, want)
				}
				if got := tab.Data.Tasks[1].X.RawRowView(1); !reflect.DeepEqual(got, []float64{0, 0, 1, 0, 1, 0}) {
					t.Errorf("S2 row 2 encoded as %v", got)
				}
				roles := map[string]Role{}
				for _, c := range tab.Columns {
					roles[c.Name] = c.Role
				}
				if roles["school"] != RoleTask || roles["score"] != RoleLabel || roles["sex"] != RoleText || roles["id"] != RoleDropped {
					t.Errorf("roles %v", roles)
				}
				if !reflect.DeepEqual(tab.Encoding.Dropped, []string{"id"}) {
					t.Errorf("dropped %v", tab.Encoding.Dropped)
				}
			}},
		{name: "id column kept as a number without -drop", text: "task,y,id,x\na,1,17,0.5\nb,0,18,1\n",
			check: func(t *testing.T, tab *Table) {
				if tab.Data.Features != 2 {
					t.Errorf("%d features", tab.Data.Features)
				}
			}},
		{name: "drop unknown column", text: "task,y,x\na,1,2\n", opt: TableOptions{Drop: []string{"idx"}}, err: `cannot leave out column "idx": the header has (task, y, x)`},
		{name: "drop the label", text: "task,y,x\na,1,2\n", opt: TableOptions{Drop: []string{"y"}}, err: `cannot leave out column "y": it is the label column`},
		{name: "51 values refused", text: manyValues(51), err: "mine.csv:1:3: text column city has 51 distinct values, more than 50 to encode; leave it out"},
		// A category whose values repeat (at most one per two rows) is
		// encoded with up to 500 values when it is named as words
		// (hunt9's 68 zip codes over 712 houses), and the refusal says so.
		{name: "51 categories refused", text: manyCategories(51, 120), err: "mine.csv:1:3: text column city has 51 distinct values, more than 50 to encode; up to 500 when it is named among the columns read as words; read it as words, or leave it out"},
		{name: "68 categories named as words", text: manyCategories(68, 200), opt: TableOptions{Text: []string{"city"}},
			check: func(t *testing.T, tab *Table) {
				if c := tab.Columns[2]; c.Role != RoleText || c.Distinct != 68 || tab.Data.Features != 69 {
					t.Errorf("column %+v, %d features; want city's 68 indicators and x", c, tab.Data.Features)
				}
			}},
		{name: "501 categories named as words, refused", text: manyCategories(501, 1100), opt: TableOptions{Text: []string{"city"}},
			err: "mine.csv:1:3: text column city has read as words: 501 distinct values, more than 500 to encode; leave it out"},
		{name: "68 values in 68 rows named as words, refused", text: manyValues(68), opt: TableOptions{Text: []string{"city"}},
			err: "mine.csv:1:3: text column city has read as words: 68 distinct values, more than 50 to encode; leave it out"},
		{name: "51 values unticked", text: manyValues(51), opt: TableOptions{DropRefused: true},
			check: func(t *testing.T, tab *Table) {
				c := tab.Columns[2]
				if c.Role != RoleRefused || c.Distinct != 51 || !strings.Contains(c.Reason, "51 distinct values") || tab.Data.Features != 1 {
					t.Errorf("column %+v, %d features", c, tab.Data.Features)
				}
			}},
		// A spreadsheet's trailing delimiter adds a column with neither a
		// name nor values: it is left out, with its position as its label.
		{name: "unnamed empty columns", text: "task,y,x,,\r\na,1,2,,\r\nb,0,3,,\r\n",
			check: func(t *testing.T, tab *Table) {
				if tab.Data.Features != 1 || len(tab.Columns) != 5 || tab.Encoding.Dropped != nil {
					t.Fatalf("%d features, columns %+v, dropped %q", tab.Data.Features, tab.Columns, tab.Encoding.Dropped)
				}
				for _, c := range tab.Columns[3:] {
					if c.Name != "" || c.Role != RoleRefused || c.Reason != "no name, no values" {
						t.Errorf("column %+v", c)
					}
				}
			}},
		// A named column with no value in any row (R's NA throughout, or
		// blank) is left out with the reason, however many there are: read,
		// its first cell refused the file, one column per reading.
		{name: "named columns with no value", text: "task,y,x,notes,blank\na,1,2,NA,\nb,0,3,NA,\n",
			check: func(t *testing.T, tab *Table) {
				if tab.Data.Features != 1 || !reflect.DeepEqual(tab.Encoding.Dropped, []string{"notes", "blank"}) {
					t.Fatalf("%d features, dropped %q", tab.Data.Features, tab.Encoding.Dropped)
				}
				for _, c := range tab.Columns[3:] {
					if c.Role != RoleRefused || c.Reason != "no value in any row" {
						t.Errorf("column %+v", c)
					}
				}
			}},
		{name: "a label with no value is refused", text: "task,y,x\na,NA,2\nb,NA,3\n", err: "missing value"},
		// pandas writes its row index as an unnamed first column, R's
		// write.csv its row names under "": left out, as R's read.csv
		// takes them as row names. An unnamed column after a named one
		// with a value is refused where the value is.
		{name: "unnamed column with values", text: ",task,y,x\n0,a,1,2\n1,a,0,3\n",
			check: func(t *testing.T, tab *Table) {
				if c := tab.Columns[0]; c.Role != RoleRefused || c.Reason != "no name, so its values are not read" || tab.Data.Features != 1 {
					t.Errorf("column %+v, %d features", c, tab.Data.Features)
				}
			}},
		{name: "unnamed column with values, on a later line", text: "task,y,x,\na,1,2,\na,0,3, 9\n", err: `mine.csv:3:4: column 4 has values ("9")`},
		{name: "unnamed column with values unticked", text: ",task,y,x\n0,a,1,2\n1,a,0,3\n", opt: TableOptions{DropRefused: true},
			check: func(t *testing.T, tab *Table) {
				if c := tab.Columns[0]; c.Role != RoleRefused || c.Reason != "no name, so its values are not read" || tab.Data.Features != 1 {
					t.Errorf("column %+v, %d features", c, tab.Data.Features)
				}
			}},
		{name: "only unnamed features", text: "task,y,\na,1,\n", err: "no feature columns: the header has only the task column \"task\" and the label column \"y\" (left out: column 3); read one of those back as a feature"},
		{name: "a one-way layout's names in R's backquotes", text: "ward,yield (g)\nA,1545\nB,1440\n", opt: TableOptions{TaskColumn: "ward", LabelColumn: "yield (g)"},
			err: "(R: lmer(`yield (g)` ~ 1 + (1 | ward)))"},
		{name: "a one-way layout", text: "\"Batch\",\"Yield\"\n\"A\",1545\n\"B\",1440\n", opt: TableOptions{TaskColumn: "Batch", LabelColumn: "Yield"},
			err: "mine.csv:1:1: no feature columns: the header has only the task column \"Batch\" and the label column \"Yield\". The models here learn each task's weights on features measured with each row; with none, each task's model would be its mean alone, which a one-way random-effects model fits (R: lmer(Yield ~ 1 + (1 | Batch))). Add a column of features to learn from"},
		// A trailing delimiter on the header's line only, or on the rows' only.
		{name: "trailing delimiter on the header only", text: "task,y,x,\na,1,2\nb,0,3,\n",
			check: func(t *testing.T, tab *Table) {
				if tab.Data.Features != 1 || tab.Data.Tasks[1].X.At(0, 0) != 3 {
					t.Errorf("%d features, b's x %v", tab.Data.Features, tab.Data.Tasks[1].X.RawMatrix().Data)
				}
			}},
		{name: "trailing delimiter on the rows only", text: "task,y,x\na,1,2,\nb,0,3, \n",
			check: func(t *testing.T, tab *Table) {
				if tab.Data.Features != 1 || len(tab.Columns) != 3 {
					t.Errorf("%d features, columns %+v", tab.Data.Features, tab.Columns)
				}
			}},
		// A file without its header: its first row is no header, and
		// choosing "columns" among its values would lose that row. A wide
		// table's years are names.
		{name: "no header", text: "t0,3.077,0.942,-1.397\nt0,1.736,0.371,0.5\n", err: `mine.csv:1:1: the first line (t0, 3.077, 0.942, -1.397) looks like a row of data, not a header (3 of its 4 fields are numbers such as "3.077"): add a first line that names the columns`},
		// A file of a header alone is said to have no rows before its
		// columns are asked for.
		{name: "a header alone, no task column", text: "group,score,x\n", err: "mine.csv:1:1: no data rows: the file has a header and nothing else"},
		// Percentages are numbers in the units written, and said so.
		{name: "percentages", text: "task,y,share\na,1,12%\na,2,7.5 %\nb,3,100%\nb,4,0\n",
			check: func(t *testing.T, tab *Table) {
				a, b := tab.Data.Tasks[0], tab.Data.Tasks[1]
				if a.X.At(0, 0) != 12 || a.X.At(1, 0) != 7.5 || b.X.At(0, 0) != 100 || b.X.At(1, 0) != 0 || !tab.Columns[2].Percent || tab.Columns[1].Percent {
					t.Errorf("x %v %v, columns %+v", a.X.RawMatrix().Data, b.X.RawMatrix().Data, tab.Columns)
				}
			}},
		// Two numbers with a fraction are two classes, and said so.
		{name: "two fractional labels", text: "task,y,x\na,0.1,1\na,0.9,2\nb,0.1,3\nb,0.9,4\n",
			check: func(t *testing.T, tab *Table) {
				if tab.Data.Kind != Classification || !strings.Contains(tab.Labels.Note, "y has two values, 0.1 and 0.9, so it is read as two classes") {
					t.Errorf("kind %v, note %q", tab.Data.Kind, tab.Labels.Note)
				}
			}},
		{name: "years name columns", text: "task,y,2019,2020\na,1,2,3\nb,2,3,4\n",
			check: func(t *testing.T, tab *Table) {
				if tab.Data.Features != 2 {
					t.Errorf("%d features", tab.Data.Features)
				}
			}},
		{name: "a value past the header's end", text: "task,y,x\na,1,2,5\n", err: "mine.csv:2:4: ragged row: 4 fields, want 3"},
		{name: "a short row under named columns", text: "task,y,x,z,\na,1,2\n", err: "mine.csv:2:4: ragged row: 3 fields, want 5"},
		// Quoted numbers with thousands separators in a comma-separated
		// file are numbers; more than 50 of them are no text column.
		{name: "thousands separators", text: "task,y,income,x\na,\"1,500\",\"12,345\",1\na,2,\"1,234,567.5\",2\nb,3,987,3\nb,\"-2,000.25\",\"+1,000\",4\n",
			check: func(t *testing.T, tab *Table) {
				a, b := tab.Data.Tasks[0], tab.Data.Tasks[1]
				if tab.Data.Features != 2 || a.Y[0] != 1500 || b.Y[1] != -2000.25 || a.X.At(0, 0) != 12345 || a.X.At(1, 0) != 1234567.5 || b.X.At(1, 0) != 1000 {
					t.Errorf("%d features, y %v %v, x %v %v", tab.Data.Features, a.Y, b.Y, a.X.RawMatrix().Data, b.X.RawMatrix().Data)
				}
				var th []bool
				for _, c := range tab.Columns {
					th = append(th, c.Thousands)
				}
				if !reflect.DeepEqual(th, []bool{false, true, true, false}) {
					t.Errorf("thousands marks %v, want y and income", th)
				}
			}},
		{name: "60 numbers with thousands separators", text: func() string {
			text := "task,y,income\n"
			for i := 0; i < 60; i++ {
				text += fmt.Sprintf("t%d,%d,\"%d,%03d\"\n", i%3, i%2, 1+i, 7*i)
			}
			return text
		}(),
			check: func(t *testing.T, tab *Table) {
				if c := tab.Columns[2]; c.Role != RoleNumeric || !c.Thousands || tab.Data.Tasks[0].X.At(1, 0) != 4021 {
					t.Errorf("income %+v, t0's second value %v", c, tab.Data.Tasks[0].X.At(1, 0))
				}
			}},
		// A comma-separated file that quotes a number only a decimal comma
		// reads ("0,942", "2,5") writes every number so: "1,037" is 1.037
		// there, not 1037 (a spreadsheet in a decimal-comma locale; it
		// once read "1,037" as 1037 and refused "0,000").
		{name: "comma-separated with quoted decimal commas", text: "task,y,x1,n\na,\"3,077\",\"0,942\",1\na,\"1,736\",\"-1,397\",2\nb,\"2,5\",\"1,037\",3\nb,4,\"0,000\",4\n",
			check: func(t *testing.T, tab *Table) {
				a, b := tab.Data.Tasks[0], tab.Data.Tasks[1]
				if a.Y[0] != 3.077 || a.Y[1] != 1.736 || b.Y[0] != 2.5 || a.X.At(0, 0) != 0.942 || a.X.At(1, 0) != -1.397 || b.X.At(0, 0) != 1.037 || b.X.At(1, 0) != 0 {
					t.Errorf("y %v %v, x %v %v", a.Y, b.Y, a.X.RawMatrix().Data, b.X.RawMatrix().Data)
				}
				var dc []bool
				for _, c := range tab.Columns {
					dc = append(dc, c.DecimalComma)
					if c.Thousands {
						t.Errorf("column %s marked with thousands separators", c.Name)
					}
				}
				if !reflect.DeepEqual(dc, []bool{false, true, true, false}) || !tab.Encoding.DecimalComma {
					t.Errorf("decimal-comma marks %v (encoding %v), want y and x1", dc, tab.Encoding.DecimalComma)
				}
			}},
		// After a semicolon the comma is the decimal mark; in a tab-separated
		// file that writes no number only a decimal comma reads it could be
		// either, so "1,234" stays a word there.
		{name: "semicolon: 1,234 is a decimal", text: "task;y;x\na;1;1,234\nb;0;2\n",
			check: func(t *testing.T, tab *Table) {
				if tab.Data.Tasks[0].X.At(0, 0) != 1.234 || tab.Columns[2].Thousands {
					t.Errorf("x %v, column %+v", tab.Data.Tasks[0].X.At(0, 0), tab.Columns[2])
				}
			}},
		{name: "tab: 1,234 is a word", text: "task\ty\tx\tz\na\t1\t1,234\t1\nb\t0\t2,345\t2\n",
			check: func(t *testing.T, tab *Table) {
				if c := tab.Columns[2]; c.Role != RoleText || c.Thousands {
					t.Errorf("x %+v", c)
				}
			}},
		// A tab-separated file that writes a number only a decimal comma
		// reads ("0,047", "2,55": Excel's "Unicode Text" in a
		// decimal-comma locale) writes every number so, as a
		// comma-separated one that quotes them; a point then separates
		// thousands.
		{name: "tab with decimal commas", text: "task\ty\tx\tdose\na\t1,755\t2,55\t0,5\na\t0,047\t1.234,5\t1,0\nb\t2\t-1,25\t1,5\nb\t3,5\t4\t0,5\n",
			check: func(t *testing.T, tab *Table) {
				a, b := tab.Data.Tasks[0], tab.Data.Tasks[1]
				if a.Y[0] != 1.755 || a.Y[1] != 0.047 || a.X.At(0, 0) != 2.55 || a.X.At(1, 0) != 1234.5 || b.X.At(0, 0) != -1.25 || tab.Columns[3].Role != RoleNumeric || a.X.At(1, 1) != 1 {
					t.Errorf("y %v, x %v %v, dose %+v", a.Y, a.X.RawMatrix().Data, b.X.RawMatrix().Data, tab.Columns[3])
				}
				if !tab.Encoding.DecimalComma {
					t.Error("the encoding does not record the decimal comma")
				}
			}},
		// A text column keeps its values as written: "1,5" after a
		// semicolon is a word of it, not 1.5.
		{name: "semicolon: a number-like word of a text column", text: "task;y;grade;x\na;1;A;1\na;2;B;2\nb;3;1,5;3\nb;1;A;4\n",
			check: func(t *testing.T, tab *Table) {
				if c := tab.Columns[2]; c.Role != RoleText || !reflect.DeepEqual(c.Values, []string{"A", "B", "1,5"}) {
					t.Fatalf("grade %+v", c)
				}
				if got := tab.Data.Tasks[1].X.RawRowView(0); !reflect.DeepEqual(got, []float64{0, 0, 1, 3}) {
					t.Errorf("b's first row %v, want grade=1,5 set", got)
				}
			}},
		{name: "duplicate names still refused", text: "task,y,x,,x\na,1,2,,3\n", err: `duplicate column name "x" (also column 3)`},
		// Spreadsheets write an empty row as delimiters only, after the
		// data and between blank lines: such rows are skipped like blank
		// lines, and so are blank rows before the header.
		{name: "rows of empty fields after the data", text: "task,y,x,z\r\na,1,2,3\r\nb,0,3,1\r\n\r\n\r\n,,,\r\n , ,,\r\n",
			check: func(t *testing.T, tab *Table) {
				wantTasks(t, tab, "a", "b")
				if tab.Data.SourceRows != 2 {
					t.Errorf("%d source rows, want 2", tab.Data.SourceRows)
				}
			}},
		{name: "a row of empty fields between rows", text: "task,y,x\na,1,2\n,,\nb,0,3\n",
			check: func(t *testing.T, tab *Table) { wantTasks(t, tab, "a", "b") }},
		{name: "blank rows before the header", text: ",,\n  \ntask,y,x\na,1,1\na,1,2\nb,0,zz\nb,0,4\n", err: `mine.csv:6:3: non-numeric value "zz" in column x`},
		{name: "blank rows before the header, read", text: ";;\ntask;y;x\na;1;1\nb;0;2\n",
			check: func(t *testing.T, tab *Table) { wantTasks(t, tab, "a", "b") }},
		// Excel for Mac's "CSV (Macintosh)" ends lines with a lone CR.
		{name: "lines ending in CR", text: "task,y,x\ra,1,2\rb,0,3\rb,1,4\r",
			check: func(t *testing.T, tab *Table) {
				wantTasks(t, tab, "a", "b")
				if tab.Data.Rows() != 3 || tab.Data.Tasks[1].X.At(1, 0) != 4 {
					t.Errorf("%d rows, b's x %v", tab.Data.Rows(), tab.Data.Tasks[1].X.RawMatrix().Data)
				}
			}},
		{name: "lines ending in CR, line numbers", text: "task,y,x\ra,1,2\ra,1,3\rb,0,oops\rb,1,4", err: `mine.csv:4:3: non-numeric value "oops"`},
		{name: "JSON", text: "[\n  {\"task\": \"a\", \"y\": 1, \"x\": 2}\n]\n", err: "mine.csv: not a table: it is JSON: write it as CSV"},
		{name: "JSON object", text: "\ufeff{\"task\":{\"0\":\"a\"}}", err: "mine.csv: not a table: it is JSON"},
		{name: "JSON lines", text: "{\"task\":\"a\",\"y\":1}\n{\"task\":\"b\",\"y\":0}\n", err: "it is JSON"},
		{name: "a web page", text: "\n\n<!DOCTYPE html>\n<html lang=\"en\" data-color-mode=\"auto\">\n<body>task,y,x</body></html>\n", err: "mine.csv: not a table: it is a web page (HTML), not the data"},
		{name: "an HTML table", text: "<table><tr><td>task</td><td>y</td></tr></table>\n", err: "it is a web page (HTML)"},
		{name: "XML", text: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>AccessDenied</Code></Error>\n", err: "it is an XML document (a storage service"},
		{name: "a title above the table", text: "Sales report 2023,,,\n,,,\ntask,y,x,z\na,1,2,3\nb,2,3,4\n", err: "mine.csv:1:1: the first line (Sales report 2023, \"\", \"\", \"\") names one column of 4, as a title above a table does"},
		{name: "an LFS pointer", text: "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 12345\n", err: "it is a Git LFS pointer, not the data"},
		{name: "a header that starts with a bracket", text: "[task],y,x\na,1,2\n", opt: TableOptions{TaskColumn: "[task]"},
			check: func(t *testing.T, tab *Table) { wantTasks(t, tab, "a") }},
		{name: "only spaces and blank lines", text: "  \n\n \t\r\n", err: "mine.csv:1:1: empty file: it has only blank lines; want a header row"},
		{name: "50 values encoded", text: manyValues(50),
			check: func(t *testing.T, tab *Table) {
				if tab.Data.Features != 51 {
					t.Errorf("%d features, want 50 indicators and x", tab.Data.Features)
				}
			}},
	})
}

// manyValues returns a file whose column city has n distinct words.
// manyCategories is a file of rows whose column city takes k values in
// turn.
func manyCategories(k, rows int) string {
	var b strings.Builder
	b.WriteString("task,y,city,x\n")
	for i := 0; i < rows; i++ {
		fmt.Fprintf(&b, "t%d,%d,city%d,%d\n", i%3, i%2, i%k, i)
	}
	return b.String()
}

func manyValues(n int) string {
	var b strings.Builder
	b.WriteString("task,y,city,x\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "t%d,%d,city%d,%d\n", i%3, i%2, i, i)
	}
	return b.String()
}

// TestRemedies: a refusal advises its remedy in words that fit every front
// end, never as a command-line flag or a page's control, and carries it
// (RemedyOf) for the front end to offer in its own way; a model reading
// new rows is offered neither leaving out nor choosing columns.
func TestRemedies(t *testing.T) {
	train, err := ReadTable([]byte("school,score,x1,x2\nS1,1,0.5,1\nS2,2,1.5,2\n"), "train.csv", TableOptions{TaskColumn: "school", LabelColumn: "score"})
	if err != nil {
		t.Fatal(err)
	}
	predict := TableOptions{Encoding: train.Encoding, Tasks: []string{"S1", "S2"}}
	for _, tc := range []struct {
		name, text string
		opt        TableOptions
		want       string // the message's end
		remedy     Remedy
	}{
		{"missing value", "task,y,x1,x2\na,1,,1\na,2,3,1\n", TableOptions{}, "missing value in column x1: 1 of the 2 rows has a missing value; leave those rows out, fill the values in, or leave the column out", Remedy{Drop: "x1", Omit: true}},
		{"missing values in three columns", "task,y,x1,x2\na,1,,1\nb,NA,2,\nc,1,?,1\nd,2,3,4\n", TableOptions{}, `mine.csv:2:3: missing value in column x1: 3 of the 4 rows have a missing value (x1: 2, y: 1, x2: 1); leave those rows out, or fill the values in`, Remedy{Omit: true}},
		// One column holds nearly every gap (hunt hF's instinnov: top1 in
		// 2,192 of 2,193 rows): leaving it out is offered too.
		{"one column with nearly every gap", "task,y,x1,x2\nt0,1,NA,0\nt1,1,NA,1\nt2,1,NA,2\nt0,1,NA,3\nt1,1,NA,4\nt2,1,NA,5\nt0,1,NA,6\nt1,1,NA,7\nt2,1,NA,8\nt0,1,NA,9\nt1,1,NA,10\nt0,2,5,NA\nt1,3,4,1\n", TableOptions{},
			`(x1: 11, x2: 1); leave those rows out, fill the values in, or leave the column out (it misses a value in 11 of those rows; the other columns' gaps would still need their rows left out)`, Remedy{Drop: "x1", Omit: true}},
		{"missing values in one column", "task,y,x1,x2\na,1,,1\nb,1,NA,2\nc,1,3,1\n", TableOptions{}, `missing value in column x1: 2 of the 3 rows have a missing value, all in this column; leave those rows out, fill the values in, or leave the column out`, Remedy{Drop: "x1", Omit: true}},
		{"an empty task", "task,y,x1\na,1,2\n,1,3\n", TableOptions{}, `mine.csv:3:1: empty task name in column task: 1 of the 2 rows has a missing value; leave those rows out, or give them their tasks`, Remedy{Omit: true}},
		{"dose rows and measurement rows", "task,y,dose,t\na,NA,5,0\na,3.1,NA,1\nb,NA,4,0\nb,2.5,NA,2\n", TableOptions{},
			`missing label ("NA") in column y: 4 of the 4 rows have a missing value (y: 2, dose: 2); give them their labels, or leave out dose (2 of its cells miss a value), which may leave rows whole`, Remedy{Drop: "dose"}},
		{"every row missing a value", "task,y,x1,x2\na,1,,1\nb,NA,2,2\n", TableOptions{OmitMissing: true}, `no data rows left: every one of the 2 rows has a missing value (y: 1, x1: 1); fill some in, or leave out the columns that miss the most`, Remedy{Drop: "x1"}},
		// R's, pandas' and spreadsheets' markers of a missing value are one
		// (they were words that made the column one-hot or refused it as
		// non-numeric), and so in the label.
		{"NA", "task,y,x1,x2\na,1,2,1\na,1,3,1\nb,1,NA,1\n", TableOptions{}, `mine.csv:4:3: missing value ("NA") in column x1: 1 of the 3 rows has a missing value; leave those rows out, fill the values in, or leave the column out`, Remedy{Drop: "x1", Omit: true}},
		{"#N/A", "task,y,x1,x2\na,1,2.5,1\na,1,3,1\nb,1,#N/A,1\n", TableOptions{}, `missing value ("#N/A") in column x1: 1 of the 3 rows has a missing value; leave those rows out, fill the values in, or leave the column out`, Remedy{Drop: "x1", Omit: true}},
		{"NA label", "task,y,x1\na,1.5,2\na,2.5,3\nb,NA,1\n", TableOptions{}, `mine.csv:4:2: missing label ("NA") in column y: 1 of the 3 rows has a missing value; leave those rows out, or give them their labels`, Remedy{Omit: true}},
		{"classes in two cases", "task,y,x1\na,yes,2\na,no,3\nb,Yes,1\n", TableOptions{}, `"Yes" differs from "yes" only in letter case: write each class the same way throughout`, Remedy{}},
		{"three classes", "task,y,x1\na,red,2\na,blue,3\nb,green,1\n", TableOptions{}, `a classifier here learns two classes: merge the classes into two, or keep only the rows of two`, Remedy{}},
		// NaN is a missing value, as R's is.na and Python's writers take
		// it: the rows holding one may be left out; Inf is no missing value.
		{"NaN", "task,y,x1,x2\na,1,2,nan\na,2,3,4\n", TableOptions{}, `NaN or Inf value "nan" in column x2: 1 of the 2 rows has a missing value or NaN; leave those rows out, correct the values, or leave the column out`, Remedy{Drop: "x2", Omit: true}},
		{"Inf", "task,y,x1,x2\na,1,2,-inf\n", TableOptions{}, `NaN or Inf value "-inf" in column x2: correct the value, or leave the column out`, Remedy{Drop: "x2"}},
		{"a word in a numeric column", "task,y,x1,x2\na,1,2,1\na,1,3,1\nb,1,low,1\n", TableOptions{}, "(2 of its 3 values are numbers): correct the value, read the column as words, or leave the column out", Remedy{Drop: "x1", Text: "x1"}},
		{"a word among numbers with a fraction", "task,y,x1,x2\na,1,2.5,1\na,1,3,1\nb,1,low,1\n", TableOptions{}, "correct the value, read the column as words, or leave the column out", Remedy{Drop: "x1", Text: "x1"}},
		{"too many words", manyValues(51), TableOptions{}, "more than 50 to encode; leave it out", Remedy{Drop: "city"}},
		{"too many categories", manyCategories(51, 120), TableOptions{}, "more than 50 to encode; up to 500 when it is named among the columns read as words; read it as words, or leave it out", Remedy{Drop: "city", Text: "city"}},
		{"no task column", "group,y,x\na,1,2\n", TableOptions{}, "no task column \"task\" in header (group, y, x); choose the task column among these", Remedy{Choose: RoleTask}},
		{"no label column", "task,label,x\na,1,2\n", TableOptions{}, "no label column \"y\" in header (task, label, x); choose the label column among these", Remedy{Choose: RoleLabel}},
		{"predict: missing value", "school,x1,x2\nS1,,1\n", predict, "missing value in column x1, which the model was trained with: fill it in, delete the row, or predict only the rows that have every value", Remedy{Omit: true}},
		// New rows missing values are counted, as training's are: the
		// refusal points at the first and says how many rows and where.
		{"predict: missing values counted", "school,x1,x2\nS1,,1\nS1,2,NA\nS2,3,4\nS2,,\n", predict, "mine.csv:2:2: missing value in column x1, which the model was trained with: 3 of the 4 rows have a missing value (x1: 2, x2: 2); fill them in, delete those rows, or predict only the rows that have every value", Remedy{Omit: true}},
		{"predict: missing values in one column", "school,x1,x2\nS1,1,1\nS1,2,NA\nS2,3,\n", predict, `mine.csv:3:3: missing value ("NA") in column x2, which the model was trained with: 2 of the 3 rows have a missing value, all in this column; fill them in, delete those rows, or predict only the rows that have every value`, Remedy{Omit: true}},
		// Leaving out every row would predict none: not offered.
		{"predict: every row missing a value", "school,x1,x2\nS1,,1\nS2,,2\n", predict, "mine.csv:2:2: missing value in column x1, which the model was trained with: 2 of the 2 rows have a missing value, all in this column; fill them in", Remedy{}},
		{"predict: NaN", "school,x1,x2\nS1,inf,1\n", predict, "correct the value, or delete the row", Remedy{}},
		{"predict: no task column", "task,x1,x2\nS1,1,1\n", predict, "no task column \"school\" in header (task, x1, x2): the file must have the columns the model was trained with", Remedy{}},
		{"predict: no feature column", "school,x1\nS1,1\n", predict, "no column \"x2\" in header (school, x1): the model was trained with it, so the file must have it too", Remedy{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTable([]byte(tc.text), "mine.csv", tc.opt)
			if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to end %q", err, tc.want)
			}
			for _, flag := range []string{"-drop", "-text", "-task", "-label", "menu"} {
				if strings.Contains(err.Error(), flag) {
					t.Errorf("error %q names %s", err, flag)
				}
			}
			if got := RemedyOf(fmt.Errorf("load: %w", err)); got != tc.remedy {
				t.Errorf("remedy %+v, want %+v", got, tc.remedy)
			}
		})
	}
	r := Remedy{Choose: RoleLabel}
	if got := RemedyOf(fmt.Errorf("x: %w", &RemedyError{Err: errors.New("one value"), Remedy: r})); got != r {
		t.Errorf("RemedyOf a RemedyError: %+v", got)
	}
	if got := RemedyOf(errors.New("plain")); got != (Remedy{}) {
		t.Errorf("RemedyOf a plain error: %+v", got)
	}
}

// TestTooLarge: a value or label beyond ±1e100, whose squares would make
// training overflow (RMSE +Inf, a W-step that is not positive definite),
// is refused at its position saying the bound and what to do; 1e100 itself
// is read.
func TestTooLarge(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		opt        TableOptions
		line, col  int
		msg        string
	}{
		{"feature", "task,y,x1,x2\na,1,2,3\na,2,1e200,3\nb,1,2,3\n", TableOptions{}, 3, 3, "value 1e+200 in column x1 is beyond ±1e100, too large to train on: rescale the column, or leave it out"},
		{"negative feature", "task,y,x1,x2\na,1,2,-1.5e308\n", TableOptions{}, 2, 4, "value -1.5e+308 in column x2 is beyond ±1e100"},
		{"many digits", "task,y,x1\na,1,1" + strings.Repeat("0", 101) + "\n", TableOptions{}, 2, 3, "value 1e+101 in column x1 is beyond"},
		{"label", "task,y,x1\na,1,2\na,1e308,2\nb,3,4\n", TableOptions{}, 3, 2, "label 1e+308 in column y is beyond ±1e100, too large to train on: rescale the labels"},
		{"ReadCSV", "task,y,x1\na,1,1e101\n", TableOptions{Delimiter: ',', NumericOnly: true}, 2, 3, "value 1e+101 in column x1 is beyond ±1e100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTable([]byte(tc.text), "big.csv", tc.opt)
			wantParseErr(t, err, "big.csv", tc.line, tc.col, tc.msg, ErrTooLarge)
		})
	}
	tab, err := ReadTable([]byte("task,y,x1\na,-1e100,1e100\nb,1,-1e100\nb,2,3\n"), "edge.csv", TableOptions{})
	if err != nil || tab.Data.Tasks[0].X.At(0, 0) != 1e100 || tab.Data.Tasks[0].Y[0] != -1e100 {
		t.Errorf("±1e100 itself: %v", err)
	}
	// A model reading new rows does not ask for a rescaled column.
	enc := tab.Encoding
	_, err = ReadTable([]byte("task,x1\na,1e101\n"), "new.csv", TableOptions{Encoding: enc})
	wantParseErr(t, err, "new.csv", 2, 2, "value 1e+101 in column x1 is beyond ±1e100, too large to compute with: correct the value, or delete the row", ErrTooLarge)
	if r := RemedyOf(err); r != (Remedy{}) {
		t.Errorf("predict offered %+v", r)
	}
}

// TestNotUTF8: text with a byte that is not UTF-8 (after DecodeText, a file
// that mixes UTF-8 and Windows-1252: exports pasted together) is refused at
// the line and character column of that byte, wherever it is, saying what
// to do.
func TestNotUTF8(t *testing.T) {
	long := strings.Repeat("Zürich,1,2\n", 2000) // beyond the first 8 KB
	for _, tc := range []struct {
		name, text string
		line, col  int
		msg        string
	}{
		{"mixed", "task,y,x\nZürich,1,2\ncaf\xe9,0,3\n", 3, 4, `the byte 0xE9 after "caf" is not UTF-8 text, though other characters of the file are (it mixes two text encodings): save the file as UTF-8 text`},
		{"mixed, late in the file", "task,y,x\n" + long + "Gen\xe8ve,0,3\n", 2002, 4, `the byte 0xE8 after "Gen"`},
		{"mixed, the character before counted once", "task,y,x\nZürich\xfc,0,3\n", 2, 7, `after "Zürich"`},
		{"at the start of a line, after a BOM", "\ufefftask,y,x\n\xe9t\xe9,1,2\n", 2, 1, "the byte 0xE9 at the start of the line is not UTF-8 text: save"},
		{"lines ending in CR", "task,y,x\ra,1,2\rb\xe9,0,Zürich\r", 3, 2, `after "b"`},
		{"the last 20 characters before it", "task,y,x\nabcdefghijklmnopqrstuvwxyzäöü,1,2\xe9\n", 2, 34, `the byte 0xE9 after "nopqrstuvwxyzäöü,1,2" is not UTF-8 text, though`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTable([]byte(tc.text), "mine.csv", TableOptions{})
			wantParseErr(t, err, "mine.csv", tc.line, tc.col, tc.msg, ErrNotText)
			text, enc := DecodeText([]byte(tc.text))
			if enc == UTF8 {
				wantParseErr(t, CheckText(text, "mine.csv"), "mine.csv", tc.line, tc.col, tc.msg, ErrNotText)
			}
		})
	}
}

// TestReadTableEmpty: an empty file, or one of blank lines only, is named
// once with its position.
func TestReadTableEmpty(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "mine.csv:1:1: empty file: want a header row"},
		{" \r\n\n,,\n", "mine.csv:1:1: empty file: it has only blank lines; want a header row"},
	} {
		_, err := ReadTable([]byte(tc.text), "mine.csv", TableOptions{})
		if err == nil || err.Error() != tc.want || !errors.Is(err, ErrEmptyFile) {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
	}
}

func TestUngroup(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"1,234", "1234", true},
		{"-12,345,678.5", "-12345678.5", true},
		{"+999,000.", "+999000.", true},
		{"1,234.", "1234.", true},
		{"1234", "1234", false},   // no separator: not ours to change
		{"0,125", "0,125", false}, // a decimal comma
		{"1,5", "1,5", false},
		{"1,23", "1,23", false},
		{"1,2345", "1,2345", false},
		{"1234,567", "1234,567", false},
		{",123", ",123", false},
		{"1,,234", "1,,234", false},
		{"1,234,56", "1,234,56", false},
		{"1,234e5", "1,234e5", false},
		{"1,234.5.6", "1,234.5.6", false},
		{"-", "-", false},
		{"", "", false},
	} {
		if got, ok := ungroup(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("ungroup(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func wantTasks(t *testing.T, tab *Table, names ...string) {
	t.Helper()
	var got []string
	for i := range tab.Data.Tasks {
		got = append(got, tab.Data.Tasks[i].Name)
	}
	if !reflect.DeepEqual(got, names) {
		t.Errorf("tasks %q, want %q", got, names)
	}
}

// TestReadTableWithEncoding: new rows are read the way the model's training
// rows were: its columns (in any order, extra ones ignored, the label
// optional), its values (an unseen one gives zeros and a warning), its
// tasks.
func TestReadTableWithEncoding(t *testing.T) {
	train, err := ReadTable([]byte("school,score,sex,x,id\nS1,1,F,0.5,1\nS1,2,M,1.5,2\nS2,3,F,2,3\n"), "train.csv",
		TableOptions{TaskColumn: "school", LabelColumn: "score", Drop: []string{"id"}})
	if err != nil {
		t.Fatal(err)
	}
	enc := train.Encoding
	tasks := []string{"S1", "S2"}
	tab, err := ReadTable([]byte("x,extra,sex,school\n4,a,X,S2\n5,b,M,S1\n6,c,X,S1\n"), "new.csv", TableOptions{Encoding: enc, Tasks: tasks})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Warnings) != 1 || !strings.Contains(tab.Warnings[0], "column sex: 2 rows have values the model never saw") {
		t.Errorf("warnings %q", tab.Warnings)
	}
	if got := tab.Data.Tasks[0].X.RawRowView(0); !reflect.DeepEqual(got, []float64{0, 0, 4}) {
		t.Errorf("S2 row encoded as %v, want [0 0 4] (sex=F, sex=M, x)", got)
	}
	if got := tab.Data.Tasks[1].X.RawRowView(0); !reflect.DeepEqual(got, []float64{0, 1, 5}) {
		t.Errorf("S1 row encoded as %v", got)
	}
	if len(tab.Rows) != 3 || tab.Rows[2][1] != "c" {
		t.Errorf("raw rows %q", tab.Rows)
	}
	// A row that ends before an unnamed last column gets an empty field
	// for it, so that predictions line up with the header.
	tab, err = ReadTable([]byte("school,sex,x,\nS1,F,7\n"), "new.csv", TableOptions{Encoding: enc, Tasks: tasks})
	if err != nil || !reflect.DeepEqual(tab.Rows, [][]string{{"S1", "F", "7", ""}}) {
		t.Errorf("short row under an unnamed column: %q, %v", tab.Rows, err)
	}
	// New rows with an unnamed column: not one of the model's, so not read.
	tab, err = ReadTable([]byte(",school,sex,x\n0,S1,F,7\n"), "new.csv", TableOptions{Encoding: enc, Tasks: tasks})
	if err != nil || !reflect.DeepEqual(tab.Data.Tasks[0].X.RawRowView(0), []float64{1, 0, 7}) {
		t.Errorf("unnamed column in new rows: %v", err)
	}
	_, err = ReadTable([]byte("school,sex\nS1,F\n"), "new.csv", TableOptions{Encoding: enc})
	if err == nil || !strings.Contains(err.Error(), `no column "x" in header (school, sex): the model was trained with it`) {
		t.Errorf("missing column: %v", err)
	}
	_, err = ReadTable([]byte("school,sex,x\nS1,F,1\nS9,M,2\n"), "new.csv", TableOptions{Encoding: enc, Tasks: tasks})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || !strings.Contains(err.Error(), `task "S9" is not one the model was trained on`) {
		t.Errorf("unknown task: %v", err)
	}
}

// visitsCSV returns a file of n rows with an id column (student: 1..n), a
// category written with numbers and one word (visits: 0, 1, 2, last) and
// a measured number (hours).
func visitsCSV(n int, last string) string {
	var b strings.Builder
	b.WriteString("task,y,student,visits,hours\n")
	for i := 0; i < n; i++ {
		v := fmt.Sprint(i % 3)
		if i%4 == 3 {
			v = last
		}
		fmt.Fprintf(&b, "t%d,%d.5,%d,%s,%d.25\n", i%2, i%5, i+1, v, i%7)
	}
	return b.String()
}

// manyNumbers returns a file whose column x1 holds n distinct whole
// numbers.
func manyNumbers(n int) string {
	var b strings.Builder
	b.WriteString("task,y,x1\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "t%d,%d,%d\n", i%2, i%3, i)
	}
	return b.String()
}

// TestReadTableText: columns asked to be read as words (TableOptions.Text)
// are one-hot encoded even when their values look like numbers, and the
// encoding names them; an unknown column, the task or label column, one
// also left out are refused; the roles each column may take and the id
// columns are told (ColumnInfo.Roles, ID).
func TestReadTableText(t *testing.T) {
	col := func(tab *Table, name string) ColumnInfo {
		for _, c := range tab.Columns {
			if c.Name == name {
				return c
			}
		}
		t.Fatalf("no column %s", name)
		return ColumnInfo{}
	}
	runTableCases(t, []tableCase{
		// Whole numbers with an open level written with digits are a
		// category, read as words unasked and named in Levels; a word
		// without digits, or among fractions, is refused where it is.
		{name: "3+ read as words unasked", text: visitsCSV(12, "3+"),
			check: func(t *testing.T, tab *Table) {
				if c := col(tab, "visits"); c.Role != RoleText || !slices.Equal(c.Values, []string{"0", "1", "2", "3+"}) {
					t.Errorf("visits: %+v, want text with values 0 1 2 3+", c)
				}
				if !slices.Equal(tab.Levels, []string{"visits"}) || len(tab.Encoding.Text) != 0 {
					t.Errorf("levels %q, encoding.text %q: want visits read as words unasked", tab.Levels, tab.Encoding.Text)
				}
			}},
		{name: "7p and 10 or more", text: strings.ReplaceAll(visitsCSV(12, "7p"), ",0,", ",10 or more,"),
			check: func(t *testing.T, tab *Table) {
				if c := col(tab, "visits"); c.Role != RoleText || len(c.Values) != 4 {
					t.Errorf("visits: %+v, want text of 4 values", c)
				}
			}},
		{name: "a word without digits refused", text: visitsCSV(12, "many"),
			err: `mine.csv:5:4: non-numeric value "many" in column visits (9 of its 12 values are numbers): correct the value, read the column as words, or leave the column out`},
		{name: "3+ among fractions refused", text: strings.ReplaceAll(visitsCSV(12, "3+"), ",1,", ",1.5,"),
			err: `non-numeric value "3+" in column visits`},
		{name: "3+ read as words", text: visitsCSV(12, "3+"), opt: TableOptions{Text: []string{" visits "}},
			check: func(t *testing.T, tab *Table) {
				c := col(tab, "visits")
				if c.Role != RoleText || !slices.Equal(c.Values, []string{"0", "1", "2", "3+"}) {
					t.Errorf("visits: %+v, want text with values 0 1 2 3+", c)
				}
				if !slices.Equal(tab.Encoding.Text, []string{"visits"}) {
					t.Errorf("encoding.text %q, want [visits]", tab.Encoding.Text)
				}
				want := []string{"student", "visits=0", "visits=1", "visits=2", "visits=3+", "hours"}
				if !slices.Equal(tab.Data.FeatureNames, want) {
					t.Errorf("features %q, want %q", tab.Data.FeatureNames, want)
				}
				if x := tab.Data.Tasks[1].X.RawRowView(1); !slices.Equal(x, []float64{4, 0, 0, 0, 1, 3.25}) {
					t.Errorf("row 4 reads %v, want student 4, visits=3+ and hours 3.25", x)
				}
			}},
		{name: "whole numbers read as words", text: "task,y,grade,x\na,1,1,0.5\na,2,2,1\nb,1,1,2\n", opt: TableOptions{Text: []string{"grade"}},
			check: func(t *testing.T, tab *Table) {
				if got := tab.Data.FeatureNames; !slices.Equal(got, []string{"grade=1", "grade=2", "x"}) {
					t.Errorf("features %q", got)
				}
			}},
		{name: "unknown column", text: visitsCSV(4, "3+"), opt: TableOptions{Text: []string{"visit"}},
			err: `mine.csv: cannot read column "visit" as words: the header has (task, y, student, visits, hours)`},
		{name: "the task column", text: visitsCSV(4, "3+"), opt: TableOptions{Text: []string{"task"}},
			err: `mine.csv: cannot read column "task" as words: it is the task column`},
		{name: "left out and words", text: visitsCSV(4, "3+"), opt: TableOptions{Drop: []string{"visits"}, Text: []string{"visits"}},
			err: `mine.csv: column "visits" is asked both to be left out and to be read as words: choose one`},
		{name: "too many to read as words", text: manyNumbers(60), opt: TableOptions{Text: []string{"x1"}},
			err: "mine.csv:1:3: text column x1 has read as words: 60 distinct values, more than 50 to encode; leave it out"},
		{name: "too many, left out with the reason", text: manyNumbers(60), opt: TableOptions{Text: []string{"x1"}, DropRefused: true, MaxCategories: 50},
			err: `no feature columns: the header has only the task column "task" and the label column "y" (left out: x1); read one of those back as a feature`},
		{name: "roles and ids", text: visitsCSV(12, "3"), opt: TableOptions{Drop: []string{"visits"}},
			check: func(t *testing.T, tab *Table) {
				for name, want := range map[string][]Role{
					"task": nil, "y": nil,
					"student": {RoleNumeric, RoleText, RoleDropped}, // whole numbers
					"visits":  {RoleNumeric, RoleText, RoleDropped}, // left out, looked at all the same
					"hours":   {RoleNumeric, RoleDropped},           // fractions
				} {
					if got := col(tab, name).Roles; !slices.Equal(got, want) {
						t.Errorf("%s may take %q, want %q", name, got, want)
					}
				}
				if !col(tab, "student").ID || col(tab, "hours").ID || col(tab, "visits").ID {
					t.Errorf("ids: %+v", tab.Columns)
				}
				if col(tab, "visits").Role != RoleDropped {
					t.Errorf("visits was not left out")
				}
			}},
		{name: "no id in a few rows", text: visitsCSV(9, "3"),
			check: func(t *testing.T, tab *Table) {
				if col(tab, "student").ID {
					t.Error("student is an id in 9 rows")
				}
			}},
		{name: "no id with a repeat", text: strings.Replace(visitsCSV(12, "3"), "\nt1,1.5,2,", "\nt1,1.5,1,", 1),
			check: func(t *testing.T, tab *Table) {
				if col(tab, "student").ID {
					t.Error("student is an id with a number twice")
				}
			}},
		{name: "words offered for a text column", text: "task,y,city\na,1,Paris\nb,2,Rome\n",
			check: func(t *testing.T, tab *Table) {
				if got := col(tab, "city").Roles; !slices.Equal(got, []Role{RoleText, RoleDropped}) {
					t.Errorf("city may take %q", got)
				}
			}},
	})
}

// TestTextEncodingPredict: a table read with a training table's encoding
// reads a column read as words as words again ("1" is the value 1, not
// the number), whatever TableOptions.Text says then.
func TestTextEncodingPredict(t *testing.T) {
	train, err := ReadTable([]byte(visitsCSV(12, "3+")), "train.csv", TableOptions{Text: []string{"visits"}})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := ReadTable([]byte("task,student,visits,hours\nt0,1,3+,1\nt1,2,1,2\nt0,3,7,0\n"), "new.csv", TableOptions{Encoding: train.Encoding})
	if err != nil {
		t.Fatal(err)
	}
	if x := tab.Data.Tasks[0].X.RawRowView(0); !slices.Equal(x, []float64{1, 0, 0, 0, 1, 1}) {
		t.Errorf("3+ reads %v", x)
	}
	if x := tab.Data.Tasks[1].X.RawRowView(0); !slices.Equal(x, []float64{2, 0, 1, 0, 0, 2}) {
		t.Errorf("1 reads %v", x)
	}
	if len(tab.Warnings) != 1 || !strings.Contains(tab.Warnings[0], `"7"`) {
		t.Errorf("warnings %q, want one for the unseen 7", tab.Warnings)
	}
}

// TestHeaderMistakes: a title line above the header, and a file without a
// header, are named as such (a tester's Excel export and a header-less
// file were told "no comma between column names" and "no task column").
func TestHeaderMistakes(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"a title above the header", "CO2 data export 2024\nPlant,y,x\nQn1,1,2\n", `mine.csv:1:1: line 1 holds one field ("CO2 data export 2024") and line 2 several: if line 1 is a title above the header, delete it`},
		{"no header", "Qn1,Quebec,nonchilled,95,16\nQn1,Quebec,nonchilled,175,30\n", `which looks like a row of data: if the file has no header, add a first line that names its columns; else choose the task column among these`},
		{"names that are not numbers", "group,yy,x\na,1,2\n", `no task column "task" in header (group, yy, x); choose the task column among these`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTable([]byte(tc.text), "mine.csv", TableOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// chickCSV is a file as R's write.csv writes a data frame: the factors'
// values in quotes (the group and diet), its numbers bare; quote sets how
// the diet's codes are written ("%q" quoted, "%s" bare), and diets how
// many there are.
func chickCSV(quote string, diets int) string {
	var b strings.Builder
	b.WriteString(`"Chick","weight","Time","Diet"` + "\n")
	for i := 0; i < 24; i++ {
		fmt.Fprintf(&b, "%q,%d,%d,"+quote+"\n", fmt.Sprint(i%6), 40+3*i, i%4*2, fmt.Sprint(1+i%diets))
	}
	return b.String()
}

// TestReadTableCodes: a column of numbers all written in quotes, in a file
// that writes its other numbers bare, is a factor's codes (R's write.csv,
// pandas' QUOTE_NONNUMERIC): read as words unasked and named in Codes, or,
// with too many values to encode, read as numbers and named in ManyCodes.
// Quotes that every field has, or that a number needs for its comma, do
// not make codes, and neither do a column's quotes when some of its
// numbers are bare; where every field has them, a column of a few whole
// numbers is named in QuotedNumbers.
func TestReadTableCodes(t *testing.T) {
	features := func(want ...string) func(*testing.T, *Table) {
		return func(t *testing.T, tab *Table) {
			t.Helper()
			if got := tab.Data.FeatureNames; !slices.Equal(got, want) {
				t.Errorf("features %q, want %q", got, want)
			}
		}
	}
	runTableCases(t, []tableCase{
		{name: "R's factor codes", text: chickCSV("%q", 4), opt: TableOptions{TaskColumn: "Chick", LabelColumn: "weight"},
			check: func(t *testing.T, tab *Table) {
				features("Time", "Diet=1", "Diet=2", "Diet=3", "Diet=4")(t, tab)
				if !slices.Equal(tab.Codes, []string{"Diet"}) || len(tab.Encoding.Text) != 0 || len(tab.ManyCodes) != 0 {
					t.Errorf("codes %q, many %q, encoding.text %q: want Diet read as words unasked", tab.Codes, tab.ManyCodes, tab.Encoding.Text)
				}
				for _, c := range tab.Columns {
					if c.Name == "Diet" && !slices.Equal(c.Roles, []Role{RoleText, RoleDropped}) {
						t.Errorf("Diet's roles %q, want text or left out", c.Roles)
					}
				}
			}},
		{name: "the only bare numbers are the label's", text: "\"g\",\"y\",\"code\"\n\"a\",1.5,\"1\"\n\"a\",2,\"2\"\n\"b\",3,\"1\"\n",
			opt: TableOptions{TaskColumn: "g"}, check: features("code=1", "code=2")},
		{name: "codes written bare", text: chickCSV("%s", 4), opt: TableOptions{TaskColumn: "Chick", LabelColumn: "weight"},
			check: features("Time", "Diet")},
		// Read as numbers, and named (QuotedNumbers) where a few whole
		// numbers could be codes: a front end says so (cbpp written by R
		// with a yes/no label has no bare number at all).
		{name: "every field quoted", text: quoteAll(chickCSV("%q", 4)),
			opt: TableOptions{TaskColumn: "Chick", LabelColumn: "weight"}, check: func(t *testing.T, tab *Table) {
				features("Time", "Diet")(t, tab)
				if len(tab.Codes) != 0 || !slices.Contains(tab.QuotedNumbers, "Diet") {
					t.Errorf("codes %q, quoted numbers %q: want Diet read as a number and named", tab.Codes, tab.QuotedNumbers)
				}
			}},
		{name: "every field quoted, fractions", text: "\"g\",\"y\",\"x\"\n\"a\",\"1\",\"0.5\"\n\"a\",\"2\",\"1.5\"\n\"b\",\"3\",\"2.5\"\n",
			opt: TableOptions{TaskColumn: "g"}, check: func(t *testing.T, tab *Table) {
				features("x")(t, tab)
				if len(tab.QuotedNumbers) != 0 {
					t.Errorf("quoted numbers %q: a column of fractions is no codes", tab.QuotedNumbers)
				}
			}},
		{name: "some of the column bare", text: strings.Replace(chickCSV("%q", 4), `,"2"`+"\n", ",2\n", 1),
			opt: TableOptions{TaskColumn: "Chick", LabelColumn: "weight"}, check: features("Time", "Diet")},
		{name: "quotes that hold a comma", text: "task,y,price\na,1,\"1,200\"\na,2,\"3,400\"\nb,3,\"2,500\"\n",
			check: features("price")},
		{name: "too many codes", text: chickCSV("%q", 24), opt: TableOptions{TaskColumn: "Chick", LabelColumn: "weight", MaxCategories: 10},
			check: func(t *testing.T, tab *Table) {
				features("Time", "Diet")(t, tab)
				if len(tab.Codes) != 0 || !slices.Equal(tab.ManyCodes, []string{"Diet"}) {
					t.Errorf("codes %q, many %q: want Diet read as numbers and named", tab.Codes, tab.ManyCodes)
				}
			}},
		// A word among the quoted values (a grade K, 1, 2, 3): read as
		// words, and not named as numbers in quotes, which they are not.
		{name: "a word among the codes", text: "\"g\",\"y\",\"grade\"\n\"a\",1.5,\"1\"\n\"a\",2,\"K\"\n\"b\",3,\"1\"\n\"b\",4,\"2\"\n\"c\",5,\"3\"\n",
			opt: TableOptions{TaskColumn: "g"}, check: func(t *testing.T, tab *Table) {
				features("grade=1", "grade=K", "grade=2", "grade=3")(t, tab)
				if len(tab.Codes) != 0 {
					t.Errorf("codes %q: a column with a word is no column of numbers in quotes", tab.Codes)
				}
			}},
		{name: "a quoted field over two lines before the codes", text: "\"g\",\"note\",\"y\",\"code\"\n\"a\",\"two\nlines\",1.5,\"1\"\n\"a\",\"x\",2,\"2\"\n\"b\",\"y\",3,\"1\"\n",
			opt: TableOptions{TaskColumn: "g", Drop: []string{"note"}}, check: features("code=1", "code=2")},
	})
}

// quoteAll quotes every bare field of a simple CSV (no commas in fields).
func quoteAll(text string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		end := strings.HasSuffix(line, "\n")
		fields := strings.Split(strings.TrimSuffix(line, "\n"), ",")
		for i, f := range fields {
			if f != "" && !strings.HasPrefix(f, `"`) {
				fields[i] = `"` + f + `"`
			}
		}
		b.WriteString(strings.Join(fields, ","))
		if end {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// TestTaskLevel: a feature constant within every task and not across them
// is task-level; one constant everywhere, or varying within a task, is
// not (and only the one varying within a task is VaryWithin's); Fix divides the task-level ones by FixedScale more and records
// them, and does nothing to a data set that was not standardized.
func TestTaskLevel(t *testing.T) {
	const text = "task,y,x,dose,one,kind\n" +
		"a,1,1,5,7,u\na,2,2,5,7,u\n" +
		"b,3,3,6,7,v\nb,4,4,6,7,v\n" +
		"c,5,5,5,7,u\nc,6,6,5,7,u\n"
	tab, err := ReadTable([]byte(text), "m.csv", TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ds := tab.Data
	// x, dose, one, kind=u, kind=v
	if got := TaskLevel(ds); !slices.Equal(got, []int{1, 3, 4}) {
		t.Fatalf("task-level features %v, want dose and kind's two (1, 3, 4)", got)
	}
	// Only x differs between two rows of a task (VaryWithin).
	if got := VaryWithin(ds); !slices.Equal(got, []bool{true, false, false, false, false}) {
		t.Errorf("features varying within a task %v, want x alone", got)
	}
	e := tab.Encoding
	e.Fix(ds, TaskLevel(ds))
	if e.Fixed != nil {
		t.Errorf("Fix without Scale recorded %v", e.Fixed)
	}
	e.Standardize(ds)
	before := ds.Tasks[1].X.At(0, 1)
	e.Fix(ds, TaskLevel(ds))
	if !slices.Equal(e.Fixed, []int{1, 3, 4}) || e.Scale[1] == 0 || ds.Tasks[1].X.At(0, 1) != before/FixedScale {
		t.Errorf("fixed %v, scale %v, dose %v (was %v): want dose divided by %v more", e.Fixed, e.Scale, ds.Tasks[1].X.At(0, 1), before, FixedScale)
	}
}

// TestLooksLikeDates: a column of dates as spreadsheets and R write them is
// named so when it is left out for its many values; other words are not.
func TestLooksLikeDates(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   bool
	}{
		{[]string{"2020-09-17", "2020-09-18", emptyValue, "2021-01-02"}, true},
		{[]string{"2020-09-17 10:31:00", "2020-09-17T11:00"}, true},
		{[]string{"24/09/2020", "9/17/20", "17.09.2020"}, true},
		{[]string{"2020-09-17", "unknown"}, false},
		{[]string{"Berlin", "Paris"}, false},
		{[]string{"12-34"}, false},
		{[]string{"2020-9-1", "1/2/2021", "01.02.21"}, true},
		{[]string{"2020-09-17x", "17/09/202", "123/1/2020", "2020/09-17", "17/09"}, false},
		{[]string{"2020/09/17"}, true},
		{[]string{emptyValue}, false},
	} {
		if got := looksLikeDates(tc.values); got != tc.want {
			t.Errorf("looksLikeDates(%q) = %v, want %v", tc.values, got, tc.want)
		}
	}
}

// TestReadTableDates: a column of a few dates is read as a category and
// named in Dates (a front end says what one indicator per date loses); a
// column of words is not named.
func TestReadTableDates(t *testing.T) {
	var b strings.Builder
	b.WriteString("task,y,born,kind\n")
	for i := 0; i < 24; i++ {
		fmt.Fprintf(&b, "t%d,%d,2024-0%d-1%d,%s\n", i%3, i, 1+i%3, i%4, []string{"oak", "ash"}[i%2])
	}
	tab, err := ReadTable([]byte(b.String()), "d.csv", TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tab.Dates, []string{"born"}) {
		t.Errorf("dates %q, want born only", tab.Dates)
	}
}

// TestStandardizeTinyValues: a feature of values near 1e-300, whose
// squares underflow, is divided by its standard deviation all the same
// (it stayed near 1e-300 beside unit features, as if it were 0); a
// constant feature keeps the divisor 1.
func TestStandardizeTinyValues(t *testing.T) {
	tab, err := ReadTable([]byte("task,y,tiny,same,x\na,1,1e-300,5,1\na,2,3e-300,5,2\nb,3,2e-300,5,4\nb,4,4e-300,5,3\n"), "m.csv", TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e := tab.Encoding
	e.Standardize(tab.Data)
	var sum, sq float64
	var n int
	for _, tk := range tab.Data.Tasks {
		for r := 0; r < tk.Rows(); r++ {
			v := tk.X.At(r, 0)
			sum += v
			sq += v * v
			n++
		}
	}
	mean := sum / float64(n)
	if sd := math.Sqrt(sq/float64(n) - mean*mean); math.Abs(sd-1) > 1e-12 || e.Scale[1] != 1 {
		t.Errorf("tiny's standard deviation after Standardize %v (scale %v), same's scale %v: want 1 and 1", sd, e.Scale[0], e.Scale[1])
	}
}

// counted writes a file of n rows in two tasks whose label in row i is
// y(i).
func counted(n int, y func(int) int) string {
	var sb strings.Builder
	sb.WriteString("task,y,x\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "%c,%d,%d\n", 'a'+i%2, y(i), (i*7)%5)
	}
	return sb.String()
}
