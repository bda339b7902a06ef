// Package session keeps the browser app's objects, in pure Go: loaded data
// sets, training runs, model files and tuning searches of core/app,
// addressed by integer handles; the page's workers call them off its main
// thread, one call per request (a run one step at a time). The wasm
// bridge only converts between JavaScript values and these types, so all
// of the app's behaviour is testable natively.
package session

import (
	"fmt"
	"sort"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/internal/words"
	"github.com/spmtl/spmtl/core/mtl"
)

// Session holds data sets and runs. It is not safe for concurrent use (the
// app runs it inside one Web Worker).
type Session struct {
	next     int
	datasets map[int]*app.Data
	runs     map[int]*app.Run
	models   map[int]*app.ModelFile
	sources  map[string]*app.Source       // bundled data sets for the reproduction
	tunes    map[tuneKey]*app.TuneFoldSet // prepared folds, per data set and fold setting
	searches map[int]*app.TuneSearch      // model searches the page is running, by id
	against  map[int]int                  // a comparison run's handle → the run it was started for
}

// New returns an empty session.
func New() *Session {
	return &Session{datasets: map[int]*app.Data{}, runs: map[int]*app.Run{}, models: map[int]*app.ModelFile{},
		sources: map[string]*app.Source{}, tunes: map[tuneKey]*app.TuneFoldSet{}, searches: map[int]*app.TuneSearch{},
		against: map[int]int{}}
}

// LoadOptions say how to read a data text (app.LoadOptions, with the split
// file as text). The JSON names are the page's (spmtl.load).
type LoadOptions struct {
	Name        string `json:"name"`
	Format      string `json:"format"`
	TaskColumn  string `json:"task"`
	LabelColumn string `json:"label"`
	SplitText   string `json:"splitText"`
	SplitColumn string `json:"splitColumn"`
	// Drop leaves columns out; text columns with too many values are left
	// out with a reason rather than refusing the file.
	Drop []string `json:"drop"`
	// Text reads columns as words even when their values look like
	// numbers (app.LoadOptions.Text).
	Text []string `json:"text"`
	// Missing is "omit" to leave out the rows with a missing value, or
	// "refuse" ("" too) to refuse them (app.OmitMissing).
	Missing string `json:"missing"`
	// Origin is the features' origin (app.LoadOptions.Origin, read by
	// app.ParseOrigin): "auto" ("" too), "zero", "means", t times the means
	// or "column=value".
	Origin string `json:"origin"`
	// Bundled marks one of the bundled data sets, which keep the paper's
	// settings; anything else is a visitor's own file (app.OwnData).
	Bundled bool `json:"bundled"`
}

// Summary describes a loaded data set and names its handle. A CSV's
// header and columns are in Columns, in columnar form: app.Summary's
// Header and Columns are left empty (the bridge writes the header as []).
type Summary struct {
	Handle int `json:"handle"`
	app.Summary
	Columns ColumnTable `json:"columns"`
}

// Load reads a data text and returns its summary. Errors from the readers
// keep their "file:line:col: message" form.
func (s *Session) Load(text string, opt LoadOptions) (Summary, error) {
	return s.LoadBytes([]byte(text), opt)
}

// LoadBytes is Load for a file's bytes: a data text, or a packed table
// (app.Pack), which the page fetches for its bundled CSVs.
func (s *Session) LoadBytes(b []byte, opt LoadOptions) (Summary, error) {
	omit, err := app.OmitMissing(opt.Missing)
	if err != nil {
		return Summary{}, err
	}
	d, err := app.Load(b, app.LoadOptions{Name: opt.Name, Format: opt.Format, TaskColumn: opt.TaskColumn,
		LabelColumn: opt.LabelColumn, Splits: []byte(opt.SplitText), SplitColumn: opt.SplitColumn, Drop: opt.Drop, Text: opt.Text, OmitMissing: omit, Origin: opt.Origin, DropRefused: true, Bundled: opt.Bundled})
	if err != nil {
		return Summary{}, err
	}
	return s.addData(d), nil
}

// Generate makes one of the synthetic data sets with its own train/test
// split.
func (s *Session) Generate(name string, seed uint64) (Summary, error) {
	d, err := app.Generate(name, seed)
	if err != nil {
		return Summary{}, err
	}
	return s.addData(d), nil
}

func (s *Session) addData(d *app.Data) Summary {
	s.next++
	s.datasets[s.next] = d
	sum := d.Summary()
	cols := columnTable(sum)
	sum.Header, sum.Columns = nil, nil
	return Summary{Handle: s.next, Summary: sum, Columns: cols}
}

// TrainOptions start a run on a loaded data set.
type TrainOptions struct {
	Dataset int
	app.TrainOptions
}

