package data

import (
	"strings"
	"testing"
	"testing/iotest"
)

func TestDetect(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"task,y,x1\na,1,2\n", "csv"},
		{"\xef\xbb\xbftask,y,x1\n", "csv"},
		{"a 1 3:0.5 7:1\n", "sparse"},
		{"\n# comment, with a comma\n\ta\t-1\t3:0.5\n", "sparse"},
		{"a 1\n", "sparse"},
		{"task\n", "csv"},
		{"a b c\n", "csv"},
		{"", "csv"},
		{"a 1 3:0.5 7:1,2\n", "csv"},
		{"ward;dose mg;outcome\na;1,5;2\n", "csv"}, // a space in a semicolon header: two fields
		{"ward;dose mg 3:x\n", "csv"},
		// Lines that end with a lone CR: the first line decides.
		{"task\ty\tx\ra\t1\t3:0.5\r", "csv"},
		{"# a, b\ra 1 3:0.5\rb 0 1:1\r", "sparse"},
	}
	for _, tc := range tests {
		if got := Detect([]byte(tc.in)); got != tc.want {
			t.Errorf("Detect(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRead(t *testing.T) {
	csvIn := "g,label,x\nA,0,1\nA,1,2\n"
	ds, err := Read(strings.NewReader(csvIn), "a.csv", Options{TaskColumn: "g", LabelColumn: "label"})
	if err != nil || ds.Sparse() || ds.Rows() != 2 || ds.Kind != Classification {
		t.Errorf("detected csv: %v, %+v", err, ds)
	}
	ds, err = Read(strings.NewReader("a 1 2:1\nb 3 1:1\nb 2\n"), "a.svm", Options{Features: 5})
	if err != nil || !ds.Sparse() || ds.Features != 5 || ds.Kind != Regression {
		t.Errorf("detected sparse: %v, %+v", err, ds)
	}
	ds, err = Read(strings.NewReader("a 1 2:1\n"), "a.svm", Options{Format: "Sparse", Kind: KindClassification})
	if err != nil || !ds.Sparse() || ds.Kind != Classification {
		t.Errorf("explicit sparse: %v, %+v", err, ds)
	}
	if _, err := Read(strings.NewReader(csvIn), "a.arff", Options{Format: "arff"}); err == nil || !strings.Contains(err.Error(), "unknown format") {
		t.Errorf("unknown format: got %v", err)
	}
	// A read error is reported, with the file name.
	_, err = Read(iotest.ErrReader(iotest.ErrTimeout), "broken.csv", Options{})
	if err == nil || !strings.Contains(err.Error(), "broken.csv") || !strings.Contains(err.Error(), "timeout") {
		t.Errorf("read error: got %v", err)
	}
	_, err = Read(iotest.ErrReader(iotest.ErrTimeout), "broken.svm", Options{Format: "sparse"})
	if err == nil || !strings.Contains(err.Error(), "broken.svm") || !strings.Contains(err.Error(), "timeout") {
		t.Errorf("sparse read error: got %v", err)
	}
}
