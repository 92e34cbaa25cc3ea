package engine

import (
	"context"
	"fmt"
	"sort"
)

// rerank re-orders the best rerankN results of res by the reranker's
// scores (ties keep the fused order), keeps the first k of o, and records
// each score in Scores.Rerank. A reranker that fails (an error, a timeout,
// an answer that is not one score per passage) leaves the fused order in
// place and says so in res (Reranked false, RerankError); the query fails
// only when Settings.RerankRequired, or when ctx was cancelled.
func (e *Engine) rerank(ctx context.Context, o QueryOptions, res *QueryResult) error {
	rr := e.Settings.Reranker
	if rr == nil {
		return nil
	}
	k, _ := defaults(o)
	n := min(e.Settings.rerankN(), len(res.Results))
	scores, err := rerankScores(ctx, rr, o.Text, res.Results[:n])
	if err != nil {
		if ctx.Err() != nil || e.Settings.RerankRequired {
			return err
		}
		res.Results = res.Results[:min(k, len(res.Results))]
		res.Reranked, res.RerankError = new(bool), err.Error()
		if o.Explain {
			res.Explain += "; not reranked, fused order kept: " + err.Error()
		}
		return nil
	}
	applyRerank(res.Results[:n], scores, o.Explain)
	res.Results = res.Results[:min(k, len(res.Results))]
	for i := range res.Results {
		res.Results[i].Rank = i + 1
		if s := res.Results[i].Scores.Rerank; s != nil {
			res.Results[i].Score = *s
		}
	}
	ok := true
	res.Reranked = &ok
	if o.Explain && n > 0 {
		res.Explain += fmt.Sprintf("; reranked the best %d with %s", n, rr.Name())
	}
	return nil
}

// rerankScores asks rr for one score per passage of top.
func rerankScores(ctx context.Context, rr Reranker, query string, top []Result) ([]float64, error) {
	if len(top) == 0 {
		return nil, nil
	}
	texts := make([]string, len(top))
	for i, r := range top {
		texts[i] = r.Text
	}
	scores, err := rr.Rerank(ctx, query, texts)
	if err != nil {
		return nil, fmt.Errorf("rerank: %w", err)
	}
	if len(scores) != len(top) {
		return nil, fmt.Errorf("rerank: %d scores for %d passages", len(scores), len(top))
	}
	return scores, nil
}

// applyRerank records each passage's score and sorts top by them, best first
// (ties keep the fused order).
func applyRerank(top []Result, scores []float64, explain bool) {
	for i := range top {
		s := scores[i]
		top[i].Scores.Rerank = &s
		if explain {
			top[i].Explain += fmt.Sprintf("; rerank %.4f (fused rank %d)", s, top[i].Rank)
		}
	}
	sort.SliceStable(top, func(a, b int) bool { return *top[a].Scores.Rerank > *top[b].Scores.Rerank })
}
