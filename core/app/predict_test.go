package app

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/mtl"
)

// TestPredictMessages: a file predict cannot read is told that it must
// have the columns the model was trained with; predict has no columns to
// choose or leave out, so its errors advise neither and carry no such
// remedy. A missing value offers to predict only the complete rows
// (Remedy.Omit: PredictOptions.OmitMissing).
func TestPredictMessages(t *testing.T) {
	d, err := Load([]byte("school,score,sex,hours\nS1,1,M,2\nS1,2,F,3\nS2,3,M,4\n"), LoadOptions{Name: "train.csv", TaskColumn: "school", LabelColumn: "score"})
	if err != nil {
		t.Fatal(err)
	}
	m := &ModelFile{Format: ModelFormat, Version: ModelVersion, Kind: "regression", Encoding: d.Encoding, Tasks: []string{"S1", "S2"},
		W: [][]float64{{1, 0, 1}, {0, 1, 1}}, B: []float64{0, 0}}
	for _, tc := range []struct{ name, text, want string }{
		{"no task column", "task,sex,hours\nS1,M,1\n", `new.csv:1:1: no task column "school" in header (task, sex, hours): the file must have the columns the model was trained with`},
		{"no feature column", "school,sex\nS1,M\n", `new.csv:1:1: no column "hours" in header (school, sex): the model was trained with it, so the file must have it too`},
		{"missing value", "school,sex,hours\nS1,M,\n", "new.csv:2:3: missing value in column hours, which the model was trained with: fill it in, delete the row, or predict only the rows that have every value"},
		{"a word", "school,sex,hours\nS1,M,n.d.\n", `new.csv:2:3: non-numeric value "n.d." in column hours, which the model was trained with as numbers: correct the value, or delete the row`},
		{"NA", "school,sex,hours\nS1,M,NA\n", `new.csv:2:3: missing value ("NA") in column hours, which the model was trained with: fill it in, delete the row, or predict only the rows that have every value`},
		{"too large", "school,sex,hours\nS1,M,1e200\n", "new.csv:2:3: value 1e+200 in column hours is beyond ±1e100, too large to compute with: correct the value, or delete the row"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Predict(m, []byte(tc.text), "new.csv")
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			for _, w := range []string{"choose", "leave", "-drop", "-task", "menu"} {
				if strings.Contains(err.Error(), w) {
					t.Errorf("advises %q", w)
				}
			}
			want := data.Remedy{}
			if strings.Contains(tc.want, "missing value") {
				want.Omit = true
			}
			if r := data.RemedyOf(err); r != want {
				t.Errorf("remedy %+v, want %+v", r, want)
			}
		})
	}
}

