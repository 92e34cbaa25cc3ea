package local

import (
	"math"

	"github.com/autorag/autorag/fingerprint"
)

// bm25 holds the collection statistics and parameters of one query. It is
// pure: no I/O, so a score can be recomputed and explained.
type bm25 struct {
	n     float64 // live chunks in the generation
	avgdl float64 // mean analyzed chunk length
	k1, b float64
}

// modelOf is the BM25 model of the generation sc names with parameters
// k1 and b: the exact collection statistics the sidecar keeps.
func modelOf(sc *fingerprint.Sidecar, k1, b float64) bm25 {
	m := bm25{n: float64(sc.Counts.Chunks), k1: k1, b: b, avgdl: 1}
	if sc.Counts.Chunks > 0 && sc.Counts.Tokens > 0 {
		m.avgdl = float64(sc.Counts.Tokens) / float64(sc.Counts.Chunks)
	}
	return m
}

// idf is Lucene's BM25 idf: ln(1 + (N - df + 0.5) / (df + 0.5)), never negative.
func (m bm25) idf(df uint64) float64 {
	d := float64(df)
	return math.Log(1 + (m.n-d+0.5)/(d+0.5))
}

// weight is one term's contribution for a document with term frequency tf
// and length dl: idf · tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl)).
func (m bm25) weight(idf float64, tf uint64, dl int) float64 {
	f := float64(tf)
	norm := m.k1 * (1 - m.b + m.b*float64(dl)/m.avgdl)
	return idf * f * (m.k1 + 1) / (f + norm)
}

// lengthFromNorm recovers the exact field length from bleve's norm, which
// zap stores as float32(1/sqrt(length)).
func lengthFromNorm(norm float64) int {
	if norm <= 0 {
		return 0
	}
	return int(math.Round(1 / (norm * norm)))
}
