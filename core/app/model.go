package app

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/internal/words"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
)

// The model file's format and version.
const (
	ModelFormat  = "spmtl-model"
	ModelVersion = 1
)

// ModelFile is a trained model as a user keeps it: what the page saves, the
// command line reads, predict needs and inspect shows. It is JSON and
// versioned, and carries the encoding of the training file so that new
// rows are read exactly as the training rows were.
type ModelFile struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Method is the catalogue key, Name the run's label ("spMTFL").
	Method string     `json:"method"`
	Name   string     `json:"name"`
	Config mtl.Config `json:"config"`
	// Lambda0 is the λ0 used (the automatic one resolved), when the run
	// was self-paced.
	Lambda0 float64 `json:"lambda0,omitempty"`
	// Kind is "classification" or "regression"; Positive and Negative name
	// the classes as in the file.
	Kind     string `json:"kind"`
	Positive string `json:"positive,omitempty"`
	Negative string `json:"negative,omitempty"`
	// Encoding says how a file's columns become the features.
	Encoding *data.Encoding `json:"encoding"`
	Tasks    []string       `json:"tasks"`
	Features []string       `json:"features,omitempty"`
	// W holds one weight vector per task, B the intercepts.
	W [][]float64 `json:"w"`
	B []float64   `json:"b"`
	// Theta is the shared knowledge (nil for ITL, STL, CL, ELLA).
	Theta *mtl.Theta `json:"theta,omitempty"`
	// Between reads a new task's level from the averages of its rows
	// (§16); nil when the model has none.
	Between *Between `json:"between,omitempty"`
	// NewTaskScore scores the predictor of a new task on the training rows
	// beside a constant (§16); nil without such a predictor.
	NewTaskScore *NewTaskScore `json:"newTaskScore,omitempty"`
	// Tau is τ at every iteration (self-paced runs), EnteredAt when each
	// task was let in.
	Tau       [][]float64 `json:"tau,omitempty"`
	EnteredAt []int       `json:"enteredAt,omitempty"`
	// Stop says why training ended.
	Stop string `json:"stop"`
	// Trained says what the model was trained on.
	Trained Trained `json:"trained"`
	// Tuned is the cross-validation that chose the settings, when tune
	// made the model.
	Tuned *TuneResult `json:"tuned,omitempty"`
}

// Trained describes a model's training data.
type Trained struct {
	File string `json:"file"`
	Rows int    `json:"rows"`
	// All is set when every row was used; else Train and Seed describe
	// the split.
	All   bool    `json:"all"`
	Train float64 `json:"train,omitempty"`
	Seed  uint64  `json:"seed,omitempty"`
}

// Theta is implemented by learners with shared knowledge.
type thetaHolder interface{ Theta() *mtl.Theta }

// ModelFile returns the run's model as a model file (step the run to its
// end first).
func (r *Run) ModelFile(tr Trained) (*ModelFile, error) {
	if !r.Learner.Done() {
		return nil, fmt.Errorf("save model: the run is not finished")
	}
	m := r.Learner.Model()
	hist := r.Learner.History()
	ds := r.Train
	mf := &ModelFile{Format: ModelFormat, Version: ModelVersion, Method: r.Method.Key, Name: r.Name(), Config: r.Config,
		Kind: ds.Kind.String(), Positive: ds.Positive, Negative: ds.Negative, Tasks: m.Names, Features: ds.FeatureNames,
		W: m.W, B: m.B, Trained: tr}
	if r.Data != nil {
		mf.Encoding = r.encoding
	}
	if mf.Encoding == nil {
		mf.Encoding = &data.Encoding{Format: "generated", Features: ds.Features}
	}
	if th, ok := r.Learner.(thetaHolder); ok {
		mf.Theta = th.Theta()
	}
	if len(hist) > 0 {
		mf.Stop = hist[len(hist)-1].StopMessage()
		if r.Config.SelfPaced {
			mf.Lambda0 = hist[0].Lambda
			for _, s := range hist {
				mf.Tau = append(mf.Tau, s.Tau)
			}
		}
	}
	// After τ: a self-paced model's new-task intercept is the τ-weighted
	// mean, and the reading and the score are of the predictor predict
	// uses (they were fitted to the unweighted mean before τ was set).
	if shared, _ := mf.NewTaskPredictor(); shared != nil {
		if r.encoding != nil && r.Config.Loss == mtl.Squared {
			mf.Between = fitBetween(ds, mf.Encoding, shared.W[0], shared.B[0])
		}
		mf.NewTaskScore = newTaskScore(ds, shared, mf.Between, ds.Kind == data.Classification && r.Config.Loss == mtl.Logistic)
	}
	if ev, err := r.Evaluate(); err == nil {
		mf.EnteredAt = ev.EnteredAt
	}
	return mf, nil
}

// JSON returns the model file's text.
func (m *ModelFile) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return nil, fmt.Errorf("encode model: %w", err)
	}
	return append(b, '\n'), nil
}

