package session

import (
	"fmt"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/mtl"
)

// The page tunes in a pool of workers: one holds the search (TuneStart,
// TuneFeed), each of the others loads the data and scores the
// configurations of a batch it is given (TuneScore). The folds depend only
// on the data, their number, the seed and whether they hold out whole
// tasks, so every worker cuts the same.

type tuneKey struct {
	data     int
	folds    int
	seed     uint64
	newTasks bool
}

// TuneStep is where a model search stands: the batch of configurations
// to score next (empty when it is over), its progress, and at the end the
// result.
type TuneStep struct {
	ID     int             `json:"id"`
	Batch  []mtl.Config    `json:"batch"`
	Done   int             `json:"done"`
	Total  int             `json:"total"`
	Result *app.TuneResult `json:"result,omitempty"`
	// Origin, on the first step, is the features' origin the search moved
	// the data set to before scoring (app.TuneSearch.Origin): a pool that
	// read the data set as it was must read it again with this origin.
	Origin string `json:"origin,omitempty"`
}

// TuneStart plans a model search on a data set (app.NewTuneSearch: with
// no cfg.Model every family is a candidate; newTasks holds out whole
// tasks) and returns its first batch.
// The page scores each batch in its pool of workers (TuneScore) and gives
// the results to TuneFeed.
func (s *Session) TuneStart(dataset int, cfg mtl.Config, folds int, seed uint64, newTasks bool) (TuneStep, error) {
	d, ok := s.datasets[dataset]
	if !ok {
		return TuneStep{}, fmt.Errorf("tune: no data set with handle %d", dataset)
	}
	ts, err := app.NewTuneSearch(d, app.TuneOptions{Config: cfg, Folds: folds, Seed: seed, NewTasks: newTasks})
	if err != nil {
		return TuneStep{}, err
	}
	if ts.Origin() != "" {
		// The data set's features moved: folds cut before are stale.
		for k := range s.tunes {
			if k.data == dataset {
				delete(s.tunes, k)
			}
		}
	}
	s.next++
	s.searches[s.next] = ts
	st, err := s.tuneStep(s.next)
	st.Origin = ts.Origin()
	return st, err
}

// TuneFeed gives a search the results of its last batch, in order, and
// returns the next batch, or the result when the search is over (and
// forgets the search).
func (s *Session) TuneFeed(id int, res []app.TunePointResult) (TuneStep, error) {
	ts, ok := s.searches[id]
	if !ok {
		return TuneStep{}, fmt.Errorf("tune: no search with id %d", id)
	}
	if err := ts.Feed(res); err != nil {
		return TuneStep{}, err
	}
	return s.tuneStep(id)
}

// TuneEnd forgets a search (a cancelled one).
func (s *Session) TuneEnd(id int) { delete(s.searches, id) }

func (s *Session) tuneStep(id int) (TuneStep, error) {
	ts := s.searches[id]
	st := TuneStep{ID: id, Batch: ts.Next()}
	st.Done, st.Total = ts.Progress()
	if st.Batch == nil {
		delete(s.searches, id)
		res, err := ts.Result()
		if err != nil {
			return TuneStep{}, err
		}
		st.Result = res
	}
	return st, nil
}

// TuneScore scores one configuration of a search on folds of a data set
// (of all of its rows, or with newTasks of whole tasks); the folds are cut
// and prepared once per data set, fold count, seed and kind.
func (s *Session) TuneScore(dataset, folds int, seed uint64, newTasks bool, cfg mtl.Config) (app.TunePointResult, error) {
	fs, err := s.folds(dataset, folds, seed, newTasks)
	if err != nil {
		return app.TunePointResult{}, err
	}
	return fs.Score(cfg), nil
}

// folds returns the prepared folds of a data set for a fold count (0: 3),
// seed and kind, cut on first use.
func (s *Session) folds(dataset, folds int, seed uint64, newTasks bool) (*app.TuneFoldSet, error) {
	d, ok := s.datasets[dataset]
	if !ok {
		return nil, fmt.Errorf("tune: no data set with handle %d", dataset)
	}
	if folds == 0 {
		folds = 3
	}
	key := tuneKey{dataset, folds, seed, newTasks}
	fs := s.tunes[key]
	if fs == nil {
		var err error
		if fs, err = app.NewTuneFoldSet(d, folds, seed, newTasks); err != nil {
			return nil, err
		}
		s.tunes[key] = fs
	}
	return fs, nil
}
