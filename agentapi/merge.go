package agentapi

import (
	"cmp"
	"slices"
	"strings"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
)

// Ways to merge the roots' rankings (WorkspaceOptions.Merge); measured
// against each other and against one index over all the files by
// bench/workspace.
const (
	// MergeScaled multiplies each root's scores by how its best raw match
	// compares with the best over all roots (BM25 in bm25 and hybrid
	// mode, cosine similarity in vector mode), then sorts. The default.
	MergeScaled = "scaled"
	// MergeScore sorts by each root's own scores as they are.
	MergeScore = "score"
	// MergeRank sorts by reciprocal rank, 1/(60+rank in its root).
	MergeRank = "rank"
)

// merged is a hit and what the merge sorts it by.
type merged struct {
	hit   Hit
	key   float64
	root  int // order of its root in the request, for ties
	order int // its rank in its root
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
			ra.OK, ra.Mode, ra.Fingerprint, ra.Generation, ra.Cached = true, q.Mode, q.Fingerprint, q.Generation, q.Cached
			ra.Results, ra.Stale, ra.StaleCheckedAt = len(q.Results), q.Stale, q.StaleCheckedAt
			ok = append(ok, i)
		}
		out.Roots = append(out.Roots, ra)
	}
	if len(ok) == 0 {
		return nil, cmp.Or(firstErr, errNoRoots)
	}
	scales := scalesOf(answers, ok, method)
	var all []merged
	for _, i := range ok {
		q := answers[i]
		out.Roots[i].Scale = scales[i]
		out.Cached = out.Cached && q.Cached
		for j, res := range q.Results {
			h := Hit{Root: ms[i].name, Result: res}
			key := res.Score * scales[i]
			if method == MergeRank {
				key = 1 / (60 + float64(j+1))
			}
			if scales[i] != 1 {
				s := res.Score
				h.RootScore, h.Score = &s, key
			}
			all = append(all, merged{hit: h, key: key, root: i, order: j})
		}
	}
	slices.SortStableFunc(all, func(a, b merged) int {
		return cmp.Or(cmp.Compare(b.key, a.key), cmp.Compare(a.order, b.order), cmp.Compare(a.root, b.root))
	})
	for n, x := range all[:min(len(all), o.K)] {
		x.hit.Rank = n + 1
		out.Results = append(out.Results, x.hit)
	}
	summarize(out, answers, ok, ms)
	return out, nil
}

// scalesOf is each answering root's factor (1 unless MergeScaled and
// several roots answered): its best raw score over the best of all.
func scalesOf(answers []*envelope.Query, ok []int, method string) []float64 {
	scales := make([]float64, len(answers))
	for _, i := range ok {
		scales[i] = 1
	}
	if method != MergeScaled || len(ok) < 2 {
		return scales
	}
	tops := make([]float64, len(answers))
	var best float64
	for _, i := range ok {
		tops[i] = topRaw(answers[i])
		best = max(best, tops[i])
	}
	if best <= 0 {
		return scales
	}
	for _, i := range ok {
		if tops[i] > 0 { // a root with no raw score to compare keeps its own
			scales[i] = tops[i] / best
		}
	}
	return scales
}

// topRaw is the best raw score of q's results: BM25 unless the answer is
// vector-only, then cosine similarity.
func topRaw(q *envelope.Query) float64 {
	var top float64
	for _, r := range q.Results {
		if q.Mode == engine.ModeVector {
			if r.Scores.Vector != nil {
				top = max(top, *r.Scores.Vector)
			}
		} else if r.Scores.BM25 != nil {
			top = max(top, *r.Scores.BM25)
		}
	}
	return top
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
