package engine

import "fmt"

// agreeDepth is how deep adaptive fusion compares the two lists.
const agreeDepth = 10

// scoreAdaptive is convex fusion with a dense weight chosen per query by
// how much the dense list agrees with BM25: with a of the agreeDepth best
// chunks of each list in common, the score is
//
//	α·bm25/max(bm25) + (1−α)·(a/agreeDepth)·minmax(dense)
//
// A weak embedder's list that shares nothing with BM25's (code search with
// static word vectors) then cannot reorder BM25's ranking at all, while one
// that finds the same passages refines it. When BM25 matched nothing the
// dense list has the full weight 1−α (the floor keeps it from returning
// noise). The weight is pure: it depends only on the two lists.
func scoreAdaptive(f Fusion, xs []*fused, bm25, dense []listHit) {
	agree := 0
	top := make(map[string]bool, agreeDepth)
	for _, h := range bm25[:min(agreeDepth, len(bm25))] {
		top[h.id] = true
	}
	for _, h := range dense[:min(agreeDepth, len(dense))] {
		if top[h.id] {
			agree++
		}
	}
	w := (1 - f.Alpha) * float64(agree) / agreeDepth
	if len(bm25) == 0 {
		w = 1 - f.Alpha
	}
	for _, x := range xs {
		x.score, x.wDense, x.agree = 0, w, agree
		if x.bm25Rank > 0 && bm25[0].score > 0 {
			x.score = f.Alpha * x.bm25 / bm25[0].score
		}
		if x.denseRank > 0 && len(dense) > 0 && dense[0].score > dense[len(dense)-1].score {
			x.score += w * (x.dense - dense[len(dense)-1].score) / (dense[0].score - dense[len(dense)-1].score)
		}
	}
}

// dropBelowFloor removes from a hybrid ranking the chunks only the vector
// list found whose similarity is below f.Floor, and counts them.
func dropBelowFloor(f Fusion, ranking []fused) ([]fused, int) {
	if f.Floor == 0 {
		return ranking, 0
	}
	kept := ranking[:0]
	for _, x := range ranking {
		if x.bm25Rank == 0 && x.dense < f.Floor {
			continue
		}
		kept = append(kept, x)
	}
	return kept, len(ranking) - len(kept)
}

// explainAdaptive says how an adaptive score came about.
func (x fused) explainAdaptive(f Fusion, list func(string, int, float64) string) string {
	s := fmt.Sprintf("%s: %s (weight %.3g, scaled by the list max), %s (weight %.3g = %.3g x %d/%d of the top %d agree with bm25, min-max over the list) -> %.5f",
		f, list("bm25", x.bm25Rank, x.bm25), f.Alpha, list("vector", x.denseRank, x.dense), x.wDense, 1-f.Alpha, x.agree, agreeDepth, agreeDepth, x.score)
	if x.bm25Rank == 0 && f.Floor != 0 {
		s += fmt.Sprintf("; vector-only, kept: similarity %.4f >= floor %g", x.dense, f.Floor)
	}
	return s
}
