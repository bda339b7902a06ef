package app

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spmtl/spmtl/core/mtl"
)

// The λ0 setting's text is a number, "auto" (the scale-free pace at which
// the easiest quarter of the tasks holds half of τ at the first iteration,
// docs/algorithms.md §6.2) or "auto*K" (K times it). This file is the one
// place that text is read and written: the command line's -lambda0, the
// bridge's lambda0 option and the page's λ0 field all pass it here.

// ParseLambda0 reads a λ0 setting into the two fields of mtl.Config it
// sets: lambda0 (the number; 0 when automatic) and auto (K; 0 when not
// automatic). Each value must lie in its range (mtl.Ranges).
func ParseLambda0(text string) (lambda0, auto float64, err error) {
	s := strings.TrimSpace(text)
	numRange, autoRange := mtl.RangeOf("lambda0"), mtl.RangeOf("autoLambda0")
	if rest, ok := strings.CutPrefix(s, "auto"); ok {
		rest = strings.TrimSpace(rest)
		if rest == "" {
			return 0, 1, nil
		}
		k, perr := strconv.ParseFloat(strings.TrimSpace(strings.TrimPrefix(rest, "*")), 64)
		if perr != nil || !strings.HasPrefix(rest, "*") || !autoRange.Contains(k) {
			return 0, 0, fmt.Errorf("want a number, auto or auto*K with K %s, got %q", autoRange, text)
		}
		return 0, k, nil
	}
	v, perr := strconv.ParseFloat(s, 64)
	if perr != nil || !numRange.Contains(v) {
		return 0, 0, fmt.Errorf("want a number %s, auto or auto*K, got %q", numRange, text)
	}
	return v, 0, nil
}

// Lambda0Text writes c's λ0 setting as ParseLambda0 reads it ("" when
// neither is set).
func Lambda0Text(c mtl.Config) string {
	switch {
	case c.AutoLambda0 == 1:
		return "auto"
	case c.AutoLambda0 > 0:
		return "auto*" + strconv.FormatFloat(c.AutoLambda0, 'g', -1, 64)
	case c.Lambda0 == 0:
		return ""
	}
	return strconv.FormatFloat(c.Lambda0, 'g', -1, 64)
}

// SetLambda0 sets c's λ0 from its text (ParseLambda0).
func SetLambda0(c *mtl.Config, text string) error {
	v, k, err := ParseLambda0(text)
	if err != nil {
		return err
	}
	c.Lambda0, c.AutoLambda0 = v, k
	return nil
}