// ReadModel reads and checks a model file.
func ReadModel(b []byte, name string) (*ModelFile, error) {
	var m ModelFile
	if err := decodeModel(b, name, &m); err != nil {
		return nil, err
	}
	if err := m.Check(name); err != nil {
		return nil, err
	}
	return &m, nil
}

// Check refuses a model file that is not one, is of another version, or
// is incomplete, inconsistent or damaged: an unknown method or an invalid
// configuration, a kind without its classes, task names that are empty or
// repeated, weights, shared knowledge Θ or τ that are not finite numbers
// or do not fit the tasks, features and method, an encoding whose columns
// do not make the feature names. name labels the file in the error, which
// names the field that is wrong. ReadModel calls it; the WebAssembly
// build, which decodes the JSON itself, calls it too.
func (m *ModelFile) Check(name string) error {
	switch {
	case m.Format != ModelFormat:
		return fmt.Errorf("read model %s: not a spmtl model file (format %q)", name, m.Format)
	case m.Version != ModelVersion:
		return fmt.Errorf("read model %s: version %d, this spmtl reads version %d", name, m.Version, ModelVersion)
	case len(m.Tasks) == 0 || len(m.W) != len(m.Tasks) || len(m.B) != len(m.Tasks) || m.Encoding == nil:
		return fmt.Errorf("read model %s: the file is incomplete (%d tasks, %d weight vectors, %d intercepts)", name, len(m.Tasks), len(m.W), len(m.B))
	}
	if err := m.checkHeader(); err != nil {
		return fmt.Errorf("read model %s: %w; %s", name, err, damaged)
	}
	if err := m.checkEncoding(); err != nil {
		return fmt.Errorf("read model %s: %w; %s", name, err, damaged)
	}
	for t, w := range m.W {
		if len(w) != m.Encoding.Features {
			return fmt.Errorf("read model %s: task %s has %d weights, the encoding %d features", name, m.Tasks[t], len(w), m.Encoding.Features)
		}
		for _, v := range append(w, m.B[t]) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("read model %s: task %s has a weight that is not a finite number", name, m.Tasks[t])
			}
		}
	}
	if err := m.checkKnowledge(); err != nil {
		return fmt.Errorf("read model %s: %w; %s", name, err, damaged)
	}
	if s := m.NewTaskScore; s != nil {
		if err := s.check(); err != nil {
			return fmt.Errorf("read model %s: %w; %s", name, err, damaged)
		}
	}
	if b := m.Between; b != nil {
		if m.Kind != data.Regression.String() {
			return fmt.Errorf("read model %s: between: a %s model has none (a regression model's new tasks read it); %s", name, m.Kind, damaged)
		}
		if err := b.check(m.Encoding.Features); err != nil {
			return fmt.Errorf("read model %s: %w; %s", name, err, damaged)
		}
	}
	return nil
}

// damaged is the advice after a refusal of a file spmtl would not write.
const damaged = "the file was edited or damaged: save the model again, or undo the edit"

// checkHeader checks what says how to read the weights: the method and
// its configuration, the kind and classes, the task names.
func (m *ModelFile) checkHeader() error {
	mm, err := method.Lookup(m.Method)
	if err != nil || m.Method != mm.Key {
		return fmt.Errorf("method %q is not one of spmtl's (%s)", m.Method, strings.Join(method.Keys(), ", "))
	}
	if m.Config.Model != m.Method {
		return fmt.Errorf("method is %q, config.model %q: they name the same method", m.Method, m.Config.Model)
	}
	// The name is the run's label ("spMTFL"), shown as it is: a bidi
	// override in it mirrored the page's sentence after it, an escape
	// code cleared a terminal. spmtl writes none.
	if strings.ContainsFunc(m.Name, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) }) {
		return fmt.Errorf("name %q holds a control character, which no name spmtl writes has", m.Name)
	}
	cfg := m.Config
	if mm.Kind == method.Sequential {
		cfg.MaxIter = 1 // a sequential run's cap is its number of tasks, which may pass Validate's cap
	}
	// A file written before the loss scale and the pace cost were settings
	// has neither: it was fitted with the paper's (a mean, the training cost).
	if cfg.Scale == "" {
		cfg.Scale = mtl.MeanLoss
	}
	if cfg.PaceCost == "" {
		cfg.PaceCost = mtl.TrainCost
	}
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	switch m.Kind {
	case data.Regression.String():
		if m.Config.Loss == mtl.Logistic {
			return fmt.Errorf("config.loss is logistic, but the model is a regression (kind)")
		}
	case data.Classification.String():
		switch {
		case m.Positive == "":
			return fmt.Errorf("kind is classification, but positive is empty: it names the positive class")
		case m.Negative == "":
			return fmt.Errorf("kind is classification, but negative is empty: it names the negative class")
		case m.Positive == m.Negative:
			return fmt.Errorf("positive and negative are both %q: they name the two classes", m.Positive)
		}
	default:
		return fmt.Errorf("kind %q: want classification or regression", m.Kind)
	}
	seen := map[string]bool{}
	for t, name := range m.Tasks {
		if name == "" {
			return fmt.Errorf("tasks[%d] is empty: every task has a name", t)
		}
		if seen[name] {
			return fmt.Errorf("task %q appears twice in tasks", name)
		}
		seen[name] = true
	}
	return nil
}

