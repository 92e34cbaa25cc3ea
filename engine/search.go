package engine

import (
	"context"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/copyswap"
	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/mirrorview"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/memfault"
	"github.com/autorag/autorag/mirror"
)

// search answers o from the open generation g on any backend: analyze the
// query (its filter terms and mode), run the lists on g's state (side by
// side, or lexical first when dense feedback needs its best chunks), rank
// them (package rank), then materialize the results kept.
func (e *Engine) search(ctx context.Context, g *Generation, o QueryOptions, filter *backend.PathFilter) (*QueryResult, error) {
	e = e.reading(g.Sidecar) // the embedder the generation was built with
	facets, err := filterTerms(o)
	if err != nil {
		return nil, err
	}
	mode, err := e.resolveMode(g.Sidecar, o.Mode)
	if err != nil {
		return nil, err
	}
	_, perFile := defaults(o)
	fetch := max(o.K, FetchK) // each list is oversampled before fusion
	q := backend.Query{Text: o.Text, Facets: facets, Filter: filter, Mode: mode, K: fetch, PerFile: perFile,
		Want: 5 * fetch * perFile, K1: e.Settings.K1, B: e.Settings.B}
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
	_, how.noLexical = rank.LexicalFloor(mode, how.floor, bm)
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
		how.vec = v
		l, err := ls.Dense(ctx, v)
		return l, fed, err
	}
	bm, de, how.fed, err = searchLists(mode, f, lexical, dense)
	how.mode = mode
	return bm, de, how, err
}

// FetchK is the number of files the lists hold for any k up to it, so a
// ranking (and its first k results) does not depend on k.
const FetchK = 100

// materialize walks the ranking into the page of results, loading the
// stored fields of the chunks it keeps. In bm25 mode the lexical list
// holds just enough chunks for q.K files; when collapsing used some of
// them up, a backend that can (backend.Deeper) scores deeper.
func (e *Engine) materialize(ctx context.Context, ls backend.Lists, o QueryOptions, q backend.Query, how ranked, bm []rank.Hit, ranking []rank.Fused) ([]Result, error) {
	k, _ := defaults(o)
	load, err := ls.Materialize(ctx, ranking, 3*k*q.PerFile)
	if err != nil {
		return nil, err
	}
	pg := e.resultPage(o, k, q.PerFile, how.mode, how.f)
	ranking, load, err = rank.CodeRerankFrom(ctx, ls, ranking, pg.Query, load)
	if err != nil {
		return nil, err
	}
	results, collapsed, err := pg.Walk(ranking, load)
	deeper, ok := ls.(backend.Deeper)
	for ok && how.mode == ModeBM25 && collapsed > 0 && len(results) < k && err == nil {
		n := len(bm)
		if bm, err = deeper.LexicalDeeper(ctx, 2*len(results)+q.K+collapsed); err != nil || len(bm) == n {
			break
		}
		ranking, _ = rank.Rank(how.mode, how.f, rank.Query{}, 0, bm, nil)
		if ranking, load, err = rank.CodeRerankFrom(ctx, ls, ranking, pg.Query, load); err != nil {
			break
		}
		results, collapsed, err = pg.Walk(ranking, load)
	}
	if err != nil {
		return nil, err
	}
	return copyswap.Swap(ctx, ls, pg, how.vec, e.Layout.ManifestPath(), results)
}

// The ranking types and names of the engine's API are those of package
// rank, which owns them.
type (
	Fusion   = rank.Fusion
	Result   = rank.Result
	Scores   = rank.Scores
	Location = rank.Location
)

// Fusion methods and query modes (package rank).
const (
	FusionRRF      = rank.FusionRRF
	FusionConvex   = rank.FusionConvex
	FusionAdaptive = rank.FusionAdaptive

	ModeBM25   = rank.ModeBM25
	ModeVector = rank.ModeVector
	ModeHybrid = rank.ModeHybrid
)

// ranked is how a search ranked its results, on any backend.
type ranked struct {
	mode    string
	f       Fusion
	floor   float64   // hybrid: the vector-only floor applied
	dropped int       // vector-only chunks below the floor
	terms   int       // distinct query terms after analysis
	fed     int       // chunks whose vectors turned the query vector
	vec     []float32 // the vector the dense list searched with
	// noLexical: hybrid, and the lexical list found nothing (the floor is
	// then at least rank.NoLexicalFloor).
	noLexical bool
}

// result is the answer of results ranked so; with explain it says how.
func (how ranked) result(sc *fingerprint.Sidecar, results []Result, explain bool) *QueryResult {
	res := &QueryResult{Fingerprint: sc.Fingerprint, Generation: sc.Generation, Mode: how.mode, Results: results, Dropped: how.dropped}
	if how.noLexical {
		res.Hint = rank.NoLexicalHint(how.floor, how.dropped)
	}
	if how.mode == ModeHybrid {
		res.Fusion = how.f.String()
	}
	if explain {
		res.Explain = rank.ExplainQuery(how.mode, how.f, how.floor, how.dropped, how.terms) + rank.ExplainFeedback(how.mode, how.f, how.fed)
	}
	return res
}

func defaults(o QueryOptions) (k, perFile int) {
	k, perFile = o.K, o.PerFile
	if k <= 0 {
		k = 10
	}
	if perFile <= 0 {
		perFile = 1
	}
	return k, perFile
}