// TestPredictNewTask: a row of a task the model was not trained on takes
// the model's predictor for a new task — MMTL's and MTFL-mean's shared
// mean with the tasks' mean intercept (τ-weighted after a self-paced
// run), STL's pooled predictor — and the warning says which tasks took
// it; a model without one (MTFL) refuses the row at its line.
func TestPredictNewTask(t *testing.T) {
	d, err := Load([]byte("school,score,sex,hours\nS1,1,M,2\nS1,2,F,3\nS2,3,M,4\n"), LoadOptions{Name: "train.csv", TaskColumn: "school", LabelColumn: "score"})
	if err != nil {
		t.Fatal(err)
	}
	mean := []float64{0.5, -1, 2}
	model := func(method string, th *mtl.Theta, w [][]float64, tau [][]float64) *ModelFile {
		return &ModelFile{Format: ModelFormat, Version: ModelVersion, Method: method, Kind: "regression", Encoding: d.Encoding,
			Tasks: []string{"S1", "S2"}, W: w, B: []float64{1, 3}, Theta: th, Tau: tau}
	}
	two := [][]float64{{1, 0, 1}, {0, 1, 1}}
	for _, tc := range []struct {
		name  string
		m     *ModelFile
		w     []float64 // the new task's predictor
		b     float64
		from  string
		error string
	}{
		{"mmtl", model("mmtl-joint", &mtl.Theta{Kind: "mmtl", Mean: mean}, two, nil), mean, 2, "the shared mean predictor", ""},
		{"spMMTL: tau weighs the intercepts", model("mmtl", &mtl.Theta{Kind: "mmtl", Mean: mean}, two, [][]float64{{1, 1}, {0.75, 0.25}}), mean, 1.5, "the shared mean predictor", ""},
		{"mtfl-mean", model("mtfl-mean", &mtl.Theta{Kind: "mtfl-mean", Mean: mean}, two, nil), mean, 2, "the shared mean predictor", ""},
		{"stl", model("stl", nil, [][]float64{{1, 2, 3}, {1, 2, 3}}, nil), []float64{1, 2, 3}, 1, "the pooled predictor", ""},
		{"mtfl", model("mtfl", &mtl.Theta{Kind: "mtfl"}, two, nil), nil, 0, "", `new.csv:3:1: task "S9" is not one the model was trained on`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Predict(tc.m, []byte("school,sex,hours\nS1,F,5\nS9,F,5\nS9,M,1\n"), "new.csv")
			if tc.error != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.error) {
					t.Fatalf("error %v, want %q", err, tc.error)
				}
				// SkipUnknown predicts the known task's row alone, as
				// the file of that row alone is predicted.
				p, err := PredictWith(tc.m, []byte("school,sex,hours\nS1,F,5\nS9,F,5\nS9,M,1\n"), "new.csv", PredictOptions{SkipUnknown: true})
				if err != nil {
					t.Fatal(err)
				}
				alone, err := Predict(tc.m, []byte("school,sex,hours\nS1,F,5\n"), "one.csv")
				if err != nil {
					t.Fatal(err)
				}
				if p.Values[0] != alone.Values[0] || !math.IsNaN(p.Values[1]) || !math.IsNaN(p.Values[2]) || len(p.Rows) != 3 {
					t.Errorf("skipping the unknown task: values %v, want %v then no prediction", p.Values, alone.Values[0])
				}
				if want := "2 of the 3 rows are of a task the model was not trained on and cannot predict (S9): they have no prediction, at lines 3, 4"; !slices.Contains(p.Warnings, want) {
					t.Errorf("warnings %q, want %q", p.Warnings, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// The same rows under a known task whose predictor is the new task's.
			as := *tc.m
			as.W, as.B = [][]float64{tc.w, tc.w}, []float64{tc.b, tc.b}
			want, err := Predict(&as, []byte("school,sex,hours\nS1,F,5\nS1,F,5\nS1,M,1\n"), "new.csv")
			if err != nil {
				t.Fatal(err)
			}
			if p.Values[1] != want.Values[1] || p.Values[2] != want.Values[2] {
				t.Errorf("new task predicted %v, want %v", p.Values[1:], want.Values[1:])
			}
			if p.Values[0] == want.Values[0] && tc.name != "stl" { // STL's tasks share one predictor
				t.Errorf("the known task S1 took the new task's predictor (%v)", p.Values[0])
			}
			if len(p.Warnings) != 1 || !strings.HasPrefix(p.Warnings[0], `2 rows of 1 task the model was not trained on are predicted with `+tc.from) || !strings.HasSuffix(p.Warnings[0], `"S9" (2 rows)`) {
				t.Errorf("warnings %q", p.Warnings)
			}
		})
	}
}

