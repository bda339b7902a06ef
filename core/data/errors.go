package data

import (
	"encoding/csv"
	"errors"
	"fmt"
)

// ParseError is the error the readers return for a problem at a position in
// their input, in the manner of encoding/csv.ParseError.
//
// Line is 1-based. Column is 1-based too, and means:
//   - for CSV input (ReadCSV, ReadSplitFile): the field number, counting
//     from 1 at the left of the record. For a ragged row it is the first
//     extra field, or the first missing one. Errors about the header as a
//     whole (a missing column, an empty file) use column 1. Syntax errors
//     found by encoding/csv itself (a bare quote, for instance) keep the
//     1-based byte column that encoding/csv reports.
//   - for the sparse text format (ReadSparse): the 1-based byte column where
//     the offending token starts (after a UTF-8 byte order mark, if any).
//   - for a byte that is not UTF-8 text (CheckText): the 1-based character
//     column of that byte, as a text editor counts it.
//
// Err describes the problem and says what was expected. It wraps one of the
// Err* sentinels of this package, so errors.Is(err, ErrRaggedRow) and the
// like work on a returned error.
type ParseError struct {
	File   string // the name given to the reader
	Line   int    // 1-based line number
	Column int    // 1-based column, see above
	Err    error  // the problem
	// Remedy is what a front end can offer against the problem in its
	// own way (RemedyOf); the zero Remedy when there is nothing to offer.
	Remedy Remedy
}

// Remedy is what a front end can offer against a refusal in its own way:
// the command line names its flag (-drop x1, -text x1, -task NAME), the
// page offers a button or points at its menu. The messages advise it in words that fit
// every front end ("leave the column out", "choose the task column among
// these"), and the front end adds how.
type Remedy struct {
	// Drop names a column that, left out, takes the refusal away.
	Drop string
	// Text names a column that, read as words (TableOptions.Text), takes
	// the refusal away: a category written with numbers and words (0, 1,
	// 2, 3+).
	Text string
	// Choose is RoleTask or RoleLabel: choose that column anew among the
	// header's columns.
	Choose Role
	// Omit: leaving out the rows with a missing value
	// (TableOptions.OmitMissing) takes the refusal away.
	Omit bool
	// Skip: predicting only the rows of the tasks the model knows
	// (NewRowsOptions.SkipUnknown) takes the refusal away.
	Skip bool
}

// RemedyError is an error without a position that carries a Remedy.
type RemedyError struct {
	Err    error
	Remedy Remedy
}

// Error returns e.Err's message.
func (e *RemedyError) Error() string { return e.Err.Error() }

// Unwrap returns e.Err.
func (e *RemedyError) Unwrap() error { return e.Err }

// RemedyOf returns the remedy that err carries: that of the first
// *ParseError or *RemedyError in its chain that has one, or the zero
// Remedy.
func RemedyOf(err error) Remedy {
	for err != nil {
		switch e := err.(type) {
		case *ParseError:
			if e.Remedy != (Remedy{}) {
				return e.Remedy
			}
		case *RemedyError:
			if e.Remedy != (Remedy{}) {
				return e.Remedy
			}
		}
		err = errors.Unwrap(err)
	}
	return Remedy{}
}

// Error returns "FILE:LINE:COL: message", or "LINE:COL: message" when File
// is empty.
func (e *ParseError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("%d:%d: %v", e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Column, e.Err)
}

// Unwrap returns e.Err.
func (e *ParseError) Unwrap() error { return e.Err }

// Sentinel errors wrapped by the readers' errors. Test for them with
// errors.Is; the messages of the returned errors carry the details.
var (
	// ErrEmptyFile: the input has no header (CSV) or no lines at all.
	ErrEmptyFile = errors.New("empty file")
	// ErrNoRows: the input has a header, or comments, but no data rows.
	ErrNoRows = errors.New("no data rows")
	// ErrHeader: a required column is missing, a column name is empty or
	// repeated, or no column is left for the features.
	ErrHeader = errors.New("bad header")
	// ErrRaggedRow: a record has a different number of fields than the
	// header.
	ErrRaggedRow = errors.New("ragged row")
	// ErrMissingValue: an empty label, task name, feature value or split
	// value.
	ErrMissingValue = errors.New("missing value")
	// ErrNotNumber: a feature value, feature index, numeric label or row
	// number that does not parse as a number.
	ErrNotNumber = errors.New("non-numeric value")
	// ErrNotFinite: a NaN or infinite feature value or label (including
	// values too large for a float64).
	ErrNotFinite = errors.New("NaN or Inf value")
	// ErrTooLarge: a feature value or label beyond ±MaxMagnitude, whose
	// squares and sums of squares would overflow in training.
	ErrTooLarge = errors.New("value too large")
	// ErrLabels: labels that fit neither the requested nor any detected
	// kind, such as a third class.
	ErrLabels = errors.New("bad labels")
	// ErrToken: a sparse feature token that is not index:value.
	ErrToken = errors.New("bad token")
	// ErrIndex: a sparse feature index that is not 1-based, not strictly
	// increasing within its row, or beyond the number of features.
	ErrIndex = errors.New("bad feature index")
	// ErrLongName: a column's or a task's name longer than MaxNameBytes.
	ErrLongName = errors.New("name too long")
	// ErrSplit: a split file value that is neither train nor test, or rows
	// that are not numbered 0, 1, 2, ... in order.
	ErrSplit = errors.New("bad split file")
)

// detailError is an error whose message is msg and which wraps a sentinel,
// so that messages can read naturally and still satisfy errors.Is.
type detailError struct {
	sentinel error
	msg      string
}

func (e *detailError) Error() string { return e.msg }
func (e *detailError) Unwrap() error { return e.sentinel }

// errf returns an error with the formatted message that wraps sentinel.
func errf(sentinel error, format string, args ...any) error {
	return &detailError{sentinel: sentinel, msg: fmt.Sprintf(format, args...)}
}

// parseErr returns a *ParseError at line and col.
func parseErr(file string, line, col int, sentinel error, format string, args ...any) *ParseError {
	return &ParseError{File: file, Line: line, Column: col, Err: errf(sentinel, format, args...)}
}

// csvErr turns an error from encoding/csv into one of ours: syntax errors
// become a *ParseError (with encoding/csv's byte column), others are
// wrapped with the file name; our own errors are returned as they are.
func csvErr(file string, err error) error {
	if _, ours := err.(*ParseError); ours {
		return err // already names the file (readHeader)
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{File: file, Line: pe.Line, Column: pe.Column, Err: pe.Err}
	}
	return fmt.Errorf("reading %s: %w", file, err)
}
