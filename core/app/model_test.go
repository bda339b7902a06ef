package app

import (
	"encoding/json"
	"math"
	"strconv"
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
		{"scale short", "mmtl", func(m *ModelFile) { m.Encoding.Scale = m.Encoding.Scale[:2] }, "encoding.scale has 2 values for the 3 features"},
		{"scale zero", "mmtl", func(m *ModelFile) { m.Encoding.Scale[1] = 0 }, "encoding.scale[1] is 0: a feature's divisor must be a positive number"},
		{"scale NaN", "mmtl", func(m *ModelFile) { m.Encoding.Scale[2] = math.NaN() }, "encoding.scale[2] is NaN"},
		{"fixed out of range", "mmtl", func(m *ModelFile) { m.Encoding.Fixed = []int{1, 3} }, "encoding.fixed[1] is 3: want increasing feature indices from 0 to 2"},
		{"fixed twice", "mmtl", func(m *ModelFile) { m.Encoding.Fixed = []int{1, 1} }, "encoding.fixed[1] is 1: want increasing"},
		{"fixed without scale", "mmtl", func(m *ModelFile) { m.Encoding.Scale, m.Encoding.Fixed = nil, []int{0} }, "encoding.fixed lists 1 features but encoding.scale has no divisor"},
		{"tau row", "mmtl", func(m *ModelFile) { m.Tau[1] = m.Tau[1][:2] }, "tau[1] has 2 values, the model has 3 tasks"},
		{"tau Inf", "mmtl", func(m *ModelFile) { m.Tau[0][2] = inf }, "tau[0][2] is +Inf"},
		{"lambda0", "mmtl", func(m *ModelFile) { m.Lambda0 = -1 }, "lambda0 is -1"},
		{"unknown method", "mmtl", func(m *ModelFile) { m.Method = "nope" }, `method "nope" is not one of spmtl's`},
		{"empty method", "mmtl", func(m *ModelFile) { m.Method = "" }, `method "" is not one of spmtl's`},
		{"method and config", "mmtl", func(m *ModelFile) { m.Method = "mtfl" }, `method is "mtfl", config.model "mmtl"`},
		{"theta of another method", "mmtl", func(m *ModelFile) { m.Method, m.Config.Model = "mtaso", "mtaso" }, `theta.kind is "mmtl", but method mtaso learns "mtaso"`},
		{"theta where none is learned", "mmtl", func(m *ModelFile) { m.Method, m.Config.Model = "itl", "itl" }, `theta.kind is "mmtl", but method itl learns no shared knowledge`},
		{"theta missing", "mmtl", func(m *ModelFile) { m.Theta = nil }, "theta is missing: method mmtl learns one"},
		{"negative rho", "mmtl", func(m *ModelFile) { m.Config.Rho = -5 }, "config: rho must be more than 0"},
		{"unknown loss", "mmtl", func(m *ModelFile) { m.Config.Loss = "hinge" }, `config: unknown loss "hinge"`},
		{"logistic regression", "mmtl", func(m *ModelFile) { m.Config.Loss = mtl.Logistic }, "config.loss is logistic, but the model is a regression"},
		{"unknown kind", "mmtl", func(m *ModelFile) { m.Kind = "ranking" }, `kind "ranking": want classification or regression`},
		{"classification without positive", "mmtl", func(m *ModelFile) { m.Kind = "classification" }, "kind is classification, but positive is empty"},
		{"classes equal", "mmtl", func(m *ModelFile) { m.Kind, m.Positive, m.Negative = "classification", "1", "1" }, `positive and negative are both "1"`},
		{"duplicate task", "mmtl", func(m *ModelFile) { m.Tasks[2] = m.Tasks[0] }, `task "A" appears twice in tasks`},
		{"empty task", "mmtl", func(m *ModelFile) { m.Tasks[1] = "" }, "tasks[1] is empty"},
		{"enteredAt too late", "mmtl", func(m *ModelFile) { m.EnteredAt[0] = 99 }, "enteredAt[0] is 99, want 0 (never) to 3 (the iterations of tau)"},
		{"enteredAt negative", "mmtl", func(m *ModelFile) { m.EnteredAt[1] = -5 }, "enteredAt[1] is -5"},
		{"enteredAt short", "mmtl", func(m *ModelFile) { m.EnteredAt = m.EnteredAt[:1] }, "enteredAt has 1 values, the model has 3 tasks"},
		{"task column is a feature", "mmtl", func(m *ModelFile) { m.Encoding.TaskColumn = "hours" }, `encoding.columns[1] is the task column "hours"`},
		{"task column is the label", "mmtl", func(m *ModelFile) { m.Encoding.TaskColumn = "score" }, `encoding.taskColumn and encoding.labelColumn are both "score"`},
		{"classification without negative", "mmtl", func(m *ModelFile) { m.Kind, m.Positive = "classification", "yes" }, "kind is classification, but negative is empty"},
		{"empty column name", "mmtl", func(m *ModelFile) { m.Encoding.Columns[1].Name = "" }, "encoding.columns[1] has no name"},
		{"text names a numeric column", "mmtl", func(m *ModelFile) { m.Encoding.Text = []string{"hours"} }, `encoding.text names "hours", which encoding.columns does not read as words`},
		{"text names no column", "mmtl", func(m *ModelFile) { m.Encoding.Text = []string{"nope"} }, `encoding.text names "nope", which encoding.columns does not read as words`},
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

// examModel is a saved exam model's text.
func examModel(t *testing.T) string {
	t.Helper()
	b, err := trainModel(t, examCSV, examOpt, mtl.Config{Model: "mtfl", SelfPaced: true, MaxIter: 3}).JSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadModelRefusesNull: JSON's null where a number belongs (decoded as
// 0 by encoding/json) is refused, naming the element, rather than read as
// a weight of 0.
func TestReadModelRefusesNull(t *testing.T) {
	text := examModel(t)
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func(m map[string]any)
		want string
	}{
		{"intercept", func(m map[string]any) { m["b"].([]any)[0] = nil }, "b[0] is null"},
		{"weight", func(m map[string]any) { m["w"].([]any)[1].([]any)[2] = nil }, "w[1][2] is null"},
		{"relevance", func(m map[string]any) { m["theta"].(map[string]any)["relevance"].([]any)[1] = nil }, "theta.relevance[1] is null"},
		{"direction", func(m map[string]any) { m["theta"].(map[string]any)["directions"].([]any)[0].([]any)[1] = nil }, "theta.directions[0][1] is null"},
		{"gamma", func(m map[string]any) { m["theta"].(map[string]any)["gamma"].([]any)[0] = nil }, "theta.gamma[0] is null"},
		{"tau", func(m map[string]any) { m["tau"].([]any)[2].([]any)[0] = nil }, "tau[2][0] is null"},
		{"enteredAt", func(m map[string]any) { m["enteredAt"].([]any)[0] = nil }, "enteredAt[0] is null"},
		{"lambda0", func(m map[string]any) { m["lambda0"] = nil }, "lambda0 is null"},
		{"rho", func(m map[string]any) { m["config"].(map[string]any)["rho"] = nil }, "config.rho is null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c map[string]any
			b, _ := json.Marshal(m)
			if err := json.Unmarshal(b, &c); err != nil {
				t.Fatal(err)
			}
			tc.edit(c)
			b, _ = json.Marshal(c)
			_, err := ReadModel(b, "m.json")
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "not a number") {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestReadModelJSONErrors: a file that is not JSON, or holds a value of
// the wrong type, is refused with its line and column.
func TestReadModelJSONErrors(t *testing.T) {
	text := examModel(t)
	at := func(s, value string) string { // the line and column of value, in s, in text
		i := strings.Index(text, s)
		if i < 0 {
			t.Fatalf("%q not in the model", s)
		}
		i += strings.Index(s, value)
		line := strings.Count(text[:i], "\n") + 1
		col := i - strings.LastIndex(text[:i], "\n")
		return "m.json:" + strconv.Itoa(line) + ":" + strconv.Itoa(col) + ": "
	}
	rho := `"rho": 0.1`
	for _, tc := range []struct {
		name, text, want string
	}{
		{"bare NaN", strings.Replace(text, rho, `"rho": NaN`, 1), at(rho, "0.1") + "not valid JSON (invalid character 'N'"},
		{"string weight", strings.Replace(text, rho, `"rho": "0.1"`, 1), at(rho, "0.1") + "config.rho: want a number, found a string"},
		{"fraction for a count", strings.Replace(text, `"maxIter": 3`, `"maxIter": 2.5`, 1), at(`"maxIter": 3`, "3") + "config.maxIter: want a whole number, found the number 2.5"},
		{"cut short", text[:len(text)/2], "the file ends in the middle of the JSON"},
		{"not JSON", "hello", "m.json:1:1: not valid JSON"},
		{"empty", " \n", "read model m.json: the file is empty"},
		{"an array", "[]", "m.json:1:1: the model: want an object, found an array"},
		{"weights not an array", strings.Replace(text, `"w": [`, `"w": 5, "x": [`, 1), at(`"w": [`, "[") + "w: want an array, found a number"},
		{"a published page", "<!DOCTYPE html>\n<html><script type=\"application/json\">{}</script>", "read model m.json: a web page, not a model file: a page published by spmtl holds its run's model, which its \"Download its model\" button saves"},
		// A stray byte at the very end was "the file ends in the middle
		// of the JSON (was it cut short?)".
		{"a trailing comma", strings.TrimSuffix(strings.TrimRight(text, "\n"), "}") + ",}", "not valid JSON (invalid character '}'"},
		// A number too large was "want a number, found the number 1e309";
		// one of 100,000 digits was echoed whole.
		{"out of range", strings.Replace(text, rho, `"rho": 1e309`, 1), at(rho, "0.1") + "config.rho: the number 1e309 is out of the range of a number"},
		{"100,000 digits", strings.Replace(text, rho, `"rho": 1`+strings.Repeat("0", 100000), 1), "config.rho: the number 1000000000000000000000000000000000000… is out"},
		// A run, saved by the page or written by spmtl train -json, was
		// refused as damaged.
		{"a page's run", `{"format": "spmtl-run", "run": {}}`, "read model m.json: a run, not a model file"},
		{"train -json's report", `{"data": "exam.csv", "tasks": ["a"], "features": 6, "trainRows": 71, "testRows": 0}`, "read model m.json: a run, not a model file"},
		// "W" beside "w": the command line read the last, the page the one
		// spelt as the field is, and the same file predicted 464.32 and 0.4869.
		{"a field given twice up to case", strings.Replace(text, `"w": [`, `"W": [[1]], "w": [`, 1), `read model m.json: w is given 2 times, as "W" and "w" (names that differ only in case are one field)`},
		// A bidi override in the name mirrored the page's sentence after it.
		{"a bidi override in the name", strings.Replace(text, `"name": "spMTFL"`, `"name": "spMTFL\u202e evil"`, 1), `read model m.json: name "spMTFL\u202e evil" holds a control character`},
		{"an escape code in the name", strings.Replace(text, `"name": "spMTFL"`, `"name": "\u001b[2JspMTFL"`, 1), `read model m.json: name "\x1b[2JspMTFL" holds a control character`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadModel([]byte(tc.text), "m.json")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	// A byte-order mark, as Notepad saves the file, is read past.
	if _, err := ReadModel([]byte("\xef\xbb\xbf"+text), "m.json"); err != nil {
		t.Errorf("a model with a byte-order mark: %v", err)
	}
}

// TestPredictRefusesNonFinite: a prediction that overflows (a huge weight
// times a value) is an error naming the row, never a printed +Inf.
func TestPredictRefusesNonFinite(t *testing.T) {
	m, err := ReadModel([]byte(`{"format":"spmtl-model","version":1,"method":"itl","kind":"regression","config":{"model":"itl","tau":"softmax","variant":"paper","solver":"exact","loss":"squared","rho":0.1,"lambda0":1,"c":1.1,"delta":0.01,"h":5,"maxIter":10,"eps":1e-8},`+
		`"encoding":{"format":"csv","delimiter":",","taskColumn":"task","labelColumn":"y","columns":[{"name":"x"}],"features":1},"tasks":["a","b"],"w":[[1],[1e308]],"b":[0,0]}`), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	if p, err := Predict(m, []byte("task,x\na,2\nb,0.5\n"), "p.csv"); err != nil || p.Values[1] != 5e307 {
		t.Fatalf("finite predictions: %v, %v", p, err)
	}
	_, err = Predict(m, []byte("task,x\na,2\nb,0.5\nb,10\n"), "p.csv")
	if err == nil || !strings.Contains(err.Error(), `predict p.csv: row 3 (task "b"): the prediction is +Inf, not a finite number`) {
		t.Errorf("error %v", err)
	}
}

// FuzzReadModelPredict: ReadModel on arbitrary JSON, then Inspect and
// Predict on arbitrary text, never panic; Inspect's charts pair a value
// with every label, and every prediction is a finite number (the seed
// huge_weight, from the command-line walk, predicted +Inf).
func FuzzReadModelPredict(f *testing.F) {
	f.Add([]byte(`{"format":"spmtl-model","version":1,"method":"itl","kind":"regression","config":{"model":"itl","tau":"softmax","variant":"paper","solver":"exact","loss":"squared","rho":0.1,"lambda0":1,"c":1.1,"delta":0.01,"h":5,"maxIter":10,"eps":1e-8},`+
		`"encoding":{"format":"csv","delimiter":",","taskColumn":"task","labelColumn":"y","columns":[{"name":"x"}],"features":1},"tasks":["a"],"w":[[1]],"b":[0]}`), []byte("task,x\na,2\n"))
	f.Fuzz(func(t *testing.T, mb, text []byte) {
		m, err := ReadModel(mb, "m.json")
		if err != nil {
			return
		}
		for _, ch := range Inspect(m).Charts {
			if len(ch.Labels) != len(ch.Values) {
				t.Fatalf("chart %q: %d labels, %d values", ch.Title, len(ch.Labels), len(ch.Values))
			}
		}
		p, err := Predict(m, text, "p.csv")
		if err != nil {
			return
		}
		if len(p.Rows) != len(p.Values) {
			t.Fatalf("%d rows, %d values", len(p.Rows), len(p.Values))
		}
		for _, v := range p.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("prediction %v", v)
			}
		}
	})
}

// TestPredictColumnName: the prediction's column takes a name the file's
// header does not have, so that the output reads back (spmtl refuses a
// header with a name twice), and a warning says which.
func TestPredictColumnName(t *testing.T) {
	m := trainModel(t, examCSV, examOpt, mtl.Config{Model: "itl"})
	for _, tc := range []struct {
		name, header, want string
	}{
		{"plain", "school,sex,hours", "prediction"},
		{"taken", "school,sex,hours,prediction", "prediction_2"},
		{"taken twice", "school,prediction_2,sex,hours, prediction", "prediction_3"},
		{"label column named so", "school,score,sex,hours", "prediction"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cols := strings.Split(tc.header, ",")
			row := make([]string, len(cols))
			for i, c := range cols {
				row[i] = map[string]string{"school": "A", "sex": "M", "hours": "2"}[strings.TrimSpace(c)]
				if row[i] == "" {
					row[i] = "0.5"
				}
			}
			text := tc.header + "\n" + strings.Join(row, ",") + "\n"
			p, err := Predict(m, []byte(text), "p.csv")
			if err != nil {
				t.Fatal(err)
			}
			if p.Column != tc.want || p.Header[len(p.Header)-1] != tc.want {
				t.Errorf("column %q, header %v, want %q", p.Column, p.Header, tc.want)
			}
			renamed := tc.want != "prediction"
			if warned := len(p.Warnings) > 0 && strings.Contains(p.Warnings[len(p.Warnings)-1], `column "`+tc.want+`"`); warned != renamed {
				t.Errorf("warnings %q", p.Warnings)
			}
			if _, err := Predict(m, p.CSV(), "out.csv"); err != nil {
				t.Errorf("the output does not read back: %v", err)
			}
		})
	}
	// A classifier trained with the squared loss writes a score.
	sq := trainModel(t, classCSV, LoadOptions{Name: "class.csv"}, mtl.Config{Model: "itl", Loss: mtl.Squared})
	p, err := Predict(sq, []byte("task,x1,x2,score\na,1,2,3\n"), "p.csv")
	if err != nil || p.Column != "score_2" {
		t.Errorf("squared-loss classifier: %v, column %q", err, p.Column)
	}
}