// checkEncoding checks that the encoding can read new rows, and that its
// columns make the feature names, in order: the weights are in that order,
// so reordered columns would pair every weight with another feature.
func (m *ModelFile) checkEncoding() error {
	e := m.Encoding
	d := e.Features
	switch e.Format {
	case "csv":
		if e.TaskColumn == "" {
			return fmt.Errorf("encoding.taskColumn is empty: the model cannot find the task of a row")
		}
		if e.TaskColumn == e.LabelColumn {
			return fmt.Errorf("encoding.taskColumn and encoding.labelColumn are both %q", e.TaskColumn)
		}
		seen := map[string]bool{}
		for i, c := range e.Columns {
			if c.Name == e.TaskColumn {
				return fmt.Errorf("encoding.columns[%d] is the task column %q", i, c.Name)
			}
			if c.Name == "" {
				return fmt.Errorf("encoding.columns[%d] has no name", i)
			}
			if seen[c.Name] {
				return fmt.Errorf("encoding.columns names %q twice", c.Name)
			}
			seen[c.Name] = true
			vals := map[string]bool{}
			for _, v := range c.Values {
				if vals[v] {
					return fmt.Errorf("encoding.columns: column %q has the value %q twice", c.Name, v)
				}
				vals[v] = true
			}
		}
		// Columns read as words on request (a model saved before there
		// were any has none): their values are in Columns.
		for _, t := range e.Text {
			if i := slices.IndexFunc(e.Columns, func(c data.EncodedColumn) bool { return c.Name == t }); i < 0 || e.Columns[i].Values == nil {
				return fmt.Errorf("encoding.text names %q, which encoding.columns does not read as words", t)
			}
		}
		names := e.FeatureNames()
		if len(names) != d {
			return fmt.Errorf("encoding.columns make %d features, encoding.features says %d", len(names), d)
		}
		if len(m.Features) > 0 {
			for j, f := range m.Features[:min(len(m.Features), d)] {
				if f != names[j] {
					return fmt.Errorf("features[%d] is %q, but encoding.columns makes it %q: the two lists disagree", j, f, names[j])
				}
			}
		}
	case "sparse", "generated":
		if len(e.Columns) > 0 {
			return fmt.Errorf("encoding.columns are given, but a %s encoding has none", e.Format)
		}
	default:
		return fmt.Errorf("encoding.format %q is not one spmtl writes (csv, sparse or generated)", e.Format)
	}
	if d < 0 {
		return fmt.Errorf("encoding.features is %d", d)
	}
	if len(m.Features) > 0 && len(m.Features) != d {
		return fmt.Errorf("features has %d names, the model has %d features", len(m.Features), d)
	}
	// The features' divisors (a visitor's standardized file): one per
	// feature, each a positive finite number, or new rows would be divided
	// into infinities.
	if e.Scale != nil {
		if e.Format != "csv" || len(e.Scale) != d {
			return fmt.Errorf("encoding.scale has %d values for the %d features of a %s encoding: want one per feature of a csv encoding, or none", len(e.Scale), d, e.Format)
		}
		for j, v := range e.Scale {
			if !(v > 0) || math.IsInf(v, 0) {
				return fmt.Errorf("encoding.scale[%d] is %v: a feature's divisor must be a positive number", j, v)
			}
		}
	}
	// The task-level features (Fix): distinct, in order, each a feature
	// whose divisor is there.
	if e.Fixed != nil {
		if len(e.Scale) != d {
			return fmt.Errorf("encoding.fixed lists %d features but encoding.scale has no divisor for each of the %d features", len(e.Fixed), d)
		}
		for i, j := range e.Fixed {
			if j < 0 || j >= d || i > 0 && j <= e.Fixed[i-1] {
				return fmt.Errorf("encoding.fixed[%d] is %d: want increasing feature indices from 0 to %d", i, j, d-1)
			}
		}
	}
	// The features' means (a visitor's file whose origin tune moved).
	if e.Center != nil {
		if e.Format != "csv" || len(e.Center) != d {
			return fmt.Errorf("encoding.center has %d values for the %d features of a %s encoding: want one per feature of a csv encoding, or none", len(e.Center), d, e.Format)
		}
		for j, v := range e.Center {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("encoding.center[%d] is %v: a feature's mean must be a finite number", j, v)
			}
		}
	}
	return nil
}

