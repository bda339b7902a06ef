package app

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
)

// exam is a small CSV with a text column, like the command line's
// testdata/exam.csv.
const examCSV = `school,score,sex,hours
A,1.2,M,3
A,1.9,F,4
A,0.7,M,1
A,1.5,F,2
B,2.2,M,5
B,2.9,F,3
B,1.1,M,1
B,2.4,F,4
C,0.4,M,1
C,1.3,F,2
C,2.8,M,6
C,1.7,F,3
`

// classCSV is a two-class CSV.
const classCSV = `task,y,x1,x2
a,yes,1,0.5
a,no,-1,0.2
a,yes,2,0.1
a,no,-2,0.4
b,yes,1,-0.5
b,no,-1,0.3
b,yes,0.5,0.2
b,no,-0.5,0.1
c,yes,1.5,0.5
c,no,-1.5,0.5
c,yes,1,0
c,no,-1,0.2
`

// trainModel trains cfg on every row of text and returns its model file.
func trainModel(t *testing.T, text string, opt LoadOptions, cfg mtl.Config) *ModelFile {
	t.Helper()
	d, err := Load([]byte(text), opt)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRun(d, TrainOptions{Config: cfg, All: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	m, err := r.ModelFile(Trained{File: opt.Name, Rows: r.Train.Rows(), All: true})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// copyModel returns a deep copy of m, through its JSON.
func copyModel(t *testing.T, m *ModelFile) *ModelFile {
	t.Helper()
	b, err := m.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var c ModelFile
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

var examOpt = LoadOptions{Name: "exam.csv", TaskColumn: "school", LabelColumn: "score"}

// TestSavedModelsPassCheck: the model file of every method of the
// catalogue (self-paced where it has a self-paced version), on CSV,
// two-class and sparse data, reads back.
func TestSavedModelsPassCheck(t *testing.T) {
	for _, mm := range method.All() {
		for _, tc := range []struct {
			name, text string
			opt        LoadOptions
		}{
			{"exam", examCSV, examOpt},
			{"class", classCSV, LoadOptions{Name: "class.csv"}},
			{"sparse", "a 1 1:1 3:2\na -1 2:1\na 1 1:2\nb -1 2:1 3:1\nb 1 1:1\nb -1 3:2\n", LoadOptions{Name: "s.svm"}},
		} {
			for _, sp := range []bool{false, true} {
				if sp && !mm.SelfPaced {
					continue
				}
				m := trainModel(t, tc.text, tc.opt, mtl.Config{Model: mm.Key, SelfPaced: sp, MaxIter: 3})
				b, err := m.JSON()
				if err != nil {
					t.Fatal(err)
				}
				if _, err := ReadModel(b, "m.json"); err != nil {
					t.Errorf("%s (self-paced %v) on %s: %v", mm.Key, sp, tc.name, err)
				}
			}
		}
	}
}

// TestCheckRefusesInconsistentModels: a model file whose shared knowledge
// Θ, encoding, feature names, weights or τ do not fit together, or hold a
// number that is not finite, is refused with the field that is wrong.
func TestCheckRefusesInconsistentModels(t *testing.T) {
	models := map[string]*ModelFile{
		"mtfl":  trainModel(t, examCSV, examOpt, mtl.Config{Model: "mtfl", SelfPaced: true, MaxIter: 3}),
		"mmtl":  trainModel(t, examCSV, examOpt, mtl.Config{Model: "mmtl", SelfPaced: true, MaxIter: 3}),
		"mtaso": trainModel(t, examCSV, examOpt, mtl.Config{Model: "mtaso", MaxIter: 3}),
	}
	inf := math.Inf(1)
	for _, tc := range []struct {
		name, model string
		edit        func(m *ModelFile)
		want        string
	}{
		{"mean too long", "mmtl", func(m *ModelFile) { m.Theta.Mean = append(m.Theta.Mean, 0.5, 0.5, 0.5) }, "theta.mean has 6 values, the model has 3 features"},
		{"mean too short", "mmtl", func(m *ModelFile) { m.Theta.Mean = m.Theta.Mean[:2] }, "theta.mean has 2 values, the model has 3 features"},
		{"mean missing", "mmtl", func(m *ModelFile) { m.Theta.Mean = nil }, "theta.mean has 0 values, the model has 3 features"},
		{"mean NaN", "mmtl", func(m *ModelFile) { m.Theta.Mean[1] = math.NaN() }, "theta.mean[1] is NaN"},
		{"relevance too long", "mtfl", func(m *ModelFile) { m.Theta.Relevance = append(m.Theta.Relevance, 0) }, "theta.relevance has 4 values, the model has 3 features"},
		{"relevance Inf", "mtfl", func(m *ModelFile) { m.Theta.Relevance[0] = inf }, "theta.relevance[0] is +Inf"},
		{"gamma and directions", "mtfl", func(m *ModelFile) { m.Theta.Gamma = m.Theta.Gamma[:1] }, "theta.gamma has 1 values, theta.directions"},
		{"beta Inf", "mtfl", func(m *ModelFile) { m.Theta.Beta = inf }, "theta.beta is +Inf"},
		{"direction short", "mtaso", func(m *ModelFile) { m.Theta.Directions[1] = m.Theta.Directions[1][:2] }, "theta.directions[1] has 2 values, the model has 3 features"},
		{"direction huge then Inf", "mtaso", func(m *ModelFile) { m.Theta.Directions[0][2] = -inf }, "theta.directions[0][2] is -Inf"},
		{"theta kind", "mtaso", func(m *ModelFile) { m.Theta.Kind = "pca" }, `theta.kind "pca" is not one spmtl writes`},
		{"columns reordered", "mmtl", func(m *ModelFile) {
			c := m.Encoding.Columns
			c[0], c[1] = c[1], c[0]
		}, `features[0] is "sex=M", but encoding.columns makes it "hours"`},
		{"features reversed", "mmtl", func(m *ModelFile) {
			f := m.Features
			f[0], f[2] = f[2], f[0]
		}, `features[0] is "hours", but encoding.columns makes it "sex=M"`},
		{"features short", "mmtl", func(m *ModelFile) { m.Features = m.Features[:2] }, "features has 2 names, the model has 3 features"},
		{"encoding count", "mmtl", func(m *ModelFile) { m.Encoding.Features = 5 }, "encoding.columns make 3 features, encoding.features says 5"},
		{"column twice", "mmtl", func(m *ModelFile) {
			m.Encoding.Columns = append(m.Encoding.Columns, m.Encoding.Columns[1])
			m.Encoding.Features++
		}, `encoding.columns names "hours" twice`},
		{"value twice", "mmtl", func(m *ModelFile) {
			v := m.Encoding.Columns[0].Values
			v[1] = v[0]
		}, `encoding.columns: column "sex" has the value "M" twice`},
		{"no task column", "mmtl", func(m *ModelFile) { m.Encoding.TaskColumn = "" }, "encoding.taskColumn is empty"},
		{"encoding format", "mmtl", func(m *ModelFile) { m.Encoding.Format = "xml" }, `encoding.format "xml"`},
		{"tau row", "mmtl", func(m *ModelFile) { m.Tau[1] = m.Tau[1][:2] }, "tau[1] has 2 values, the model has 3 tasks"},
		{"tau Inf", "mmtl", func(m *ModelFile) { m.Tau[0][2] = inf }, "tau[0][2] is +Inf"},
		{"lambda0", "mmtl", func(m *ModelFile) { m.Lambda0 = -1 }, "lambda0 is -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := copyModel(t, models[tc.model])
			if err := m.Check("m.json"); err != nil {
				t.Fatalf("the unedited model: %v", err)
			}
			tc.edit(m)
			err := m.Check("m.json")
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "read model m.json: ") {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
