package data

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
)

// decimal returns s with a decimal comma read as a point ("1,5" → "1.5"):
// files separated by semicolons come from spreadsheets that write numbers
// that way. Anything else is returned as it is.
func decimal(s string) string {
	if strings.Count(s, ",") != 1 || strings.ContainsAny(s, ".eE") {
		return s
	}
	t := strings.Replace(s, ",", ".", 1)
	if _, st := parseNum(t); st == numOK || st == numTooLarge {
		return t
	}
	return s
}

// ungroup returns s without its thousands separators when it is a number
// written with them in the English way ("1,234", "-12,345,678.5"): a first
// group of one to three digits not starting with 0, then groups of exactly
// three, an optional fraction after a point. Anything else (a decimal
// comma "1,5" or "0,125", a list "1,23") is returned as it is, with false.
func ungroup(s string) (string, bool) {
	if !grouped(s, ',', '.') {
		return s, false
	}
	return strings.ReplaceAll(s, ",", ""), true
}

// spacedBytes reports whether s may hold a no-break space (its UTF-8
// starts with 0xC2 or 0xE2) or an apostrophe: byte searches, as this runs
// for every numeric cell and strings.ContainsAny of runes costs more.
func spacedBytes(s string) bool {
	return strings.IndexByte(s, '\'') >= 0 || strings.IndexByte(s, 0xC2) >= 0 || strings.IndexByte(s, 0xE2) >= 0
}

// ungroupSpaces returns s without the no-break spaces (U+00A0, U+202F) or
// apostrophes that French and Swiss spreadsheets put between groups of
// three digits ("1 000,5", "1'000.50"), when they separate such groups
// (grouped); anything else is returned as it is, with false.
func ungroupSpaces(s string) (string, bool) {
	// Two ReplaceAll, not a strings.Replacer: the Replacer's machinery
	// added 11 KB to the gzipped learner for this one use.
	t := strings.ReplaceAll(strings.ReplaceAll(s, "\u00a0", "'"), "\u202f", "'")
	if grouped(t, '\'', '.') || grouped(t, '\'', ',') {
		return strings.ReplaceAll(t, "'", ""), true
	}
	return s, false
}

// ungroupDots returns s read the way a decimal-comma locale writes it
// with thousands separators ("1.750" → "1750", "-3.227,64" → "-3227.64"):
// a first group of one to three digits not starting with 0, then groups
// of exactly three after points, an optional fraction after a comma.
// Anything else is returned as it is, with false.
func ungroupDots(s string) (string, bool) {
	if !grouped(s, '.', ',') {
		return s, false
	}
	return strings.Replace(strings.ReplaceAll(s, ".", ""), ",", ".", 1), true
}

// grouped reports whether s is a number written with the thousands
// separator sep and the decimal mark mark: an optional sign, a first group
// of one to three digits not starting with 0, then at least one group of
// exactly three after sep, then optionally mark and digits.
func grouped(s string, sep, mark byte) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i == len(s) || s[i] == '0' {
		return false
	}
	if n := digits(); n < 1 || n > 3 {
		return false
	}
	n := 0
	for i < len(s) && s[i] == sep {
		i++
		if digits() != 3 {
			return false
		}
		n++
	}
	if n == 0 {
		return false
	}
	if i < len(s) && s[i] == mark {
		i++
		digits()
	}
	return i == len(s)
}

// commaRead is what a comma inside a number was read as.
type commaRead uint8

const (
	noComma        commaRead = iota
	thousandsComma           // "1,234" read as 1234
	decimalComma             // "1,5" read as 1.5 (after a semicolon, or in a comma-separated file that writes numbers so)
	// thousandsDot: "1.750" read as 1750, "3.227,64" as 3227.64, in a
	// file that writes its numbers with a decimal comma (groupDots).
	thousandsDot
	// strayDot: a number with a point that separates no thousands ("1.75")
	// in a file that writes its numbers with a decimal comma: refused.
	strayDot
)

// unit is what a number was written with besides its digits (numberText).
type unit uint8

