package synth

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/spmtl/spmtl/core/data"
	"gonum.org/v1/gonum/mat"
)

// GroupedOptions configures Grouped: grouped data from a linear mixed model
// with a random intercept and random slopes per group, whose true fixed and
// random effects are known.
//
// A zero field takes its default. As for Syn1 and Syn2, a quantity whose
// zero is meaningful (an intercept of 0, no noise) is asked for with a tiny
// value such as 1e-300; SigmaU alone takes explicit zeros.
type GroupedOptions struct {
	Groups   int // G, default 300
	MinRows  int // fewest rows of a group, default 2
	MaxRows  int // most rows of a group, default 20 (sizes are uniform in [MinRows, MaxRows])
	Features int // d, default 3; x ~ N(0, I_d)

	// Intercept is the fixed intercept β0, default 2 (for binary data
	// about 81% of the rows are then positive).
	Intercept float64
	// Beta holds the d fixed slopes; nil gives the default
	// β_k = (-1/2)^(k-1): 1, -0.5, 0.25, ...
	Beta []float64
	// SigmaB is the standard deviation of the random intercepts b_j,
	// default 1.
	SigmaB float64
	// SigmaU holds the standard deviation of the random slope of each
	// feature (u_j ~ N(0, diag(SigmaU²))); nil gives 0.5 on every
	// feature. Zeros are taken as given: all zeros is the
	// random-intercept-only model.
	SigmaU []float64
	// Noise is the standard deviation σ of the residual ε (regression
	// only), default 1.
	Noise float64

	// Binary draws classes instead of real labels: y = 1 with probability
	// logistic(η), η the linear predictor without ε.
	Binary bool

	Seed uint64
}

// GroupedResult is a data set drawn by Grouped with the model that drew it.
//
// Train and Test hold one task per group, in the same order and with the
// group's name; a group of fewer than four rows has an empty test task
// (no rows, X nil), as eval.SplitPerTask leaves groups too small to split.
type GroupedResult struct {
	Train, Test *data.Dataset

	// Intercept and Beta are the true fixed effects β0 and β.
	Intercept float64
	Beta      []float64
	// B holds each group's random intercept b_j, and U its random slopes
	// u_j (d values, zero when SigmaU is).
	B []float64
	U [][]float64
	// SigmaB, SigmaU and Noise are the standard deviations the effects and
	// the residual were drawn with (Noise is 0 for binary data).
	SigmaB float64
	SigmaU []float64
	Noise  float64
	// Binary reports classification labels (+1 for class "1", -1 for "0").
	Binary bool

	// TrainEta and TestEta hold the true linear predictor
	// η = β0 + xᵀβ + b_j + xᵀu_j of every row, per group: the true mean
	// of y for regression, the true log-odds for binary data.
	TrainEta, TestEta [][]float64
}

// Grouped draws a data set from the linear mixed model
//
//	y_ij = β0 + x_ijᵀβ + b_j + x_ijᵀu_j + ε_ij,   ε_ij ~ N(0, σ²),
//
// or, with opt.Binary, y_ij = 1 with probability logistic(η_ij), where η_ij
// leaves out ε. Group j has n_j rows, n_j uniform in [MinRows, MaxRows];
// every fourth row of each group (its rows 4, 8, ..., index%4 == 3) is held
// out in Test and the others are in Train.
//
// The draws, from a PCG generator seeded by opt.Seed, are per group in
// order: n_j, b_j, u_j, then each row's x and its ε (or its uniform draw).
func Grouped(opt GroupedOptions) (*GroupedResult, error) {
	def(&opt.Groups, 300)
	def(&opt.MinRows, 2)
	def(&opt.MaxRows, 20)
	def(&opt.Features, 3)
	if opt.Intercept == 0 {
		opt.Intercept = 2
	}
	if opt.SigmaB == 0 {
		opt.SigmaB = 1
	}
	if opt.Noise == 0 {
		opt.Noise = 1
	}
	d := opt.Features
	switch {
	case opt.Groups < 0 || opt.MinRows < 0 || opt.Features < 0:
		return nil, fmt.Errorf("grouped: groups %d, rows %d and features %d must be positive", opt.Groups, opt.MinRows, opt.Features)
	case opt.MinRows > opt.MaxRows:
		return nil, fmt.Errorf("grouped: the fewest rows of a group (%d) exceed the most (%d)", opt.MinRows, opt.MaxRows)
	case opt.SigmaB < 0 || opt.Noise < 0:
		return nil, fmt.Errorf("grouped: standard deviations must not be negative (σb %g, σ %g)", opt.SigmaB, opt.Noise)
	case opt.Beta != nil && len(opt.Beta) != d:
		return nil, fmt.Errorf("grouped: %d fixed slopes for %d features", len(opt.Beta), d)
	case opt.SigmaU != nil && len(opt.SigmaU) != d:
		return nil, fmt.Errorf("grouped: %d random-slope deviations for %d features", len(opt.SigmaU), d)
	}
	beta := append([]float64(nil), opt.Beta...)
	if opt.Beta == nil {
		beta = make([]float64, d)
		for k := range beta {
			beta[k] = math.Pow(-0.5, float64(k))
		}
	}
	su := append([]float64(nil), opt.SigmaU...)
	if opt.SigmaU == nil {
		su = make([]float64, d)
		for k := range su {
			su[k] = 0.5
		}
	}
	for k, s := range su {
		if s < 0 || math.IsNaN(s) {
			return nil, fmt.Errorf("grouped: random-slope deviation %g of feature %d is negative", s, k+1)
		}
	}

	rng := rand.New(rand.NewPCG(opt.Seed, 0x51e3))
	res := &GroupedResult{Intercept: opt.Intercept, Beta: beta, SigmaB: opt.SigmaB, SigmaU: su, Noise: opt.Noise, Binary: opt.Binary,
		B: make([]float64, opt.Groups), U: make([][]float64, opt.Groups),
		TrainEta: make([][]float64, opt.Groups), TestEta: make([][]float64, opt.Groups)}
	if opt.Binary {
		res.Noise = 0
	}
	names := make([]string, d)
	for k := range names {
		names[k] = fmt.Sprintf("x%d", k+1)
	}
	shell := func() *data.Dataset {
		ds := &data.Dataset{Name: "grouped", Features: d, FeatureNames: names, Kind: data.Regression}
		if opt.Binary {
			ds.Name, ds.Kind, ds.Positive, ds.Negative = "grouped-binary", data.Classification, "1", "0"
		}
		return ds
	}
	res.Train, res.Test = shell(), shell()
	width := max(3, len(strconv.Itoa(opt.Groups)))
	for j := 0; j < opt.Groups; j++ {
		n := opt.MinRows + rng.IntN(opt.MaxRows-opt.MinRows+1)
		b := opt.SigmaB * rng.NormFloat64()
		u := make([]float64, d)
		for k := range u {
			u[k] = su[k] * rng.NormFloat64()
		}
		res.B[j], res.U[j] = b, u
		x := make([]float64, n*d)
		y := make([]float64, n)
		eta := make([]float64, n)
		for i := 0; i < n; i++ {
			row := x[i*d : (i+1)*d]
			e := opt.Intercept + b
			for k := range row {
				row[k] = rng.NormFloat64()
				e += row[k] * (beta[k] + u[k])
			}
			eta[i] = e
			if opt.Binary {
				y[i] = -1
				if rng.Float64() < logistic(e) {
					y[i] = 1
				}
			} else {
				y[i] = e + opt.Noise*rng.NormFloat64()
			}
		}
		name := fmt.Sprintf("g%0*d", width, j+1)
		tr, te := holdOut(name, x, y, eta, d)
		res.Train.Tasks = append(res.Train.Tasks, tr.task)
		res.Test.Tasks = append(res.Test.Tasks, te.task)
		res.TrainEta[j], res.TestEta[j] = tr.eta, te.eta
	}
	return res, nil
}

