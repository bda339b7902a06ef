package method

import "github.com/spmtl/spmtl/core/mtl"

// Row is one row of a results table: a method run, self-paced or not, and
// the row it is tested against.
type Row struct {
	// Name is the row's label ("spMTFL").
	Name string `json:"name"`
	// Config holds the method (Model), SelfPaced and Select; the
	// evaluation fills in the rest per data set.
	Config mtl.Config `json:"config"`
	// Baseline names the row a self-paced row is compared with (paired
	// t-test over runs); empty for the others.
	Baseline string `json:"baseline,omitempty"`
	// Fixed is set for methods the evaluation does not cross-validate.
	Fixed bool `json:"fixed,omitempty"`
}

// row builds a Row of a catalogue method.
func row(key string, sp bool, sel, baseline string) Row {
	m, err := Lookup(key)
	if err != nil {
		panic(err) // the tables below name catalogue entries only
	}
	cfg := mtl.Config{Model: key, SelfPaced: sp, Select: sel}
	return Row{Name: m.Name(cfg), Config: cfg, Baseline: baseline, Fixed: m.Fixed}
}

// PaperTable returns the rows of the paper's Table 1, in its order. Under
// the reference variant the MMTL row is the authors' joint model
// (mmtl-joint), and spMMTL is tested against the alternating MMTL it wraps,
// shown as "MMTL-alt".
func PaperTable(v mtl.Variant) []Row {
	rows := []Row{
		row("stl", false, "", ""),
		row("itl", false, "", ""),
	}
	if v == mtl.Reference {
		alt := row("mmtl", false, "", "")
		alt.Name = "MMTL-alt"
		rows = append(rows, row("mmtl-joint", false, "", ""), alt, row("mmtl", true, "", "MMTL-alt"))
	} else {
		rows = append(rows, row("mmtl", false, "", ""), row("mmtl", true, "", "MMTL"))
	}
	return append(rows,
		row("mtfl", false, "", ""), row("mtfl", true, "", "MTFL"),
		row("mtaso", false, "", ""), row("mtaso", true, "", "MTASO"))
}

// SequentialTable returns the rows of the paper's landmine comparison of
// task orderings: ITL, CL, ELLA with each selection rule, MTFL and spMTFL.
func SequentialTable() []Row {
	rows := []Row{row("itl", false, "", ""), row("cl", false, "", "")}
	ella, _ := Lookup("ella")
	for _, r := range ella.Rules {
		rows = append(rows, row("ella", false, r, ""))
	}
	return append(rows, row("mtfl", false, "", ""), row("mtfl", true, "", "MTFL"))
}
