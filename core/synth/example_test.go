package synth_test

import (
	"fmt"
	"strings"

	"github.com/spmtl/spmtl/core/synth"
)

// ExampleGrouped draws grouped data from a mixed model, writes it as CSV
// and scores the reference predictors that know the variance components.
func ExampleGrouped() {
	r, err := synth.Grouped(synth.GroupedOptions{Groups: 200, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(r.Train.Tasks), "groups,", r.Train.Rows(), "training rows,", r.Test.Rows(), "held out")

	var train, holdout strings.Builder
	if err := r.WriteCSV(&train, &holdout); err != nil {
		fmt.Println(err)
		return
	}
	header, _, _ := strings.Cut(train.String(), "\n")
	fmt.Println(header)

	ref, err := r.ReferenceRMSE()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("GLS+BLUP beats pooled regression:", ref.GLSBLUP < ref.Pooled)
	fmt.Println("GLS+BLUP within 0.05 of the oracle:", ref.GLSBLUP-ref.Oracle < 0.05)
	// Output:
	// 200 groups, 1804 training rows, 499 held out
	// group,y,x1,x2,x3
	// GLS+BLUP beats pooled regression: true
	// GLS+BLUP within 0.05 of the oracle: true
}
