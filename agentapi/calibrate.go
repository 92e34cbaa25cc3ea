package agentapi

import (
	"math"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/envelope"
)

// weightsOf is each answering root's factor under method: how much the
// query is about that root, comparable across roots, over the best of all
// roots (1 for the best; 1 for every root when only one answered, or the
// method does not weigh roots).
func weightsOf(query string, answers []*envelope.Query, ok []int, method string) []float64 {
	w := make([]float64, len(answers))
	for _, i := range ok {
		w[i] = 1
	}
	var evidence func(*envelope.Query) float64
	unknown := 1.0 // the weight of a root without evidence: its scores as they are
	switch method {
	case MergeScaled:
		evidence = topRaw
	case MergeCosine:
		evidence = topCosine
	case MergeCoverage:
		terms := analyze.Terms(query)
		evidence = func(q *envelope.Query) float64 { return math.Pow(coverage(terms, q), coverageExponent) }
		unknown = 0 // none of the query's words: found by vectors alone
	case MergeEvidence:
		evidence = evidenceOf(query, everyCosine(answers, ok))
		unknown = 0
	}
	if evidence == nil || len(ok) < 2 {
		return w
	}
	return relative(w, answers, ok, evidence, unknown)
}

// relative sets w[i] to each root's evidence over the best root's, or to
// unknown for a root without any (all stay 1 when no root has any).
func relative(w []float64, answers []*envelope.Query, ok []int, evidence func(*envelope.Query) float64, unknown float64) []float64 {
	ev := make([]float64, len(answers))
	var best float64
	for _, i := range ok {
		ev[i] = evidence(answers[i])
		best = max(best, ev[i])
	}
	if best <= 0 {
		return w
	}
	for _, i := range ok {
		w[i] = unknown
		if ev[i] > 0 {
			w[i] = ev[i] / best
		}
	}
	return w
}

// topRaw is the best raw score of q's results: BM25 unless the answer is
// vector-only, then cosine similarity.
func topRaw(q *envelope.Query) float64 {
	if q.Mode == engine.ModeVector {
		return topCosine(q)
	}
	var top float64
	for _, r := range q.Results {
		if r.Scores.BM25 != nil {
			top = max(top, *r.Scores.BM25)
		}
	}
	return top
}

// topCosine is the best cosine similarity of q's results to the query.
func topCosine(q *envelope.Query) float64 {
	var top float64
	for _, r := range q.Results {
		if r.Scores.Vector != nil {
			top = max(top, *r.Scores.Vector)
		}
	}
	return top
}
