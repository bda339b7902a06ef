package mtl

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Theta is the shared knowledge a learner holds, in the data's own
// coordinates (whatever coordinates the solvers used), for a saved model and
// the "shared knowledge" view. Each kind's fields, and how they are checked
// and shown, are declared beside the structure that learns it (thetaKind).
type Theta struct {
	// Kind names the knowledge: the key of the trainer's structure that
	// learns it ("mtfl", "mmtl", "mtaso").
	Kind string `json:"kind"`
	// MTFL's feature metric D = Beta·I + Σ_i Gamma_i u_i u_iᵀ, with u_i =
	// Directions[i] (orthonormal), and Relevance = diag(D): how much room
	// D gives each feature (the diagonal sums to 1).
	Beta      float64   `json:"beta,omitempty"`
	Gamma     []float64 `json:"gamma,omitempty"`
	Relevance []float64 `json:"relevance,omitempty"`
	// Directions are MTFL's u_i, or MTASO's h shared directions (the rows
	// of Θ), one vector of d loadings each.
	Directions [][]float64 `json:"directions,omitempty"`
	// Mean is MMTL's shared predictor w0.
	Mean []float64 `json:"mean,omitempty"`
}

// ThetaView is what a Θ shows a person: a title and a sentence on what it
// is, and bar charts of one value per feature.
type ThetaView struct {
	Title   string
	Explain string
	Charts  []ThetaChart
}

// ThetaChart is one value per feature, in the features' order.
type ThetaChart struct {
	Title   string
	Measure string
	Values  []float64
}

// thetaKind is how the shared knowledge of one kind is checked and shown.
// A structure that saves its Θ declares its kind in its entry of
// structures, beside its Θ-step.
type thetaKind struct {
	// check, when set, refuses the kind's own fields when they do not fit
	// d features, naming the field (Check then checks the fields every
	// kind may hold: the directions, and that every number is finite).
	check func(th *Theta, d int) error
	// view says what the knowledge is and charts it.
	view func(th *Theta) ThetaView
}

// thetaExporter is implemented by structures with shared knowledge: they
// return it with every vector mapped by toFull to the data's d coordinates.
type thetaExporter interface {
	theta(dFull int, toFull func([]float64) []float64) *Theta
}

// ThetaKinds lists the kinds of shared knowledge a saved model can hold,
// sorted.
func ThetaKinds() []string {
	var out []string
	for key, s := range structures {
		if s.theta != nil {
			out = append(out, key)
		}
	}
	sort.Strings(out)
	return out
}

// Check refuses a Θ of a kind spmtl does not write, or one whose vectors
// do not hold d values or hold a number that is not finite, naming the
// field ("theta.mean has 2 values, the model has 3 features").
func (th *Theta) Check(d int) error {
	s, ok := structures[th.Kind]
	if !ok || s.theta == nil {
		kinds := ThetaKinds()
		list := strings.Join(kinds[:len(kinds)-1], ", ") + " or " + kinds[len(kinds)-1]
		return fmt.Errorf("theta.kind %q is not one spmtl writes (%s)", th.Kind, list)
	}
	if s.theta.check != nil {
		if err := s.theta.check(th, d); err != nil {
			return err
		}
	}
	for k, dir := range th.Directions {
		if err := thetaVector(fmt.Sprintf("theta.directions[%d]", k), dir, d); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		field string
		v     []float64
	}{{"theta.relevance", th.Relevance}, {"theta.mean", th.Mean}, {"theta.gamma", th.Gamma}} {
		if err := finiteValues(f.field, f.v); err != nil {
			return err
		}
	}
	if math.IsNaN(th.Beta) || math.IsInf(th.Beta, 0) {
		return fmt.Errorf("theta.beta is %v, not a finite number", th.Beta)
	}
	return nil
}

// View returns what th shows; the zero view for a kind spmtl does not
// write.
func (th *Theta) View() ThetaView {
	if s, ok := structures[th.Kind]; ok && s.theta != nil {
		return s.theta.view(th)
	}
	return ThetaView{}
}

// thetaVector refuses a vector of field that does not hold d finite
// numbers.
func thetaVector(field string, v []float64, d int) error {
	if len(v) != d {
		return fmt.Errorf("%s has %d values, the model has %d features", field, len(v), d)
	}
	return finiteValues(field, v)
}

// finiteValues refuses a vector holding NaN or ±Inf, naming the element.
func finiteValues(field string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%s[%d] is %v, not a finite number", field, i, x)
		}
	}
	return nil
}

// Theta returns the shared knowledge after the last step (nil for ITL and
// STL, which have none).
func (tr *Trainer) Theta() *Theta {
	ex, ok := tr.st.(thetaExporter)
	if !ok || tr.stl {
		return nil
	}
	return ex.theta(tr.p.d, func(v []float64) []float64 { return tr.p.toFull(v, tr.reduced) })
}
