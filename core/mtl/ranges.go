package mtl

import (
	"fmt"
	"math"
)

// Range is the valid range of a numeric setting of Config: a finite
// number above Lo (at least Lo with LoIncluded) and at most Hi (NoBound:
// none), whole when Integer is set. Ranges is the one statement of each;
// Validate, the command line's flags and the page's checks (through the
// catalogue) read it.
type Range struct {
	// Key is the setting's JSON name in Config (and the page's option).
	Key        string  `json:"key"`
	Lo         float64 `json:"lo"`
	Hi         float64 `json:"hi"`
	LoIncluded bool    `json:"loIncluded"`
	Integer    bool    `json:"integer"`
}

// NoBound is the Hi of a range without an upper bound: the largest
// float64, which JSON can carry (it has no Infinity) and which no finite
// value exceeds.
const NoBound = math.MaxFloat64

// Ranges are the ranges of Config's numeric settings.
var Ranges = []Range{
	{Key: "rho", Lo: 0, Hi: 1e12},
	{Key: "lambda0", Lo: 0, Hi: 1e300},
	{Key: "autoLambda0", Lo: 0, Hi: 1e6}, // 0 means "not automatic"
	{Key: "c", Lo: 1, Hi: 1e6, LoIncluded: true},
	{Key: "delta", Lo: 0, Hi: 1},
	{Key: "h", Lo: 1, Hi: NoBound, LoIncluded: true, Integer: true},
	{Key: "maxIter", Lo: 1, Hi: 100000, LoIncluded: true, Integer: true},
	{Key: "eps", Lo: 0, Hi: NoBound},
	{Key: "intercept", Lo: 0, Hi: 1e12, LoIncluded: true},
}

// RangeOf returns the range of the setting key; it panics on a key that
// has none (a programming error: the keys are this file's).
func RangeOf(key string) Range {
	for _, r := range Ranges {
		if r.Key == key {
			return r
		}
	}
	panic(fmt.Sprintf("mtl: no range for setting %q", key))
}

// Contains reports whether v is in the range (NaN and ±Inf never are).
func (r Range) Contains(v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) || v > r.Hi || (r.Integer && v != math.Trunc(v)) {
		return false
	}
	if r.LoIncluded {
		return v >= r.Lo
	}
	return v > r.Lo
}

// String says the range in words: "more than 0 and at most 1e+12".
func (r Range) String() string {
	lo := "more than"
	if r.LoIncluded {
		lo = "at least"
	}
	s := fmt.Sprintf("%s %g", lo, r.Lo)
	if r.Integer {
		s = "a whole number " + s
	}
	if r.Hi < NoBound {
		s += fmt.Sprintf(" and at most %g", r.Hi)
	}
	return s
}

// check returns an error naming the setting when v is out of its range.
func check(key, name string, v float64) error {
	if r := RangeOf(key); !r.Contains(v) {
		return fmt.Errorf("%s must be %s, got %v", name, r, v)
	}
	return nil
}
