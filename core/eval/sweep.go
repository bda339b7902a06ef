package eval

import (
	"context"
	"fmt"
	"math"

	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
)

// Curve is one training run followed iteration by iteration: the objective
// and the mean test score after each outer iteration, the τ history, and the
// final per-task test scores.
type Curve struct {
	Param     string      `json:"param,omitempty"`
	Value     float64     `json:"value"`
	Objective []float64   `json:"objective"`
	Test      []float64   `json:"test"`
	Tau       [][]float64 `json:"tau"`
	PerTask   []float64   `json:"perTask"`
	Metric    Metric      `json:"metric"`
	Tasks     []string    `json:"tasks"`
}

// EasyAt returns, per task, the first iteration (1-based) at which its τ
// reached the uniform weight 1/T, or 0 if it never did: when the self-paced
// model let the task in (see EnteredAt).
func (c *Curve) EasyAt() []int { return enteredByTau(c.Tau) }

// EnteredAt returns, per task, the step at which a learner let it in: for
// the self-paced trainer the first iteration (1-based) at which the task's
// τ reached the uniform weight 1/T (1 for every task of a baseline, whose τ
// is uniform); for a sequential learner the step that learned it. 0 means
// not yet. The page colours tasks by it; the figures group them by it.
func EnteredAt(hist []mtl.Snapshot) []int {
	if len(hist) == 0 {
		return nil
	}
	if last := hist[len(hist)-1]; last.Seq != nil {
		out := make([]int, len(last.Seq.Scores))
		for k, t := range last.Seq.Order {
			out[t] = k + 1
		}
		return out
	}
	tau := make([][]float64, len(hist))
	for k, s := range hist {
		tau[k] = s.Tau
	}
	return enteredByTau(tau)
}

func enteredByTau(tau [][]float64) []int {
	if len(tau) == 0 {
		return nil
	}
	T := len(tau[0])
	out := make([]int, T)
	for t := range out {
		for k, col := range tau {
			if col[t] >= 1/float64(T)-1e-12 {
				out[t] = k + 1
				break
			}
		}
	}
	return out
}

// Track trains cfg (any method of the catalogue) on p and scores the model
// on test after every step (a recorder of mtl.Run).
func Track(p *mtl.Problem, cfg mtl.Config, test *data.Dataset) (Curve, error) {
	l, err := method.New(p, cfg)
	if err != nil {
		return Curve{}, err
	}
	c := Curve{Metric: MetricFor(p.Data.Kind)}
	for i := range test.Tasks {
		c.Tasks = append(c.Tasks, test.Tasks[i].Name)
	}
	score := func(l mtl.Learner, s mtl.Snapshot) error {
		preds, err := mtl.Predict(l, test)
		if err != nil {
			return err
		}
		per, mean := Score(p.Data.Kind, preds, test)
		c.Objective = append(c.Objective, s.Objective)
		c.Test = append(c.Test, mean)
		c.Tau = append(c.Tau, s.Tau)
		c.PerTask = per
		return nil
	}
	_, err = mtl.Run(nil, l, score)
	return c, err
}

// Sweep runs one model for each value of a parameter ("lambda0" or "c"),
// on the same data, split and seed, and returns one curve per value in
// order. The per-task statistics are computed once.
func Sweep(ctx context.Context, train, test *data.Dataset, base mtl.Config, param string, values []float64) ([]Curve, error) {
	p, err := mtl.Prepare(train)
	if err != nil {
		return nil, err
	}
	var out []Curve
	for _, v := range values {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return out, fmt.Errorf("sweep: %s = %v is not finite", param, v)
		}
		cfg := base
		switch param {
		case "lambda0":
			cfg.Lambda0 = v
		case "c":
			cfg.Pace = v
		case "rho":
			cfg.Rho = v
		default:
			return nil, fmt.Errorf("sweep: unknown parameter %q (want lambda0, c or rho)", param)
		}
		c, err := Track(p, cfg, test)
		if err != nil {
			return out, fmt.Errorf("sweep %s = %v: %w", param, v, err)
		}
		c.Param, c.Value = param, v
		out = append(out, c)
	}
	return out, nil
}
