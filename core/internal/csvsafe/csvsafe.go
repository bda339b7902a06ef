// Package csvsafe writes the CSV files the command line derives (figures'
// numbers, shared knowledge, the reproduced table) so that a spreadsheet
// opens them as data: a text cell that a spreadsheet would run as a
// formula is written with a single quote before it (OWASP's advice on CSV
// injection), which the spreadsheet shows as text. Numbers stay numbers.
package csvsafe

import (
	"encoding/csv"
	"strings"
)

// number reports whether s is a number as a spreadsheet reads one: a
// sign, digits with a decimal point, an exponent ("-1.5", "+2", "3e-07").
// (By hand, not with regexp, which would add to the wasm's size.)
func number(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	n := digits()
	if i < len(s) && s[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// Cell returns s made inert for a spreadsheet: when it begins with = + -
// @, a tab, a carriage return or a line feed and is not a number, a single
// quote before it; otherwise s as it is.
func Cell(s string) string {
	if s == "" || !strings.ContainsRune("=+-@\t\r\n", rune(s[0])) || number(s) {
		return s
	}
	return "'" + s
}

// Text returns rows as CSV text (RFC 4180 quoting), every cell through
// Cell. (A csv.Writer with the default comma writing to a strings.Builder
// has no error to report.)
func Text(rows [][]string) string {
	var b strings.Builder
	w := csv.NewWriter(&b)
	for _, r := range rows {
		safe := make([]string, len(r))
		for k, c := range r {
			safe[k] = Cell(c)
		}
		w.Write(safe)
	}
	w.Flush()
	return b.String()
}
