package data

import (
	"errors"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestPackedRoundTrip: a packed table reads back as exactly the table
// ReadTable returned (reflect.DeepEqual: the numbers bit for bit, the
// columns, labels, encoding and source rows), for the bundled CSVs and for
// tables with text columns, dropped and refused columns, class names and
// small-integer labels.
func TestPackedRoundTrip(t *testing.T) {
	type tc struct {
		name string
		text []byte
		opt  TableOptions
	}
	cases := []tc{
		{"text column and classes", []byte("task,y,city,x\na,yes,Paris,1.5\na,no,Rome,-2\nb,yes,Paris,3e-300\nb,no,Oslo,0\n"), TableOptions{}},
		{"small integer labels", []byte("task,y,x\na,1,0.1\na,2,0.2\nb,3,0.3\nb,1,0.4\n"), TableOptions{}},
		{"dropped and refused", []byte("task;y;id;x;z\na;1,5;r1;2;7\na;2,5;r2;3;8\nb;0;r3;4;9\n"), TableOptions{Drop: []string{"z"}, DropRefused: true, MaxCategories: 2}},
		{"thousands separators", []byte("task,y,income,x\na,\"1,500\",\"12,345\",1\nb,2,987,2\nb,3,\"1,000\",3\n"), TableOptions{}},
		{"unnamed columns", []byte(",task,y,x,\n0,a,1,2,\n1,b,3,4,\n"), TableOptions{DropRefused: true}},
		{"decimal commas and percentages", []byte("task,y,share,x\na,\"0,5\",12%,1\na,\"1,037\",\"7,5%\",2\nb,2,40 %,3\nb,\"3,25\",0%,4\n"), TableOptions{}},
		{"read as words, an id", []byte(visitsCSV(12, "3+")), TableOptions{Text: []string{"visits"}}},
		{"amounts of money", []byte("task;y;price\na;1;12,50 €\na;2;€ 3,20\nb;3;1.250,00 €\nb;4;4 €\n"), TableOptions{}},
		{"rows left out for a missing value", []byte("task,y,x\na,1,2\na,NA,3\nb,2,\nb,3,4\nc,1,\n"), TableOptions{OmitMissing: true}},
		{"quoted, other columns", []byte("\"grp\",\"target\",\"x 1\"\n\"a\",\"1\",\"2\"\n\"b\",\"3\",\"4\"\n"), TableOptions{TaskColumn: "grp", LabelColumn: "target"}},
	}
	for _, rel := range []string{"landmine/data.csv", "school/data.csv", "cs/data.csv"} {
		cases = append(cases, tc{rel, readShared(t, rel), TableOptions{}})
	}
	for _, c := range cases {
		tab, err := ReadTable(c.text, c.name, c.opt)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		packed, err := PackTable(tab)
		if err != nil {
			t.Fatalf("%s: pack: %v", c.name, err)
		}
		if !IsPacked(packed) || IsPacked(c.text) {
			t.Fatalf("%s: IsPacked wrong", c.name)
		}
		back, err := ReadPacked(packed, c.name)
		if err != nil {
			t.Fatalf("%s: read: %v", c.name, err)
		}
		// The notes' lists of columns read unasked (Levels, Codes,
		// ManyCodes, QuotedNumbers, Dates) are not packed: what they changed
		// is in the encoding. Only QuotedNumbers and Dates can occur in
		// these cases.
		tab.QuotedNumbers, tab.Dates = nil, nil
		if !reflect.DeepEqual(back, tab) {
			t.Errorf("%s: the packed table reads back differently:\n got %+v\nwant %+v", c.name, back, tab)
		}
		if strings.HasPrefix(c.name, "thousands") && !(back.Columns[1].Thousands && back.Columns[2].Thousands && !back.Columns[3].Thousands) {
			t.Errorf("%s: the columns with thousands separators are lost: %+v", c.name, back.Columns)
		}
		if strings.HasPrefix(c.name, "small") && (back.Labels.Third == nil || back.Labels.Third.Line != 4) {
			t.Errorf("%s: the third label's position is lost: %+v", c.name, back.Labels.Third)
		}
	}
}

// TestPackedDamage: a truncated or altered packed table is an error that
// names the file, never a panic.
func TestPackedDamage(t *testing.T) {
	tab, err := ReadTable([]byte("task,y,x,z\na,1,2,3\na,0,4,5\nb,1,6,7\n"), "t.csv", TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	packed, err := PackTable(tab)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(packed); n++ {
		if _, err := ReadPacked(packed[:n], "t.tbl"); err == nil || !strings.HasPrefix(err.Error(), "t.tbl: ") {
			t.Fatalf("truncated to %d bytes: %v", n, err)
		}
	}
	if _, err := ReadPacked(append(append([]byte(nil), packed...), 0), "t.tbl"); err == nil {
		t.Error("a trailing byte was accepted")
	}
	// Any changed byte is refused by the checksum: a flipped byte of a
	// number used to read as another number.
	for i := range packed {
		for _, v := range []byte{0, 0xff, packed[i] ^ 0x10, packed[i] ^ 0x01} {
			if v == packed[i] {
				continue
			}
			b := append([]byte(nil), packed...)
			b[i] = v
			_, err := ReadPacked(b, "t.tbl")
			if err == nil || !strings.HasPrefix(err.Error(), "t.tbl: not a readable packed table: ") {
				t.Fatalf("byte %d changed from %#x to %#x: %v", i, packed[i], v, err)
			}
			if i >= len(packedMagic) && !strings.Contains(err.Error(), "it is damaged or cut short (its checksum does not match): pack the CSV again (spmtl pack)") {
				t.Errorf("byte %d changed: %v", i, err)
			}
		}
	}
	enc := tab.Encoding
	tab.Encoding = nil
	if p, err := PackTable(tab); err != nil {
		t.Fatal(err)
	} else if _, err := ReadPacked(p, "t.tbl"); err == nil || !strings.Contains(err.Error(), "no encoding") {
		t.Errorf("a table without its encoding: %v", err)
	}
	tab.Encoding = enc
	tab.Rows = [][]string{{"a"}}
	if _, err := PackTable(tab); err == nil {
		t.Error("a table with raw rows was packed")
	}
}

// TestPackedVersion1: a table packed before the checksum (version 1,
// testdata/packed-v1.packed, from packed-v1.csv) is refused, naming the
// file and the version: without its checksum it cannot be told from a
// damaged or hand-made table. It is version 2 without the checksum, and
// an unknown version is named too.
func TestPackedVersion1(t *testing.T) {
	v1, err := os.ReadFile("testdata/packed-v1.packed")
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile("testdata/packed-v1.csv")
	if err != nil {
		t.Fatal(err)
	}
	want, err := ReadTable(text, "packed-v1.csv", TableOptions{TaskColumn: "school", LabelColumn: "score", Drop: []string{"student"}})
	if err != nil {
		t.Fatal(err)
	}
	// Version 1 came before the roles a column may take and ids
	// (ColumnInfo.Roles, ID), which read as none.
	for i := range want.Columns {
		want.Columns[i].Roles, want.Columns[i].ID = nil, false
	}
	if !IsPacked(v1) || !strings.HasPrefix(string(v1), "spmtl packed table 1\n") {
		t.Fatalf("the fixture is not a version 1 table")
	}
	_, err = ReadPacked(v1, "packed-v1.csv")
	if err == nil || err.Error() != `packed-v1.csv: not a readable packed table: version "1": this spmtl reads version 2, which carries a checksum; pack the CSV again with it (spmtl pack)` {
		t.Errorf("version 1: %v", err)
	}
	v2, err := PackTable(want)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(v2), "spmtl packed table 2\n") || len(v2) != len(v1)+4 || string(v2[21:len(v2)-4]) != string(v1[21:]) {
		t.Errorf("PackTable writes %q, %d bytes for version 1's %d", v2[:21], len(v2), len(v1))
	}
	_, err = ReadPacked([]byte("spmtl packed table 3\nrest"), "new.packed")
	if err == nil || err.Error() != `new.packed: not a readable packed table: version "3": this spmtl reads version 2, which carries a checksum; pack the CSV again with it (spmtl pack)` {
		t.Errorf("version 3: %v", err)
	}
}

// TestPackedLimits: a hand-made packed table (its checksum right) holding a
// number the CSV reader refuses (beyond ±1e100, NaN, infinite) is refused
// too, naming the file, the row and the column; one without its checksum is
// refused; ±1e100 itself reads, as in a CSV.
func TestPackedLimits(t *testing.T) {
	const csv = "task,y,x1,x2\na,1,2,3\na,2,4,5\nb,3,6,7\n"
	for _, tc := range []struct {
		name      string
		task, row int // where the number goes; col -1 is the label
		col       int
		v         float64
		want      string
		sentinel  error
	}{
		{"feature 1e308", 0, 1, 1, 1e308, "h.packed: not a readable packed table: value 1e+308 in column x2 of data row 2 (task a) is beyond ±1e100, which the CSV reader refuses too: pack the CSV again (spmtl pack)", ErrTooLarge},
		{"feature -1e308", 1, 0, 0, -1e308, "value -1e+308 in column x1 of data row 3 (task b) is beyond ±1e100", ErrTooLarge},
		{"feature 1e101", 0, 0, 0, 1e101, "value 1e+101 in column x1 of data row 1 (task a) is beyond ±1e100", ErrTooLarge},
		{"NaN", 0, 0, 1, math.NaN(), "value NaN in column x2 of data row 1 (task a) is not a finite number", ErrTooLarge},
		{"infinite", 1, 0, 1, math.Inf(-1), "value -Inf in column x2 of data row 3 (task b) is not a finite number", ErrTooLarge},
		{"label", 0, 1, -1, 1e308, "h.packed: not a readable packed table: label 1e+308 of data row 2 (task a) is beyond ±1e100", ErrTooLarge},
		{"1e100 itself", 0, 0, 0, 1e100, "", nil},
		{"-1e100 label", 1, 0, -1, -1e100, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := ReadTable([]byte(csv), "h.csv", TableOptions{})
			if err != nil {
				t.Fatal(err)
			}
			tk := &tab.Data.Tasks[tc.task]
			if tc.col < 0 {
				tk.Y[tc.row] = tc.v
			} else {
				tk.X.Set(tc.row, tc.col, tc.v)
			}
			packed, err := PackTable(tab)
			if err != nil {
				t.Fatal(err)
			}
			back, err := ReadPacked(packed, "h.packed")
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				got := back.Data.Tasks[tc.task].Y[tc.row]
				if tc.col >= 0 {
					got = back.Data.Tasks[tc.task].X.At(tc.row, tc.col)
				}
				if got != tc.v {
					t.Errorf("%v reads back as %v", tc.v, got)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "h.packed: ") || !errors.Is(err, tc.sentinel) {
				t.Fatalf("error %v, want it to hold %q", err, tc.want)
			}
		})
	}
	// A classifier's labels are -1 and +1.
	tab, err := ReadTable([]byte("task,y,x\na,yes,1\nb,no,2\n"), "c.csv", TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tab.Data.Tasks[1].Y[0] = 0.5
	packed, err := PackTable(tab)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPacked(packed, "c.packed"); err == nil || !strings.Contains(err.Error(), "c.packed: not a readable packed table: label 0.5 of data row 2 (task b) is not -1 or +1") {
		t.Errorf("a classifier's label 0.5: %v", err)
	}
	// Without its checksum, or with another, a table is refused by name.
	for _, b := range [][]byte{packed[:len(packed)-4], append(append([]byte(nil), packed[:len(packed)-4]...), 1, 2, 3, 4)} {
		if _, err := ReadPacked(b, "c.packed"); err == nil || err.Error() != "c.packed: not a readable packed table: it is damaged or cut short (its checksum does not match): pack the CSV again (spmtl pack)" {
			t.Errorf("no checksum: %v", err)
		}
	}
}

// FuzzReadPacked: no input makes ReadPacked panic.
func FuzzReadPacked(f *testing.F) {
	tab, _ := ReadTable([]byte("task,y,c,x\na,1,u,2\nb,0,v,4\n"), "f.csv", TableOptions{})
	p, _ := PackTable(tab)
	f.Add(p)
	f.Add([]byte(packedMagic))
	if v1, err := os.ReadFile("testdata/packed-v1.packed"); err == nil {
		f.Add(v1)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ReadPacked(b, "f")
	})
}

