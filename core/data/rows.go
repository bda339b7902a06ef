package data

import "strings"

// fitRecord matches a record to the header when a trailing delimiter is
// on one side only: a record may end before unnamed last columns (it is
// given empty fields for them), or carry empty fields past the header's
// end, which are cut. ok is false for a record that is ragged otherwise.
func fitRecord(rec, header []string) (_ []string, ok bool) {
	if len(rec) > len(header) {
		for _, f := range rec[len(header):] {
			if strings.TrimSpace(f) != "" {
				return rec, false
			}
		}
		return rec[:len(header)], true
	}
	for _, h := range header[len(rec):] {
		if h != "" {
			return rec, false
		}
	}
	for len(rec) < len(header) {
		rec = append(rec, "")
	}
	return rec, true
}

// blankRow reports whether a record is blank: a line of only spaces, or a
// row whose fields are all empty (the ",,,," a spreadsheet writes for an
// empty row after the data). The readers skip it like an empty line. In a
// file of one column, a single empty field is a missing value instead.
func blankRow(rec, header []string) bool {
	if len(rec) == 1 && len(header) <= 1 {
		return false
	}
	return allBlank(rec)
}

// allBlank reports whether every field of a record is empty or spaces.
func allBlank(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

// fitRow is fitRecord for a data row of a reader at line: blank is set for
// a blank row (blankRow), which the readers skip, and a record that cannot
// be matched is a ragged-row error at its first missing or extra field.
func fitRow(rec, header []string, name string, line int) (_ []string, blank bool, err error) {
	if blankRow(rec, header) {
		return nil, true, nil
	}
	if fitted, ok := fitRecord(rec, header); ok {
		return fitted, false, nil
	}
	col := len(header) + 1
	if len(rec) < len(header) {
		col = len(rec) + 1
	}
	return nil, false, parseErr(name, line, col, ErrRaggedRow, "ragged row: %d fields, want %d (header has %d)", len(rec), len(header), len(header))
}
