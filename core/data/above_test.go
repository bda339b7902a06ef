package data

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// rows4 is four rows of two tasks under a header task,y,x1,x2.
const rows4 = "a,0.6,0.2,1.3\na,2.3,1.2,0.1\nb,1.9,-0.2,-1.3\nb,1.6,0.9,0.2\n"

// refusal is a case of a file the intake refuses: where, with what words
// (every one of want), and not (none of not).
type refusal struct {
	name, text string
	opt        TableOptions
	line, col  int
	want, not  []string
}

// checkRefusal reads rc's text and checks its refusal: a *ParseError at
// rc's line and column that holds the words wanted and none of the others,
// and that carries no remedy of choosing a column, which the page turns
// into its column prompt, dropping the message (data.js askColumns).
func checkRefusal(t *testing.T, rc refusal) {
	t.Helper()
	_, err := ReadTable([]byte(rc.text), "mine.csv", rc.opt)
	wantParseErr(t, err, "mine.csv", rc.line, rc.col, "", ErrHeader)
	if err == nil {
		return
	}
	for _, w := range rc.want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q\nlacks %q", err, w)
		}
	}
	for _, w := range rc.not {
		if strings.Contains(err.Error(), w) {
			t.Errorf("error %q\nholds %q", err, w)
		}
	}
	if r := RemedyOf(err); r.Choose != "" {
		t.Errorf("remedy %+v: choosing a column hides the message behind the page's column prompt", r)
	}
}