const (
	noUnit  unit = iota
	percent      // "12%", read as 12
	money        // "$95", "€ 12,50", "12,50 €", read as 95 and 12.5
	// parens, added to the unit inside them, marks a negative number in
	// parentheses: "(1.23)" is −1.23, "($0.72)" is −0.72.
	parens unit = 4
)

// currencies are the signs of money that numberText reads past, before or
// after the number, as spreadsheets write amounts.
var currencies = []string{"$", "€", "£", "¥"}

// stripUnit returns s without a percent sign or a currency sign (before
// the number, after its minus sign, or after the number), and which it was.
func stripUnit(s string) (string, unit) {
	if p, ok := strings.CutSuffix(s, "%"); ok {
		return strings.TrimSpace(p), percent
	}
	sign := ""
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		sign, s = s[:1], s[1:]
	}
	for _, c := range currencies {
		if p, ok := strings.CutPrefix(s, c); ok {
			return sign + strings.TrimSpace(p), money
		}
		if p, ok := strings.CutSuffix(s, c); ok {
			return sign + strings.TrimSpace(p), money
		}
	}
	return sign + s, noUnit
}

// numberText returns a cell of a numeric column as strconv reads it, what
// a comma in it was read as, and what it was written with: a percentage
// ("12%" is read as 12, in the units written: a column of them was words,
// and left out), or an amount of money ("$1,234.50" is 1234.5: a column of
// them was words, one indicator per amount). A comma is a decimal mark after a semicolon delimiter (decimal),
// and inside a quoted field of a comma-separated file a thousands
// separator (ungroup), unless the file writes decimal commas
// (decimalMarks: writesDecimalComma). A tab-separated file (Excel's
// "Unicode Text" and what it puts on the clipboard) has a decimal comma
// when it writes one (writesDecimalComma), else neither reading. In a file that writes its numbers with a
// decimal comma (groupDots), a point separates thousands (ungroupDots:
// "1.750" is 1750), and a number with a point anywhere else is strayDot.
func numberText(s string, delim rune, decimalMarks, groupDots bool) (string, commaRead, unit) {
	// The minus sign U+2212, as typeset text and copied web tables write
	// it ("−350"), is a minus.
	if len(s) > 3 && s[0] == 0xE2 && strings.HasPrefix(s, "\u2212") {
		s = "-" + s[len("\u2212"):]
	}
	if inner, ok := accountingNegative(s); ok {
		// "(1,234.50)", "($0.72)", "$(12)": a negative amount as a
		// spreadsheet's Accounting and Currency formats write it.
		if t, comma, u := numberText(inner, delim, decimalMarks, groupDots); numClass(t) == numOK && !strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "+") {
			return "-" + t, comma, u | parens
		}
	}
	if spacedBytes(s) {
		if t, ok := ungroupSpaces(s); ok {
			t, comma, u := numberText(t, delim, decimalMarks, groupDots)
			if comma == decimalComma {
				return t, thousandsDot, u // "1 000,5": thousands and a decimal comma
			}
			return t, thousandsComma, u
		}
	}
	if p, u := stripUnit(s); u != noUnit && p != "" {
		if t, comma := commaText(p, delim, decimalMarks, groupDots); numClass(t) == numOK {
			return t, comma, u
		}
	}
	t, comma := commaText(s, delim, decimalMarks, groupDots)
	return t, comma, noUnit
}

// accountingNegative returns what a number in parentheses holds, with a
// currency sign written outside them moved in ("$(12)" holds "$12"), and
// whether s is one.
func accountingNegative(s string) (string, bool) {
	for _, c := range currencies {
		if p, ok := strings.CutPrefix(s, c); ok && strings.HasPrefix(p, "(") {
			if in, ok := strings.CutPrefix(p, "("); ok {
				if in, ok := strings.CutSuffix(in, ")"); ok && in != "" {
					return c + in, true
				}
			}
		}
	}
	if len(s) > 2 && s[0] == '(' && s[len(s)-1] == ')' {
		return strings.TrimSpace(s[1 : len(s)-1]), true
	}
	return "", false
}

