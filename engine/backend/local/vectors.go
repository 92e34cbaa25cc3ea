package local

import (
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/engine/vector"
)

// vectorDir holds a generation's vector index (package vector), built by
// the writer's Finish from the base generation's.
const vectorDir = "vectors"

// searchVectors returns the want chunks of ix nearest to q that pass the
// filter. The filter is applied inside the scan (vector.Query.Accept), so
// the list holds the best want accepted chunks however few the filter
// admits; ix chooses the exact or the 4-bit scan by its size.
func searchVectors(ix *vector.Index, q []float32, filter *backend.PathFilter, want int) []rank.Hit {
	var accept func(string) bool
	if filter != nil {
		accept = filter.Match
	}
	hits := ix.SearchQuery(vector.Query{Vec: q, K: want, Accept: accept})
	out := make([]rank.Hit, len(hits))
	for i, h := range hits {
		out[i] = rank.Hit{ID: h.ID, Score: float64(h.Score)}
	}
	return out
}