// TestPredictOmitMissing: with OmitMissing a row missing a value (an empty
// cell, NA, NaN, a task named NA) keeps its place with an empty prediction
// (NaN in Values), the others are predicted as without it, and a warning
// counts the rows and names their lines.
func TestPredictOmitMissing(t *testing.T) {
	d, err := Load([]byte("school,score,sex,hours\nS1,1,M,2\nS1,2,F,3\nS2,3,M,4\n"), LoadOptions{Name: "train.csv", TaskColumn: "school", LabelColumn: "score"})
	if err != nil {
		t.Fatal(err)
	}
	m := &ModelFile{Format: ModelFormat, Version: ModelVersion, Kind: "regression", Encoding: d.Encoding, Tasks: []string{"S1", "S2"},
		W: [][]float64{{1, 0, 1}, {0, 1, 1}}, B: []float64{0, 0}}
	text := "school,sex,hours\nS1,M,\nS2,F,3\nNA,M,1\nS1,M,nan\nS1,F,2\n"
	if _, err := Predict(m, []byte(text), "new.csv"); err == nil {
		t.Fatal("Predict read rows missing a value without OmitMissing")
	}
	p, err := PredictWith(m, []byte(text), "new.csv", PredictOptions{OmitMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	whole, err := Predict(m, []byte("school,sex,hours\nS2,F,3\nS1,F,2\n"), "whole.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Values) != 5 || len(p.Rows) != 5 {
		t.Fatalf("%d values and %d rows for 5 rows", len(p.Values), len(p.Rows))
	}
	for i, v := range p.Values {
		missing := i != 1 && i != 4
		last := p.Rows[i][len(p.Rows[i])-1]
		if missing != math.IsNaN(v) || missing != (last == "") {
			t.Errorf("row %d: value %v, prediction %q", i+1, v, last)
		}
	}
	if p.Values[1] != whole.Values[0] || p.Values[4] != whole.Values[1] {
		t.Errorf("complete rows predicted %v and %v, alone %v", p.Values[1], p.Values[4], whole.Values)
	}
	want := "3 of the 5 rows have a missing value (hours: 2, school: 1) and no prediction, at lines 2, 4, 5"
	if !slices.Contains(p.Warnings, want) {
		t.Errorf("warnings %q, want %q", p.Warnings, want)
	}
}

// TestPredictionsCSVInTheFilesConventions: predictions of a file written
// with semicolons and decimal commas (as a spreadsheet in many locales
// writes it) come back in the same conventions, and read back; a file
// with commas and points stays so.
func TestPredictionsCSVInTheFilesConventions(t *testing.T) {
	m := trainModel(t, classCSV, LoadOptions{Name: "class.csv"}, mtl.Config{Model: "itl"})
	for _, c := range []struct {
		name, text string
		head       string
		decimal    string // the prediction's decimal mark
	}{
		{"semicolons", "task;x1;x2\na;1,5;0,25\nb;-1;0,5\n", "task;x1;x2;prediction", ","},
		{"commas", "task,x1,x2\na,1.5,0.25\nb,-1,0.5\n", "task,x1,x2,prediction", "."},
		{"tabs", "task\tx1\tx2\na\t1.5\t0.25\nb\t-1\t0.5\n", "task\tx1\tx2\tprediction", "."},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Predict(m, []byte(c.text), "new.csv")
			if err != nil {
				t.Fatal(err)
			}
			out := string(p.CSV())
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if lines[0] != c.head {
				t.Errorf("header %q, want %q", lines[0], c.head)
			}
			fields := strings.FieldsFunc(lines[1], func(r rune) bool { return string(r) == string(c.head[4]) })
			pred := fields[len(fields)-1]
			if !strings.Contains(pred, c.decimal) || strings.Contains(pred, map[string]string{",": ".", ".": ","}[c.decimal]) {
				t.Errorf("the prediction %q, want its decimal mark %q:\n%s", pred, c.decimal, out)
			}
			back, err := Predict(m, p.CSV(), "out.csv")
			if err != nil || back.Values[0] != p.Values[0] {
				t.Errorf("read back: %v, %v against %v", err, back, p.Values[0])
			}
		})
	}
}

