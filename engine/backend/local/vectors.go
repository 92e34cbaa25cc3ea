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
// filter.
func searchVectors(ix *vector.Index, q []float32, filter *backend.PathFilter, want int) []rank.Hit {
	n := want
	if filter != nil {
		n = want * 20
	}
	var out []rank.Hit
	for _, h := range ix.Search(q, n) {
		if filter.Match(h.ID) {
			out = append(out, rank.Hit{ID: h.ID, Score: float64(h.Score)})
			if len(out) == want {
				break
			}
		}
	}
	return out
}
