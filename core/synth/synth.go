// Package synth generates the paper's two synthetic data sets, syn1 and
// syn2, as docs/algorithms.md §12 describes them. The paper leaves most choices
// open; each is an option field here, with the documented default.
//
// Grouped draws grouped data from a linear mixed model whose fixed and
// random effects are known, and GLSBLUP, BLUP and the pooled fits give the
// reference predictors a fit on it can be held against.
//
// Every draw comes from a PCG generator seeded by Options.Seed, so a seed
// gives the same data natively and under js/wasm.
package synth

import (
	"fmt"
	"math/rand/v2"

	"github.com/spmtl/spmtl/core/data"
	"gonum.org/v1/gonum/mat"
)

// Syn1Options configures syn1: groups of tasks, each group with its own
// disjoint block of relevant features, some tasks noisier ("hard").
type Syn1Options struct {
	Groups        int     // default 3
	TasksPerGroup int     // default 10
	Features      int     // d, default 20
	HardFraction  float64 // share of tasks that are hard, default 0.5
	NoiseEasy     float64 // label noise std of easy tasks, default 0.1
	NoiseHard     float64 // label noise std of hard tasks, default 0.5
	Train, Test   int     // rows per task, default 15 and 100
	Seed          uint64
}

// Syn2Options configures syn2: task t uses the first t features of one
// shared random vector, so later tasks are harder.
type Syn2Options struct {
	Tasks       int     // default 30
	Features    int     // d, default 30 (at least Tasks)
	Noise       float64 // label noise std, default 0.1
	Train, Test int     // rows per task, default 15 and 100
	Seed        uint64
}

// Result is a generated data set split into training and test rows, with
// the true task vectors.
type Result struct {
	Train, Test *data.Dataset
	// W holds the true weight vector of each task.
	W [][]float64
	// Hard marks the noisier tasks (syn1).
	Hard []bool
}

// Syn1 generates syn1 ("as in Kang, Grauman & Sha 2011"): x ~ N(0, I);
// group g's tasks are w_t = α_t β_g on the group's block of about d/G
// features (β_g,j ~ 0.5 + U(0,1), α_t ~ U(0,1)) and zero elsewhere;
// y = w_tᵀx + noise, with the larger noise on a random HardFraction of the
// tasks.
func Syn1(opt Syn1Options) (*Result, error) {
	def(&opt.Groups, 3)
	def(&opt.TasksPerGroup, 10)
	def(&opt.Features, 20)
	def(&opt.Train, 15)
	def(&opt.Test, 100)
	if opt.HardFraction == 0 {
		opt.HardFraction = 0.5
	}
	if opt.NoiseEasy == 0 {
		opt.NoiseEasy = 0.1
	}
	if opt.NoiseHard == 0 {
		opt.NoiseHard = 0.5
	}
	if opt.Features < opt.Groups {
		return nil, fmt.Errorf("syn1: %d features cannot hold %d disjoint groups", opt.Features, opt.Groups)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x51e1))
	T := opt.Groups * opt.TasksPerGroup
	block := opt.Features / opt.Groups
	res := &Result{Hard: make([]bool, T)}
	nHard := int(opt.HardFraction*float64(T) + 0.5)
	for _, t := range rng.Perm(T)[:nHard] {
		res.Hard[t] = true
	}
	var names []string
	var noise []float64
	for g := 0; g < opt.Groups; g++ {
		beta := make([]float64, block)
		for j := range beta {
			beta[j] = 0.5 + rng.Float64()
		}
		for k := 0; k < opt.TasksPerGroup; k++ {
			t := g*opt.TasksPerGroup + k
			alpha := rng.Float64()
			w := make([]float64, opt.Features)
			for j := range beta {
				w[g*block+j] = alpha * beta[j]
			}
			res.W = append(res.W, w)
			names = append(names, fmt.Sprintf("syn1_g%d_t%02d", g+1, k+1))
			s := opt.NoiseEasy
			if res.Hard[t] {
				s = opt.NoiseHard
			}
			noise = append(noise, s)
		}
	}
	res.Train, res.Test = sample("syn1", rng, names, res.W, noise, opt.Train, opt.Test)
	return res, nil
}

// Syn2 generates syn2 as the paper states it: s ~ N(0, I_d) drawn once,
// w_t = (s_1, ..., s_t, 0, ..., 0), x ~ N(0, I_d), y = w_tᵀx + N(0, Noise²).
func Syn2(opt Syn2Options) (*Result, error) {
	def(&opt.Tasks, 30)
	def(&opt.Features, 30)
	def(&opt.Train, 15)
	def(&opt.Test, 100)
	if opt.Noise == 0 {
		opt.Noise = 0.1
	}
	if opt.Features < opt.Tasks {
		return nil, fmt.Errorf("syn2: %d features, fewer than the %d tasks need", opt.Features, opt.Tasks)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x51e2))
	s := make([]float64, opt.Features)
	for j := range s {
		s[j] = rng.NormFloat64()
	}
	res := &Result{Hard: make([]bool, opt.Tasks)}
	var names []string
	var noise []float64
	for t := 0; t < opt.Tasks; t++ {
		w := make([]float64, opt.Features)
		copy(w, s[:t+1])
		res.W = append(res.W, w)
		names = append(names, fmt.Sprintf("syn2_t%02d", t+1))
		noise = append(noise, opt.Noise)
	}
	res.Train, res.Test = sample("syn2", rng, names, res.W, noise, opt.Train, opt.Test)
	return res, nil
}

func def(v *int, d int) {
	if *v == 0 {
		*v = d
	}
}

// sample draws train and test rows x ~ N(0, I), y = wᵀx + N(0, σ²) per task.
func sample(name string, rng *rand.Rand, names []string, W [][]float64, noise []float64, nTrain, nTest int) (tr, te *data.Dataset) {
	d := len(W[0])
	tr = &data.Dataset{Name: name, Features: d, Kind: data.Regression}
	te = &data.Dataset{Name: name, Features: d, Kind: data.Regression}
	for t, w := range W {
		for k, n := range []int{nTrain, nTest} {
			x := mat.NewDense(n, d, nil)
			y := make([]float64, n)
			for i := 0; i < n; i++ {
				row := x.RawRowView(i)
				var f float64
				for j := range row {
					row[j] = rng.NormFloat64()
					f += row[j] * w[j]
				}
				y[i] = f + noise[t]*rng.NormFloat64()
			}
			task := data.Task{Name: names[t], X: x, Y: y}
			if k == 0 {
				tr.Tasks = append(tr.Tasks, task)
			} else {
				te.Tasks = append(te.Tasks, task)
			}
		}
	}
	return tr, te
}
