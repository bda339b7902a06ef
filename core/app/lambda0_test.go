package app

import (
	"testing"

	"github.com/spmtl/spmtl/core/mtl"
)

func TestParseLambda0(t *testing.T) {
	for _, c := range []struct {
		text          string
		lambda0, auto float64
		ok            bool
	}{
		{"2", 2, 0, true},
		{" 0.5 ", 0.5, 0, true},
		{"auto", 0, 1, true},
		{"auto*8", 0, 8, true},
		{"auto * 0.25", 0, 0.25, true},
		{"0", 0, 0, false},
		{"-1", 0, 0, false},
		{"auto*0", 0, 0, false},
		{"auto*2e6", 0, 0, false},
		{"auto8", 0, 0, false},
		{"autox", 0, 0, false},
		{"NaN", 0, 0, false},
		{"", 0, 0, false},
	} {
		v, k, err := ParseLambda0(c.text)
		if (err == nil) != c.ok || v != c.lambda0 || k != c.auto {
			t.Errorf("ParseLambda0(%q) = %g, %g, %v; want %g, %g, ok %v", c.text, v, k, err, c.lambda0, c.auto, c.ok)
		}
		if err != nil {
			continue
		}
		back := Lambda0Text(mtl.Config{Lambda0: v, AutoLambda0: k})
		if v2, k2, _ := ParseLambda0(back); v2 != v || k2 != k {
			t.Errorf("Lambda0Text round trip of %q: %q", c.text, back)
		}
	}
}
