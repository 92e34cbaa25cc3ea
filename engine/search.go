package engine

import (
	"context"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/rank"
)

// search answers o from the open generation g on any backend: analyze the
// query (its filter terms and mode), run the lists on g's state (side by
// side, or lexical first when dense feedback needs its best chunks), rank
// them (package rank), then materialize the results kept.
func (e *Engine) search(ctx context.Context, g *Generation, o QueryOptions, filter *backend.PathFilter) (*QueryResult, error) {
	facets, err := filterTerms(o)
	if err != nil {
		return nil, err
	}
	mode, err := e.resolveMode(g.Sidecar, o.Mode)
	if err != nil {
		return nil, err
	}
	k, perFile := defaults(o)
	q := backend.Query{Text: o.Text, Facets: facets, Filter: filter, Mode: mode, K: k, PerFile: perFile,
		Want: max(50, 5*k*perFile), // each list is oversampled before fusion
		K1:   e.Settings.K1, B: e.Settings.B}
	ls, err := g.st.Query(ctx, q)
	if err != nil {
		return nil, err
	}
	defer ls.Close()
	f := e.fusion()
	bm, de, how, err := e.runLists(ctx, ls, mode, f, o.Text)
	if err != nil {
		return nil, err
	}
	var ranking []rank.Fused
	how.f, how.floor, ranking, how.dropped = e.fuseWith(f, mode, o.Text, bm, de)
	results, err := e.materialize(ctx, ls, o, q, how, bm, ranking)
	if err != nil {
		return nil, err
	}
	return how.result(g.Sidecar, results, o.Explain), nil
}

// runLists runs the query's lexical and dense lists for its mode
// (searchLists); the dense one searches with the query's vector, turned
// by the lexical list's best chunks when the fusion says so
// (feedbackVector, the same for every backend).
func (e *Engine) runLists(ctx context.Context, ls backend.Lists, mode string, f Fusion, text string) (bm, de []rank.Hit, how ranked, err error) {
	lexical := func() ([]rank.Hit, error) {
		l, n, err := ls.Lexical(ctx)
		how.terms = n
		return l, err
	}
	dense := func(bm []rank.Hit) ([]rank.Hit, int, error) {
		stored := func(top []rank.Hit) (func(string) ([]float32, bool), error) { return ls.Vectors(ctx, top) }
		v, fed, err := e.feedbackVector(ctx, f, text, bm, stored)
		if err != nil {
			return nil, 0, err
		}
		l, err := ls.Dense(ctx, v)
		return l, fed, err
	}
	bm, de, how.fed, err = searchLists(mode, f, lexical, dense)
	how.mode = mode
	return bm, de, how, err
}

// materialize walks the ranking into the page of results, loading the
// stored fields of the chunks it keeps. In bm25 mode the lexical list
// holds just enough chunks for k files; when collapsing used some of them
// up, a backend that can (backend.Deeper) scores deeper.
func (e *Engine) materialize(ctx context.Context, ls backend.Lists, o QueryOptions, q backend.Query, how ranked, bm []rank.Hit, ranking []rank.Fused) ([]Result, error) {
	load, err := ls.Materialize(ctx, ranking, 3*q.K*q.PerFile)
	if err != nil {
		return nil, err
	}
	pg := e.resultPage(o, q.K, q.PerFile, how.mode, how.f)
	results, collapsed, err := pg.Walk(ranking, load)
	deeper, ok := ls.(backend.Deeper)
	for ok && how.mode == ModeBM25 && collapsed > 0 && len(results) < q.K && err == nil {
		n := len(bm)
		pg.K = q.K
		if bm, err = deeper.LexicalDeeper(ctx, 2*len(results)+q.K+collapsed); err != nil || len(bm) == n {
			break
		}
		ranking, _ = rank.Rank(how.mode, how.f, rank.Query{}, 0, bm, nil)
		results, collapsed, err = pg.Walk(ranking, load)
	}
	return results, err
}
