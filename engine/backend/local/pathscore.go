package local

import (
	"cmp"
	"context"
	"slices"

	"github.com/autorag/autorag/engine/rank"
)

// withPathParts sets each hit's Path: the share of its score the path
// field's terms gave (explain shows it; hybrid fusion may leave it out).
// It reads each path term's postings at the hits' documents only.
func (s *searcher) withPathParts(ctx context.Context, terms []queryTerm, hits []rank.Hit) error {
	if len(hits) == 0 || bodyCount(terms) == len(terms) {
		return nil
	}
	at := make(map[string]int, len(hits))
	for i, h := range hits {
		at[h.ID] = i
	}
	type doc struct {
		num uint64
		hit int
	}
	docs := make([]doc, 0, len(hits))
	for n, id := range s.ids {
		if i, ok := at[id]; ok {
			docs = append(docs, doc{n, i})
		}
	}
	slices.SortFunc(docs, func(a, b doc) int { return cmp.Compare(a.num, b.num) })
	for _, qt := range terms {
		if !qt.path {
			continue
		}
		t, p, _, err := s.pruneTerm(ctx, qt)
		if err != nil {
			return err
		}
		for _, d := range docs {
			ok, err := p.Advance(d.num)
			if err != nil {
				p.tfr.Close()
				return err
			}
			if !ok {
				break
			}
			if p.Doc() == d.num {
				hits[d.hit].Path += t.Weight(p.Freq(), p.Len())
			}
		}
		p.tfr.Close()
	}
	return nil
}
