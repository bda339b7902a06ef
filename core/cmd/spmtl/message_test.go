package main

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/data"
)

// TestMessageNamesTheFlag: the command line prints the core's advice
// followed by the flag that follows it; predict, which has neither -drop
// nor -task, is advised neither.
func TestMessageNamesTheFlag(t *testing.T) {
	load := func(text string, opt app.LoadOptions) error {
		opt.Name = "m.csv"
		_, err := app.Load([]byte(text), opt)
		return err
	}
	model, err := app.ReadModel(mustRead(t, "testdata/exam-model.json"), "exam-model.json")
	if err != nil {
		t.Fatal(err)
	}
	predict := func(text string) error {
		_, err := app.Predict(model, []byte(text), "new.csv")
		return err
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"missing value", load("task,y,x1,x2\na,1,,1\nb,2,3,4\n", app.LoadOptions{}),
			"m.csv:2:3: missing value in column x1: 1 of the 2 rows has a missing value; leave those rows out, fill the values in, or leave the column out (to leave the rows out: -missing omit; the column: -drop x1)"},
		{"missing values in two columns", load("task,y,x1,x2\na,1,,1\nb,2,3,\nc,1,2,3\n", app.LoadOptions{}),
			"m.csv:2:3: missing value in column x1: 2 of the 3 rows have a missing value (x1: 1, x2: 1); leave those rows out, or fill the values in (to leave them out: -missing omit)"},
		{"missing label", load("task,y,x1\na,NA,1\nb,2,3\n", app.LoadOptions{}),
			`m.csv:2:2: missing label ("NA") in column y: 1 of the 2 rows has a missing value; leave those rows out, or give them their labels (to leave them out: -missing omit)`},
		{"a word in a numeric column", load("task,y,dose mg\na,1,2\na,2,3\nb,2,n.d.\n", app.LoadOptions{}),
			`m.csv:4:3: non-numeric value "n.d." in column dose mg (2 of its 3 values are numbers): correct the value, read the column as words, or leave the column out (-text 'dose mg' or -drop 'dose mg')`},
		{"no task column", load("school,y,x\na,1,2\n", app.LoadOptions{}),
			`m.csv:1:1: no task column "task" in header (school, y, x); choose the task column among these (-task NAME)`},
		{"no label column", load("task,score,x\na,1,2\n", app.LoadOptions{}),
			`m.csv:1:1: no label column "y" in header (task, score, x); choose the label column among these (-label NAME)`},
		{"wrapped", fmt.Errorf("train: %w", load("task,y,x1\na,1,inf\n", app.LoadOptions{})),
			`train: m.csv:2:3: NaN or Inf value "inf" in column x1: correct the value, or leave the column out (-drop x1)`},
		{"predict: no task column", predict("task,sex,intake,hours\nS1,M,top,1\n"),
			`new.csv:1:1: no task column "school" in header (task, sex, intake, hours): the file must have the columns the model was trained with`},
		{"predict: missing value", predict("school,sex,intake,hours\nSchool 1,M,top 25%,\n"),
			"new.csv:2:4: missing value in column hours, which the model was trained with: fill it in, delete the row, or predict only the rows that have every value (to leave them out: -missing omit)"},
		{"plain", errors.New("plain"), "plain"},
	} {
		if got := message(tc.err); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
	if got := message(&data.RemedyError{Err: errors.New("x"), Remedy: data.Remedy{Skip: true}}); got != "x (-new-tasks omit)" {
		t.Errorf("a task the model cannot predict: %q", got)
	}
	// A name with a comma is a quoted item of the list (columnList).
	if got := message(&data.RemedyError{Err: errors.New("x"), Remedy: data.Remedy{Drop: "a,b"}}); got != `x (-drop '"a,b"')` {
		t.Errorf("a column whose name holds a comma: %q", got)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
