package engine

import (
	"fmt"

	"github.com/autorag/autorag/engine/embed"
	"strings"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/mirror"
)

// scoreAdaptive is convex fusion whose dense weight depends on how much
// the dense list can know about this query and this chunk:
//
//	α·bm25/max(bm25) + (1−α)·q·c·minmax(dense)
//
// where q is f.Foreign when the query is in another language than English
// (analyze.DetectQuery) and 1 otherwise, and c is f.Code for a code chunk
// and 1 for prose. The built-in embedder's table holds English words: on
// German and Spanish questions its vector alone scores 0.44-0.47 nDCG@10
// against BM25's 0.94-0.96, and on code (CoSQA) 0.076 against 0.36, so at
// full weight it reorders good BM25 rankings for the worse there, while on
// English prose (NFCorpus) it adds 0.014. Agreement of the two lists and
// the spread of the similarities were measured as per-query signals too
// and did worse (docs/QUALITY.md). When BM25 matched nothing the dense
// list keeps its weight (the floor keeps it from returning noise). The
// weights are pure: they depend on the query text, the lists and paths.
func scoreAdaptive(f Fusion, xs []*fused, bm25, dense []listHit, q float64) {
	maxB, minD, maxD := listBounds(bm25, dense)
	for _, x := range xs {
		x.score, x.wDense = 0, (1-f.Alpha)*q
		if isCode(x.id) {
			x.wDense *= f.Code
		}
		if x.bm25Rank > 0 && maxB > 0 {
			x.score = f.Alpha * x.bm25 / maxB
		}
		if x.denseRank > 0 && maxD > minD {
			x.score += x.wDense * (x.dense - minD) / (maxD - minD)
		}
	}
}

// queryWeight is q of scoreAdaptive for a query: f.Foreign when the query
// is in another language than English, else 1.
func queryWeight(f Fusion, text string) float64 {
	if f.Method != FusionAdaptive {
		return 1
	}
	if l := analyze.DetectQuery(text); l != "" && l != analyze.English {
		return f.Foreign
	}
	return 1
}

// floor is the similarity a vector-only hit needs for this query:
// f.Floor, or f.FloorUnknown when BM25 matched nothing and the embedder
// knows none of the query's words (its vector is then made of character
// n-grams only: it finds similar spellings, and nonsense finds noise).
func (e *Engine) floor(f Fusion, text string, bm25 []listHit) float64 {
	if f.FloorUnknown == 0 || len(bm25) > 0 {
		return f.Floor
	}
	if c, ok := e.Settings.Embedder.(embed.Coverer); ok && c.Coverage(text) == 0 {
		return max(f.Floor, f.FloorUnknown)
	}
	return f.Floor
}

// isCode reports whether a chunk comes from a file parsed as code.
func isCode(id string) bool {
	path, _ := splitChunkID(id)
	p, ok := mirror.ParserFor(path)
	return ok && strings.HasPrefix(p, "code@")
}

// dropBelowFloor removes from a hybrid ranking the chunks only the vector
// list found whose similarity is below floor, and counts them.
func dropBelowFloor(floor float64, ranking []fused) ([]fused, int) {
	if floor == 0 {
		return ranking, 0
	}
	kept := ranking[:0]
	for _, x := range ranking {
		if x.bm25Rank == 0 && x.dense < floor {
			continue
		}
		kept = append(kept, x)
	}
	return kept, len(ranking) - len(kept)
}

// explainAdaptive says how an adaptive score came about.
func (x fused) explainAdaptive(f Fusion, list func(string, int, float64) string) string {
	return fmt.Sprintf("%s: %s (weight %.3g, scaled by the list max), %s (weight %.3g, min-max over the list%s) -> %.5f",
		f, list("bm25", x.bm25Rank, x.bm25), f.Alpha, list("vector", x.denseRank, x.dense), x.wDense, why(f, x), x.score)
}

// why names the factors that lowered a chunk's dense weight.
func why(f Fusion, x fused) string {
	var s []string
	c := 1.0
	if isCode(x.id) {
		if c = f.Code; c != 1 {
			s = append(s, fmt.Sprintf("x%g for code", c))
		}
	}
	if base := (1 - f.Alpha) * c; base > 0 && x.wDense < base*0.999 {
		s = append(s, fmt.Sprintf("x%g for a query not in English", f.Foreign))
	}
	if len(s) == 0 {
		return ""
	}
	return "; " + strings.Join(s, ", ")
}

// explainQuery says what a query did as a whole.
func explainQuery(mode string, f Fusion, floor float64, dropped, terms int) string {
	s := fmt.Sprintf("%s mode, %d query terms", mode, terms)
	if mode != ModeHybrid {
		return s
	}
	s += "; fusion " + f.String()
	unknown := ""
	if floor != f.Floor {
		unknown = ", the floor for a query the embedder knows no word of"
	}
	switch {
	case floor == 0:
		s += "; no floor for vector-only results"
	case dropped == 1:
		s += fmt.Sprintf("; 1 vector-only result dropped: similarity below %g%s (no better than chance for the embedder)", floor, unknown)
	default:
		s += fmt.Sprintf("; %d vector-only results dropped: similarity below %g%s (no better than chance for the embedder)", dropped, floor, unknown)
	}
	return s
}
