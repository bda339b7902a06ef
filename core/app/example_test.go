package app_test

import (
	"fmt"
	"strings"

	"github.com/spmtl/spmtl/core/app"
)

// itlModel is a small model file: ITL on a CSV with one numeric column x,
// as spmtl train -save writes it (less the optional fields).
const itlModel = `{
 "format": "spmtl-model", "version": 1, "method": "itl", "name": "ITL", "kind": "regression",
 "config": {"model": "itl", "tau": "softmax", "variant": "paper", "solver": "exact", "loss": "squared",
            "rho": 0.1, "lambda0": 1, "c": 1.1, "delta": 0.01, "h": 5, "maxIter": 10, "eps": 1e-8},
 "encoding": {"format": "csv", "delimiter": ",", "taskColumn": "task", "labelColumn": "y",
              "columns": [{"name": "x"}], "features": 1},
 "tasks": ["a", "b"], "features": ["x"],
 "w": [[2], [-1]],
 "b": [0.5, 1]
}`

// ReadModel refuses a model file that was edited into another model: here
// a null intercept, which encoding/json alone would read as 0, and a
// weight that is not a number, reported with its line and column.
func ExampleReadModel() {
	if _, err := app.ReadModel([]byte(itlModel), "model.json"); err == nil {
		fmt.Println("model.json reads")
	}
	_, err := app.ReadModel([]byte(strings.Replace(itlModel, `"b": [0.5, 1]`, `"b": [null, 1]`, 1)), "edited.json")
	fmt.Println(err)
	_, err = app.ReadModel([]byte(strings.Replace(itlModel, `[[2], [-1]]`, `[[2], [NaN]]`, 1)), "nan.json")
	fmt.Println(err)
	// Output:
	// model.json reads
	// read model edited.json: b[0] is null, not a number; the file was edited or damaged: save the model again, or undo the edit
	// read model nan.json:8:14: not valid JSON (invalid character 'N' looking for beginning of value); the file was edited or damaged: save the model again, or undo the edit
}

// Predict writes each row with its prediction, in a column whose name the
// file does not already have.
func ExamplePredict() {
	m, err := app.ReadModel([]byte(itlModel), "model.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := app.Predict(m, []byte("task,x,prediction\na,1,?\nb,3,?\n"), "new.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(p.CSV()))
	fmt.Println(p.Warnings[0])
	// Output:
	// task,x,prediction,prediction_2
	// a,1,?,2.5
	// b,3,?,-2
	// the file has a column named "prediction" already: the predictions are in column "prediction_2"
}
