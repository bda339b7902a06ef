package mtl_test

import (
	"context"
	"fmt"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/mtl"
	"gonum.org/v1/gonum/mat"
)

// Three regression tasks over two features; the third is noisy, so the
// self-paced weights rank it last.
func ExampleTrainer_Step() {
	ds := &data.Dataset{Name: "toy", Features: 2, Kind: data.Regression}
	noise := []float64{0, 0.5, 1.5}
	for t, name := range []string{"easy", "medium", "hard"} {
		x := mat.NewDense(8, 2, nil)
		y := make([]float64, 8)
		for i := 0; i < 8; i++ {
			a, b := float64(i%4)-1.5, float64(i/4)-0.5
			x.SetRow(i, []float64{a, b})
			sign := float64(1 - 2*(i%2))
			y[i] = 2*a - b + noise[t]*sign
		}
		ds.Tasks = append(ds.Tasks, data.Task{Name: name, X: x, Y: y})
	}
	p, err := mtl.Prepare(ds)
	if err != nil {
		fmt.Println(err)
		return
	}
	tr, err := mtl.NewTrainer(p, mtl.Config{Model: "mmtl", SelfPaced: true, Rho: 0.01, Lambda0: 0.5})
	if err != nil {
		fmt.Println(err)
		return
	}
	snap, err := tr.Step()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("iteration %d, lambda %.2f\n", snap.Iter, snap.Lambda)
	for t, name := range []string{"easy", "medium", "hard"} {
		fmt.Printf("%-6s tau %.3f\n", name, snap.Tau[t])
	}
	last, _ := mtl.Run(context.Background(), tr)
	fmt.Println("done:", last.Done)
	// Output:
	// iteration 1, lambda 0.50
	// easy   tau 0.499
	// medium tau 0.415
	// hard   tau 0.086
	// done: true
}
