package data

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
)

// Options configures Read, which accepts either format; each reader uses
// the fields that apply to it.
type Options struct {
	// Format is "csv", "sparse", or "" to detect it with Detect.
	Format string
	// TaskColumn and LabelColumn name the CSV task and label columns
	// ("task" and "y" when empty); see CSVOptions.
	TaskColumn, LabelColumn string
	// Kind and Positive are as in CSVOptions and SparseOptions.
	Kind     KindChoice
	Positive string
	// Features is the sparse number of features; see SparseOptions.
	Features int
}

// detectBytes is how much of the input Read looks at to detect the format.
const detectBytes = 64 << 10

// Read reads a dataset in the format opt.Format, or, when that is empty, in
// the format Detect finds in the first bytes of r. See ReadCSV and
// ReadSparse.
func Read(r io.Reader, name string, opt Options) (*Dataset, error) {
	format := strings.ToLower(strings.TrimSpace(opt.Format))
	if format == "" {
		br := bufio.NewReaderSize(r, detectBytes)
		// A read error shows up again, and is reported, when the
		// reader reads br.
		prefix, _ := br.Peek(detectBytes)
		format = Detect(prefix)
		r = br
	}
	switch format {
	case "csv":
		return ReadCSV(r, name, CSVOptions{TaskColumn: opt.TaskColumn, LabelColumn: opt.LabelColumn, Kind: opt.Kind, Positive: opt.Positive})
	case "sparse":
		return ReadSparse(r, name, SparseOptions{Kind: opt.Kind, Positive: opt.Positive, Features: opt.Features})
	}
	return nil, fmt.Errorf("%s: unknown format %q: want csv or sparse", name, opt.Format)
}

// Detect tells the two input formats apart from the first bytes of a file.
// It looks at the first line that is neither blank nor a # comment: a line
// without commas or semicolons whose first two fields are followed by an
// index:value field, or that has exactly two fields (an example without
// features), is "sparse"; anything else is "csv". (A semicolon header such
// as "ward;dose mg;outcome" splits at its space into two fields.)
func Detect(prefix []byte) string {
	b := bytes.TrimPrefix(prefix, utf8BOM)
	for len(b) > 0 {
		line := b
		if i := lineEnd(b); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if bytes.IndexByte(line, ',') >= 0 || bytes.IndexByte(line, ';') >= 0 {
			return "csv"
		}
		f := bytes.Fields(line)
		if len(f) == 2 || (len(f) > 2 && bytes.IndexByte(f[2], ':') > 0) {
			return "sparse"
		}
		return "csv"
	}
	return "csv"
}

// lineEnd returns the index of the first line break of b, "\n" or a CR
// (a lone CR ends a line too), or -1.
func lineEnd(b []byte) int {
	for i, c := range b {
		if c == '\n' || c == '\r' {
			return i
		}
	}
	return -1
}

// isSparse reports whether a text is in the sparse format (Detect).
func isSparse(text []byte) bool { return Detect(text[:min(len(text), detectBytes)]) == "sparse" }