// checkKnowledge checks the shared knowledge Θ, τ and λ0: finite, and
// sized by the features and the tasks.
func (m *ModelFile) checkKnowledge() error {
	d := m.Encoding.Features
	mm, _ := method.Lookup(m.Method) // checkHeader has checked it
	want := mm.Theta
	switch {
	case m.Theta == nil && want == "mtfl-mean":
		// Saved before MTFL-mean's Θ was: it predicts its tasks all the
		// same, and has no predictor for a new one.
	case m.Theta == nil && want != "":
		return fmt.Errorf("theta is missing: method %s learns one (%q)", m.Method, want)
	case m.Theta != nil && want == "":
		return fmt.Errorf("theta.kind is %q, but method %s learns no shared knowledge", m.Theta.Kind, m.Method)
	case m.Theta != nil && slices.Contains(mtl.ThetaKinds(), m.Theta.Kind) && m.Theta.Kind != want:
		return fmt.Errorf("theta.kind is %q, but method %s learns %q", m.Theta.Kind, m.Method, want)
	}
	if m.Theta != nil {
		if err := m.Theta.Check(d); err != nil {
			return err
		}
	}
	for k, tau := range m.Tau {
		field := fmt.Sprintf("tau[%d]", k)
		if len(tau) != len(m.Tasks) {
			return fmt.Errorf("%s has %d values, the model has %d tasks", field, len(tau), len(m.Tasks))
		}
		if err := finite(field, tau); err != nil {
			return err
		}
	}
	if !(m.Lambda0 >= 0) || math.IsInf(m.Lambda0, 0) {
		return fmt.Errorf("lambda0 is %v, want a finite number, 0 or more", m.Lambda0)
	}
	if len(m.EnteredAt) > 0 && len(m.EnteredAt) != len(m.Tasks) {
		return fmt.Errorf("enteredAt has %d values, the model has %d tasks", len(m.EnteredAt), len(m.Tasks))
	}
	last, steps := len(m.Tau), "the iterations of tau"
	if last == 0 {
		last, steps = max(m.Config.MaxIter, len(m.Tasks)), "the steps the model could take"
	}
	for t, at := range m.EnteredAt {
		if at < 0 || at > last {
			return fmt.Errorf("enteredAt[%d] is %d, want 0 (never) to %d (%s)", t, at, last, steps)
		}
	}
	return nil
}

// finite refuses a vector holding NaN or ±Inf, naming the element.
func finite(field string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%s[%d] is %v, not a finite number", field, i, x)
		}
	}
	return nil
}

// Model returns the per-task predictors.
func (m *ModelFile) Model() *mtl.Model {
	kind := data.Regression
	if m.Kind == data.Classification.String() {
		kind = data.Classification
	}
	return &mtl.Model{Names: m.Tasks, W: m.W, B: m.B, Features: m.Encoding.Features, Kind: kind}
}

// withNewTasks gives model a predictor, shared's, for each task of ds it
// was not trained on, its intercept moved by between's reading of the
// task's rows when the model has one (§16), and returns the warning that
// says which tasks took it and what it is (from), or "" when there is none.
func withNewTasks(model *mtl.Model, ds *data.Dataset, shared *mtl.Model, from string, between *Between) string {
	if shared == nil {
		return ""
	}
	known := make(map[string]bool, len(model.Names))
	for _, n := range model.Names {
		known[n] = true
	}
	var fresh, far []string
	rows := 0
	for i := range ds.Tasks {
		tk := &ds.Tasks[i]
		if known[tk.Name] {
			continue
		}
		if len(fresh) == 0 {
			model.Names, model.W, model.B = slices.Clip(model.Names), slices.Clip(model.W), slices.Clip(model.B)
		}
		model.Names = append(model.Names, tk.Name)
		model.W = append(model.W, shared.W[0])
		b := shared.B[0]
		if between != nil {
			adj, z, at := between.adjust(tk)
			b += adj
			if z > betweenFar {
				far = append(far, fmt.Sprintf("%q (%s, %s)", tk.Name, between.Names[at], digits(z, 2)))
			}
		}
		model.B = append(model.B, b)
		fresh = append(fresh, fmt.Sprintf("%q (%s)", tk.Name, plural(tk.Rows(), "row")))
		rows += tk.Rows()
	}
	n := len(fresh)
	if n == 0 {
		return ""
	}
	fresh = words.First(fresh, 12)
	verb := "are"
	if rows == 1 {
		verb = "is"
	}
	if between != nil {
		w := fmt.Sprintf("%s of %s the model was not trained on %s predicted with %s, %s, so a new task's predictions depend on which of its rows the file holds: %s",
			plural(rows, "row"), plural(n, "task"), verb, from, between.describe(), strings.Join(fresh, ", "))
		if len(far) > 0 {
			// A state with ten times its income took a fatality rate of
			// -0.18 from it (hunt11).
			w += fmt.Sprintf("; the averages of %s lie more than %d standard deviations of the training tasks' averages from theirs, so their levels are extrapolated, and their predictions with them (the average furthest out, and by how many): %s; check those rows' values",
				plural(len(far), "new task"), betweenFar, strings.Join(words.First(far, 12), ", "))
		}
		return w
	}
	return fmt.Sprintf("%s of %s the model was not trained on %s predicted with %s, as a mixed model predicts a new group from its fixed effects: %s",
		plural(rows, "row"), plural(n, "task"), verb, from, strings.Join(fresh, ", "))
}