// RunInfo describes a started run.
type RunInfo struct {
	Handle    int        `json:"handle"`
	Name      string     `json:"name"`
	Kind      string     `json:"kind"`
	Tasks     []string   `json:"tasks"`
	TrainRows int        `json:"trainRows"`
	TestRows  int        `json:"testRows"`
	Config    mtl.Config `json:"config"`
	// Untested are the tasks too small to test; UntestedText names them.
	Untested     []int  `json:"untested,omitempty"`
	UntestedText string `json:"untestedText,omitempty"`
	// ThinText names the tasks scored on one or two test rows (app.Run.ThinText).
	ThinText string `json:"thinText,omitempty"`
	// RoundedText says when a training share came to one row per task
	// (app.Run.RoundedText).
	RoundedText string `json:"roundedText,omitempty"`
	// IdleText says why the settings leave the method nothing to share
	// (app.Run.IdleText).
	IdleText string `json:"idleText,omitempty"`
}

// Train splits the data set and starts a run; no step is taken yet.
func (s *Session) Train(opt TrainOptions) (RunInfo, error) {
	d, ok := s.datasets[opt.Dataset]
	if !ok {
		return RunInfo{}, fmt.Errorf("train: no data set with handle %d", opt.Dataset)
	}
	r, err := app.NewRun(d, opt.TrainOptions)
	if err != nil {
		return RunInfo{}, err
	}
	return s.addRun(r), nil
}

func (s *Session) addRun(r *app.Run) RunInfo {
	s.next++
	s.runs[s.next] = r
	return RunInfo{Handle: s.next, Name: r.Name(), Kind: string(r.Method.Kind), Tasks: r.Tasks(), TrainRows: r.Train.Rows(),
		TestRows: r.Test.Rows(), Config: r.Config, Untested: r.Untested, UntestedText: r.UntestedText(clipName), ThinText: r.ThinText(clipName), RoundedText: r.RoundedText(), IdleText: r.IdleText()}
}

// Comparison is a run started to be compared with another.
type Comparison struct {
	Role  string  `json:"role"`
	Label string  `json:"label"`
	Run   RunInfo `json:"run"`
}

// Compare starts the runs the catalogue compares run handle with (its
// baseline, ITL), on the same split.
func (s *Session) Compare(handle int) ([]Comparison, error) {
	r, ok := s.runs[handle]
	if !ok {
		return nil, fmt.Errorf("compare: no run with handle %d", handle)
	}
	runs, cs, err := r.Comparisons()
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	out := make([]Comparison, len(runs))
	for i, cr := range runs {
		out[i] = Comparison{Role: cs[i].Role, Label: cs[i].Label, Run: s.addRun(cr)}
		s.against[out[i].Run.Handle] = handle
	}
	return out, nil
}

// Step advances a run by one step.
func (s *Session) Step(handle int) (mtl.Snapshot, error) {
	r, ok := s.runs[handle]
	if !ok {
		return mtl.Snapshot{}, fmt.Errorf("step: no run with handle %d", handle)
	}
	return r.Step()
}

// Finish steps a run to its end and returns its last snapshot.
func (s *Session) Finish(handle int) (mtl.Snapshot, error) {
	r, ok := s.runs[handle]
	if !ok {
		return mtl.Snapshot{}, fmt.Errorf("finish: no run with handle %d", handle)
	}
	return r.Finish()
}

// Evaluation is a run's test score (app.Evaluation) with its uncertainty:
// the mean over tasks with its standard error, and for a run started by
// Compare, how the run it was started for compares with it, paired over
// tasks.
type Evaluation struct {
	app.Evaluation
	// Over is the mean over the scored tasks and its standard error over
	// tasks.
	Over eval.TaskMean `json:"over"`
	// Versus compares the run this one was started for (first) with this
	// one (second); nil for a run not started by Compare, or when that run
	// is gone.
	Versus *eval.Versus `json:"versus,omitempty"`
}

// Evaluate scores a run's current model on its test set.
func (s *Session) Evaluate(handle int) (Evaluation, error) {
	r, ok := s.runs[handle]
	if !ok {
		return Evaluation{}, fmt.Errorf("evaluate: no run with handle %d", handle)
	}
	ev, err := r.Evaluate()
	if err != nil {
		return Evaluation{}, err
	}
	out := Evaluation{Evaluation: ev, Over: eval.MeanOverTasks(ev.Test)}
	if mr, ok := s.runs[s.against[handle]]; ok {
		mev, err := mr.Evaluate()
		if err != nil {
			return Evaluation{}, fmt.Errorf("evaluate: the run compared with: %w", err)
		}
		v := eval.CompareTasks(eval.Metric(ev.Metric), mev.Test, ev.Test)
		v.Text = v.Words(mr.Name(), r.Name())
		out.Versus = &v
	}
	return out, nil
}

// Free releases a data set, run or model handle (unknown handles are
// ignored).
func (s *Session) Free(handle int) {
	delete(s.datasets, handle)
	delete(s.runs, handle)
	delete(s.models, handle)
	delete(s.against, handle)
	for k := range s.tunes {
		if k.data == handle {
			delete(s.tunes, k)
		}
	}
}

