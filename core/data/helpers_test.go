package data

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// dataDirs are where the real data sets live, seen from this package's
// directory: the copies the app ships, then the project's shared folder.
var dataDirs = []string{"../../web/data/", "../../../shared/data/"}

// dataPath returns the first existing copy of a data file.
func dataPath(rel string) string {
	for _, d := range dataDirs {
		if _, err := os.Stat(d + rel); err == nil {
			return d + rel
		}
	}
	return dataDirs[len(dataDirs)-1] + rel
}

// openShared opens a real data file, or skips the test when it is absent.
func openShared(tb testing.TB, rel string) *os.File {
	tb.Helper()
	f, err := os.Open(dataPath(rel))
	if err != nil {
		tb.Skipf("shared data not available: %v", err)
	}
	tb.Cleanup(func() { f.Close() })
	return f
}

// readShared reads a whole shared data file, or skips.
func readShared(tb testing.TB, rel string) []byte {
	tb.Helper()
	b, err := os.ReadFile(dataPath(rel))
	if err != nil {
		tb.Skipf("shared data not available: %v", err)
	}
	return b
}

// wantParseErr checks that err is a *ParseError at line:col for file whose
// message contains substr and which wraps sentinel (when not nil).
func wantParseErr(t *testing.T, err error, file string, line, col int, substr string, sentinel error) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %d:%d %q", line, col, substr)
	}
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %q (%T) is not a *ParseError", err, err)
	}
	if pe.File != file || pe.Line != line || pe.Column != col {
		t.Errorf("error at %s:%d:%d, want %s:%d:%d (%v)", pe.File, pe.Line, pe.Column, file, line, col, err)
	}
	if !strings.Contains(err.Error(), substr) {
		t.Errorf("error %q does not contain %q", err, substr)
	}
	if sentinel != nil && !errors.Is(err, sentinel) {
		t.Errorf("error %q does not wrap %v", err, sentinel)
	}
}

// taskNames returns the names of the tasks of ds.
func taskNames(ds *Dataset) []string {
	var s []string
	for _, t := range ds.Tasks {
		s = append(s, t.Name)
	}
	return s
}

// denseRows returns the rows of a dense task.
func denseRows(t *Task) [][]float64 {
	var rows [][]float64
	for i := 0; i < t.Rows(); i++ {
		rows = append(rows, append([]float64(nil), t.X.RawRowView(i)...))
	}
	return rows
}