// NewTaskPredictor returns the predictor the model gives a task it was not
// trained on, as a one-task model, and what it is, or nil when it has
// none. A model with a shared mean predictor w̄ (MMTL's, MTFL-mean's:
// Theta.Mean) predicts a new task with it and the tasks' mean intercept
// (weighted by the last τ of a self-paced run, as the Θ-step weighs the
// tasks): its tasks' weights are w̄ plus a deviation of each, and a task
// with no rows has none, as a mixed model predicts a new group from its
// fixed effects. STL's one pooled predictor is every task's. ITL, MTFL,
// MTASO and the sequential learners learn no predictor apart from the
// tasks', so they have none.
func (m *ModelFile) NewTaskPredictor() (*mtl.Model, string) {
	if len(m.W) == 0 || len(m.B) != len(m.W) {
		return nil, ""
	}
	var tau []float64
	if k := len(m.Tau); k > 0 {
		tau = m.Tau[k-1]
	}
	w, b, from := sharedPredictor(m.Method, m.W, m.B, m.Theta, tau)
	if w == nil {
		return nil, ""
	}
	return &mtl.Model{W: [][]float64{w}, B: []float64{b}, Features: len(w)}, from
}

// sharedPredictor is NewTaskPredictor for a model of method (its key)
// with tasks' weights W and intercepts B, knowledge theta and last task
// weights tau (nil unless self-paced): the weights and intercept a new
// task is predicted with, and what they are; nil weights when the model
// has none. Tuning for new tasks scores a fold's fit with it.
func sharedPredictor(method string, W [][]float64, B []float64, theta *mtl.Theta, tau []float64) ([]float64, float64, string) {
	if len(W) == 0 || len(B) != len(W) {
		return nil, 0, ""
	}
	if method == "stl" {
		return W[0], B[0], "the pooled predictor every task has"
	}
	if theta == nil || len(theta.Mean) != len(W[0]) {
		return nil, 0, ""
	}
	weight := func(int) float64 { return 1 }
	if len(tau) == len(B) {
		weight = func(t int) float64 { return tau[t] }
	}
	var num, den float64
	for t, b := range B {
		num += weight(t) * b
		den += weight(t)
	}
	if den <= 0 {
		return nil, 0, ""
	}
	return theta.Mean, num / den, "the shared mean predictor and the tasks' mean intercept"
}

// Predictions are a model's predictions for the rows of a file.
type Predictions struct {
	// Header is the file's columns followed by Column.
	Header []string `json:"header"`
	// Rows are the file's rows, each followed by its prediction.
	Rows [][]string `json:"rows"`
	// Values are the predictions, in the file's row order; NaN for a row
	// left out for a missing value (PredictOptions.OmitMissing), whose
	// prediction in Rows is empty.
	Values []float64 `json:"values"`
	// Column is "prediction" or "score" (or, when the file has a column
	// of that name, the first of NAME_2, NAME_3, ... that it has not:
	// "prediction_2", "score_2"); Meaning says what it holds.
	Column  string `json:"column"`
	Meaning string `json:"meaning"`
	// Warnings are things the reader noticed (values the model never
	// saw).
	Warnings []string `json:"warnings,omitempty"`
	// Delimiter and DecimalComma are the file's own conventions (";" and
	// "1,5", as a spreadsheet writes in many locales; "" for a comma),
	// which CSV writes the predictions in, so that the file reads back
	// where it came from.
	Delimiter    string `json:"delimiter,omitempty"`
	DecimalComma bool   `json:"decimalComma,omitempty"`
	// Score, when the file has the model's label column, is the
	// predictions' score against it; nil otherwise.
	Score *PredictScore `json:"score,omitempty"`
}

// PredictScore is the score of a file's predictions against the labels
// the file holds: pooled over its rows, as tuning scores held-out rows.
type PredictScore struct {
	// Label is the label column.
	Label string `json:"label"`
	// Scores are the pooled scores; Scores.Metric is the one tuning
	// chooses by (RMSE, log-loss, or the Brier score of a classifier
	// trained with the squared loss).
	Scores eval.PooledScores `json:"scores"`
	// Constant is the same metric for one value on every row: the rows'
	// mean label (a regression's RMSE is then the labels' spread), or
	// the rows' share of the positive class as every row's probability.
	// A model that does not beat it has learned nothing these rows show.
	Constant float64 `json:"constant"`
	// Unscored counts the predicted rows whose label is missing, not a
	// number, or not one of the classifier's two classes.
	Unscored int `json:"unscored"`
	// Text says it all in words, as the command line and the page print it.
	Text string `json:"text"`
}

// Predict reads new rows the way the model's training rows were read and
// predicts each with its task's predictor: for regression the value, for a
// classifier trained with the logistic loss the probability of the
// positive class, for one trained with the squared loss its score (above 0:
// the positive class). The label column may be absent. A row of a task the
// model was not trained on is predicted with the model's predictor for a
// new task when it has one (NewTaskPredictor), and said so in a warning;
// otherwise it is refused with its line.
func Predict(m *ModelFile, text []byte, name string) (*Predictions, error) {
	return PredictWith(m, text, name, PredictOptions{})
}

