package local

// The pruned lexical list: MaxScore (package prune) over bleve's postings,
// with the same ranking as the exhaustive scorer (bm25list.go).

import (
	"context"
	"encoding/binary"
	"fmt"

	index "github.com/blevesearch/bleve_index_api"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/prune"
	"github.com/autorag/autorag/engine/rank"
)

// Scorer chooses how a generation's BM25 list is computed; all rank alike.
type Scorer int

const (
	// ScorerPruned (the default) prunes with MaxScore where that is
	// cheaper than scoring every posting, and from a term's second use in
	// the State on with its tiered postings (tiers.go).
	ScorerPruned Scorer = iota
	// ScorerExhaustive scores every posting, as before pruning: tests and
	// benchmarks compare the other scorers with it.
	ScorerExhaustive
	// ScorerMaxScore prunes with MaxScore alone, as before tiers.
	ScorerMaxScore
)

// prunedList is bm25List's walk over prefixes of the pruned scorer's
// ranking. When a prefix of m does not hold enough chunks (a filter or the
// per-file limit used it up), it estimates the prefix that would from the
// share that passed, and gives up (done false) with that estimate when
// pruning to it would cost more than scoring every posting.
func (s *searcher) prunedList(ctx context.Context, terms []queryTerm, filter *backend.PathFilter, mode string, want, k, perFile, m int) (out []rank.Hit, done bool, next int, err error) {
	need := k
	if mode != rank.ModeBM25 {
		need = want
	}
	for {
		hits, complete, postings, err := s.bm25Top(ctx, terms, m)
		if err != nil {
			return nil, false, 0, err
		}
		ranked, err := s.topHits(hits, m)
		if err != nil {
			return nil, false, 0, err
		}
		out, enough, got, err := s.collect(ranked, filter, mode, want, k, perFile)
		if err != nil || enough || complete {
			return out, true, 0, err
		}
		next := 2 * m
		if got > 0 {
			next = max(next, 2*m*need/got)
		}
		if next > postings/pruneShare {
			return nil, false, next, nil
		}
		m = next
	}
}

// pruneShare: a prefix of more than 1/pruneShare of the postings a query
// reads is scored exhaustively. MaxScore's gain shrinks as the prefix
// grows, and each refill prunes again from the start.
const pruneShare = 16

// bm25Top returns the hits whose score is at least the m-th best (ties
// included), unordered, whether they are every chunk that matches, and
// the number of postings of the terms.
func (s *searcher) bm25Top(ctx context.Context, terms []queryTerm, m int) ([]hit, bool, int, error) {
	if hits, complete, postings, ok, err := s.tieredTop(ctx, terms, m); err != nil || ok {
		return hits, complete, postings, err
	}
	pts := make([]prune.Term, 0, len(terms))
	var open []*tfrPostings
	defer func() {
		for _, p := range open {
			p.tfr.Close()
		}
	}()
	postings := 0
	for _, qt := range terms {
		t, p, n, err := s.pruneTerm(ctx, qt)
		if err != nil {
			return nil, false, 0, err
		}
		if p != nil {
			open = append(open, p)
		}
		pts, postings = append(pts, t), postings+n
	}
	top, complete, err := prune.TopK(pts, m)
	if err != nil {
		return nil, false, 0, err
	}
	hits := make([]hit, len(top))
	for i, h := range top {
		hits[i] = hit{num: h.Doc, score: h.Score}
	}
	return hits, complete, postings, nil
}

// pruneTerm is one query term for prune.TopK, and its number of postings:
// the live postings of a term that scores everywhere, the materialized
// postings of one scoped to some languages (its idf needs their count
// first).
func (s *searcher) pruneTerm(ctx context.Context, qt queryTerm) (prune.Term, *tfrPostings, int, error) {
	if qt.langs != allLangs {
		t, n, err := s.scopedTerm(ctx, qt)
		return t, nil, n, err
	}
	tfr, err := s.r.TermFieldReader(ctx, []byte(qt.term), fieldBody, true, true, false)
	if err != nil {
		return prune.Term{}, nil, 0, fmt.Errorf("postings of %q: %w", qt.term, err)
	}
	m := s.model
	idf := m.idf(tfr.Count())
	p := &tfrPostings{ctx: ctx, tfr: tfr, term: qt.term, id: make([]byte, 8)}
	w := func(tf uint64, dl int) float64 { return m.weight(idf, tf, dl) }
	return prune.Term{Postings: p, Weight: w, Bound: m.bound(idf)}, p, int(tfr.Count()), nil
}

