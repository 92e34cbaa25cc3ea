package engine

import (
	"context"
	"strings"
	"sync"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/mirror"
)

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
	floor   float64 // hybrid: the vector-only floor applied
	dropped int     // vector-only chunks below the floor
	terms   int     // distinct query terms after analysis
	fed     int     // chunks whose vectors turned the query vector
}

// result is the answer of results ranked so; with explain it says how.
func (how ranked) result(sc *fingerprint.Sidecar, results []Result, explain bool) *QueryResult {
	res := &QueryResult{Fingerprint: sc.Fingerprint, Generation: sc.Generation, Mode: how.mode, Results: results, Dropped: how.dropped}
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
	var wg sync.WaitGroup
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
	}
	ranking, dropped = rank.Rank(mode, f, rankQuery(text), floor, bm, de)
	return f, floor, ranking, dropped
}

// rankQuery is what ranking needs to know of a query and the corpus
// beyond its lists (rank.Query).
func rankQuery(text string) rank.Query {
	l := analyze.DetectQuery(text)
	return rank.Query{Foreign: l != "" && l != analyze.English, IsCode: isCode, MayAttach: backend.MayAttach}
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

// isCode reports whether a chunk comes from a file parsed as code.
func isCode(id string) bool {
	path, _ := record.SplitChunkID(id)
	p, ok := mirror.ParserFor(path)
	return ok && strings.HasPrefix(p, "code@")
}