// PredictOptions are the choices of a prediction (PredictWith).
type PredictOptions struct {
	// OmitMissing predicts nothing for a row with a missing value in the
	// task or a feature the model reads, where Predict refuses the file:
	// the row keeps its place with an empty prediction (NaN in Values),
	// and a warning counts such rows and names their lines.
	OmitMissing bool
	// SkipUnknown predicts nothing for a row of a task the model was not
	// trained on and has no predictor for (ITL, MTFL, MTASO: no
	// NewTaskPredictor), where Predict refuses the file; as with
	// OmitMissing, the row keeps its place and a warning says which.
	SkipUnknown bool
}

// PredictWith is Predict with its options.
func PredictWith(m *ModelFile, text []byte, name string, opt PredictOptions) (*Predictions, error) {
	p := &Predictions{Column: "prediction"}
	shared, from := m.NewTaskPredictor()
	known := m.Tasks
	if shared != nil {
		known = nil // any task: a new one takes the shared predictor
	}
	nro := data.NewRowsOptions{Tasks: known, NewTaskModels: method.NewTaskLabels(), OmitMissing: opt.OmitMissing, SkipUnknown: opt.SkipUnknown}
	if m.Kind == data.Classification.String() {
		nro.Classes = []string{m.Negative, m.Positive}
	}
	tab, err := data.LoadNewRowsWith(text, name, m.Encoding, nro)
	if err != nil {
		return nil, err
	}
	ds, rows := tab.Data, tab.Rows
	p.Warnings = tab.Warnings
	if e := tab.Encoding; e != nil {
		if e.Delimiter != "," {
			p.Delimiter = e.Delimiter
		}
		p.DecimalComma = e.DecimalComma
	}
	for _, w := range []string{tab.Omitted.NoPrediction(), tab.Skipped.NoPrediction()} {
		if w != "" {
			p.Warnings = append(p.Warnings, w)
		}
	}
	model := m.Model()
	if w := withNewTasks(model, ds, shared, from, m.Between); w != "" {
		p.Warnings = append(p.Warnings, w)
		if w := m.NewTaskScore.worse(m.Kind); w != "" {
			p.Warnings = append(p.Warnings, w)
		}
		if m.Tuned != nil && !m.Tuned.NewTasks && len(m.Tuned.Models) > 0 {
			// Its settings were right for rows of known tasks, which is
			// not the same choice (SumHes: ρ 3e-5 on rows, new countries
			// RMSE 0.83; tuned on whole countries, 0.65; §17).
			p.Warnings = append(p.Warnings, "the model's settings were chosen on held-out rows of the tasks it was trained on; a search for new tasks (tune -new-tasks; on the page, Tune for tasks not in this file) scores whole tasks held out, and may choose otherwise for them")
		}
		if names := fixedColumns(m.Encoding); len(names) > 0 && m.Method != "stl" && m.Config.Intercept == 0 {
			// Free intercepts: nothing tells a task-level effect from
			// them, so the shared weight on it stays at 0 (§14).
			p.Warnings = append(p.Warnings, "the model's intercepts are free, so each task's own intercept took the effect of "+words.List(names)+
				" (constant within every task), and the new tasks' predictions do not use it: a model with a shared intercept (the intercept setting above 0) lets the shared predictor carry it")
		}
	}
	p.Header = append(append([]string(nil), tab.Header...), "")
	logistic := m.Kind == data.Classification.String() && m.Config.Loss == mtl.Logistic
	switch {
	case logistic:
		p.Meaning = fmt.Sprintf("the probability of the positive class %q", m.Positive)
	case m.Kind == data.Classification.String():
		p.Column = "score"
		p.Meaning = fmt.Sprintf("the model's score, above 0 for the positive class %q (squared loss: not a probability)", m.Positive)
	default:
		p.Meaning = "the predicted value"
	}
	if col := freeName(p.Header[:len(p.Header)-1], p.Column); col != p.Column {
		p.Warnings = append(p.Warnings, fmt.Sprintf("the file has a column named %q already: the predictions are in column %q", p.Column, col))
		p.Column = col
	}
	p.Header[len(p.Header)-1] = p.Column
	scores, err := model.PredictDataset(ds)
	if err != nil {
		return nil, fmt.Errorf("predict %s: %w", name, err)
	}
	p.Values = make([]float64, ds.SourceRows)
	for i := range p.Values {
		p.Values[i] = math.NaN() // a row left out for a missing value keeps NaN
	}
	var held eval.Held
	var heldRows []int // each scored row's place in the file
	unscored := 0
	for i := range ds.Tasks {
		for k, src := range ds.Tasks[i].Source {
			v := scores[i][k]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("predict %s: row %d (task %q): the prediction is %v, not a finite number: the row's values times the model's weights are too large; look for a value out of scale in the row (or a weight in the model)", name, src+1, ds.Tasks[i].Name, v)
			}
			if tab.Truth != nil {
				if y := tab.Truth[src]; math.IsNaN(y) {
					unscored++
				} else {
					held.Margin, held.Y = append(held.Margin, v), append(held.Y, y)
					heldRows = append(heldRows, src)
				}
			}
			if logistic {
				v = 1 / (1 + math.Exp(-v))
			}
			p.Values[src] = v
		}
	}
	if tab.Truth != nil {
		p.Score = scorePredictions(m, tab.Encoding.LabelColumn, name, held, heldRows, unscored)
	}
	// Each row once more with its prediction, in one allocation; the row
	// read is let go as it is copied (a million rows of a file are most of
	// predict's memory).
	p.Rows = make([][]string, len(rows))
	for i, r := range rows {
		row := make([]string, len(r)+1)
		copy(row, r)
		if !math.IsNaN(p.Values[i]) {
			row[len(r)] = strconv.FormatFloat(p.Values[i], 'g', 17, 64)
		}
		p.Rows[i], rows[i] = row, nil
	}
	return p, nil
}

