package rank

import (
	"fmt"
	"strings"

	"github.com/autorag/autorag/engine/record"
)

// scoreAdaptive is convex fusion whose dense weight depends on how much
// the dense list can know about this query and this chunk:
//
//	α·bm25/max(bm25) + (1−α)·w·c·minmax(dense)
//
// where w is f.Foreign when the query is in another language than English
// (Query.Foreign) and 1 otherwise, and c is CodeWeight for a code chunk
// and 1 for prose. The built-in embedder's vocabulary is English: on
// German and Spanish questions its vector alone scores 0.59-0.61 nDCG@10
// against BM25's 0.94-0.97, so at full weight it reorders good BM25
// rankings for the worse there (XQuAD es 0.9639 at full weight, 0.9657 at
// a quarter, BM25 0.9653); on code (CoSQA) it scores 0.29 against BM25's
// 0.37 and adds 0.05 at full weight, so the built-in default leaves c at 1.
// Agreement of the two lists and the spread of the similarities were
// measured as per-query signals too and did worse (docs/QUALITY.md, with
// the GloVe embedder before). When BM25 matched nothing the dense
// list keeps its weight (the floor keeps it from returning noise).
//
// With f.FileDense the dense part of a code chunk BM25 found is its
// file's (fileDense): the similarity of the file's best chunk in the dense
// list when that is above its own. Code search asks for files, and BM25
// and the embedder often find a file by different chunks (a definition's
// name, a doc comment's words); scored chunk by chunk, neither chunk
// carried both signals and a file BM25 ranked high lost to files the
// dense list alone liked (codesearch-dev: three repositories below their
// BM25, none with the file's similarity; lifting the chunks only the dense
// list found too ranked the same). Prose chunks keep their own similarity:
// a document can be long, and NFCorpus dev (0.3271 -> 0.3270) and SciFact
// train (0.7159) did not gain from it.
// The weights are pure: they depend on the query text, the lists and paths.
func scoreAdaptive(f Fusion, xs []*Fused, bm25, dense []Hit, w float64, q Query) {
	maxB, minD, maxD := listBounds(bm25, dense)
	code := CodeWeight(f, q)
	var files map[string]denseBest
	if f.FileDense {
		files = fileDense(bm25, dense, q)
	}
	for _, x := range xs {
		x.Score, x.WDense = 0, (1-f.Alpha)*w
		d, found := x.Dense, x.DenseRank > 0
		if q.isCode(x.ID) {
			x.WDense *= code
			if x.BM25Rank > 0 {
				p := record.ChunkPath(x.ID)
				if b, ok := files[p]; ok && (!found || b.sim > d) {
					x.FileDense, x.FileDenseRank = b.sim, b.rank
					d, found = b.sim, true
				}
			}
		}
		if x.BM25Rank > 0 && maxB > 0 {
			x.Score = f.Alpha * x.BM25 / maxB
		}
		if found && maxD > minD {
			x.Score += x.WDense * denseScaled(d, minD, maxD)
		}
	}
}

// denseBest is a file's best chunk in the dense list.
type denseBest struct {
	sim  float64
	rank int
}

// fileDense maps each file with a code chunk in the dense list (best
// first) to its best chunk there; nil when no chunk BM25 found could use
// it.
func fileDense(bm25, dense []Hit, q Query) map[string]denseBest {
	if q.IsCode == nil || len(bm25) == 0 {
		return nil
	}
	files := make(map[string]denseBest, len(dense))
	for i, h := range dense {
		p := record.ChunkPath(h.ID)
		if _, ok := files[p]; !ok && q.IsCode(h.ID) {
			files[p] = denseBest{h.Score, i + 1}
		}
	}
	return files
}

// CodeWeight is the factor of the dense weight of a code chunk for q:
// f.Code for a question in words (KindNatural), at most 1 for a query of
// identifiers, a path or an error message, whose words are the code's own
// (BM25 and the definitions find them). A transformer model's dense list
// answers a question over code better than BM25 does (CoSQA dev: MiniLM
// 0.58 against 0.37), and its catalog entry says by how much to weigh it
// (rank.ModelTraits.Code); the built-in embedder's is 1.
func CodeWeight(f Fusion, q Query) float64 {
	if QueryKind(q.Text) == KindNatural {
		return f.Code
	}
	return min(f.Code, 1)
}

