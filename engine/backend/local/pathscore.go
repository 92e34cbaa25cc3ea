package local

import (
	"cmp"
	"context"
	"slices"

	"github.com/autorag/autorag/engine/rank"
)

// withPathParts sets each hit's Path: the share of its score the path
// field's terms gave, which explain shows. It walks each path term's
// postings beside the hits' documents in order (Next, not Advance:
// bleve's Advance starts over from the segment's dictionary and cost
// twice a one-word query's whole process).
func (s *searcher) withPathParts(ctx context.Context, terms []queryTerm, hits []rank.Hit) error {
	if len(hits) == 0 || bodyCount(terms) == len(terms) {
		return nil
	}
	at := make(map[string]int, len(hits))
	for i, h := range hits {
		at[h.ID] = i
	}
	docs := make([]pathDoc, 0, len(hits))
	for n, id := range s.ids {
		if i, ok := at[id]; ok {
			docs = append(docs, pathDoc{n, i})
		}
	}
	slices.SortFunc(docs, func(a, b pathDoc) int { return cmp.Compare(a.num, b.num) })
	for _, qt := range terms {
		if qt.path {
			if err := s.addPathPart(ctx, qt, docs, hits); err != nil {
				return err
			}
		}
	}
	return nil
}

// pathDoc is a hit's document number and its index in the hits.
type pathDoc struct {
	num uint64
	hit int
}

// addPathPart adds path term qt's weight to the hits of docs (by
// increasing number) that hold it.
func (s *searcher) addPathPart(ctx context.Context, qt queryTerm, docs []pathDoc, hits []rank.Hit) error {
	p, err := openPostings(ctx, s.r, fieldPath, qt.term, true, "postings of")
	if err != nil {
		return err
	}
	defer p.close()
	m := s.pathModel
	idf := m.idf(qt.df(p.count()))
	for i := 0; i < len(docs); {
		d, err := p.next(ctx)
		if err != nil || d == nil {
			return err
		}
		n := internalNum(d.ID)
		for i < len(docs) && docs[i].num < n {
			i++
		}
		if i < len(docs) && docs[i].num == n {
			hits[docs[i].hit].Path += m.weight(idf, d.Freq, lengthFromNorm(d.Norm))
		}
	}
	return nil
}