// labelPlace says where new rows' labels are: their column (format's
// %s), or for a sparse file, which has none, each line's second field
// (sparse).
func labelPlace(column, format, sparse string) string {
	if column == "" {
		return sparse
	}
	return fmt.Sprintf(format, column)
}

// scorePredictions scores the margins of a file's predictions against its
// labels (PredictScore), and says so in words: the score with its standard
// error, the constant prediction's beside it, the rows left unscored, and,
// for a file named as the training file, that a score on rows the model
// was fitted on is no test score.
func scorePredictions(m *ModelFile, label, file string, held eval.Held, rows []int, unscored int) *PredictScore {
	kind := data.Regression
	if m.Kind == data.Classification.String() {
		kind = data.Classification
	}
	logistic := kind == data.Classification && m.Config.Loss == mtl.Logistic
	s := &PredictScore{Label: label, Scores: eval.Pooled(kind, logistic, held.Margin, held.Y), Unscored: unscored, Constant: math.NaN()}
	n := len(held.Y)
	var b strings.Builder
	if n == 0 && unscored == 0 {
		// Every row was left out (their tasks new to the model, or a
		// value missing): none has a prediction to score (hunt hF's cml,
		// whose 125 rows were all of new centres).
		s.Text = "not scored: no row has a prediction"
		return s
	}
	if n == 0 {
		fmt.Fprintf(&b, "not scored: no predicted row has a label %s", labelPlace(label, "in column %s", "(its line's second field)"))
		if kind == data.Classification {
			fmt.Fprintf(&b, " that is one of the model's classes (%q, %q)", m.Negative, m.Positive)
		}
		s.Text = b.String()
		return s
	}
	metric := s.Scores.Metric
	if v := s.Scores.Of(metric); !v.OK() || !finiteSE(v.SE) {
		// A certain and wrong prediction (an intercept of 1e308) has an
		// infinite log-loss: no score is printed as +Inf.
		fmt.Fprintf(&b, "not scored: the %s of the %s is not a finite number: some prediction is certain and wrong; look for a value out of scale in its row, or a weight in the model", metric.Name(), plural(n, "row"))
		s.Text = b.String()
		return s
	}
	if n > 1 {
		// One row's own label is its mean: "would score 0.000" (hunt11).
		s.Constant = constantScore(kind, logistic, metric, held.Y)
	}
	fmt.Fprintf(&b, "scored against %s on %s: %s %s", labelPlace(label, "column %s", "the lines' labels (their second field)"), plural(n, "row"), metric.Name(), plusMinus(s.Scores.Of(metric)))
	if r, share := heaviestRow(metric, logistic, held); n >= 10 && share > 0.5 {
		// One wild value (x1 = 1e12 where training saw 1 to 15) made the
		// log-loss 1.7e9 with no word of the row.
		fmt.Fprintf(&b, " (row %d alone holds %.0f%% of its %s: %s)", rows[r]+1, 100*share, lossWord(metric), heavyRowHint(m, kind, logistic, held, r))
	}
	if kind == data.Classification {
		if a := s.Scores.AUC; a.OK() {
			fmt.Fprintf(&b, ", AUC %s", plusMinus(a))
		} else {
			b.WriteString(" (no AUC: the rows hold one class only)")
		}
	}
	if !math.IsNaN(s.Constant) {
		if kind == data.Classification {
			fmt.Fprintf(&b, "; every row given these rows' share of %q as its probability would score %s", m.Positive, digits(s.Constant, 4))
		} else {
			fmt.Fprintf(&b, "; every row predicted by these rows' mean label would score %s", digits(s.Constant, 4))
		}
	}
	if unscored > 0 {
		verb := " are"
		if unscored == 1 {
			verb = " is"
		}
		fmt.Fprintf(&b, "; %s not scored: the label is missing", plural(unscored, "predicted row")+verb)
		if kind == data.Classification {
			fmt.Fprintf(&b, " or not one of the model's classes (%q, %q)", m.Negative, m.Positive)
		} else {
			b.WriteString(" or not a number")
		}
	}
	if m.Trained.File != "" && baseName(file) == m.Trained.File {
		b.WriteString("; the file has the name of the file the model was trained on: on rows the model was fitted on, a score is no test score")
	}
	s.Text = b.String()
	return s
}

