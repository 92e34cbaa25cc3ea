package engine

import (
	"context"
	"fmt"
	"sort"
)

// Reranker re-scores a query's best candidates (engine/rerank is the client
// of rerank services). Declared here, where it is used.
type Reranker interface {
	// Name identifies the reranker in the query cache key and --explain.
	Name() string
	// Rerank returns one score per text, in order; higher is better.
	Rerank(ctx context.Context, query string, texts []string) ([]float64, error)
}

// DefaultRerankN is how many of the best results a reranker re-scores.
const DefaultRerankN = 30

// rerankN is the number of candidates the configured reranker takes.
func (s Settings) rerankN() int {
	if s.RerankN > 0 {
		return s.RerankN
	}
	return DefaultRerankN
}

// widen asks the search for the candidates the reranker re-scores.
func (e *Engine) widen(o QueryOptions) QueryOptions {
	if e.Settings.Reranker == nil {
		return o
	}
	k, _ := defaults(o)
	o.K = max(k, e.Settings.rerankN())
	return o
}

// rerank re-orders the best rerankN results of res by the reranker's
// scores (ties keep the fused order), keeps the first k of o, and records
// each score in Scores.Rerank. A reranker that fails fails the query.
func (e *Engine) rerank(ctx context.Context, o QueryOptions, res *QueryResult) error {
	rr := e.Settings.Reranker
	if rr == nil || len(res.Results) == 0 {
		return nil
	}
	n := min(e.Settings.rerankN(), len(res.Results))
	top := res.Results[:n]
	texts := make([]string, n)
	for i, r := range top {
		texts[i] = r.Text
	}
	scores, err := rr.Rerank(ctx, o.Text, texts)
	if err != nil {
		return fmt.Errorf("rerank: %w", err)
	}
	if len(scores) != n {
		return fmt.Errorf("rerank: %d scores for %d passages", len(scores), n)
	}
	for i := range top {
		s := scores[i]
		top[i].Scores.Rerank = &s
		if o.Explain {
			top[i].Explain += fmt.Sprintf("; rerank %.4f (fused rank %d)", s, top[i].Rank)
		}
	}
	sort.SliceStable(top, func(a, b int) bool { return *top[a].Scores.Rerank > *top[b].Scores.Rerank })
	k, _ := defaults(o)
	res.Results = res.Results[:min(k, len(res.Results))]
	for i := range res.Results {
		res.Results[i].Rank = i + 1
		if s := res.Results[i].Scores.Rerank; s != nil {
			res.Results[i].Score = *s
		}
	}
	if o.Explain {
		res.Explain += fmt.Sprintf("; reranked the best %d with %s", n, rr.Name())
	}
	return nil
}
