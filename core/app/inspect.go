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
		netted := false // a weight chart's text columns shown net of their common part
		for _, c := range v.Charts {
			if len(m.Encoding.Scale) > 0 {
				c.Title += ", per standard deviation of each feature"
			}
			values := c.Values
			if c.Measure == "weight" {
				// A copy: c.Values may be the model's own (MMTL's Mean).
				values = append([]float64(nil), values...)
			}
			if len(fixed) > 0 {
				if c.Measure == "weight" {
					// A weight on x/(sd·FixedScale) is FixedScale times the weight per sd.
					for _, j := range fixed {
						if j < len(values) {
							values[j] /= data.FixedScale
						}
					}
				} else {
					others = true
				}
			}
			if c.Measure == "weight" {
				netted = netOfLevels(values, m.Encoding) || netted
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
		if netted {
			ins.Explain += " A text column's values are weighed against one another: every row has exactly one of them, so a part common to all of them is the intercept's, and is left out of their weights."
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

// netOfLevels takes out of a chart of weights per standard deviation
// (values, one per encoded feature), for each text column of e, the part
// that its indicators share, and reports whether e has a text column. In
// every training row exactly one indicator of a text column is 1 (an
// empty cell is a value of its own, and the indicators are never moved
// off 0: data.Encoding.Centres), so adding α to each value's weight per
// unit of its indicator, α·sd on the chart, adds α to every row's
// prediction, which the intercepts can take back. That part says nothing
// about the column, and a model whose shared weights are not penalized
// (MMTL's w̄) is the same fit wherever it leaves it: one file showed
// "Repeat=0 1.21, Repeat=1 1.23", two values of one factor 0.02 apart, as
// the largest weights of the chart. The part left out is the one that
// makes the column's values, weighted by their sd, sum to 0 (the smallest
// weights with the same differences between values: what a ridge on them
// would choose).
func netOfLevels(values []float64, e *data.Encoding) bool {
	if e == nil || len(e.Columns) == 0 {
		return false
	}
	at := e.Starts()
	if at[len(at)-1] != len(values) {
		return false
	}
	fixed := make(map[int]bool, len(e.Fixed))
	for _, j := range e.Fixed {
		fixed[j] = true
	}
	text := false
	for k, col := range e.Columns {
		if col.Values == nil {
			continue
		}
		lo, hi := at[k], at[k+1]
		sd := make([]float64, hi-lo)
		var vs, ss float64
		for j := lo; j < hi; j++ {
			s := 1.0
			if len(e.Scale) == len(values) {
				s = e.Scale[j]
				if fixed[j] {
					s /= data.FixedScale
				}
			}
			sd[j-lo] = s
			vs += values[j] * s
			ss += s * s
		}
		if ss == 0 {
			continue
		}
		alpha := vs / ss
		for j := lo; j < hi; j++ {
			values[j] -= alpha * sd[j-lo]
		}
		text = true
	}
	return text
}