func finiteSE(se float64) bool { return math.IsNaN(se) || !math.IsInf(se, 0) }

// heaviestRow returns the scored row with the largest loss behind metric
// (a squared error, a log-loss or Brier term) and its share of their sum.
func heaviestRow(metric eval.Metric, logistic bool, held eval.Held) (int, float64) {
	losses := eval.RowLosses(metric, logistic, held.Margin, held.Y)
	best, sum := -1, 0.0
	for i, l := range losses {
		sum += l
		if best < 0 || l > losses[best] {
			best = i
		}
	}
	if best < 0 || !(sum > 0) {
		return -1, 0
	}
	return best, losses[best] / sum
}

// heavyRowHint says where to look when row r holds most of the score's
// loss: a value out of scale in the row (x1 = 1e12 where training saw 1 to
// 15) when its prediction is certain and wrong, and, for positive labels
// that span two powers of ten or more (earnings of 5,000 to 30 million,
// hunt hE's parade), the label's own skew, which a fit of its logarithm may
// serve better. A regression's row says its label and its prediction; a
// classifier's the probability it gives the row's own class, which may be
// unremarkable where every other row is certain and right (hunt hF's ais: a
// row at 0.40 held 59% of a log-loss of 0.031).
func heavyRowHint(m *ModelFile, kind data.Kind, logistic bool, held eval.Held, r int) string {
	const scale = "look for a value out of scale in it"
	if kind == data.Classification {
		p := eval.Probabilities(held.Margin[r:r+1], logistic)[0]
		class := m.Positive
		if held.Y[r] <= 0 {
			p, class = 1-p, m.Negative
		}
		said := fmt.Sprintf("it gives its own class %q a probability of %.2g", class, p)
		if p < 0.05 {
			return said + "; " + scale
		}
		return said
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, y := range held.Y {
		lo, hi = math.Min(lo, y), math.Max(hi, y)
	}
	said := fmt.Sprintf("it is labelled %s and predicted %s; %s", digits(held.Y[r], 4), digits(held.Margin[r], 4), scale)
	if lo > 0 && hi >= 100*lo {
		said += fmt.Sprintf(", or, as the labels span powers of ten (%s to %s), try predicting their logarithm", digits(lo, 4), digits(hi, 4))
	}
	return said
}

// lossWord is what a metric sums over rows, for a sentence.
func lossWord(metric eval.Metric) string {
	if metric == eval.RMSEMetric {
		return "squared error"
	}
	return metric.Name()
}

// constantScore is metric for one prediction on every row, scored as the
// model's are (eval.Pooled): the labels' mean (RMSE), or the positive
// class's share as every row's probability (log-loss, Brier). NaN when
// that share is 0 or 1 (a log-loss of 0 that says nothing).
func constantScore(kind data.Kind, logistic bool, metric eval.Metric, y []float64) float64 {
	var mean float64
	for _, v := range y {
		mean += v
	}
	mean /= float64(len(y))
	margin := mean
	if kind == data.Classification {
		p := (mean + 1) / 2 // y is ±1
		if p <= 0 || p >= 1 {
			return math.NaN()
		}
		margin = 2*p - 1 // a squared-loss score, read as (f + 1)/2
		if logistic {
			margin = math.Log(p / (1 - p))
		}
	}
	margins := make([]float64, len(y))
	for i := range margins {
		margins[i] = margin
	}
	return eval.Pooled(kind, logistic, margins, y).Of(metric).Value
}

// baseName is a path's last element, for either separator (a page's file
// name has none).
func baseName(p string) string {
	return p[strings.LastIndexAny(p, `/\`)+1:]
}

// CSV returns the predictions as a CSV file: the input's columns and the
// prediction, in the input's delimiter, the prediction with a decimal
// comma where the input writes one (a semicolon file's "7,15" beside
// "6.917" would mix two conventions in one file).
func (p *Predictions) CSV() []byte {
	var b bytes.Buffer
	p.WriteCSV(&b) // a bytes.Buffer takes every write
	return b.Bytes()
}

// WriteCSV writes the predictions as CSV (CSV's text) to w, row by row: a
// command line writes a file of a million predictions without holding
// its text too.
func (p *Predictions) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if r := []rune(p.Delimiter); len(r) == 1 {
		cw.Comma = r[0]
	}
	cw.Write(p.Header)
	for _, row := range p.Rows {
		if p.DecimalComma && len(row) > 0 {
			row = append(row[:len(row)-1:len(row)-1], strings.Replace(row[len(row)-1], ".", ",", 1))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// freeName returns name, or name_2, name_3, ... : the first that is not
// one of header's (as the CSV reader compares them, without surrounding
// space), so that a file of predictions reads back.
func freeName(header []string, name string) string {
	taken := map[string]bool{}
	for _, h := range header {
		taken[strings.TrimSpace(h)] = true
	}
	out := name
	for k := 2; taken[out]; k++ {
		out = fmt.Sprintf("%s_%d", name, k)
	}
	return out
}
