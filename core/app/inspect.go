package app

import (
	"fmt"
	"sort"

	"github.com/spmtl/spmtl/core/data"
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
// §7) as its kind shows it (mtl.Theta.View: MTFL's feature relevance
// diag(D), MMTL's mean predictor, MTASO's shared directions), with the
// features' encoded names. A model with no Θ
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
		v := th.View()
		ins.Title, ins.Explain = v.Title, v.Explain
		fixed := m.Encoding.Fixed
		others := false // a chart whose fixed features are not per standard deviation
		for _, c := range v.Charts {
			if len(m.Encoding.Scale) > 0 {
				c.Title += ", per standard deviation of each feature"
			}
			values := c.Values
			if len(fixed) > 0 {
				if c.Measure == "weight" {
					// A weight on x/(sd·FixedScale) is FixedScale times the weight per sd.
					values = append([]float64(nil), values...)
					for _, j := range fixed {
						if j < len(values) {
							values[j] /= data.FixedScale
						}
					}
				} else {
					others = true
				}
			}
			ins.Charts = append(ins.Charts, Chart{Title: c.Title, Measure: c.Measure, Labels: names, Values: values})
		}
		if len(m.Encoding.Scale) > 0 {
			ins.Explain += " The features were standardized (each divided by its standard deviation over the training file's rows), so the values compare across features whatever their units."
		}
		if len(fixed) > 0 {
			var fn []string
			for _, j := range fixed {
				if j < len(names) {
					fn = append(fn, names[j])
				}
			}
			ins.Explain += fmt.Sprintf(" %s constant within every task: a shared effect, which the tasks do not deviate from.", agreeing(fn, "is", "are"))
			if others {
				ins.Explain += " Their relevance and loadings are in units of a thousandth of a standard deviation, not comparable with the other features'."
			}
		}
		if len(m.Encoding.Center) > 0 {
			ins.Explain += " Their origin was moved toward their means (§15), so an intercept is a task's level there rather than at x = 0."
		}
	}
	if ins.Title == "" {
		ins.Explain = m.Name + " has no shared knowledge to show (its tasks are learned without a shared Θ)."
		if me, err := method.Lookup(m.Method); err == nil && me.Shares != "" {
			ins.Explain = m.Name + " " + me.Shares
		}
	}
	if note := m.NewTasksNote(); note != "" {
		ins.Explain += " " + note
	}
	if b := m.Between; b != nil {
		ins.Charts = append(ins.Charts, Chart{Title: "a new task's level, per standard deviation of each of its averages",
			Measure: "weight", Labels: b.Names, Values: b.Weights})
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
