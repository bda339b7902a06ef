package app

import (
	"fmt"
	"sort"

	"github.com/spmtl/spmtl/core/method"
)

// Inspection is what a model's shared knowledge looks like to a person:
// one or more bar charts over the features, and the order in which τ let
// the tasks in. The command line prints it; the page draws it.
type Inspection struct {
	// Title and Explain say what Θ is for this method, in a sentence each.
	Title   string  `json:"title"`
	Explain string  `json:"explain"`
	Charts  []Chart `json:"charts"`
	// Order lists the tasks by when τ let them in (first first).
	Order []Entered `json:"order,omitempty"`
}

// Chart is one value per feature.
type Chart struct {
	Title   string    `json:"title"`
	Measure string    `json:"measure"`
	Labels  []string  `json:"labels"`
	Values  []float64 `json:"values"`
}

// Entered says when a task was let in (0: never).
type Entered struct {
	Task string `json:"task"`
	At   int    `json:"at"`
}

// Inspect describes a model's shared knowledge (docs/algorithms.md §5, §6,
// §7): MTFL's feature relevance diag(D), MMTL's mean predictor, MTASO's
// shared directions, with the features' encoded names. A model with no Θ
// to show has no Title, and Explain says what its method shares (the
// catalogue's Shares).
func Inspect(m *ModelFile) Inspection {
	var ins Inspection
	names := m.Features
	if len(names) != m.Encoding.Features {
		names = make([]string, m.Encoding.Features)
		for j := range names {
			names[j] = fmt.Sprintf("x%d", j+1)
		}
	}
	if th := m.Theta; th != nil {
		switch th.Kind {
		case "mtfl":
			ins.Title = "Shared feature metric D (MTFL)"
			ins.Explain = "The diagonal of D is how much room the shared metric gives each feature: the tasks' weights are cheap along features with a large value and pulled to zero elsewhere. It sums to 1."
			ins.Charts = append(ins.Charts, Chart{Title: "feature relevance diag(D)", Measure: "relevance", Labels: names, Values: th.Relevance})
		case "mmtl":
			ins.Title = "Shared mean predictor w̄ (MMTL)"
			ins.Explain = "Every task's weights are pulled towards this common predictor; its weights say what the tasks share."
			ins.Charts = append(ins.Charts, Chart{Title: "mean predictor weights", Measure: "weight", Labels: names, Values: th.Mean})
		case "mtaso":
			ins.Title = fmt.Sprintf("Shared subspace Θ (MTASO, h = %d)", len(th.Directions))
			ins.Explain = "The tasks' weights are pulled towards this h-dimensional subspace; each direction's loadings say which features move together across tasks (the sign of a direction is arbitrary)."
			for k, dir := range th.Directions {
				ins.Charts = append(ins.Charts, Chart{Title: fmt.Sprintf("direction %d loadings", k+1), Measure: "loading", Labels: names, Values: dir})
			}
		}
	}
	if ins.Title == "" {
		ins.Explain = m.Name + " has no shared knowledge to show (its tasks are learned without a shared Θ)."
		if me, err := method.Lookup(m.Method); err == nil && me.Shares != "" {
			ins.Explain = m.Name + " " + me.Shares
		}
	}
	if len(m.EnteredAt) == len(m.Tasks) && len(m.Tau) > 0 {
		for t, at := range m.EnteredAt {
			ins.Order = append(ins.Order, Entered{Task: m.Tasks[t], At: at})
		}
		sort.SliceStable(ins.Order, func(a, b int) bool {
			x, y := ins.Order[a].At, ins.Order[b].At
			if x == 0 || y == 0 {
				return y == 0 && x != 0
			}
			return x < y
		})
	}
	return ins
}