// TestPackedOwnColumnsAsked: a table packed with its own task and label
// columns reads with them when the form's default names are asked (the
// page sends "task" and "y" until a visitor chooses: it refused such a
// table, telling the visitor to load the CSV), and another name is still
// refused.
func TestPackedOwnColumnsAsked(t *testing.T) {
	tab, err := ReadTable([]byte("region;outcome;x\na;1;2\na;2;3\nb;3;4\nb;1;5\n"), "r.csv", TableOptions{TaskColumn: "region", LabelColumn: "outcome"})
	if err != nil {
		t.Fatal(err)
	}
	packed, err := PackTable(tab)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Load(packed, "r.packed", Options{TaskColumn: "task", LabelColumn: "y"})
	if err != nil {
		t.Fatalf("the default names: %v", err)
	}
	if back.Encoding.TaskColumn != "region" || back.Encoding.LabelColumn != "outcome" || back.Data.Rows() != 4 {
		t.Errorf("read with %q and %q, %d rows", back.Encoding.TaskColumn, back.Encoding.LabelColumn, back.Data.Rows())
	}
	if _, err := Load(packed, "r.packed", Options{TaskColumn: "x"}); err == nil || !strings.Contains(err.Error(), `a packed table was read with task column "region"`) {
		t.Errorf("another task column: %v", err)
	}
}
