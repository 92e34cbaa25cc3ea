package rank

import "fmt"

// Fusion methods.
const (
	FusionRRF    = "rrf"    // reciprocal rank fusion: Σ w / (k + rank)
	FusionConvex = "convex" // α·bm25/max(bm25) + (1−α)·minmax(dense)
	// FusionAdaptive is convex fusion whose dense weight is lowered for
	// queries in other languages than English and for code (adaptive.go).
	FusionAdaptive = "adaptive"
)

// Fusion says how the BM25 and the vector list are combined. The right
// setting depends on how strong the embedder is: with the built-in static
// embedder equal-weight RRF loses 0.074 nDCG@10 on NFCorpus against BM25
// alone, while a BM25-heavy convex fusion gains (FINDINGS.md); a strong API
// embedder wants far more dense weight.
type Fusion struct {
	Method string  `json:"method"`
	K      float64 `json:"k,omitempty"`     // RRF constant (60)
	Alpha  float64 `json:"alpha,omitempty"` // convex: weight of BM25
	WBM25  float64 `json:"w_bm25,omitempty"`
	WDense float64 `json:"w_dense,omitempty"`
	// Code and Foreign (adaptive) scale the dense weight of code chunks
	// and of queries not in English.
	Code    float64 `json:"code,omitempty"`
	Foreign float64 `json:"foreign,omitempty"`
	// LatinOnly (adaptive) gives no dense weight to a query written
	// mostly in another script than Latin, Han, kana and Hangul included:
	// an English model's vector of such a query puts BM25's good ranking
	// out of order (XQuAD zh and el with all-minilm-l6-v2-q).
	LatinOnly bool `json:"latin_only,omitempty"`
	// FileDense (adaptive) gives a code chunk BM25 found its file's best
	// similarity in the dense list (scoreAdaptive). Measured with the
	// built-in embedder (codesearch-dev 0.8772 -> 0.8846); with
	// bge-small-en-v1.5-q (0.8750 -> 0.8739) and all-minilm-l6-v2-q
	// (0.8739 -> 0.8641) it lost: the file's best of many chunks lifts a
	// long file such as nlohmann-json's json.hpp when the dense list
	// weighs as much as BM25 or more, so only the built-in default sets
	// it.
	FileDense bool `json:"file_dense,omitempty"`
	// Floor drops, in hybrid mode, chunks only the vector list found whose
	// similarity is below it (no better than chance for the embedder);
	// 0 keeps them all.
	Floor float64 `json:"floor,omitempty"`
	// FloorUnknown replaces Floor when it is higher, BM25 matched nothing
	// and the embedder knows none of the query's words (embed.Coverer).
	FloorUnknown float64 `json:"floor_unknown,omitempty"`
	// FloorRatio also drops, in hybrid mode, for a query the embedder knows
	// none of the words of, chunks only the vector list found whose
	// similarity is below this share of the best similarity: BM25 found
	// what has the word, and the vector's similar spellings pad the list
	// far below it.
	FloorRatio float64 `json:"floor_ratio,omitempty"`
	// Feedback, when above 0, adds to a hybrid query's vector the mean
	// vector of BM25's best Feedback chunks before the dense search
	// (English queries, not when those chunks are mostly code:
	// feedback.go).
	Feedback int `json:"feedback,omitempty"`
}

// String is the canonical form; it goes into the query-cache key.
func (f Fusion) String() string {
	var s string
	switch f.Method {
	case FusionRRF:
		s = fmt.Sprintf("rrf k=%g w=%g:%g", f.K, f.WBM25, f.WDense)
	case FusionAdaptive:
		s = fmt.Sprintf("adaptive alpha=%g code=%g foreign=%g", f.Alpha, f.Code, f.Foreign)
		if f.LatinOnly {
			s += " latin_only"
		}
		if f.FileDense {
			s += " file_dense"
		}
	default:
		s = fmt.Sprintf("convex alpha=%g", f.Alpha)
	}
	if f.Floor != 0 || f.FloorUnknown != 0 {
		s += fmt.Sprintf(" floor=%g", f.Floor)
	}
	if f.FloorUnknown != 0 {
		s += fmt.Sprintf(" floor_unknown=%g", f.FloorUnknown)
	}
	if f.FloorRatio != 0 {
		s += fmt.Sprintf(" floor_ratio=%g", f.FloorRatio)
	}
	if f.Feedback != 0 {
		s += fmt.Sprintf(" feedback=%d", f.Feedback)
	}
	return s
}