// commaText is numberText without the percent sign.
func commaText(s string, delim rune, decimalMarks, groupDots bool) (string, commaRead) {
	if groupDots && strings.IndexByte(s, '.') >= 0 {
		if t, ok := ungroupDots(s); ok {
			return t, thousandsDot
		}
		if numClass(s) == numOK || strings.IndexByte(s, ',') >= 0 && numClass(strings.Replace(strings.ReplaceAll(s, ".", ""), ",", ".", 1)) == numOK {
			return s, strayDot // "1.75", "1.75,5"
		}
		return s, noComma
	}
	switch {
	case delim == ';' || (delim == ',' || delim == '\t') && decimalMarks:
		if t := decimal(s); t != s {
			return t, decimalComma
		}
	case delim == ',':
		if t, ok := ungroup(s); ok {
			return t, thousandsComma
		}
	}
	return s, noComma
}

// groupsDots reports whether a text, with its delimiter, writes its
// numbers with a decimal comma, so that a point in a number separates
// thousands (numberText's groupDots): a comma-separated text that
// writesDecimalComma, or a semicolon-separated one with a field that only
// a decimal comma reads as a number ("30,4", "0,5", "3.227,64"). A text
// without both a comma and a point has nothing to decide.
func groupsDots(text []byte, delim rune, decimalMarks bool) bool {
	if delim == ',' || delim == '\t' {
		return decimalMarks
	}
	if delim != ';' || bytes.IndexByte(text, ',') < 0 || bytes.IndexByte(text, '.') < 0 {
		return false
	}
	return anyCommaField(text, delim, func(s string) bool {
		if decimal(s) != s {
			return true
		}
		t, ok := ungroupDots(s)
		return ok && strings.IndexByte(t, '.') >= 0
	})
}

// writesDecimalComma reports whether a comma-separated text holds, in a
// quoted field, a number that only a decimal comma reads ("0,5", "3,0771",
// "0,000"; not "1,234", which English grouping reads too), as a
// spreadsheet in a decimal-comma locale writes its CSV. Such a file's
// commas in numbers are all decimal marks: "1,037" beside "0,942" is
// 1.037, where it once read as 1037 while "0,000" was refused. A
// tab-separated text is asked the same of any field: Excel's "Unicode
// Text" in a decimal-comma locale, whose numbers were read as words
// ("2,55" left out as a column of 116 values, a label "0,047" a third
// class).
func writesDecimalComma(text []byte, delim rune) bool {
	if delim != ',' && delim != '\t' || delim == ',' && bytes.IndexByte(text, '"') < 0 {
		return false
	}
	return anyCommaField(text, delim, func(s string) bool {
		_, grouped := ungroup(s)
		return !grouped && decimal(s) != s
	})
}

// anyCommaField reports whether a field of the text, trimmed, without a
// percent or currency sign and holding a comma, is one that reads
// (groupsDots, writesDecimalComma). It stops at
// the first, or at the end or an error, which the passes report.
func anyCommaField(text []byte, delim rune, reads func(s string) bool) bool {
	cr := tableReader(text, delim)
	for {
		rec, err := cr.Read()
		if err != nil {
			return false
		}
		for _, f := range rec {
			s, _ := stripUnit(strings.TrimSpace(f)) // "12,50 €" is 12,50
			if strings.IndexByte(s, ',') >= 0 && reads(s) {
				return true
			}
		}
	}
}

// numStatus is the outcome of parsing a number.
type numStatus int

const (
	numOK numStatus = iota
	numEmpty
	numSyntax
	numNotFinite
	numTooLarge // finite, but beyond ±MaxMagnitude
	// numStrayDot: a number with a point that separates no thousands, in
	// a file that writes its numbers with a decimal comma (strayDot).
	numStrayDot
)

