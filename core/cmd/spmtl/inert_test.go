package main

import (
	"encoding/csv"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// hostileToy writes testdata/toy.csv with task and feature names a
// spreadsheet would run as formulas, and a task name holding a control
// character, and returns its path.
func hostileToy(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/toy.csv")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.NewReplacer("field1,", "=1+1,", "field2,", "\"@SUM(A1)\x01\",", "field3,", "-cmd,", "x1,", "+feature,").Replace(string(b))
	p := filepath.Join(t.TempDir(), "hostile.csv")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDerivedFilesAreInert: the CSV files the command line derives from a
// visitor's names (figures' numbers, shared knowledge) carry those names
// with a quote before them, so that a spreadsheet shows them as text, and
// keep their numbers, negative ones included, as numbers; the SVGs beside
// them are well-formed XML.
func TestDerivedFilesAreInert(t *testing.T) {
	data, dir := hostileToy(t), t.TempDir()
	model := filepath.Join(dir, "model.json")
	for _, args := range [][]string{
		{"figure", "tau", "-data", data, "-maxiter", "3", "-out", dir},
		{"figure", "scatter", "-data", data, "-maxiter", "3", "-out", dir},
		{"figure", "sequential", "-data", data, "-out", dir},
		{"train", "-data", data, "-model", "mtfl", "-train", "all", "-save", model},
		{"inspect", "-model", model, "-out", dir},
	} {
		if _, errOut, err := spmtl(t, args...); err != nil {
			t.Fatalf("spmtl %s: %v\n%s", strings.Join(args, " "), err, errOut)
		}
	}
	for _, tc := range []struct {
		file string
		want []string // cells the file must hold
	}{
		{"tau.csv", []string{"'=1+1", "'@SUM(A1)\x01", "'-cmd"}},
		{"scatter.csv", []string{"'=1+1", "'-cmd"}},
		{"sequential.csv", []string{"'=1+1"}},
		{"theta-1.csv", []string{"'+feature"}},
	} {
		f, err := os.Open(filepath.Join(dir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatalf("%s does not read back: %v", tc.file, err)
		}
		cells := map[string]bool{}
		for _, r := range rows {
			for _, c := range r {
				cells[c] = true
				if c != "" && strings.ContainsRune("=+-@\t\r\n", rune(c[0])) && !isNumber(c) {
					t.Errorf("%s: the cell %q would run in a spreadsheet", tc.file, c)
				}
			}
		}
		for _, w := range tc.want {
			if !cells[w] {
				t.Errorf("%s has no cell %q", tc.file, w)
			}
		}
	}
	svgs, _ := filepath.Glob(filepath.Join(dir, "*.svg"))
	if len(svgs) < 3 {
		t.Fatalf("%d SVGs written, want the τ map, the scatter and Θ's bars", len(svgs))
	}
	for _, p := range svgs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(strings.NewReader(string(b)))
		for {
			if _, err := d.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Errorf("%s is not well-formed XML: %v", filepath.Base(p), err)
				break
			}
		}
	}
}

// isNumber: a cell a spreadsheet reads as a number ("-1.5", "2e-07"), not
// "-Inf", "NaN" or hexadecimal, which Go would parse.
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && !strings.ContainsAny(s, "xXnNiIpP_")
}