// QueryWeight is w of scoreAdaptive for a query: 0 with f.LatinOnly for a
// query written mostly in another script than Latin; f.Foreign when the
// query is in another language than English, or written mostly in an
// alphabet the built-in vocabulary spells out letter by letter
// (ScriptOther: the detector does not name every such query), else 1.
// Without LatinOnly Han, kana and Hangul keep the dense list's weight: the
// built-in vocabulary has rows of their own (XQuAD zh dev, vector-only
// 0.78).
func QueryWeight(f Fusion, q Query) float64 {
	if f.Method != FusionAdaptive {
		return 1
	}
	if f.LatinOnly && q.Script != ScriptLatin {
		return 0
	}
	if q.Foreign || q.Script == ScriptOther {
		return f.Foreign
	}
	return 1
}

// Floor is the similarity a vector-only hit needs for a query: f.Floor,
// or f.FloorUnknown when BM25 matched nothing and knowsNone reports that
// the embedder knows none of the query's words (its vector is then made of
// character n-grams only: it finds similar spellings, and nonsense finds
// noise). knowsNone is called only when that decides.
func Floor(f Fusion, bm25 []Hit, knowsNone func() bool) float64 {
	if f.FloorUnknown == 0 || len(bm25) > 0 {
		return f.Floor
	}
	if knowsNone() {
		return max(f.Floor, f.FloorUnknown)
	}
	return f.Floor
}

// DropBelowFloor removes from a hybrid ranking the chunks only the vector
// list found whose similarity is below floor, and counts them.
func DropBelowFloor(floor float64, ranking []Fused) ([]Fused, int) {
	if floor == 0 {
		return ranking, 0
	}
	kept := ranking[:0]
	for _, x := range ranking {
		if x.BM25Rank == 0 && x.Dense < floor {
			continue
		}
		kept = append(kept, x)
	}
	return kept, len(ranking) - len(kept)
}

// explainAdaptive says how an adaptive score came about.
func (x Fused) explainAdaptive(f Fusion, q Query, list func(string, int, float64) string) string {
	vector := list("vector", x.DenseRank, x.Dense)
	if x.FileDenseRank > 0 {
		vector += fmt.Sprintf(", the file's best: vector rank %d score %.4f", x.FileDenseRank, x.FileDense)
	}
	return fmt.Sprintf("%s (weight %.3g, scaled by the list max), %s (weight %.3g, min-max over the list%s) -> %.5f",
		list("bm25", x.BM25Rank, x.BM25), f.Alpha, vector, x.WDense, why(f, q, x), x.Score)
}

// why names the factors that changed a chunk's dense weight.
func why(f Fusion, q Query, x Fused) string {
	var s []string
	c := 1.0
	if q.isCode(x.ID) {
		if c = CodeWeight(f, q); c != 1 {
			s = append(s, fmt.Sprintf("x%g for code", c))
		}
	}
	if base := (1 - f.Alpha) * c; base > 0 && x.WDense < base*0.999 {
		s = append(s, fmt.Sprintf("x%g for a query not in English", QueryWeight(f, q)))
	}
	if len(s) == 0 {
		return ""
	}
	return "; " + strings.Join(s, ", ")
}

// ExplainQuery says what a query did as a whole.
func ExplainQuery(mode string, f Fusion, floor float64, dropped, terms int) string {
	s := fmt.Sprintf("%s mode, %d query terms", mode, terms)
	if mode != ModeHybrid {
		return s
	}
	s += "; fusion " + f.String()
	why := "no better than chance for the embedder"
	switch {
	case floor == f.Floor:
	case floor == f.FloorUnknown:
		why += ", the floor for a query the embedder knows no word of"
	case floor == NoLexicalFloor:
		why = "no lexical match: no word of the query is in the index"
	default:
		why = fmt.Sprintf("%g of the best similarity: far below the best hit", f.FloorRatio)
	}
	switch {
	case floor == 0:
		s += "; no floor for vector-only results"
	case dropped == 1:
		s += fmt.Sprintf("; 1 vector-only result dropped: similarity below %.4g (%s)", floor, why)
	default:
		s += fmt.Sprintf("; %d vector-only results dropped: similarity below %.4g (%s)", dropped, floor, why)
	}
	return s
}
