package engine

import "math"

// bm25 holds the collection statistics and parameters of one query. It is
// pure: no I/O, so a score can be recomputed and explained.
type bm25 struct {
	n     float64 // live chunks in the generation
	avgdl float64 // mean analyzed chunk length
	k1, b float64
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
