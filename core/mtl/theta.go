package mtl

// Theta is the shared knowledge a learner holds, in the data's own
// coordinates (whatever coordinates the solvers used), for a saved model and
// the "shared knowledge" view.
type Theta struct {
	// Kind is the method whose knowledge this is: "mtfl", "mmtl", "mtaso".
	Kind string `json:"kind"`
	// MTFL's feature metric D = Beta·I + Σ_i Gamma_i u_i u_iᵀ, with u_i =
	// Directions[i] (orthonormal), and Relevance = diag(D): how much room
	// D gives each feature (the diagonal sums to 1).
	Beta      float64   `json:"beta,omitempty"`
	Gamma     []float64 `json:"gamma,omitempty"`
	Relevance []float64 `json:"relevance,omitempty"`
	// Directions are MTFL's u_i, or MTASO's h shared directions (the rows
	// of Θ), one vector of d loadings each.
	Directions [][]float64 `json:"directions,omitempty"`
	// Mean is MMTL's shared predictor w0.
	Mean []float64 `json:"mean,omitempty"`
}

// thetaExporter is implemented by structures with shared knowledge: they
// return it with every vector mapped by toFull to the data's d coordinates.
type thetaExporter interface {
	theta(dFull int, toFull func([]float64) []float64) *Theta
}

// Theta returns the shared knowledge after the last step (nil for ITL and
// STL, which have none).
func (tr *Trainer) Theta() *Theta {
	ex, ok := tr.st.(thetaExporter)
	if !ok || tr.stl {
		return nil
	}
	return ex.theta(tr.p.d, func(v []float64) []float64 { return tr.p.toFull(v, tr.reduced) })
}

// Theta returns the mean of the task vectors, the joint model's w̄.
func (j *JointMMTL) Theta() *Theta {
	if len(j.hist) == 0 {
		return nil
	}
	m := j.Model()
	return &Theta{Kind: "mmtl", Mean: columnMean(m.W)}
}

func (s *mmtl) theta(dFull int, toFull func([]float64) []float64) *Theta {
	if s.w0 == nil {
		return &Theta{Kind: "mmtl", Mean: make([]float64, dFull)}
	}
	return &Theta{Kind: "mmtl", Mean: toFull(s.w0)}
}

func (s *mtfl) theta(dFull int, toFull func([]float64) []float64) *Theta {
	m := s.m
	th := &Theta{Kind: "mtfl", Beta: m.beta, Gamma: append([]float64(nil), m.gamma...), Relevance: make([]float64, dFull)}
	for j := range th.Relevance {
		th.Relevance[j] = m.beta
	}
	for i := 0; i < m.r; i++ {
		u := make([]float64, m.d)
		for j := range u {
			u[j] = m.u[j*m.r+i]
		}
		full := toFull(u)
		th.Directions = append(th.Directions, full)
		for j, v := range full {
			th.Relevance[j] += m.gamma[i] * v * v
		}
	}
	return th
}

func (s *mtaso) theta(dFull int, toFull func([]float64) []float64) *Theta {
	th := &Theta{Kind: "mtaso"}
	for _, row := range s.theta0 {
		th.Directions = append(th.Directions, toFull(row))
	}
	return th
}
