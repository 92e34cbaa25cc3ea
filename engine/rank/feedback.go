package rank

import (
	"fmt"
	"math"
	"slices"
)

// Pseudo-relevance feedback for the dense list (Fusion.Feedback). A static
// word-vector embedder knows words, not topics: a short query's vector is
// the mean of a few word vectors. BM25's best chunks for the same query
// are mostly on topic, so adding their mean vector to the query vector
// (Rocchio's feedback with weight 1, then back to unit length) turns the
// dense scan towards what the lexical match found, and it brings in chunks
// that say the same in other words. With the built-in potion-base-8M
// embedder, α = 0.7 and 5 chunks it lifts hybrid nDCG@10 on NFCorpus dev
// from 0.3190 to 0.3266 and on SciFact train from 0.7136 to 0.7154; 3 and
// 10 chunks scored lower (docs/QUALITY.md). With GloVe before, 3, 5 or 10
// chunks, weights 0.5 to 2 and chunks weighted by their BM25 score all
// scored within 0.002 of each other on NFCorpus train. The stored vectors are untouched,
// so the index does not depend on it; the dense scan then follows BM25
// instead of running beside it.
//
// It is left out where it was measured not to help with GloVe: queries in
// another language than English (the built-in vocabulary is English;
// XQuAD) and queries whose best BM25 chunks are mostly code (CoSQA); and,
// with potion-base-8M, queries written mostly in another script than Latin
// (Query.Script), which the language detector does not always name: it
// calls a Chinese question English (XQuAD zh dev 0.9509 with feedback,
// 0.9529 without, BM25 0.9513).

// MaxFeedback bounds Fusion.Feedback.
const MaxFeedback = 100

// UseFeedback reports whether a hybrid query's vector takes feedback from
// bm, BM25's list for it.
func UseFeedback(f Fusion, q Query, bm []Hit) bool {
	if f.Feedback <= 0 || len(bm) == 0 {
		return false
	}
	if q.Foreign || q.Script != ScriptLatin {
		return false
	}
	top := bm[:min(f.Feedback, len(bm))]
	code := 0
	for _, h := range top {
		if q.isCode(h.ID) {
			code++
		}
	}
	return 2*code <= len(top)
}

// AddFeedback adds to the unit vector q the mean of the stored vectors of
// the chunks top (stored looks one up) and scales the sum back to unit
// length, so that the dense scores stay cosine similarities (the floor
// compares them). It returns how many vectors it added.
func AddFeedback(q []float32, stored func(id string) ([]float32, bool), top []Hit) int {
	mean := make([]float32, len(q))
	got := 0
	for _, h := range top {
		v, ok := stored(h.ID)
		if !ok || len(v) != len(q) {
			continue
		}
		for d, x := range v {
			mean[d] += x
		}
		got++
	}
	if got == 0 {
		return 0
	}
	var norm float64
	for d := range q {
		q[d] += mean[d] / float32(got)
		norm += float64(q[d]) * float64(q[d])
	}
	if norm > 0 {
		inv := float32(1 / math.Sqrt(norm))
		for d := range q {
			q[d] *= inv
		}
	}
	return got
}

// Turn is the vector a query's dense search uses: q, the query's own, or,
// when UseFeedback says so for bm (BM25's list of a hybrid query), a copy
// turned towards the stored vectors of bm's best chunks, which stored
// looks up (a backend may fetch them first). It also returns how many
// chunks' vectors it took.
func Turn(f Fusion, query Query, q []float32, bm []Hit, stored func(top []Hit) (func(id string) ([]float32, bool), error)) ([]float32, int, error) {
	if !UseFeedback(f, query, bm) {
		return q, 0, nil
	}
	top := bm[:min(f.Feedback, len(bm))]
	lookup, err := stored(top)
	if err != nil {
		return nil, 0, err
	}
	q = slices.Clone(q) // a cached vector is not ours to change
	return q, AddFeedback(q, lookup, top), nil
}

// ExplainFeedback says whether a query's vector took feedback.
func ExplainFeedback(mode string, f Fusion, fed int) string {
	switch {
	case mode != ModeHybrid || f.Feedback <= 0:
		return ""
	case fed == 0:
		return "; no feedback (no BM25 match, a query not in English, or code)"
	case fed == 1:
		return "; query vector plus BM25's best chunk"
	}
	return fmt.Sprintf("; query vector plus the mean of BM25's best %d chunks", fed)
}