// TestLinesAboveHeader: a block of lines above the real header (comments
// starting with "#", a title of fewer fields than the header) is refused
// at its first line, saying how many lines there are, the first of them,
// the header's line and what to delete. Before, two comment lines were
// "a single column … no comma, semicolon or tab between column names",
// and a title or comment with a comma was offered as the columns (hH D4).
func TestLinesAboveHeader(t *testing.T) {
	noComma := "no comma, semicolon or tab"
	for _, rc := range []refusal{
		{name: "two comment lines", text: "# exported 2026-11-28 by LabTool\n# units: mg\ntask,y,x1,x2\n" + rows4, line: 1, col: 1,
			want: []string{`2 comment lines sit above the header on line 3 (task, y, x1, x2), the first "# exported 2026-11-28 by LabTool": delete lines 1 to 2, so that the file starts with the column names`},
			not:  []string{noComma}},
		{name: "a title with a comma", text: "Exam results, spring 2026\ntask,y,x1,x2\n" + rows4, line: 1, col: 1,
			want: []string{`line 1 ("Exam results, spring 2026") is a title above the header on line 2 (task, y, x1, x2), not a row of the table: delete line 1`},
			not:  []string{"spring 2026)", "choose"}},
		{name: "a comment with a comma", text: "# exported by LabTool, v2\ntask,y,x1,x2\n" + rows4, line: 1, col: 1,
			want: []string{`line 1 ("# exported by LabTool, v2") is a comment above the header on line 2 (task, y, x1, x2)`, "delete line 1"}},
		{name: "a title of a number and words", text: "Exam results, 2026\ntask,y,x1,x2\n" + rows4, line: 1, col: 1,
			want: []string{`line 1 ("Exam results, 2026") is a title above the header on line 2`}},
		{name: "a comment and a title", text: "# tool v2\nExam results, spring\ntask,y,x1,x2\n" + rows4, line: 1, col: 1,
			want: []string{`2 lines of a title or comments sit above the header on line 3 (task, y, x1, x2), the first "# tool v2": delete lines 1 to 2`}},
		{name: "a title of two lines", text: "Exam results\nSpring 2026, group B\ntask,y,x1,x2\n" + rows4, line: 1, col: 1,
			want: []string{`2 lines of a title sit above the header on line 3`, `the first "Exam results"`}},
		{name: "three comment lines of one field", text: "# a\n# b\n# c\ntask,y,x1,x2\n" + rows4, line: 1, col: 1,
			want: []string{`3 comment lines sit above the header on line 4`, "delete lines 1 to 3"}, not: []string{noComma}},
		{name: "a comment wider than the header", text: "# a,b,c,d,e,f\ntask,y,x1,x2\n" + rows4, line: 1, col: 1,
			want: []string{`line 1 ("# a,b,c,d,e,f") is a comment above the header on line 2`}},
		{name: "blank lines around the block", text: "\n# exported, v2\n\ntask,y,x1,x2\n" + rows4, line: 2, col: 1,
			want: []string{`line 2 ("# exported, v2") is a comment above the header on line 4`, "delete lines 2 to 3"}},
		{name: "a title over an empty row", text: "Exam results, spring 2026,\n,,,\ntask,y,x1,x2\n" + rows4, line: 1, col: 1,
			want: []string{`line 1 ("Exam results, spring 2026,") is a title above the header on line 3 (task, y, x1, x2), not a row of the table: delete lines 1 to 2`}},
		{name: "a semicolon file under a comment with a comma", text: "# exported, v2\ntask;y;x1;x2\n" + strings.ReplaceAll(rows4, ",", ";"), line: 1, col: 1,
			want: []string{`is a comment above the header on line 2 (task, y, x1, x2)`}},
		{name: "after an Excel sep= line", text: "sep=;\n# exported, v2\ntask;y;x1;x2\n" + strings.ReplaceAll(rows4, ",", ";"), line: 2, col: 1,
			want: []string{`line 2 ("# exported, v2") is a comment above the header on line 3 (task, y, x1, x2)`}},
		{name: "columns asked for", text: "# exported, v2\ngroup,score,x1,x2\n" + rows4, opt: TableOptions{TaskColumn: "group", LabelColumn: "score"}, line: 1, col: 1,
			want: []string{`is a comment above the header on line 2 (group, score, x1, x2)`}},
		{name: "CRLF lines", text: strings.ReplaceAll("# a\n# b\ntask,y,x1,x2\n"+rows4, "\n", "\r\n"), line: 1, col: 1,
			want: []string{`2 comment lines sit above the header on line 3`}},
		// One line of one field keeps the words it had (hH: "the right message").
		{name: "a title of one field", text: "Exam results 2026\ntask,y,x1,x2\n" + rows4, line: 1, col: 1,
			want: []string{`line 1 holds one field ("Exam results 2026") and line 2 several: if line 1 is a title above the header, delete it, so that the file starts with the column names`}},
		{name: "a comment of one field", text: "# one comment\ntask,y,x1,x2\n" + rows4, line: 1, col: 1,
			want: []string{`line 1 holds one field ("# one comment") and line 2 several: if line 1 is a comment above the header, delete it`}},
		// Lines of one field over rows of numbers, no header among them
		// to name: still never "no comma" in a file with commas.
		{name: "comments over a file without a header", text: "# a\n# b\n1,2,3\n4,5,6\n", line: 1, col: 1,
			want: []string{`line 1 holds one field ("# a"), and line 3 is the first with several: if lines 1 to 2 are a title or comments above the header, delete them`},
			not:  []string{noComma}},
	} {
		t.Run(rc.name, func(t *testing.T) { checkRefusal(t, rc) })
	}
}

