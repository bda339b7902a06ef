package eval

import (
	"encoding/json"
	"math"

	"github.com/spmtl/spmtl/core/data"
)

// The pooled scores tuning reads on a visitor's own data, beside the
// paper's rmse and auc (metrics.go): log-loss and the Brier score, both
// lower-is-better.
const (
	LogLossMetric Metric = "logloss"
	BrierMetric   Metric = "brier"
)

// Estimate is a score pooled over held-out rows and its standard error:
// every row of every fold counts once, so a task with many rows weighs
// more than a task with few, as in a mixed model's cross-validation.
type Estimate struct {
	// Value is the score; NaN when it is undefined (no rows; an AUC on a
	// single class; a log-loss the model's loss gives no probability for).
	Value float64 `json:"value"`
	// SE is its standard error; NaN when it is undefined (fewer than two
	// rows).
	SE float64 `json:"se"`
	// N is the number of rows it pools.
	N int `json:"n"`
}

// Undefined is the estimate of a score that cannot be computed.
func Undefined() Estimate { return Estimate{Value: math.NaN(), SE: math.NaN()} }

// OK reports whether the estimate has a finite value.
func (e Estimate) OK() bool { return !math.IsNaN(e.Value) && !math.IsInf(e.Value, 0) }

// MarshalJSON writes a NaN value or SE as null (JSON has no NaN), field
// for field as encoding/json writes the struct otherwise (the wasm build's
// encoder writes the same bytes).
func (e Estimate) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Value *float64 `json:"value"`
		SE    *float64 `json:"se"`
		N     int      `json:"n"`
	}{finite(e.Value), finite(e.SE), e.N})
}