// MaxMagnitude bounds the feature values and labels the readers accept:
// training sums squares and products of them (Gram matrices, costs, RMSE),
// which overflow float64 (about 1.8e308) from about 1e154 on. Beyond
// ±1e100 a value is refused at its position (ErrTooLarge), to be rescaled.
// (The messages spell it "1e100".)
const MaxMagnitude = 1e100

// missingMarkers are the texts that files written by R, pandas,
// spreadsheets and databases, and the UCI repository's, put in a cell for
// a missing value: a cell that holds one is an empty cell. (pandas' default
// list, less its spellings of NaN, which are refused as not finite, and
// "None", a word a column of categories may hold.)
var missingMarkers = map[string]bool{"NA": true, "N/A": true, "n/a": true, "#N/A": true, "#N/A N/A": true, "#NA": true, "<NA>": true, "NULL": true, "null": true, "?": true}

// MissingMarker reports whether a cell, trimmed, is empty or a
// missing-value marker (NA, N/A, #N/A, NULL, ?, …): a missing number, and
// in a column of words a value of its own.
func MissingMarker(s string) bool {
	s = strings.TrimSpace(s)
	return s == "" || s == emptyValue || missingMarkers[s]
}

// parseNum parses s (already trimmed) as a finite float64; a number beyond
// ±MaxMagnitude is numTooLarge (with its value); an empty cell or a
// missing-value marker (missingMarkers) is numEmpty.
func parseNum(s string) (float64, numStatus) {
	if s == "" {
		return 0, numEmpty
	}
	if v, ok := fastFloat(s); ok {
		return v, numOK
	}
	if missingMarkers[s] {
		return 0, numEmpty
	}
	// strconv reads Go's literals too: digits separated by underscores
	// (1_000) and hexadecimal floats (0x10p0). No spreadsheet, R or pandas
	// writes a number so; such a cell is a word.
	if strings.ContainsAny(s, "_xXpP") {
		return 0, numSyntax
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) && !finite(v) {
			return 0, numNotFinite
		}
		if !errors.Is(err, strconv.ErrRange) {
			return 0, numSyntax
		}
		// Underflow: ParseFloat returns the nearest value (0 or a
		// denormal), which is fine.
	}
	if !finite(v) {
		return 0, numNotFinite
	}
	if v > MaxMagnitude || v < -MaxMagnitude {
		return v, numTooLarge
	}
	return v, numOK
}

// numClass classifies s (already trimmed) as parseNum would for a column's
// first pass, which only counts numbers, words and empty cells: numOK for
// any number (finite or not), numEmpty, numSyntax. The common plain
// decimals ([+-]digits[.digits][e[+-]digits], or .digits) are recognised
// by their syntax alone, without computing their value: strconv accepts
// every one of them (at worst out of range, still a number); anything else
// is left to parseNum.
func numClass(s string) numStatus {
	if s == "" {
		return numEmpty
	}
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits > 0 && i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	if digits > 0 && i == len(s) {
		return numOK
	}
	_, st := parseNum(s)
	if st == numNotFinite || st == numTooLarge {
		return numOK
	}
	return st
}

// pow10 holds the powers of ten that are exact in a float64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// fastFloat parses the common plain decimals ("-12", "0.00353708") of at
// most 15 digits without strconv, for speed. Such a number is m/10^k with m
// < 2^53 and k <= 15, both exact in a float64, so the one division is
// correctly rounded and the result equals strconv.ParseFloat's. ok is false
// for anything else (exponents, more digits, special values, syntax
// errors), which the caller leaves to strconv.
func fastFloat(s string) (v float64, ok bool) {
	i, neg := 0, false
	if s[0] == '-' || s[0] == '+' {
		neg = s[0] == '-'
		i = 1
	}
	var m uint64
	digits, frac, dot := 0, 0, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
			digits++
			if digits > 15 {
				return 0, false // (strconv's: a longer mantissa is not exact here)
			}
			if dot {
				frac++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false
		}
	}
	if digits == 0 || digits > 15 {
		return 0, false
	}
	v = float64(m) / pow10[frac]
	if neg {
		v = -v
	}
	return v, true
}
