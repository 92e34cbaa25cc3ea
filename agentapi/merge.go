package agentapi

import (
	"cmp"
	"slices"
	"strings"

	"github.com/autorag/autorag/envelope"
)

// Ways to merge the roots' rankings (WorkspaceOptions.Merge); measured
// against each other by bench/agents (merge: one corpus dealt over
// roots; roots: different corpora, each with its own questions; see
// docs/QUALITY.md, "Merging roots").
// Every way keeps each root's own order: it only decides how the roots'
// lists interleave. Passages a reranker scored come first, by its score
// as it is (every root asks the same reranker), whatever the way.
const (
	// MergeScaled multiplies each root's scores by how its best raw match
	// compares with the best over all roots (BM25 in bm25 and hybrid
	// mode, cosine similarity in vector mode), then sorts. Best when the
	// roots hold one corpus dealt at random; it answers a root's
	// questions from another root whose BM25 statistics rate them higher.
	MergeScaled = "scaled"
	// MergeScore sorts by each root's own scores as they are.
	MergeScore = "score"
	// MergeRank sorts by reciprocal rank, 1/(60+rank in its root).
	MergeRank = "rank"
	// MergeCosine multiplies each root's scores by its best cosine
	// similarity over the best of all roots.
	MergeCosine = "cosine"
	// MergeCoverage multiplies each root's scores, over its best, by its
	// coverage of the query (coverage.go) over the best of all roots'.
	MergeCoverage = "coverage"
	// MergeEvidence multiplies each root's scores by its evidence of
	// being what the query is about (coverage.go: its coverage, its best
	// files' names and definitions, its best cosine similarity) over the
	// best of all roots', its scores over its best. The default.
	MergeEvidence = "evidence"
)

// merged is a hit and what the merge sorts it by.
type merged struct {
	hit    Hit
	scored bool // by the reranker: before every passage it did not score
	key    float64
	root   int // order of its root in the request, for ties
	order  int // its rank in its root
}

// merge combines the roots' answers to r (answers[i] or errs[i] for
// ms[i]) into one, best first, cut to r's k.
func merge(r WorkspaceSearch, ms []*member, answers []*envelope.Query, errs []error, method string) (*SearchAnswer, error) {
	o, _ := r.options()
	out := &SearchAnswer{OK: true, Outcome: "ok", Query: r.Query, K: o.K, Results: []Hit{}, Cached: true}
	var firstErr error
	var ok []int
	for i, m := range ms {
		ra := RootAnswer{Root: m.name, Path: m.e.Layout.Root}
		if errs[i] != nil {
			firstErr = cmp.Or(firstErr, errs[i])
			ra.Error = &ErrorEnvelope(errs[i]).Error
		} else {
			q := answers[i]
			ra = rootAnswer(m.name, q)
			ra.Path, ra.Cached, ra.Stale, ra.StaleCheckedAt = m.e.Layout.Root, q.Cached, q.Stale, q.StaleCheckedAt
			ok = append(ok, i)
		}
		out.Roots = append(out.Roots, ra)
	}
	if len(ok) == 0 {
		return nil, cmp.Or(firstErr, errNoRoots)
	}
	all := keyed(r.Query, ms, answers, ok, method, out)
	slices.SortStableFunc(all, func(a, b merged) int {
		if a.scored != b.scored {
			return cmpBool(b.scored, a.scored)
		}
		return cmp.Or(cmp.Compare(b.key, a.key), cmp.Compare(a.order, b.order), cmp.Compare(a.root, b.root))
	})
	for n, x := range all[:min(len(all), o.K)] {
		x.hit.Rank = n + 1
		out.Results = append(out.Results, x.hit)
	}
	summarize(out, answers, ok, ms)
	return out, nil
}

// keyed is every answering root's hits with the key method sorts them by,
// each root's weight recorded in out.Roots.
func keyed(query string, ms []*member, answers []*envelope.Query, ok []int, method string, out *SearchAnswer) []merged {
	weights := weightsOf(query, answers, ok, method)
	var all []merged
	for _, i := range ok {
		q := answers[i]
		out.Roots[i].Scale = weights[i]
		out.Cached = out.Cached && q.Cached
		w := weights[i]
		top := 1.0
		if t := topScore(q); (method == MergeCoverage || method == MergeEvidence) && len(ok) > 1 && t > 0 {
			top = t // each root's best at its weight (fusion for code tops out below 1)
		}
		for j, res := range q.Results {
			h := Hit{Root: ms[i].name, Result: res}
			x := merged{root: i, order: j, key: res.Score / top * w}
			switch {
			case res.Scores.Rerank != nil:
				x.scored, x.key = true, *res.Scores.Rerank
			case method == MergeRank:
				x.key = 1 / (60 + float64(j+1))
			}
			if x.key != res.Score {
				s := res.Score
				h.RootScore, h.Score = &s, x.key
			}
			x.hit = h
			all = append(all, x)
		}
	}
	return all
}

// topScore is the best score of q's results a reranker did not score.
func topScore(q *envelope.Query) float64 {
	var top float64
	for _, r := range q.Results {
		if r.Scores.Rerank == nil {
			top = max(top, r.Score)
		}
	}
	return top
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// summarize fills the envelope's single-valued fields from the answering
// roots: fingerprint and generation of the only one, the mode they share
// (else "mixed"), stale when any is.
func summarize(out *SearchAnswer, answers []*envelope.Query, ok []int, ms []*member) {
	first := answers[ok[0]]
	out.Mode = first.Mode
	if len(ok) == 1 {
		out.Fingerprint, out.Generation, out.Explain = first.Fingerprint, first.Generation, first.Explain
	}
	var explains []string
	for _, i := range ok {
		q := answers[i]
		if q.Mode != out.Mode {
			out.Mode = "mixed"
		}
		if q.Explain != "" && len(ok) > 1 {
			explains = append(explains, ms[i].name+": "+q.Explain)
		}
		rerankOf(out, q, ms[i].name, len(ok) > 1)
		if q.Stale != nil {
			s := *q.Stale || out.Stale != nil && *out.Stale
			out.Stale = &s
			if out.StaleCheckedAt == nil || q.StaleCheckedAt != nil && q.StaleCheckedAt.Before(*out.StaleCheckedAt) {
				out.StaleCheckedAt = q.StaleCheckedAt
			}
		}
	}
	if len(explains) > 0 {
		out.Explain = strings.Join(explains, "; ")
	}
}

// rerankOf folds one root's reranked flag into out's: false, with the
// first failure's reason (named by root when several answered), when the
// reranker failed for any root.
func rerankOf(out *SearchAnswer, q *envelope.Query, root string, several bool) {
	if q.Reranked == nil {
		return
	}
	if out.Reranked == nil || *out.Reranked && !*q.Reranked {
		v := *q.Reranked
		out.Reranked = &v
	}
	if q.RerankError != "" && out.RerankError == "" {
		out.RerankError = q.RerankError
		if several {
			out.RerankError = root + ": " + q.RerankError
		}
	}
}