// UnmarshalJSON reads null back as NaN, never as 0 (a perfect score).
func (e *Estimate) UnmarshalJSON(b []byte) error {
	var in struct {
		Value *float64 `json:"value"`
		SE    *float64 `json:"se"`
		N     int      `json:"n"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*e = Estimate{Value: orNaN(in.Value), SE: orNaN(in.SE), N: in.N}
	return nil
}

func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func orNaN(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// meanSE returns the mean of v and its standard error sd(v)/√N, with the
// sample standard deviation (N−1); the SE is NaN for fewer than two values.
func meanSE(v []float64) Estimate {
	n := len(v)
	if n == 0 {
		return Undefined()
	}
	var sum float64
	for _, x := range v {
		sum += x
	}
	mean := sum / float64(n)
	if n < 2 {
		return Estimate{Value: mean, SE: math.NaN(), N: n}
	}
	var ss float64
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	return Estimate{Value: mean, SE: math.Sqrt(ss/float64(n-1)) / math.Sqrt(float64(n)), N: n}
}

// PooledRMSE returns the root mean squared error over all rows, with the
// delta-method standard error SE(MSE)/(2·RMSE), SE(MSE) being that of the
// mean of the squared errors.
func PooledRMSE(pred, y []float64) Estimate {
	sq := make([]float64, len(y))
	for i := range y {
		d := pred[i] - y[i]
		sq[i] = d * d
	}
	mse := meanSE(sq)
	if mse.N == 0 {
		return mse
	}
	rmse := math.Sqrt(mse.Value)
	se := 0.0
	if rmse > 0 {
		se = mse.SE / (2 * rmse)
	}
	if math.IsNaN(mse.SE) {
		se = math.NaN()
	}
	return Estimate{Value: rmse, SE: se, N: mse.N}
}

// LogLoss returns the mean over rows of −log p(correct class) for labels
// in {−1, +1}, p being the logistic function of the margin f: the loss of
// a row is log(1 + exp(−y f)), computed without overflow.
func LogLoss(margin, y []float64) Estimate {
	loss := make([]float64, len(y))
	for i := range y {
		z := -y[i] * margin[i]
		if z > 0 {
			loss[i] = z + math.Log1p(math.Exp(-z))
		} else {
			loss[i] = math.Log1p(math.Exp(z))
		}
	}
	return meanSE(loss)
}

// Brier returns the mean squared difference between the probability of
// the positive class and the outcome (1 for y > 0, else 0).
func Brier(prob, y []float64) Estimate {
	sq := make([]float64, len(y))
	for i := range y {
		o := 0.0
		if y[i] > 0 {
			o = 1
		}
		sq[i] = (prob[i] - o) * (prob[i] - o)
	}
	return meanSE(sq)
}

// PooledAUC returns the AUC of all rows together, with the Hanley–McNeil
// (1982) standard error; undefined when the rows hold a single class.
func PooledAUC(score, y []float64) Estimate {
	a, ok := AUC(score, y)
	if !ok {
		return Estimate{Value: math.NaN(), SE: math.NaN(), N: len(y)}
	}
	var pos float64
	for _, v := range y {
		if v > 0 {
			pos++
		}
	}
	neg := float64(len(y)) - pos
	q1, q2 := a/(2-a), 2*a*a/(1+a)
	v := (a*(1-a) + (pos-1)*(q1-a*a) + (neg-1)*(q2-a*a)) / (pos * neg)
	return Estimate{Value: a, SE: math.Sqrt(math.Max(v, 0)), N: len(y)}
}

// Probabilities returns the probability of the positive class the model
// gives each row: the logistic function of the margin for a model trained
// with the logistic loss; for the squared loss on ±1 labels, (f+1)/2
// clipped to [0, 1], the least-squares reading of a ±1 prediction.
func Probabilities(margin []float64, logistic bool) []float64 {
	p := make([]float64, len(margin))
	for i, f := range margin {
		if logistic {
			p[i] = 1 / (1 + math.Exp(-f))
		} else {
			p[i] = math.Min(1, math.Max(0, (f+1)/2))
		}
	}
	return p
}

// PooledScores are the pooled scores of held-out rows: RMSE for
// regression; log-loss, Brier and AUC for classification. A score that
// does not apply is undefined (NaN).
type PooledScores struct {
	// Metric is the score tuning chooses by (TuneMetric).
	Metric  Metric   `json:"metric"`
	RMSE    Estimate `json:"rmse"`
	LogLoss Estimate `json:"logloss"`
	Brier   Estimate `json:"brier"`
	AUC     Estimate `json:"auc"`
}

// TuneMetric is the pooled score tuning chooses by: RMSE for regression;
// for classification the log-loss when the model is trained with the
// logistic loss, and the Brier score when it is trained with the squared
// loss, whose margins are not log-odds (a log-loss of (f+1)/2 clipped
// would rest on the arbitrary clip, so it is left undefined).
func TuneMetric(kind data.Kind, logistic bool) Metric {
	switch {
	case kind != data.Classification:
		return RMSEMetric
	case logistic:
		return LogLossMetric
	default:
		return BrierMetric
	}
}

// Pooled returns the pooled scores of held-out margins against labels y.
func Pooled(kind data.Kind, logistic bool, margin, y []float64) PooledScores {
	s := PooledScores{Metric: TuneMetric(kind, logistic), RMSE: Undefined(), LogLoss: Undefined(), Brier: Undefined(), AUC: Undefined()}
	if kind != data.Classification {
		s.RMSE = PooledRMSE(margin, y)
		return s
	}
	if logistic {
		s.LogLoss = LogLoss(margin, y)
	}
	s.Brier = Brier(Probabilities(margin, logistic), y)
	s.AUC = PooledAUC(margin, y)
	return s
}

// Of returns the estimate of metric m (undefined for an unknown one).
func (s PooledScores) Of(m Metric) Estimate {
	switch m {
	case RMSEMetric:
		return s.RMSE
	case LogLossMetric:
		return s.LogLoss
	case BrierMetric:
		return s.Brier
	case AUCMetric:
		return s.AUC
	}
	return Undefined()
}

// Held gathers the held-out predictions of cross-validation folds, row by
// row, for pooled scores.
type Held struct {
	Margin, Y []float64
}

// Add appends the predictions of one test part (one slice per task of
// test, in order).
func (h *Held) Add(preds [][]float64, test *data.Dataset) {
	for t := range test.Tasks {
		h.Margin = append(h.Margin, preds[t]...)
		h.Y = append(h.Y, test.Tasks[t].Y...)
	}
}

// RowLosses returns the per-row losses behind metric m: squared errors
// (whose mean is the square of the RMSE), log-losses or Brier terms; nil
// for a metric that is not a mean over rows (AUC). Tuning compares two
// models on the same rows by these, paired.
func RowLosses(m Metric, logistic bool, margin, y []float64) []float64 {
	out := make([]float64, len(y))
	switch m {
	case RMSEMetric:
		for i := range y {
			d := margin[i] - y[i]
			out[i] = d * d
		}
	case LogLossMetric:
		for i := range y {
			out[i] = softplusLoss(-y[i] * margin[i])
		}
	case BrierMetric:
		p := Probabilities(margin, logistic)
		for i := range y {
			t := 0.0
			if y[i] > 0 {
				t = 1
			}
			out[i] = (p[i] - t) * (p[i] - t)
		}
	default:
		return nil
	}
	return out
}

// softplusLoss is log(1 + exp(z)) without overflow.
func softplusLoss(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}

// GroupLosses turns row losses that come in groups of sizes (in order;
// the sizes sum to len(losses)) into one value per group, G·S_g/N for a
// group whose losses sum to S_g, of G groups and N rows: their mean is the
// rows' mean, and their spread over the groups is that of whole groups.
// Rows of a task held out whole share the error of the task's level, so
// they are not independent draws; a standard error over these values
// counts each group once (a cluster-robust standard error, conservative
// where the groups' sizes differ). Nil when the sizes do not fit.
func GroupLosses(losses []float64, sizes []int) []float64 {
	n := 0
	for _, k := range sizes {
		if k < 0 {
			return nil
		}
		n += k
	}
	if n != len(losses) || n == 0 {
		return nil
	}
	out := make([]float64, 0, len(sizes))
	at := 0
	scale := float64(len(sizes)) / float64(n)
	for _, k := range sizes {
		var sum float64
		for _, v := range losses[at : at+k] {
			sum += v
		}
		out = append(out, scale*sum)
		at += k
	}
	return out
}

// Clustered returns s with the standard errors of its means over rows
// (RMSE, log-loss, Brier) counted over groups of rows (GroupLosses) rather
// than rows: for held-out rows that come in whole tasks of sizes. The
// values are unchanged; AUC, not a mean over rows, keeps its own.
func Clustered(s PooledScores, logistic bool, margin, y []float64, sizes []int) PooledScores {
	se := func(e Estimate, m Metric) Estimate {
		if !e.OK() {
			return e
		}
		g := GroupLosses(RowLosses(m, logistic, margin, y), sizes)
		if g == nil {
			return e
		}
		c := meanSE(g)
		e.SE = c.SE
		if m == RMSEMetric {
			// The delta method, as PooledRMSE's.
			e.SE = 0
			if e.Value > 0 {
				e.SE = c.SE / (2 * e.Value)
			}
			if math.IsNaN(c.SE) {
				e.SE = math.NaN()
			}
		}
		return e
	}
	s.RMSE = se(s.RMSE, RMSEMetric)
	s.LogLoss = se(s.LogLoss, LogLossMetric)
	s.Brier = se(s.Brier, BrierMetric)
	return s
}

// PairedWithinOneSE reports whether the row losses a are within one
// standard error of b on the same rows: the mean of the differences a − b
// is at most the standard error of that mean, or at most a thousandth of
// b's mean loss (a difference no one would act on, however consistent).
// Two models scored on the same held-out rows differ far less than
// either's own spread over rows, so the difference, not each score's SE,
// is what a tie is judged by.
func PairedWithinOneSE(a, b []float64) bool { return PairedWithin(a, b, 1) }

// PairedWithin is PairedWithinOneSE with k standard errors.
func PairedWithin(a, b []float64, k float64) bool {
	if len(a) != len(b) || len(a) < 2 {
		return false
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	e := meanSE(d)
	if math.IsNaN(e.Value) || math.IsNaN(e.SE) {
		return false
	}
	return e.Value <= math.Max(k*e.SE, 1e-3*math.Abs(meanSE(b).Value))
}
