package eval

import (
	"encoding/csv"
	"strings"
	"testing"
)

// TestTableCSVIsInert: a data set or method whose name a spreadsheet would
// run as a formula is written with a quote before it; the numbers,
// negative ones included, stay numbers.
func TestTableCSVIsInert(t *testing.T) {
	tab := &Table{Variant: "paper", Solver: "fista", Runs: 2, Folds: 3, Methods: []string{"+MTFL"}, Datasets: []string{"=HYPERLINK(\"x\")"},
		Cells: map[string][]*Cell{"+MTFL": {{Method: "+MTFL", Dataset: "=HYPERLINK(\"x\")", Metric: RMSEMetric, Scores: []float64{1, 2}, Mean: 1.5, Std: 0.7, SE: 0.5, T: -2.5, P: 0.04, Rho: []float64{0.1}}}}}
	rows, err := csv.NewReader(strings.NewReader(tab.CSV())).ReadAll()
	if err != nil {
		t.Fatalf("the table's CSV does not read back: %v", err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want a header and one cell", len(rows))
	}
	for k, want := range map[int]string{2: "'+MTFL", 3: "'=HYPERLINK(\"x\")", 5: "1.5", 8: "-2.5"} {
		if got := rows[1][k]; got != want {
			t.Errorf("column %s: %q, want %q", rows[0][k], got, want)
		}
	}
}
