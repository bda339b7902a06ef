package mtl

// itl is independent task learning (docs/algorithms.md §4): pen = ‖w‖², no
// shared knowledge, so the Θ-step does nothing and the W-steps are the
// tasks' own ridge (or logistic) fits. STL is the same structure on the
// pooled task (§3).
type itl struct{ m *metric }

var _ structure = (*itl)(nil)

func newITL(env structureEnv) structure { return &itl{m: identityMetric(env.d)} }

func (s *itl) metric() *metric                     { return s.m }
func (s *itl) anchor(int) []float64                { return nil }
func (s *itl) update([][]float64, []float64) error { return nil }
func (s *itl) extra() float64                      { return 0 }
