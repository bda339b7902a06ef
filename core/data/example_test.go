package data_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spmtl/spmtl/core/data"
)

func ExampleReadCSV() {
	const in = `task,y,x1,x2
north,1,0.5,2
south,0,1.5,-1
north,0,2.5,0
`
	ds, err := data.ReadCSV(strings.NewReader(in), "mines.csv", data.CSVOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.Kind, "with positive class", ds.Positive, "and features", ds.FeatureNames)
	for _, t := range ds.Tasks {
		fmt.Println(t.Name, t.Y, "file rows", t.Source)
	}

	// Errors carry the file, line and field.
	_, err = data.ReadCSV(strings.NewReader("task,y,x1\nnorth,1,abc\n"), "bad.csv", data.CSVOptions{})
	fmt.Println(err)
	var pe *data.ParseError
	fmt.Println(errors.As(err, &pe), pe.Line, pe.Column, errors.Is(err, data.ErrNotNumber))
	// Output:
	// classification with positive class 1 and features [x1 x2]
	// north [1 -1] file rows [0 2]
	// south [-1] file rows [1]
	// bad.csv:2:3: non-numeric value "abc" in column x1
	// true 2 3 true
}

func ExampleReadSparse() {
	const in = `# task label index:value ...
books 5 3:0.5 10:1
dvd 1 1:2
books 2
`
	ds, err := data.ReadSparse(strings.NewReader(in), "reviews.svm", data.SparseOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.Kind, ds.Features, "features")
	for _, t := range ds.Tasks {
		fmt.Println(t.Name, t.Y, t.S.Indptr, t.S.Indices, t.S.Values)
	}
	// Output:
	// regression 10 features
	// books [5 2] [0 2 2] [2 9] [0.5 1]
	// dvd [1] [0 1] [0] [2]
}

func ExampleSplitByMask() {
	ds, _ := data.ReadCSV(strings.NewReader("task,y,x\na,1,1\nb,2,2\na,3,3\nb,4,4\n"), "d.csv", data.CSVOptions{})
	mask, _ := data.ReadSplitFile(strings.NewReader("row,split1\n0,train\n1,train\n2,test\n3,train\n"), "splits.csv", "split1")
	train, test, err := data.SplitByMask(ds, mask)
	if err != nil {
		fmt.Println(err)
		return
	}
	for k := range ds.Tasks {
		fmt.Println(ds.Tasks[k].Name, "train", train.Tasks[k].Y, "test", test.Tasks[k].Y)
	}
	// Output:
	// a train [1] test [3]
	// b train [2 4] test []
}

func ExamplePackTable() {
	const in = "task,y,city,x\nnorth,1.5,Oslo,0.1\nsouth,2.5,Rome,0.2\nnorth,3.5,Rome,0.3\n"
	tab, err := data.ReadTable([]byte(in), "towns.csv", data.TableOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	packed, err := data.PackTable(tab)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Read back without parsing a number: the same tasks, features and values.
	back, err := data.ReadPacked(packed, "towns.packed")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(data.IsPacked(packed), back.Data.FeatureNames)
	for _, t := range back.Data.Tasks {
		fmt.Println(t.Name, t.Y, t.X.RawRowView(0))
	}
	_, err = data.ReadPacked(packed[:len(packed)-3], "cut.packed")
	fmt.Println(err != nil)
	// Output:
	// true [city=Oslo city=Rome x]
	// north [1.5 3.5] [1 0 0.1]
	// south [2.5] [0 1 0.2]
	// true
}
