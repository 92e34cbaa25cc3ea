package local

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/engine/record"
)

var _ backend.ChunkScorer = (*lists)(nil)

// ChunksOf finds the chunks of paths by their IDs (a file's chunks are
// numbered from 0 without gaps) and keeps the BM25 scores of the query
// (as Lexical scores it) that fall in them. It scores every posting of
// the query's terms, without ordering them: cheaper than a filtered
// Lexical, which would resolve the ID of every chunk ranked above them.
func (l *lists) ChunksOf(ctx context.Context, paths []string) ([]string, []rank.Hit, error) {
	nums := map[uint64]string{}
	var ids []string
	for _, p := range paths {
		for ord := 0; ; ord++ {
			id := record.ChunkID(p, ord)
			in, err := l.r.InternalID(id)
			if err != nil {
				return nil, nil, fmt.Errorf("look up chunk %s#%d: %w", p, ord, err)
			}
			if len(in) == 0 {
				break
			}
			if l.filter.Match(id) {
				nums[internalNum(in)] = id
				ids = append(ids, id)
			}
		}
	}
	if len(ids) == 0 || l.q.Mode == rank.ModeVector {
		return ids, nil, nil
	}
	terms := l.terms
	if terms == nil {
		var err error
		if terms, err = l.s.queryTerms(ctx, l.ls, l.q.Text); err != nil {
			return nil, nil, err
		}
	}
	hits, err := l.s.bm25(ctx, terms)
	if err != nil {
		return nil, nil, err
	}
	var bm []rank.Hit
	for _, h := range hits {
		if id, ok := nums[h.num]; ok {
			bm = append(bm, rank.Hit{ID: id, Score: h.score})
		}
	}
	slices.SortFunc(bm, func(a, b rank.Hit) int { return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.ID, b.ID)) })
	return ids, bm, nil
}
