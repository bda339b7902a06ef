package app

import (
	"github.com/spmtl/spmtl/core/mtl"
)

// The λ0 setting's text is a number, "auto" (the scale-free pace at which
// the easiest quarter of the tasks holds half of τ at the first iteration,
// docs/algorithms.md §2.5) or "auto*K" (K times it): the forms of the
// schema's lambda0 setting (settings.go), which the page's checks read
// through the catalogue. These functions are the one place that text is
// read and written: the command line's -lambda0, the bridge's lambda0
// option and the page's λ0 field (sent to the learner as text) pass here.

// ParseLambda0 reads a λ0 setting into the two fields of mtl.Config it
// sets: lambda0 (the number; 0 when automatic) and auto (K; 0 when not
// automatic). Each value must lie in its range (mtl.Ranges).
func ParseLambda0(text string) (lambda0, auto float64, err error) {
	form, v, err := lambda0Setting.ParseForm(text)
	if err != nil {
		return 0, 0, err
	}
	if lambda0Setting.Forms[form].Option == "autoLambda0" {
		return 0, v, nil
	}
	return v, 0, nil
}

// Lambda0Text writes c's λ0 setting as ParseLambda0 reads it ("" when
// neither is set).
func Lambda0Text(c mtl.Config) string {
	switch {
	case c.AutoLambda0 != 0:
		return lambda0Setting.FormText("autoLambda0", c.AutoLambda0)
	case c.Lambda0 != 0:
		return lambda0Setting.FormText("lambda0", c.Lambda0)
	}
	return ""
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
