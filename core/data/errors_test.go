package data

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestFastFloat checks that the fast path agrees bit for bit with strconv
// wherever it accepts a string.
func TestFastFloat(t *testing.T) {
	check := func(s string) {
		t.Helper()
		v, ok := fastFloat(s)
		if !ok {
			return
		}
		want, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(v) != math.Float64bits(want) {
			t.Fatalf("fastFloat(%q) = %v, strconv gives %v, %v", s, v, want, err)
		}
	}
	for _, s := range []string{"0", "-0", "+0", "-0.0", "1", "1.", ".5", "-.5", "0.00353708", "123456789012345", "0.123456789012345",
		"9007199254740993", "1.7976931348623157", "0.1", "0.3", "-2.5", "007"} {
		check(s)
	}
	for _, s := range []string{".", "-", "+", "1..2", "1e5", "0x10", "1_0", "nan", "inf", "1234567890123456", "1,5", "- 1"} {
		if v, ok := fastFloat(s); ok {
			if _, err := strconv.ParseFloat(s, 64); err != nil {
				t.Errorf("fastFloat(%q) = %v, but strconv rejects it", s, v)
			}
			check(s)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const chars = "0123456789.-+"
	for n := 0; n < 200000; n++ {
		b := make([]byte, 1+rng.IntN(18))
		for i := range b {
			if rng.IntN(4) == 0 {
				b[i] = chars[rng.IntN(len(chars))]
			} else {
				b[i] = chars[rng.IntN(10)]
			}
		}
		s := string(b)
		_, ok := fastFloat(s)
		_, err := strconv.ParseFloat(s, 64)
		if ok && err != nil {
			t.Fatalf("fastFloat accepts %q, strconv rejects it: %v", s, err)
		}
		check(s)
	}
}

// TestNumClass checks that the first pass's syntax-only classification is
// parseNum's (a number, finite or not; empty; a word) for every string,
// so a column's role never depends on which of the two read it.
func TestNumClass(t *testing.T) {
	want := func(s string) numStatus {
		_, st := parseNum(s)
		if st == numNotFinite || st == numTooLarge {
			return numOK
		}
		return st
	}
	check := func(s string) {
		t.Helper()
		if got, w := numClass(s), want(s); got != w {
			t.Fatalf("numClass(%q) = %v, parseNum says %v", s, got, w)
		}
	}
	for _, s := range []string{"", "0", "-0", "+1", "1.", ".5", "-.5", "1e5", "1E-5", "1e+5", "1e", "1e+", "e5", ".e5", "1.e5",
		".", "-", "+", "1..2", "1e999", "-1e999", "1e-999", "0x10", "0x1p-2", "1_0", "nan", "NaN", "inf", "-Inf", "infinity",
		"1,5", "- 1", "1e5.5", "12345678901234567890123", "1.7976931348623157e308", "abc", "1a", "٣"} {
		check(s)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	const chars = "0123456789.-+eExa_ "
	for n := 0; n < 300000; n++ {
		b := make([]byte, 1+rng.IntN(12))
		for i := range b {
			if rng.IntN(3) == 0 {
				b[i] = chars[rng.IntN(len(chars))]
			} else {
				b[i] = chars[rng.IntN(10)]
			}
		}
		check(string(b))
	}
}

// TestGoLiteralsAreWords: strconv reads Go's literals, which no
// spreadsheet, R or pandas writes: 1_000 and 0x10p0 are words, not 1000
// and 16 (a tester's file read them as numbers).
func TestGoLiteralsAreWords(t *testing.T) {
	for _, s := range []string{"1_000", "0x10", "0x10p0", "0X1P-2", "1_0.5"} {
		if _, st := parseNum(s); st != numSyntax {
			t.Errorf("parseNum(%q) = %v, want a word", s, st)
		}
	}
	for _, s := range []string{"1e5", "-2.5E-3", "Inf", "infinity", "NaN"} {
		if _, st := parseNum(s); st == numSyntax {
			t.Errorf("parseNum(%q) reads as a word", s)
		}
	}
}