// part is one side of a group's split.
type part struct {
	task data.Task
	eta  []float64
}

// holdOut splits a group's n rows (x row-major with d columns) into
// training rows and held-out rows, every fourth row (index%4 == 3) held out.
func holdOut(name string, x, y, eta []float64, d int) (tr, te part) {
	var trIdx, teIdx []int
	for i := range y {
		if i%4 == 3 {
			teIdx = append(teIdx, i)
		} else {
			trIdx = append(trIdx, i)
		}
	}
	pick := func(idx []int) part {
		p := part{task: data.Task{Name: name, Y: make([]float64, len(idx))}, eta: make([]float64, len(idx))}
		if len(idx) == 0 {
			return p
		}
		m := mat.NewDense(len(idx), d, nil)
		for r, i := range idx {
			copy(m.RawRowView(r), x[i*d:(i+1)*d])
			p.task.Y[r], p.eta[r] = y[i], eta[i]
		}
		p.task.X = m
		return p
	}
	return pick(trIdx), pick(teIdx)
}

// logistic is 1/(1+e^-z), computed without overflow.
func logistic(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// WriteCSV writes ds in long CSV format, one row per example: a header
// "column,y,x1,...,xd" (the feature names of ds when it has them), then the
// task name, the label and the features. Classification labels are written
// as the dataset's class names (Positive for +1, Negative for -1; "1" and
// "-1" when unnamed). Numbers are written in their shortest exact form, so
// data.ReadCSV with TaskColumn column reads the same values back. Empty
// tasks write no rows.
func WriteCSV(w io.Writer, ds *data.Dataset, column string) error {
	if ds.Sparse() {
		return fmt.Errorf("write %s: sparse data sets are not written as CSV", ds.Name)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(column)
	bw.WriteString(",y")
	for k := 0; k < ds.Features; k++ {
		bw.WriteByte(',')
		if len(ds.FeatureNames) == ds.Features {
			bw.WriteString(ds.FeatureNames[k])
		} else {
			fmt.Fprintf(bw, "x%d", k+1)
		}
	}
	bw.WriteByte('\n')
	pos, neg := ds.Positive, ds.Negative
	if pos == "" {
		pos = "1"
	}
	if neg == "" {
		neg = "-1"
	}
	var buf []byte
	for ti := range ds.Tasks {
		t := &ds.Tasks[ti]
		for i, y := range t.Y {
			buf = append(buf[:0], t.Name...)
			buf = append(buf, ',')
			switch {
			case ds.Kind != data.Classification:
				buf = strconv.AppendFloat(buf, y, 'g', -1, 64)
			case y > 0:
				buf = append(buf, pos...)
			default:
				buf = append(buf, neg...)
			}
			for _, v := range t.X.RawRowView(i) {
				buf = append(buf, ',')
				buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
			}
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return fmt.Errorf("write %s: %w", ds.Name, err)
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", ds.Name, err)
	}
	return nil
}

// WriteCSV writes the training rows to train and the held-out rows to
// holdout, each in long CSV format with the header "group,y,x1,...,xd"
// (see the function WriteCSV). Binary labels are written as 1 and 0.
func (r *GroupedResult) WriteCSV(train, holdout io.Writer) error {
	if r.Train == nil || r.Test == nil {
		return errors.New("grouped: no data to write")
	}
	if err := WriteCSV(train, r.Train, "group"); err != nil {
		return fmt.Errorf("training rows: %w", err)
	}
	if err := WriteCSV(holdout, r.Test, "group"); err != nil {
		return fmt.Errorf("held-out rows: %w", err)
	}
	return nil
}
