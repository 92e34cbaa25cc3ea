package local

import (
	"cmp"
	"context"

	index "github.com/blevesearch/bleve_index_api"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/rank"
)

// lists are one query's lists on a local generation, read through one
// bleve reader: the exact BM25 list (bm25list.go, per language:
// querylang.go), the vector scan (vectors.go) and the stored fields of
// the results (load.go).
type lists struct {
	ls     *State
	q      backend.Query
	r      index.IndexReader
	s      *searcher
	filter *backend.PathFilter // q.Filter narrowed by the filter terms
	terms  []queryTerm         // the analyzed query, once Lexical ran
}

var (
	_ backend.Lists  = (*lists)(nil)
	_ backend.Deeper = (*lists)(nil)
)

// Query opens a reader on the generation and narrows the path filter to
// the files with q's filter terms.
func (ls *State) Query(ctx context.Context, q backend.Query) (backend.Lists, error) {
	if q.Mode != rank.ModeBM25 && ls.vec == nil {
		return nil, backend.Usagef("generation %s has no vectors for embedder %s", ls.sc.Generation, cmp.Or(ls.embedder, "none"))
	}
	r, err := openReader(ls.idx)
	if err != nil {
		return nil, err
	}
	s := &searcher{r: r, model: modelOf(ls.sc, q.K1, q.B), exhaustive: ls.scorer == ScorerExhaustive, tiers: ls.tiers}
	filter, err := s.withFacets(ctx, q.Filter, q.Facets)
	if err != nil {
		r.Close()
		return nil, err
	}
	return &lists{ls: ls, q: q, r: r, s: s, filter: filter}, nil
}

// Lexical scores the query's terms over the generation's postings: in
// hybrid mode the top Want chunks, in bm25 mode enough to fill K files.
func (l *lists) Lexical(ctx context.Context) ([]rank.Hit, int, error) {
	terms, err := l.s.queryTerms(ctx, l.ls, l.q.Text)
	if err != nil {
		return nil, 0, err
	}
	l.terms = terms
	hits, err := l.s.bm25List(ctx, terms, l.filter, l.q.Mode, l.q.Want, l.q.K, l.q.PerFile)
	return hits, len(terms), err
}

// LexicalDeeper is Lexical's list filling k files.
func (l *lists) LexicalDeeper(ctx context.Context, k int) ([]rank.Hit, error) {
	return l.s.bm25List(ctx, l.terms, l.filter, l.q.Mode, l.q.Want, k, l.q.PerFile)
}

// Dense scans the generation's vectors (with a path filter, deeper, so
// that enough chunks pass).
func (l *lists) Dense(_ context.Context, q []float32) ([]rank.Hit, error) {
	return searchVectors(l.ls.vec, q, l.filter, l.q.Want), nil
}

// Vectors looks the stored vectors up in the mapped vector index.
func (l *lists) Vectors(context.Context, []rank.Hit) (func(string) ([]float32, bool), error) {
	return l.ls.vec.Vector, nil
}

// Materialize loads stored fields through the query's reader, as the walk
// asks for them.
func (l *lists) Materialize(context.Context, []rank.Fused, int) (func(id, path string, ord int) (rank.Result, error), error) {
	return l.s.load, nil
}

// Close releases the reader.
func (l *lists) Close() error { return l.r.Close() }
