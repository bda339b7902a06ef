package session

import (
	"fmt"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/eval"
	"github.com/spmtl/spmtl/core/mtl"
)

// The page tunes in a pool of workers: each worker loads the data, and
// scores the grid points it is given (TunePoint); the page gathers the
// scores and asks one worker to choose (TuneChoose). The folds depend only
// on the data, their number and the seed, so every worker cuts the same.

type tuneKey struct {
	data  int
	folds int
	seed  uint64
}

type tuneFolds struct {
	folds []eval.Fold
	probs []*mtl.Problem
}

// TuneGrid is the grid the page tunes over.
type TuneGrid struct {
	Rho    []float64 `json:"rho"`
	Kappa  []float64 `json:"kappa"`
	Metric string    `json:"metric"`
}

// TuneGrid returns the grid for a configuration on a data set: ρ, and for
// self-paced runs the multiples of the automatic λ0.
func (s *Session) TuneGrid(dataset int, cfg mtl.Config) (TuneGrid, error) {
	d, ok := s.datasets[dataset]
	if !ok {
		return TuneGrid{}, fmt.Errorf("tune: no data set with handle %d", dataset)
	}
	g := TuneGrid{Rho: app.TuneRho, Kappa: []float64{}, Metric: string(eval.MetricFor(d.All.Kind))}
	if cfg.SelfPaced {
		g.Kappa = app.TuneKappa
	}
	return g, nil
}

// TuneCandidates returns the configurations a default tune of a data set
// scores first (app.TuneCandidates: every baseline over ρ and the shared
// intercept's strength, the own-data profile applied on a visitor's file;
// cfg.Model, when set, restricts them to one family), for the page's
// worker pool.
func (s *Session) TuneCandidates(dataset int, cfg mtl.Config) ([]mtl.Config, error) {
	d, ok := s.datasets[dataset]
	if !ok {
		return nil, fmt.Errorf("tune: no data set with handle %d", dataset)
	}
	return app.TuneCandidates(d, app.TuneOptions{Config: cfg})
}

// TuneScore is one grid point's mean CV score. A point that cannot be
// scored has Score NaN (the worst) and Failure says why, so that a page
// whose every point failed can say what to change.
type TuneScore struct {
	Score   float64
	Failure string
}

// TunePoint returns the mean CV score of cfg (ρ set, and for self-paced
// runs AutoLambda0 set to a multiple κ) over folds of all of the data's
// rows. The error is for a request that cannot be served at all (no such
// data set, folds that cannot be cut); a point whose fits fail is a
// TuneScore with its Failure.
func (s *Session) TunePoint(dataset, folds int, seed uint64, cfg mtl.Config) (TuneScore, error) {
	d, ok := s.datasets[dataset]
	if !ok {
		return TuneScore{}, fmt.Errorf("tune: no data set with handle %d", dataset)
	}
	if folds == 0 {
		folds = 3
	}
	key := tuneKey{dataset, folds, seed}
	tf := s.tunes[key]
	if tf == nil {
		fs, err := app.TuneFolds(d, folds, seed)
		if err != nil {
			return TuneScore{}, err
		}
		probs, err := app.PrepareFolds(fs)
		if err != nil {
			return TuneScore{}, err
		}
		tf = &tuneFolds{folds: fs, probs: probs}
		s.tunes[key] = tf
	}
	v, failure := app.TunePoint(tf.probs, tf.folds, cfg)
	if failure != nil {
		return TuneScore{Score: v, Failure: failure.Error()}, nil
	}
	return TuneScore{Score: v}, nil
}

// TuneChoose picks the best point of a grid's scores (Scores[i][j] at
// Rho[i], Kappa[j]) for cfg: the first best in grid order, NaN worst.
func (s *Session) TuneChoose(cfg mtl.Config, res app.TuneResult) (app.TuneResult, error) {
	if err := res.Choose(cfg); err != nil {
		return res, err
	}
	return res, nil
}
