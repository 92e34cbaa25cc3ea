package agentapi

import (
	"math"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/envelope"
)

// Evidence weights (MergeCoverage, MergeEvidence), chosen with
// bench/agents roots on pairs of the code-search dev trees and gin beside
// SciFact, in either order (see docs/QUALITY.md, "Merging roots").
const (
	// coverageDepth is how many of a root's best passages its coverage
	// (and its names' match) is the mean of: one lucky passage among
	// many is weak evidence that the root is about the question.
	coverageDepth = 3
	// coverageExponent sharpens the roots' evidence ratios: at 3 a root
	// holding a third fewer of the query's terms weighs 0.30.
	coverageExponent = 3
	// cosineExponent is how much the best cosine similarity counts
	// (MergeEvidence): at ½ it settles what coverage and names leave
	// even (a paraphrase that holds the words of neither root) without
	// outweighing them where the model's similarities differ between
	// code and prose (at 1 a prose root's "ALTER TABLE" outweighed the
	// Go package that defines Table).
	cosineExponent = 0.5
)

// evidenceOf is MergeEvidence's evidence that query is about a root, from
// the root's answer: (coverage × named)^coverageExponent, times its best
// cosine similarity^cosineExponent when cos (every root answered with
// one: not in bm25 mode).
func evidenceOf(query string, cos bool) func(*envelope.Query) float64 {
	terms, nq := analyze.Terms(query), newNameQuery(query)
	return func(q *envelope.Query) float64 {
		e := math.Pow(coverage(terms, q)*named(nq, q), coverageExponent)
		if cos {
			e *= math.Pow(topCosine(q), cosineExponent)
		}
		return e
	}
}

// everyCosine reports whether every answering root has a cosine
// similarity among its results (none has in bm25 mode).
func everyCosine(answers []*envelope.Query, ok []int) bool {
	for _, i := range ok {
		if topCosine(answers[i]) <= 0 {
			return false
		}
	}
	return true
}

// coverage is the mean, over q's best coverageDepth results (fewer when
// the root has fewer to give: a small root's one file may be the whole
// answer), of the share of the query's terms each holds in its path,
// title, section or text. Unlike BM25 it does not depend on the
// root's term statistics, so it compares across roots: a root that is
// about the question holds all of its words, where BM25 rates that
// root's common words (its own name, its jargon) low.
func coverage(terms []string, q *envelope.Query) float64 {
	top := q.Results[:min(coverageDepth, len(q.Results))]
	if len(terms) == 0 || len(top) == 0 {
		return 0
	}
	var sum float64
	for _, r := range top {
		have := map[string]bool{}
		for _, t := range analyze.Terms(r.Path + "\n" + r.Title + "\n" + r.Section + "\n" + r.Text) {
			have[t] = true
		}
		n := 0
		for _, t := range terms {
			if have[t] {
				n++
			}
		}
		sum += float64(n) / float64(len(terms))
	}
	return sum / float64(len(top))
}

// defCredit is what a passage that defines the queried identifier adds
// to named, against 1 for a file named for the question: the tie breaker
// of a symbol query ("Engine") that two roots cover alike, where the root
// that defines it is the one it is about.
const defCredit = 0.5

// nameQuery is a query as named reads it.
type nameQuery struct {
	path   *rank.PathQuery
	idents []string // the identifiers it names (rank.Identifiers)
	stem   func(string) string
}

func newNameQuery(query string) nameQuery {
	stem := analyze.Stemmer()
	return nameQuery{path: rank.NewPathQuery(query, stem), idents: rank.Identifiers(query, rank.QueryKind(query)), stem: stem}
}

// named is 1 plus the mean, over q's best coverageDepth results, of how
// well each one's file name matches the query (rank.PathMatch: the share
// of the name's words the query holds, an abbreviation counting partly)
// plus defCredit when the passage defines an identifier the query names
// (rank.DefinitionMatch): 1 when none of them is named for the question
// nor defines its identifier, 2 when each is named for it (errors.go for
// "error types", Pair.java for "immutable pair container"). The ranking
// already prefers such files within a root; across roots a root whose
// best files are named for the question is the one it is about, where
// another root may hold as many of its words in passing. It reads only
// the results, so it depends on no root's statistics.
func named(nq nameQuery, q *envelope.Query) float64 {
	top := q.Results[:min(coverageDepth, len(q.Results))]
	if len(top) == 0 {
		return 1
	}
	var sum float64
	for _, r := range top {
		s, _ := rank.PathMatch(nq.path, r.Path, nq.stem)
		if len(nq.idents) > 0 && len(r.Defs) > 0 {
			s += defCredit * rank.DefinitionMatch(nq.idents, rank.DefNames(r.Defs))
		}
		sum += s
	}
	return 1 + sum/float64(len(top))
}
