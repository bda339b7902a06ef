package mtl

// itl is independent task learning (docs/algorithms.md §4): pen = ‖w‖², no
// shared knowledge, so the Θ-step does nothing and the W-steps are the
// tasks' own ridge (or logistic) fits. STL is the same structure on the
// pooled task (§3).
type itl struct{ m *metric }

var _ structure = (*itl)(nil)

// newITL penalizes ‖w‖²; STL's pooled w, on a task-level covariate the
// intake divided by FixedScale (priorScales), by u_j w_j² with
// u_j = 1/FixedScale²: the effect per standard deviation, as on every other
// feature. Penalized as the others, such a covariate's weight was held
// FixedScale² (a million times) harder, and STL all but lost it (rats'
// sex, a litter's, 2.51 log-odds where glm's is 3.45; docs/findings.md,
// "Twenty more R data sets"). The deviations of MMTL's tasks stay
// penalized so, as that scaling intends; ITL's tasks cannot tell such a
// covariate from their intercepts.
func newITL(env structureEnv) structure {
	if env.stl {
		return &itl{m: diagonalMetric(env.d, env.priorU)}
	}
	return &itl{m: identityMetric(env.d)}
}

func (s *itl) metric() *metric                     { return s.m }
func (s *itl) anchor(int) []float64                { return nil }
func (s *itl) update([][]float64, []float64) error { return nil }
func (s *itl) extra() float64                      { return 0 }
