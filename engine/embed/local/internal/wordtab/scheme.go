package wordtab

import "math"

// RankCodeScale is the resolution of a record's rank code: code =
// round(ln(rank) × RankCodeScale), so ranks are kept to about 6%.
const RankCodeScale = 16

// VocabSize is the size of GloVe 6B's vocabulary, the rank given to words
// outside the table (the rarest there are).
const VocabSize = 400000

// zipfNorm is the harmonic number H(VocabSize) ≈ ln(VocabSize) + γ: under
// Zipf's law a word of rank r has probability 1 / (r × zipfNorm).
const zipfNorm = 13.4767

// RankCode encodes a 1-based frequency rank.
func RankCode(rank int) uint8 {
	if rank < 1 {
		rank = 1
	}
	c := math.Round(math.Log(float64(rank)) * RankCodeScale)
	return uint8(min(c, 255))
}

// OOVCode is the rank code of a word not in the table.
func OOVCode() uint8 { return RankCode(VocabSize) }

// rankOf decodes a rank code.
func rankOf(code uint8) float64 { return math.Exp(float64(code) / RankCodeScale) }

// Kind is a family of word weights computed from frequency rank.
type Kind uint8

const (
	// Flat weighs every word 1 (a plain mean).
	Flat Kind = iota
	// SIF is a/(a+p(w)), p(w) the Zipf probability of the word's rank
	// (Arora et al.'s smooth inverse frequency without corpus counts).
	SIF
	// LogRank is ln(1 + rank/r0): an IDF-like weight, since under Zipf's
	// law -ln p(w) = ln(rank) + const; r0 damps the most frequent words
	// (rank ≪ r0 weighs about rank/r0) the way document frequency does.
	LogRank
)

// Scheme is one weighting: a Kind and its parameter (a for SIF, r0 for
// LogRank). The table stores one principal component per scheme.
type Scheme struct {
	Name  string
	Kind  Kind
	Param float64
}

// schemes is every weighting the table carries a component for. Appending
// is a table format change (the generator must be re-run); the order is the
// order of the components.
var schemes = [...]Scheme{
	{"flat", Flat, 0},
	{"sif3", SIF, 1e-3},
	{"sif4", SIF, 1e-4},
	{"sif35", SIF, 3e-5},
	{"sif5", SIF, 1e-5},
	{"sif36", SIF, 3e-6},
	{"logr10", LogRank, 10},
	{"logr100", LogRank, 100},
	{"logr1000", LogRank, 1000},
	{"logr10000", LogRank, 10000},
}

// Schemes returns the weighting schemes in table order.
func Schemes() []Scheme { return schemes[:] }

// SchemeIndex returns the index of the scheme named name, or -1.
func SchemeIndex(name string) int {
	for i, s := range schemes {
		if s.Name == name {
			return i
		}
	}
	return -1
}

// Weight is the weight of a word with the given rank code.
func (s Scheme) Weight(code uint8) float64 {
	r := rankOf(code)
	switch s.Kind {
	case SIF:
		p := 1 / (r * zipfNorm)
		return s.Param / (s.Param + p)
	case LogRank:
		return math.Log1p(r / s.Param)
	default:
		return 1
	}
}

// Weights tabulates Weight for every code (256 float32, a few microseconds).
func (s Scheme) Weights() [256]float32 {
	var w [256]float32
	for c := range w {
		w[c] = float32(s.Weight(uint8(c)))
	}
	return w
}