// Handles lists the live handles (for tests and leak checks).
func (s *Session) Handles() []int {
	var h []int
	for k := range s.datasets {
		h = append(h, k)
	}
	for k := range s.runs {
		h = append(h, k)
	}
	for k := range s.models {
		h = append(h, k)
	}
	sort.Ints(h)
	return h
}

// Catalog returns the methods, bundled data sets and defaults for the
// page's menus.
func (s *Session) Catalog() app.Catalog { return app.GetCatalog() }

// ModelInfo describes a model held by the session.
type ModelInfo struct {
	Handle int      `json:"handle"`
	Name   string   `json:"name"`
	Method string   `json:"method"`
	Kind   string   `json:"kind"`
	Tasks  []string `json:"tasks"`
	// Features are the features' names, none for a sparse file's model;
	// FeatureCount is how many there are, in every format.
	Features     []string `json:"features"`
	FeatureCount int      `json:"featureCount"`
	Trained      string   `json:"trained"`
}

// ExportModel returns a finished run's model file (its JSON method, or the
// WebAssembly bridge's encoder, gives the text to save).
//
// tuned is the page's last model search on the run's data set, or nil:
// the file carries it when it chose the run's settings (app.Run.ChosenBy),
// as tune -save writes it, so that inspect says how they were chosen and
// predict warns when they were chosen for the known tasks' rows.
func (s *Session) ExportModel(handle int, trained app.Trained, tuned *app.TuneResult) (*app.ModelFile, error) {
	r, ok := s.runs[handle]
	if !ok {
		return nil, fmt.Errorf("export model: no run with handle %d", handle)
	}
	return withSearch(r, trained, tuned)
}

// withSearch is r's model file, carrying tuned when that search chose the
// run's settings (app.Run.ChosenBy).
func withSearch(r *app.Run, trained app.Trained, tuned *app.TuneResult) (*app.ModelFile, error) {
	m, err := r.ModelFile(trained)
	if err != nil {
		return nil, err
	}
	if r.ChosenBy(tuned) {
		m.Tuned = tuned
	}
	return m, nil
}

// AddModel checks a decoded model file (the WebAssembly build decodes the
// JSON itself) and keeps it under a new handle.
func (s *Session) AddModel(m *app.ModelFile, name string) (ModelInfo, error) {
	if err := m.Check(name); err != nil {
		return ModelInfo{}, err
	}
	s.next++
	s.models[s.next] = m
	d := 0
	if len(m.W) > 0 {
		d = len(m.W[0]) // Check has made every task's as long
	}
	return ModelInfo{Handle: s.next, Name: m.Name, Method: m.Method, Kind: m.Kind, Tasks: m.Tasks, Features: m.Features, FeatureCount: d, Trained: m.Trained.File}, nil
}

// model returns the model of a model handle, or of a finished run handle
// (carrying tuned when that search chose the run's settings: withSearch).
func (s *Session) model(handle int, tuned *app.TuneResult) (*app.ModelFile, error) {
	if m, ok := s.models[handle]; ok {
		return m, nil
	}
	if r, ok := s.runs[handle]; ok {
		return withSearch(r, app.Trained{File: r.Train.Name, Rows: r.Train.Rows()}, tuned)
	}
	return nil, fmt.Errorf("no model or run with handle %d", handle)
}

// Predict predicts the rows of a file with a model (or a finished run);
// missing is the data setting's choice for a row missing a value, and
// newTasks for a row of a task the model cannot predict ("" or refuse,
// omit: app.PredictOptions). tuned is the page's last model search, which
// a run's model carries as ExportModel's does (a model file has its own):
// predict then warns when its settings, chosen for known tasks' rows,
// predict new tasks.
func (s *Session) Predict(handle int, text, name, missing, newTasks string, tuned *app.TuneResult) (*app.Predictions, error) {
	m, err := s.model(handle, tuned)
	if err != nil {
		return nil, fmt.Errorf("predict: %w", err)
	}
	omit, err := app.OmitMissing(missing)
	if err != nil {
		return nil, fmt.Errorf("predict: %w", err)
	}
	skip, err := app.OmitMissing(newTasks)
	if err != nil {
		return nil, fmt.Errorf("predict: new tasks: %w", err)
	}
	return app.PredictWith(m, []byte(text), name, app.PredictOptions{OmitMissing: omit, SkipUnknown: skip})
}

// Inspect describes the shared knowledge of a model (or a finished run).
func (s *Session) Inspect(handle int) (app.Inspection, error) {
	m, err := s.model(handle, nil)
	if err != nil {
		return app.Inspection{}, fmt.Errorf("inspect: %w", err)
	}
	return app.Inspect(m), nil
}

// clipName writes a task's name as the page's notes quote it: at most 40
// characters (words.Clip), where a 300-character name filled a phone's
// screen once per task listed.
func clipName(s string) string { return words.Clip(s, 40) }