// Validate reports a fusion that cannot work.
func (f Fusion) Validate() error {
	switch f.Method {
	case FusionRRF:
		if f.K <= 0 || f.WBM25 < 0 || f.WDense < 0 {
			return fmt.Errorf("rrf needs k > 0 and weights >= 0 (got k=%g w=%g:%g)", f.K, f.WBM25, f.WDense)
		}
	case FusionConvex, FusionAdaptive:
		if f.Alpha < 0 || f.Alpha > 1 {
			return fmt.Errorf("%s fusion needs 0 <= alpha <= 1 (got %g)", f.Method, f.Alpha)
		}
		// A code factor above 1 weighs a strong model's dense list more
		// on code (rank.ModelTraits.Code).
		if f.Method == FusionAdaptive && (f.Code < 0 || f.Foreign < 0 || f.Foreign > 1) {
			return fmt.Errorf("adaptive fusion needs a code factor >= 0 and a foreign factor in [0,1] (got %g, %g)", f.Code, f.Foreign)
		}
	default:
		return fmt.Errorf("unknown fusion method %q (want adaptive, convex or rrf)", f.Method)
	}
	if f.Feedback < 0 || f.Feedback > MaxFeedback {
		return fmt.Errorf("feedback needs 0 to %d chunks (got %d)", MaxFeedback, f.Feedback)
	}
	if f.Floor < -1 || f.Floor > 1 || f.FloorUnknown < -1 || f.FloorUnknown > 1 {
		return fmt.Errorf("vector floors are cosine similarities in [-1,1] (got %g, %g)", f.Floor, f.FloorUnknown)
	}
	if f.FloorRatio < 0 || f.FloorRatio >= 1 {
		return fmt.Errorf("the vector floor ratio is a share of the best similarity in [0,1) (got %g)", f.FloorRatio)
	}
	return nil
}

// Hit is one entry of a ranked list: a chunk ID and its score.
type Hit struct {
	ID    string
	Score float64
}

// Fused is a chunk of the combined ranking with what each list said.
type Fused struct {
	ID                  string
	Score               float64
	BM25, Dense         float64
	BM25Rank, DenseRank int     // 1-based; 0 = not in that list
	WDense              float64 // adaptive: the dense weight of this chunk
	// FileDense and FileDenseRank (adaptive, a code chunk) are the
	// similarity and dense rank of the file's best chunk when they stood
	// for this chunk's own (scoreAdaptive); 0 otherwise.
	FileDense     float64
	FileDenseRank int
	// Code is what the code signals did to Score (CodeRerank); nil when
	// they did not run.
	Code *CodeSignals
}

// Fuse combines two ranked lists (best first); adaptive fusion weighs the
// dense list by the query q (QueryWeight) and its code chunks. It is pure
// and deterministic: ties break on chunk ID (path, then ordinal).
func Fuse(f Fusion, q Query, bm25, dense []Hit) []Fused {
	// One array for every chunk (its capacity is never outgrown, so the
	// pointers into it stay valid), found by ID through one map sized once.
	out := make([]Fused, 0, len(bm25)+len(dense))
	at := make(map[string]int, len(bm25)+len(dense))
	get := func(id string) *Fused {
		if i, ok := at[id]; ok {
			return &out[i]
		}
		at[id] = len(out)
		out = append(out, Fused{ID: id})
		return &out[len(out)-1]
	}
	for i, h := range bm25 {
		x := get(h.ID)
		x.BM25, x.BM25Rank = h.Score, i+1
	}
	for i, h := range dense {
		x := get(h.ID)
		x.Dense, x.DenseRank = h.Score, i+1
	}
	order := make([]*Fused, len(out))
	for i := range out {
		order[i] = &out[i]
	}
	switch f.Method {
	case FusionRRF:
		scoreRRF(f, order)
	case FusionAdaptive:
		scoreAdaptive(f, order, bm25, dense, QueryWeight(f, q), q)
	default:
		scoreConvex(f, order, bm25, dense)
	}
	sortFused(out)
	return out
}

func scoreRRF(f Fusion, xs []*Fused) {
	for _, x := range xs {
		if x.BM25Rank > 0 {
			x.Score += f.WBM25 / (f.K + float64(x.BM25Rank))
		}
		if x.DenseRank > 0 {
			x.Score += f.WDense / (f.K + float64(x.DenseRank))
		}
	}
}

// DenseRef is the rank of the dense list whose similarity is the bottom
// of the dense scale (0 in min-max): the last of a list of DenseRef or
// fewer, the DenseRef-th of a deeper one (a larger -k), so that a chunk's
// fused score does not depend on how deep the list was asked; below it a
// chunk's dense part is 0.
const DenseRef = 500

// listBounds returns the best BM25 score and the dense list's best and
// bottom (DenseRef) similarities (0 for an empty list): the scales of
// convex fusion.
func listBounds(bm25, dense []Hit) (maxB, minD, maxD float64) {
	if len(bm25) > 0 {
		maxB = bm25[0].Score
	}
	if len(dense) > 0 {
		maxD, minD = dense[0].Score, dense[min(len(dense), DenseRef)-1].Score
	}
	return maxB, minD, maxD
}

// denseScaled is a similarity d on the list's scale: min-max, and 0 below
// the bottom.
func denseScaled(d, minD, maxD float64) float64 {
	return max(0, (d-minD)/(maxD-minD))
}

// scoreConvex scales BM25 by its maximum with a floor of 0 (min-max over a
// short BM25 list is a trap: when few chunks match, the last match would
// score like a non-match) and the dense scores min-max over their list.
func scoreConvex(f Fusion, xs []*Fused, bm25, dense []Hit) {
	maxB, minD, maxD := listBounds(bm25, dense)
	for _, x := range xs {
		var b, d float64
		if x.BM25Rank > 0 && maxB > 0 {
			b = x.BM25 / maxB
		}
		if x.DenseRank > 0 && maxD > minD {
			d = denseScaled(x.Dense, minD, maxD)
		}
		x.Score = f.Alpha*b + (1-f.Alpha)*d
	}
}
