package data

import (
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
		{"read as words, an id", []byte(visitsCSV(12, "3+")), TableOptions{Text: []string{"visits"}}},
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
// testdata/packed-v1.packed, from packed-v1.csv) still reads, as the CSV
// does; an unknown version is named.
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
	got, err := ReadPacked(v1, "packed-v1.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("version 1 reads differently:\n got %+v\nwant %+v", got, want)
	}
	v2, err := PackTable(want)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(v2), "spmtl packed table 2\n") || len(v2) != len(v1)+4 {
		t.Errorf("PackTable writes %q, %d bytes for version 1's %d", v2[:21], len(v2), len(v1))
	}
	_, err = ReadPacked([]byte("spmtl packed table 3\nrest"), "new.packed")
	if err == nil || err.Error() != `new.packed: not a readable packed table: version "3": this spmtl reads versions 1 and 2; pack the CSV again with it (spmtl pack)` {
		t.Errorf("version 3: %v", err)
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
