package rerank

import (
	"context"
	"fmt"
	"sort"

	"github.com/autorag/autorag/engine/rank"
)

// Scorer re-scores texts for a query, one score per text in order, higher
// better (Client is one; so is the engine's Reranker).
type Scorer interface {
	Rerank(ctx context.Context, query string, texts []string) ([]float64, error)
}

// Reorder asks s to score the passages of top and sorts top by those
// scores, best first (ties keep the given order): each result's score
// becomes its rerank score, recorded in Scores.Rerank too, and with
// explain its explanation says its score and former rank. When s fails,
// or answers other than one score per passage, top is left as it was.
func Reorder(ctx context.Context, s Scorer, query string, top []rank.Result, explain bool) error {
	if len(top) == 0 {
		return nil
	}
	texts := make([]string, len(top))
	for i, r := range top {
		texts[i] = r.Text
	}
	scores, err := s.Rerank(ctx, query, texts)
	if err != nil {
		return err
	}
	if len(scores) != len(top) {
		return fmt.Errorf("%d scores for %d passages", len(scores), len(top))
	}
	for i := range top {
		sc := scores[i]
		top[i].Scores.Rerank, top[i].Score = &sc, sc
		if explain {
			top[i].Explain += fmt.Sprintf("; rerank %.4f (fused rank %d)", sc, top[i].Rank)
		}
	}
	sort.SliceStable(top, func(a, b int) bool { return *top[a].Scores.Rerank > *top[b].Scores.Rerank })
	for i := range top {
		top[i].Rank = i + 1
	}
	return nil
}