// TestLinesAboveHeaderKept: files that are no block above a header read,
// or are refused, as before: a header whose first name starts with "#"
// over rows of as many fields, a spreadsheet's title padded to the
// header's width, a header of fewer names than its rows of words (a
// ragged file, not a title), a table of one column, a header that has the
// task and label columns.
func TestLinesAboveHeaderKept(t *testing.T) {
	runTableCases(t, []tableCase{
		{name: "a header starting with #", text: "#id,y,x\na,1,2\na,2,3\nb,3,4\n", opt: TableOptions{TaskColumn: "#id"},
			check: func(t *testing.T, tab *Table) { wantTasks(t, tab, "a", "b") }},
		{name: "a header starting with # over rows of numbers", text: "#id,y,x\n1,1,2\n1,2,3\n2,3,4\n", opt: TableOptions{TaskColumn: "#id"},
			check: func(t *testing.T, tab *Table) { wantTasks(t, tab, "1", "2") }},
		{name: "a header starting with #, no task column", text: "#id,y,x\n1,1,2\n2,3,4\n",
			err: `mine.csv:1:1: no task column "task" in header (#id, y, x); choose the task column among these`},
		{name: "a header starting with # over words", text: "#group,y,color\nA,1,red\nA,0,blue\nB,1,red\n",
			err: `mine.csv:1:1: no task column "task" in header (#group, y, color); choose the task column among these`},
		{name: "a comment as wide as the header", text: "# a,b,c,d\ntask,y,x1,x2\n" + rows4,
			err: `mine.csv:1:1: no task column "task" in header (# a, b, c, d)`},
		{name: "a title padded to the header's width", text: "Sales report 2023,,,\n,,,\ntask,y,x,z\na,1,2,3\nb,2,3,4\n",
			err: `mine.csv:1:1: the first line (Sales report 2023, "", "", "") names one column of 4, as a title above a table does`},
		{name: "a short header over rows of words", text: "grp,val\nfoo,bar,baz\nqux,quux,corge\n",
			err: `mine.csv:1:1: no task column "task" in header (grp, val); choose the task column among these`},
		{name: "a header with task and label over wider rows", text: "task,y\nfoo,bar,1\nqux,quux,2\n",
			err: "ragged row: 3 fields, want 2"},
		{name: "rows with a trailing delimiter", text: "task,label,color\nx,yes,red,\nx,no,blue,\nz,yes,red,\n", opt: TableOptions{LabelColumn: "label"},
			check: func(t *testing.T, tab *Table) { wantTasks(t, tab, "x", "z") }},
		{name: "one column", text: "y\n1\n2\n",
			err: `the header has a single column "y": the file has no comma, semicolon or tab between column names`},
		{name: "a single column of a pipe-separated file", text: "task|y|x\na|1|2\n",
			err: `the header has a single column "task|y|x": the file has no comma, semicolon or tab between column names (it holds "|" between names`},
	})
}

// TestLinesAboveHeaderFiles: the tester's files (hH D4 and the one-line
// cases it found right) through the intake's entry, as the command line
// and the page read them.
func TestLinesAboveHeaderFiles(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"comment_lines.csv", `comment_lines.csv:1:1: 2 comment lines sit above the header on line 3 (task, y, x1, x2), the first "# exported 2026-11-28 by LabTool": delete lines 1 to 2`},
		{"title_comma.csv", `title_comma.csv:1:1: line 1 ("Exam results, spring 2026") is a title above the header on line 2 (task, y, x1, x2)`},
		{"comment_comma.csv", `comment_comma.csv:1:1: line 1 ("# exported by LabTool, v2") is a comment above the header on line 2 (task, y, x1, x2)`},
		{"comment1.csv", `comment1.csv:1:1: line 1 holds one field ("# one comment") and line 2 several: if line 1 is a comment above the header, delete it`},
		{"title1.csv", `title1.csv:1:1: line 1 holds one field ("Exam results 2026") and line 2 several: if line 1 is a title above the header, delete it`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile("testdata/above/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Load(b, tc.file, Options{})
			wantParseErr(t, err, tc.file, 1, 1, tc.want, ErrHeader)
			// The page's menus after the refusal (LoadHeader) offer no
			// title's words as columns.
			if h, _, err := LoadHeader(b, tc.file); err == nil || h != nil {
				t.Errorf("LoadHeader gives %q, %v; want the refusal", h, err)
			}
		})
	}
	if h, _, err := LoadHeader([]byte("#id,y,x\n1,2,3\n"), "m.csv"); err != nil || !reflect.DeepEqual(h, []string{"#id", "y", "x"}) {
		t.Errorf("a header starting with #: %q, %v", h, err)
	}
}