// TestPredictNewTaskFreeIntercepts: with free intercepts a task-level
// covariate's effect is the intercepts' (§14), so a new task's prediction
// cannot use it, and predict says so; a shared intercept, or a file with
// no task-level column, has no such warning.
func TestPredictNewTaskFreeIntercepts(t *testing.T) {
	d, err := Load([]byte("school,score,sector,hours\nS1,1,public,2\nS1,2,public,3\nS2,3,private,4\nS2,5,private,1\n"), LoadOptions{Name: "train.csv", TaskColumn: "school", LabelColumn: "score"})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Encoding.Fixed) == 0 || len(d.All.Fixed) == 0 {
		t.Fatalf("sector is constant within each school: fixed %v, the data's %v", d.Encoding.Fixed, d.All.Fixed)
	}
	for _, kappa := range []float64{0, 0.1} {
		m := &ModelFile{Format: ModelFormat, Version: ModelVersion, Method: "mmtl-joint", Kind: "regression", Encoding: d.Encoding, Config: mtl.Config{Intercept: kappa},
			Tasks: []string{"S1", "S2"}, W: [][]float64{{0, 0, 1}, {0, 0, 1}}, B: []float64{1, 3}, Theta: &mtl.Theta{Kind: "mmtl", Mean: []float64{0, 0, 1}}}
		p, err := Predict(m, []byte("school,sector,hours\nS9,public,5\n"), "new.csv")
		if err != nil {
			t.Fatal(err)
		}
		said := slices.ContainsFunc(p.Warnings, func(w string) bool {
			return strings.HasPrefix(w, "the model's intercepts are free, so each task's own intercept took the effect of sector")
		})
		if said != (kappa == 0) {
			t.Errorf("intercept %g: warnings %q", kappa, p.Warnings)
		}
	}
}

