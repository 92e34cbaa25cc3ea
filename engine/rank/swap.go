package rank

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/autorag/autorag/engine/record"
)

// BestPerFile is the first chunk of each file in ranking (best first),
// by path.
func BestPerFile(ranking []Fused) map[string]Fused {
	best := map[string]Fused{}
	for _, x := range ranking {
		path := record.ChunkPath(x.ID)
		if _, ok := best[path]; !ok {
			best[path] = x
		}
	}
	return best
}

// SwapIn puts res, a copy of shown's document in another folder that the
// walk never reached (copies.Swap: the English page of a translation
// shown), in shown's place: shown's rank and score, and shown first in
// its AlsoIn. x is res's chunk as ranked among its file's chunks alone:
// its list scores are its own for the query, its ranks in the lists
// unknown (null), and explain says so.
func (p Page) SwapIn(shown Result, x Fused, res Result) Result {
	res.Rank, res.Score = shown.Rank, shown.Score
	res.Scores = Scores{}
	if x.BM25Rank > 0 {
		b := x.BM25
		res.Scores.BM25 = &b
	}
	if x.DenseRank > 0 {
		d := x.Dense
		res.Scores.Vector = &d
	}
	res.AlsoIn = append([]Location{locationOf(shown)}, shown.AlsoIn...)
	if p.Explain {
		res.Explain = fmt.Sprintf("copy of %s, shown in its place (the copy the query's language or folder names, or English): its best chunk by the query (%s); the ranking's score and rank are those of %s",
			shown.Path, x.swapExplain(), shown.Path)
	}
	return res
}

// swapExplain is what the lists said of a swapped-in chunk.
func (x Fused) swapExplain() string {
	s := "no lexical match"
	if x.BM25Rank > 0 {
		s = fmt.Sprintf("bm25 %.4f", x.BM25)
	}
	if x.DenseRank > 0 {
		s += fmt.Sprintf(", vector %.4f", x.Dense)
	}
	return s
}

// ByScore orders hits best first, equal scores by ID.
func ByScore(hits []Hit) {
	slices.SortFunc(hits, func(a, b Hit) int { return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.ID, b.ID)) })
}

// DenseOf is the dense list of the chunks ids for the query vector q (the
// dot product with each stored vector, as the vector index scores),
// best first; a chunk without a stored vector is left out.
func DenseOf(q []float32, ids []string, stored func(id string) ([]float32, bool)) []Hit {
	var out []Hit
	for _, id := range ids {
		v, ok := stored(id)
		if !ok || len(v) != len(q) {
			continue
		}
		var s float32
		for i := range q {
			s += q[i] * v[i]
		}
		out = append(out, Hit{ID: id, Score: float64(s)})
	}
	ByScore(out)
	return out
}