// bound is an upper bound of a term's weight in any chunk, whatever its
// length and the collection's: the weight's limit as the term frequency
// grows, idf·(k1+1). Tighter bounds (a term's largest frequency and
// shortest chunk, stored with the index) read fewer postings but advance
// more, and measured no faster (docs/BENCHMARKS.md).
func (m bm25) bound(idf float64) float64 { return idf * (m.k1 + 1) }

// scopedTerm reads a language-scoped term's postings (scoreTermIn's walk)
// into memory, with its exact maximum weight as the bound.
func (s *searcher) scopedTerm(ctx context.Context, qt queryTerm) (prune.Term, int, error) {
	docs, m, idf, seen, err := s.scopedPostings(ctx, qt, nil)
	if err != nil {
		return prune.Term{}, 0, err
	}
	w := func(tf uint64, dl int) float64 { return m.weight(idf, tf, dl) }
	bound := 0.0
	for _, d := range docs {
		bound = max(bound, w(d.tf, lengthFromNorm(d.norm)))
	}
	return prune.Term{Postings: &slicePostings{docs: docs, i: -1}, Weight: w, Bound: bound}, seen, nil
}

// tfrPostings is prune.Postings over a bleve term field reader; every 1024
// steps it checks the context.
type tfrPostings struct {
	ctx  context.Context
	tfr  index.TermFieldReader
	tfd  index.TermFieldDoc
	id   []byte // Advance's target
	doc  uint64
	tf   uint64
	norm float64
	seen int
	term string
}

func (p *tfrPostings) Next() (bool, error) {
	if err := p.step(); err != nil {
		return false, err
	}
	d, err := p.tfr.Next(&p.tfd)
	return p.at(d, err)
}

func (p *tfrPostings) Advance(target uint64) (bool, error) {
	if err := p.step(); err != nil {
		return false, err
	}
	binary.BigEndian.PutUint64(p.id, target)
	d, err := p.tfr.Advance(p.id, &p.tfd)
	return p.at(d, err)
}

func (p *tfrPostings) step() error {
	if p.seen%1024 == 0 && p.ctx.Err() != nil {
		return p.ctx.Err()
	}
	p.seen++
	return nil
}

func (p *tfrPostings) at(d *index.TermFieldDoc, err error) (bool, error) {
	if err != nil {
		return false, fmt.Errorf("postings of %q: %w", p.term, err)
	}
	if d == nil {
		return false, nil
	}
	p.doc, p.tf, p.norm = internalNum(d.ID), d.Freq, d.Norm
	return true, nil
}

func (p *tfrPostings) Doc() uint64  { return p.doc }
func (p *tfrPostings) Freq() uint64 { return p.tf }
func (p *tfrPostings) Len() int     { return lengthFromNorm(p.norm) }

// slicePostings is prune.Postings over postings read into memory.
type slicePostings struct {
	docs []posting
	i    int
}

func (p *slicePostings) Next() (bool, error) {
	p.i++
	return p.i < len(p.docs), nil
}

func (p *slicePostings) Advance(target uint64) (bool, error) {
	for p.i++; p.i < len(p.docs) && p.docs[p.i].num < target; p.i++ {
	}
	return p.i < len(p.docs), nil
}

func (p *slicePostings) Doc() uint64  { return p.docs[p.i].num }
func (p *slicePostings) Freq() uint64 { return p.docs[p.i].tf }
func (p *slicePostings) Len() int     { return lengthFromNorm(p.docs[p.i].norm) }
