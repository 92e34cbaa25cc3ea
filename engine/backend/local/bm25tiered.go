package local

// The tiered lexical list: prune.TopKTiered over the terms' tiers
// (tiers.go), with the same ranking as MaxScore and the exhaustive scorer.

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"github.com/autorag/autorag/engine/prune"
)

// tieredBudget bounds one tiered search's work (documents examined and
// combinations walked) given the number of postings of its terms: past it
// the query is pruned with MaxScore instead, whose cost is about a posting
// read per posting. A membership test costs less than a posting read.
func tieredBudget(postings int) int { return postings + 1<<16 }

// tieredTop is bm25Top from the terms' tiers, when every term has them
// (ok false: it did nothing but count the uses, and build the tiers of
// terms used often enough).
func (s *searcher) tieredTop(ctx context.Context, terms []queryTerm, m int) (hits []hit, complete bool, postings int, ok bool, err error) {
	c := s.tiers
	if c == nil || len(terms) == 0 || len(terms) > c.maxTerms || s.model.k1 < 0 || s.model.b < 0 || s.model.b > 1 {
		return nil, false, 0, false, nil
	}
	tts := make([]*termTiers, len(terms))
	ok = true
	for i, qt := range terms {
		key := tierKey(qt)
		tt, build := c.lookup(key)
		if tt == nil && build {
			var fits bool
			if tt, fits, err = s.readTiers(ctx, qt); err != nil {
				return nil, false, 0, false, err
			}
			if fits {
				c.store(key, tt)
			} else {
				tt = nil
			}
		}
		tts[i], ok = tt, ok && tt != nil
	}
	if !ok {
		return nil, false, 0, false, nil
	}
	pts := make([]prune.TieredTerm, len(terms))
	for i, qt := range terms {
		pts[i] = s.tieredTerm(qt, tts[i])
		postings += int(tts[i].df)
	}
	top, complete, err := prune.TopKTiered(pts, m, tieredBudget(postings))
	if errors.Is(err, prune.ErrBudget) {
		return nil, false, 0, false, nil
	}
	if err != nil {
		return nil, false, 0, false, err
	}
	hits = make([]hit, len(top))
	for i, h := range top {
		hits[i] = hit{num: h.Doc, score: h.Score}
	}
	s.tieredRuns++
	return hits, complete, postings, true, nil
}

// tieredTerm is qt's tiers under the query's model: the idf and cell
// bounds of the exhaustive scorer's weights (over the chunks of qt's
// languages for a scoped term, as scopedPostings).
func (s *searcher) tieredTerm(qt queryTerm, tt *termTiers) prune.TieredTerm {
	m := s.model
	if qt.langs != allLangs {
		m.n = float64(s.langs.chunks(qt.langs))
	}
	idf := m.idf(tt.df)
	return prune.TieredTerm{
		Code:    tt.code,
		Buckets: tt.priced(m, idf),
		Weight:  func(tf uint64, dl int) float64 { return m.weight(idf, tf, dl) },
	}
}

// priced is the cells with their bounds under the model and idf, kept for
// the next query of the same model.
func (tt *termTiers) priced(m bm25, idf float64) [][]prune.Cell {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	if tt.price.buckets != nil && tt.price.m == m && tt.price.idf == idf {
		return tt.price.buckets
	}
	out := make([][]prune.Cell, len(tt.buckets))
	for j, cells := range tt.buckets {
		out[j] = make([]prune.Cell, len(cells))
		for i, c := range cells {
			// weight grows with tf and, for b in [0, 1], does not with dl
			out[j][i] = prune.Cell{Docs: c.docs, TF: c.tf, DL: c.dl, Class: c.class, Bound: m.weight(idf, uint64(c.maxTF), int(c.minDL))}
		}
		// best bound first, the walk's order
		slices.SortStableFunc(out[j], func(a, b prune.Cell) int { return cmp.Compare(b.Bound, a.Bound) })
	}
	tt.price.m, tt.price.idf, tt.price.buckets = m, idf, out
	return out
}