// TestPredictScoresTheFilesLabels: a file with the model's label column is
// scored against it, as tuning pools held-out rows: the RMSE of a
// regression (by hand, from the predictions written), with the constant prediction's score beside it; a
// classifier's log-loss against its classes, written as the training file
// wrote them or as the same number; a missing or unknown label leaves its
// row unscored and counted; a file without the label column has no score;
// and a file named as the training file is told its score is no test score.
func TestPredictScoresTheFilesLabels(t *testing.T) {
	d, err := Load([]byte("school,score,hours\nS1,1,2\nS1,2,3\nS2,3,4\n"), LoadOptions{Name: "train.csv", TaskColumn: "school", LabelColumn: "score"})
	if err != nil {
		t.Fatal(err)
	}
	m := &ModelFile{Format: ModelFormat, Version: ModelVersion, Kind: "regression", Encoding: d.Encoding, Tasks: []string{"S1", "S2"},
		W: [][]float64{{1}, {2}}, B: []float64{0, 1}, Trained: Trained{File: "train.csv"}}
	p, err := Predict(m, []byte("school,score,hours\nS1,1,2\nS1,3,3\nS2,11,4\nS2,NA,5\n"), "new.csv")
	if err != nil {
		t.Fatal(err)
	}
	s := p.Score
	if s == nil {
		t.Fatal("no score for a file with the label column")
	}
	var ss float64
	for i, y := range []float64{1, 3, 11} {
		ss += (p.Values[i] - y) * (p.Values[i] - y)
	}
	want := math.Sqrt(ss / 3)
	if got := s.Scores.RMSE; math.Abs(got.Value-want) > 1e-12 || got.N != 3 || s.Unscored != 1 {
		t.Errorf("RMSE %+v, %d unscored; want %v on 3 rows, 1 unscored", got, s.Unscored, want)
	}
	// The labels 1, 3, 11: mean 5, squared deviations 16, 4, 36.
	if c := math.Sqrt(56 / 3.0); math.Abs(s.Constant-c) > 1e-12 {
		t.Errorf("constant %v, want %v", s.Constant, c)
	}
	for _, w := range []string{"column score on 3 rows: RMSE " + digits(want, 4) + " ± ", "mean label would score 4.320", "1 predicted row is not scored"} {
		if !strings.Contains(s.Text, w) {
			t.Errorf("text %q lacks %q", s.Text, w)
		}
	}
	if strings.Contains(s.Text, "no test score") {
		t.Errorf("new.csv is told it trained the model: %q", s.Text)
	}
	if p, err := Predict(m, []byte("school,score,hours\nS1,1,2\n"), "data/train.csv"); err != nil || p.Score == nil || !strings.Contains(p.Score.Text, "no test score") {
		t.Errorf("the training file's name: %v, %+v", err, p.Score)
	}
	// A file in a spreadsheet's conventions: its labels read with its
	// decimal comma.
	if p, err := Predict(m, []byte("school;score;hours\nS1;1,5;2\nS1;2,5;3\n"), "new.csv"); err != nil || p.Score == nil || p.Score.Scores.RMSE.N != 2 ||
		math.Abs(p.Score.Constant-0.5) > 1e-12 {
		t.Errorf("decimal commas: %v, %+v (want the labels 1.5 and 2.5: constant 0.5)", err, p.Score)
	}
	// The label column under another case is not scored, and said.
	if p, err := Predict(m, []byte("school,Score,hours\nS1,1,2\n"), "new.csv"); err != nil || p.Score != nil ||
		!slices.Contains(p.Warnings, `the file has no column "score", the model's label column, but one named "Score": name it "score" to score the predictions against its labels`) {
		t.Errorf("a label column under another case: %v, score %+v, warnings %q", err, p.Score, p.Warnings)
	}
	if p, err := Predict(m, []byte("school,hours\nS1,2\n"), "new.csv"); err != nil || p.Score != nil {
		t.Errorf("no label column: %v, score %+v", err, p.Score)
	}

	c := trainModel(t, "task,y,x1\na,1,1\na,0,-1\na,1,2\nb,0,-2\nb,1,1\nb,0,-1\n", LoadOptions{Name: "class.csv"}, mtl.Config{Model: "itl"})
	p, err = Predict(c, []byte("task,y,x1\na,1.0,1\na,0,-1\nb,yes,1\nb,,2\n"), "new.csv")
	if err != nil {
		t.Fatal(err)
	}
	var ll float64
	for i, y := range []float64{1, -1} {
		pr := p.Values[i]
		if y < 0 {
			pr = 1 - pr
		}
		ll -= math.Log(pr)
	}
	ll /= 2
	if s := p.Score; s == nil || s.Scores.Metric != "logloss" || math.Abs(s.Scores.LogLoss.Value-ll) > 1e-12 || s.Scores.LogLoss.N != 2 || s.Unscored != 2 ||
		math.Abs(s.Constant-math.Log(2)) > 1e-12 || !strings.Contains(s.Text, `not one of the model's classes ("0", "1")`) {
		t.Errorf("classifier score %+v, want log-loss %v on 2 rows, 2 unscored, constant log 2", s, ll)
	}
	if p, err := Predict(c, []byte("task,y,x1\na,maybe,1\n"), "new.csv"); err != nil || p.Score == nil || p.Score.Scores.LogLoss.N != 0 || !strings.HasPrefix(p.Score.Text, "not scored: no predicted row has a label") {
		t.Errorf("no known class: %v, %+v", err, p.Score)
	}
	// Every row left out (all of tasks the model cannot predict): the score
	// says no row has a prediction, not that no label is a class.
	if p, err := PredictWith(c, []byte("task,y,x1\nz,1,1\nw,0,2\n"), "new.csv", PredictOptions{SkipUnknown: true}); err != nil || p.Score == nil || p.Score.Text != "not scored: no row has a prediction" {
		t.Errorf("every row of a new task: %v, %+v", err, p.Score)
	}
	// One wild value: its row is named as holding most of the log-loss
	// (hunt10: x1 = 1e12 made it 1.7e9, unsaid).
	wild := "task,y,x1\n" + strings.Repeat("a,1,1\na,0,-1\nb,1,1\nb,0,-1\n", 3) + "a,0,1e12\n"
	if p, err := Predict(c, []byte(wild), "new.csv"); err != nil || p.Score == nil || !strings.Contains(p.Score.Text, `(row 13 alone holds 100% of its log-loss: it gives its own class "0" a probability of `) ||
		!strings.Contains(p.Score.Text, "; look for a value out of scale in it)") {
		t.Errorf("a wild value: %v, %+v", err, p.Score)
	}
	// One uncertain row among rows certain and right holds most of a small
	// log-loss: named with its probability, and nothing said of a value out
	// of scale (hunt hF's ais: 0.40, 59% of 0.031).
	calm := "task,y,x1\n" + strings.Repeat("a,1,50\na,0,-50\nb,1,50\nb,0,-50\n", 3) + "a,1,0\n"
	if p, err := Predict(c, []byte(calm), "new.csv"); err != nil || p.Score == nil || !strings.Contains(p.Score.Text, `(row 13 alone holds`) ||
		!strings.Contains(p.Score.Text, `it gives its own class "1" a probability of 0.`) || strings.Contains(p.Score.Text, "out of scale") {
		t.Errorf("one uncertain row: %v, %+v", err, p.Score)
	}
	// A regression's heaviest row says its label and prediction; the
	// logarithm is offered only for positive labels that span powers of ten
	// (hunt hE's parade: a celebrity's 180,000 predicted 19 million).
	r := trainModel(t, "task,y,x1\na,1,1\na,2,2\na,3,3\nb,1,1\nb,2,2\nb,3,3\n", LoadOptions{Name: "reg.csv"}, mtl.Config{Model: "itl"})
	for _, tc := range []struct {
		rows string
		log  bool
	}{
		{strings.Repeat("a,2,2\nb,2,2\n", 6) + "a,200,2\n", true},
		{strings.Repeat("a,2,2\nb,2,2\n", 6) + "a,-200,2\n", false},
		{strings.Repeat("a,2,2\nb,3,3\n", 6) + "a,80,2\n", false},
	} {
		p, err := Predict(r, []byte("task,y,x1\n"+tc.rows), "new.csv")
		if err != nil || p.Score == nil {
			t.Fatalf("%q: %v", tc.rows, err)
		}
		text := p.Score.Text
		if !strings.Contains(text, "(row 13 alone holds") || !strings.Contains(text, "it is labelled ") || !strings.Contains(text, "look for a value out of scale in it") ||
			strings.Contains(text, "logarithm") != tc.log {
			t.Errorf("one far label among %q: %s; want the row named with its label and prediction, the logarithm offered %v", tc.rows, text, tc.log)
		}
	}
	// A certain and wrong prediction: no +Inf printed.
	inf := copyModel(t, c)
	inf.B = []float64{1e308, 1e308}
	if p, err := Predict(inf, []byte("task,y,x1\na,0,1\nb,1,1\n"), "new.csv"); err != nil || p.Score == nil || strings.Contains(p.Score.Text, "Inf") || !strings.HasPrefix(p.Score.Text, "not scored: the log-loss of the 2 rows is not a finite number") {
		t.Errorf("intercepts of 1e308: %v, %+v", err, p.Score)
	}
}

// TestDigits: n significant digits with their zeros, no trailing point,
// and no exponent for a value of more than n digits before the point (a
// price's RMSE, 69,970, was written 6.997e+04).
func TestDigits(t *testing.T) {
	for _, c := range []struct {
		x    float64
		n    int
		want string
	}{
		{0.61, 4, "0.6100"}, {12, 2, "12"}, {1234.4, 4, "1234"}, {69970.3, 4, "69970"}, {5712.9, 2, "5700"},
		{-69975, 4, "-69980"}, {0.0008791, 4, "0.0008791"}, {2.3e17, 4, "2.300e+17"},
	} {
		if got := digits(c.x, c.n); got != c.want {
			t.Errorf("digits(%v, %d) = %q, want %q", c.x, c.n, got, c.want)
		}
	}
}
