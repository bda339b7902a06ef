package app

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
)

// TestNewTaskScoreIsWhatTheSavedModelPredicts: a search for new tasks
// scores each fold's held-out tasks exactly as predict would with the
// model saved from a run on the fold's training tasks (its shared
// predictor, and the reading of a task's averages where the model keeps
// one), for every model that predicts new tasks, self-paced too.
func TestNewTaskScoreIsWhatTheSavedModelPredicts(t *testing.T) {
	d, err := Load([]byte(betweenCSV(45, 2, 3)), LoadOptions{Name: "train.csv", TaskColumn: "g", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	fs, err := NewTuneFoldSet(d, 3, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	for _, c := range []mtl.Config{
		{Model: "mmtl-joint", Rho: 1, Intercept: 1},
		{Model: "mmtl", Rho: 0.1, Intercept: 0.1, SelfPaced: true, AutoLambda0: 1},
		{Model: "mtfl-mean", Rho: 0.1, Intercept: 0.1},
		{Model: "stl", Rho: 0.01},
	} {
		cfg := configFor(d, c).Defaults(false)
		got := fs.Score(cfg)
		if got.Failure != "" {
			t.Fatalf("%s: %s", c.Model, got.Failure)
		}
		var held eval.Held
		for f, fold := range fs.Folds {
			r, err := NewRun(&Data{All: fold.Train, Encoding: d.Encoding, Own: d.Own}, TrainOptions{Config: cfg, All: true})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.Finish(); err != nil {
				t.Fatal(err)
			}
			m, err := r.ModelFile(Trained{File: "train.csv", All: true})
			if err != nil {
				t.Fatal(err)
			}
			if m.Between != nil {
				read++
			}
			model := m.Model()
			shared, from := m.NewTaskPredictor()
			if shared == nil {
				t.Fatalf("%s, fold %d: the saved model has no predictor for a new task", c.Model, f+1)
			}
			withNewTasks(model, fold.Test, shared, from, m.Between)
			preds, err := model.PredictDataset(fold.Test)
			if err != nil {
				t.Fatal(err)
			}
			held.Add(preds, fold.Test)
		}
		want := eval.Pooled(d.All.Kind, false, held.Margin, held.Y).Of(eval.RMSEMetric).Value
		if v := got.Scores.Of(eval.RMSEMetric).Value; math.Abs(v-want) > 1e-9*want {
			t.Errorf("%s: scored RMSE %v on new tasks, the saved models predict them with RMSE %v", c.Model, v, want)
		}
	}
	if read == 0 {
		t.Error("no fold's model read a new task's averages: the test does not reach the reading")
	}
}

// TestTuneForNewTasks: a search for new tasks says so, scores only the
// models that predict a new task and says why the others were left out;
// it refuses a named model that cannot, and folds of whole tasks that
// the file does not have.
func TestTuneForNewTasks(t *testing.T) {
	d, err := Load([]byte(betweenCSV(30, 2, 5)), LoadOptions{Name: "train.csv", TaskColumn: "g", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Tune(context.Background(), d, TuneOptions{NewTasks: true, Seed: 1, Workers: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.NewTasks || !strings.HasPrefix(res.Search, "for new tasks: 3 folds of whole tasks") {
		t.Errorf("the result does not say it scored new tasks: newTasks %v, search %q", res.NewTasks, res.Search)
	}
	for _, m := range res.Models {
		if mm, _ := method.Lookup(m.Key); !mm.NewTask {
			t.Errorf("%s was scored on new tasks, which it cannot predict", m.Name)
		}
	}
	if left := strings.Join(res.LeftOut, "; "); !strings.Contains(left, "ITL: predicts no task it was not trained on") {
		t.Errorf("left out: %s", left)
	}
	if _, err := Tune(context.Background(), d, TuneOptions{Config: mtl.Config{Model: "itl"}, NewTasks: true}, nil); err == nil || !strings.Contains(err.Error(), "ITL predicts no task it was not trained on, so it cannot be tuned for new tasks") {
		t.Errorf("ITL tuned for new tasks: %v", err)
	}
	two, err := Load([]byte(betweenCSV(2, 2, 5)), LoadOptions{Name: "two.csv", TaskColumn: "g", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Tune(context.Background(), two, TuneOptions{NewTasks: true}, nil); err == nil || !strings.Contains(err.Error(), "2 tasks cannot make 3 folds of whole tasks") {
		t.Errorf("3 folds of 2 tasks: %v", err)
	}
}
