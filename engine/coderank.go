package engine

import (
	"context"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/rank"
)

// codeRerank applies the code signals (rank.CodeRerank) to ranking,
// reading the chunks' definitions as the backend can read them alone
// (backend.DefReader), else through load; it returns the loader for the
// walk.
func codeRerank(ctx context.Context, ls backend.Lists, ranking []rank.Fused, q rank.Query, load rank.Loader) ([]rank.Fused, rank.Loader, error) {
	d, ok := ls.(backend.DefReader)
	if !ok {
		return rank.CodeRerankLoading(ranking, q, load)
	}
	of, err := d.DefsOf(ctx)
	if err != nil {
		return nil, nil, err
	}
	ranking, err = rank.CodeRerankDefs(ranking, q, of)
	return ranking, load, err
}