// searchLists runs a query's BM25 and dense searches for its mode. They run
// side by side (BM25 scoring takes one core, and the dense search would
// otherwise wait for it), except when a hybrid query's vector takes
// feedback from BM25's best chunks (rank/feedback.go): dense then follows and
// gets BM25's list, where side by side it gets nil. It returns both lists
// and how many chunks turned the query vector.
func searchLists(mode string, f Fusion, lexical func() ([]rank.Hit, error), dense func(bm []rank.Hit) ([]rank.Hit, int, error)) (bm, de []rank.Hit, fed int, err error) {
	if mode == ModeHybrid && f.Feedback > 0 {
		if bm, err = lexical(); err != nil {
			return nil, nil, 0, err
		}
		de, fed, err = dense(bm)
		return bm, de, fed, err
	}
	var deErr error
	var wg memfault.Group // the dense search reads mapped vectors
	if mode != ModeBM25 {
		wg.Go(func() { de, _, deErr = dense(nil) })
	}
	if mode != ModeVector {
		bm, err = lexical()
	}
	wg.Wait()
	if err == nil {
		err = deErr
	}
	return bm, de, fed, err
}

// fuseWith ranks a query's two lists the same way on every backend: the
// fusion f, the query's dense weight and, in hybrid mode, the floor below
// which a vector-only hit is dropped.
func (e *Engine) fuseWith(f Fusion, mode, text string, bm, de []rank.Hit) (_ Fusion, floor float64, ranking []rank.Fused, dropped int) {
	if mode == ModeHybrid {
		floor = e.floor(f, text, bm)
		// A query of words the embedder does not know ("glimmerquash"):
		// its vector finds similar spellings, which BM25's real hits far
		// outscore. de is best first.
		if len(de) > 0 && f.FloorRatio*de[0].Score > floor && e.knowsNone(text) {
			floor = f.FloorRatio * de[0].Score
		}
		floor, _ = rank.LexicalFloor(mode, floor, bm)
	}
	ranking, dropped = rank.Rank(mode, f, rankQuery(text), floor, bm, de)
	return f, floor, ranking, dropped
}

// rankQuery is what ranking needs to know of a query and the corpus
// beyond its lists (rank.Query).
func rankQuery(text string) rank.Query {
	l := analyze.DetectQuery(text)
	return rank.Query{Text: text, Stem: analyze.Stemmer(), Foreign: l != "" && l != analyze.English, Script: rank.ScriptOf(text), IsCode: backend.CodeFiles(), MayAttach: backend.MayAttach}
}

// floor is the similarity a vector-only hit needs for this query
// (rank.Floor): whether the embedder knows none of the query's words is
// the embedder's to say (embed.Coverer).
func (e *Engine) floor(f Fusion, text string, bm25 []rank.Hit) float64 {
	return rank.Floor(f, bm25, func() bool { return e.knowsNone(text) })
}

// knowsNone reports whether the embedder knows none of text's words (its
// vector is then made of character n-grams only).
func (e *Engine) knowsNone(text string) bool {
	c, ok := e.Settings.Embedder.(embed.Coverer)
	return ok && c.Coverage(text) == 0
}

// feedbackVector is the vector a query's dense search uses: the query's
// own, turned by BM25's best chunks when the fusion says so (rank.Turn),
// whose stored vectors stored looks up (a backend may fetch them first).
// It also returns how many chunks' vectors it took.
func (e *Engine) feedbackVector(ctx context.Context, f Fusion, text string, bm []rank.Hit, stored func(top []rank.Hit) (func(id string) ([]float32, bool), error)) ([]float32, int, error) {
	q, err := e.queryVector(ctx, text)
	if err != nil {
		return nil, 0, err
	}
	return rank.Turn(f, rankQuery(text), q, bm, stored)
}

// resultPage is how a ranking becomes results for o: the per-file limit,
// the collapse of repeated passages and of copies of one document across
// folders, with the copy the query names (a version, a folder of --path,
// the query's language) shown (copyswap.Setup), and what explain says.
func (e *Engine) resultPage(o QueryOptions, k, perFile int, mode string, f rank.Fusion) rank.Page {
	pg := rank.Page{K: k, PerFile: perFile, Collapse: !o.NoCollapse, Explain: o.Explain, Mode: mode, Fusion: f, Query: rankQuery(o.Text)}
	return copyswap.Setup(pg, o.pathPatterns(), e.mirrorDocs)
}

// addMeta sets on each result the metadata o filtered on (Result.Meta):
// the values of the fields --filter named, and the type --type did, from
// the file's mirror (or its attachment's), so a user sees what to type.
func (e *Engine) addMeta(res *QueryResult, o QueryOptions) {
	if len(o.Filters) == 0 && o.Type == "" || len(res.Results) == 0 {
		return
	}
	docs := e.mirrorDocs()
	if docs == nil {
		return
	}
	for i := range res.Results {
		r := &res.Results[i]
		r.Meta = mirrorview.MetaOf(docs(r.Path), r.Attachment, o.Filters, o.Type)
	}
}

// mirrorDocs returns the mirrored Doc of a path as the last refresh left
// it, memoized for one query; nil when there are no mirrors.
func (e *Engine) mirrorDocs() func(path string) *mirror.Doc {
	return mirrorview.Docs(e.Layout.ManifestPath(), e.Layout.ObjectsDir())
}