// TestLinesAboveNewRows: new rows to predict under a comment are refused
// as the training's rows are.
func TestLinesAboveNewRows(t *testing.T) {
	train, err := ReadTable([]byte("task,y,x1,x2\n"+rows4), "train.csv", TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = LoadNewRows([]byte("# scored 2026-11-28, batch 2\ntask,x1,x2\na,1,2\nb,3,4\n"), "new.csv", train.Encoding, nil)
	wantParseErr(t, err, "new.csv", 1, 1, `line 1 ("# scored 2026-11-28, batch 2") is a comment above the header on line 2 (task, x1, x2)`, ErrHeader)
}

// TestUnnamedColumnWithValues: a header without the task or label column
// asked for, and with a column that has no name but values in its rows
// ("task,,x1,x2": the label's name deleted), is refused at the header's
// line and that column, saying what it holds and to name it. Before, the
// column was left out unsaid, and the page's prompt counted the file's
// other columns alone (hH D5). The unnamed columns a file starts with (R's
// row names) and unnamed columns without values are not named, as before.
func TestUnnamedColumnWithValues(t *testing.T) {
	for _, rc := range []refusal{
		{name: "a label without a name", text: "task,,x1,x2\n" + rows4, line: 1, col: 2,
			want: []string{`no label column "y" in header (task, "", x1, x2), and column 2 has no name but holds a number in every row ("0.6" on line 2): if it is the label, name it "y" on line 1 and give the file again; else choose the label column among the named ones (task, x1, x2)`}},
		{name: "a task without a name", text: "grp,,y,x\na,g1,1,2\na,g1,0,3\nb,g2,1,4\n", line: 1, col: 2,
			want: []string{`no task column "task" in header (grp, "", y, x), and column 2 has no name but holds words in every row ("g1" on line 2): if it is the task, name it "task" on line 1`}},
		{name: "neither task nor label", text: "grp,,x1,x2\na,1,2,3\na,2,3,4\nb,3,4,5\n", line: 1, col: 2,
			want: []string{`no task column "task" nor label column "y" in header (grp, "", x1, x2), and column 2 has no name but holds a number in every row ("1" on line 2): if it is the task or the label, name it "task" or "y" on line 1 and give the file again; else choose the task and label columns among the named ones (grp, x1, x2)`}},
		{name: "numbers in some rows", text: "task,,x1,x2\na,1,2,3\na,,3,4\nb,2,4,5\n", line: 1, col: 2,
			want: []string{`column 2 has no name but holds numbers in 2 of the 3 rows ("1" on line 2)`}},
		{name: "words and numbers", text: "task,,x1,x2\na,1,2,3\na,yes,3,4\nb,,4,5\n", line: 1, col: 2,
			want: []string{`column 2 has no name but holds values in 2 of the 3 rows`}},
		{name: "two columns without a name", text: "task,,x1,\na,1,2,3\nb,2,4,5\n", line: 1, col: 2,
			want: []string{`column 2 has no name but holds a number in every row ("1" on line 2) (and column 4, with no name, holds values too)`}},
		{name: "after row names", text: ",task,,x\n1,a,0.5,2\n2,b,0.7,3\n", line: 1, col: 3,
			want: []string{`column 3 has no name but holds a number in every row`}},
		{name: "left out on request", text: "task,,x1,x2\n" + rows4, opt: TableOptions{DropRefused: true}, line: 1, col: 2,
			want: []string{`column 2 has no name but holds a number in every row`}},
	} {
		t.Run(rc.name, func(t *testing.T) { checkRefusal(t, rc) })
	}
	t.Run("the tester's file", func(t *testing.T) {
		const file = "label_in_middle_missing_header.csv"
		b, err := os.ReadFile("testdata/above/" + file)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Load(b, file, Options{DropRefused: true})
		wantParseErr(t, err, file, 1, 2, `column 2 has no name but holds a number in every row ("0.602" on line 2): if it is the label, name it "y" on line 1`, ErrHeader)
	})
	// As before: the choice of the missing column (the page's prompt)
	// when no unnamed column but the leading row names holds a value.
	for _, tc := range []struct{ name, text, want string }{
		{"R row names", "\"\",\"grp\",\"y\",\"x\"\n\"1\",\"a\",1,2\n\"2\",\"b\",0,3\n", `mine.csv:1:1: no task column "task" in header ("", grp, y, x); choose the task column among these`},
		{"an empty column", "task,,x1,x2\na,,1,2\nb,,3,4\n", `mine.csv:1:1: no label column "y" in header (task, "", x1, x2); choose the label column among these`},
		{"a trailing delimiter", "grp,y,x,\na,1,2,\nb,0,3,\n", `mine.csv:1:1: no task column "task" in header (grp, y, x, ""); choose the task column among these`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTable([]byte(tc.text), "mine.csv", TableOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if r := RemedyOf(err); r.Choose == "" {
				t.Errorf("remedy %+v, want the choice of a column", r)
			}
		})
	}
}
