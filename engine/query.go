package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/autorag/autorag/fingerprint"
)

// ErrNoIndex reports a root that has no committed index yet.
var ErrNoIndex = errors.New("no index yet: run `autorag refresh` first")

// readCommitted reads the sidecar at path: ErrNoIndex when there is none.
func readCommitted(path string) (*fingerprint.Sidecar, error) {
	sc, err := fingerprint.ReadSidecar(path)
	if errors.Is(err, fingerprint.ErrNoSidecar) {
		return nil, ErrNoIndex
	}
	return sc, err
}

// QueryOptions describe one search.
type QueryOptions struct {
	Text     string
	K        int      // results to return; default 10
	PerFile  int      // results per source file; default 1
	PathGlob string   // only paths matching this glob
	Filters  []string // only files with every one of these key=value fields (see filter.go)
	Type     string   // only files of this type: doc, code, pdf, office, email, html
	Mode     string   // ModeHybrid (default when the index has vectors), ModeBM25, ModeVector
	Explain  bool     // fill Result.Explain
	// NoCollapse keeps results whose chunk text is the same (but for white
	// space and version numbers) apart; by default they collapse into the
	// best-ranked one (Result.AlsoIn).
	NoCollapse bool
}

// Query modes.
const (
	ModeBM25   = "bm25"
	ModeVector = "vector"
	ModeHybrid = "hybrid"
)

// Scores say what each list thought of a result: its score and 1-based
// rank there, or null when the result was not in that list.
type Scores struct {
	BM25       *float64 `json:"bm25"`
	BM25Rank   *int     `json:"bm25_rank"`
	Vector     *float64 `json:"vector"`
	VectorRank *int     `json:"vector_rank"`
}

// Result is one passage.
type Result struct {
	Rank    int    `json:"rank"`
	Path    string `json:"path"`
	Chunk   int    `json:"chunk"`
	Lines   [2]int `json:"lines"`
	Section string `json:"section"`
	Title   string `json:"title"`
	Page    int    `json:"page,omitempty"` // PDF page, 1-based
	// Attachment names the e-mail attachment of Path the passage is from
	// ("report.pdf"; Page is then the attachment's page): each attachment
	// is an entry of its own, for the per-file limit too.
	Attachment string  `json:"attachment,omitempty"`
	Score      float64 `json:"score"`
	Scores     Scores  `json:"scores"`
	Explain    string  `json:"explain,omitempty"`
	Text       string  `json:"text"`
	// AlsoIn lists the other places the same passage (the same chunk text
	// but for white space and version numbers) was found, best-ranked
	// first; they are not results of their own.
	AlsoIn []Location `json:"also_in,omitempty"`
}

// QueryResult is the answer to a query.
type QueryResult struct {
	Fingerprint string
	Generation  string
	Mode        string
	Fusion      string // the fusion used in hybrid mode
	Results     []Result
	// Dropped counts the chunks only the vector list found, with a
	// similarity below the fusion's floor, that hybrid mode left out.
	Dropped int
	// Explain, with QueryOptions.Explain, says what the query did as a
	// whole: the fusion, and what the floor dropped.
	Explain string
	TookMS  float64
}

// Query answers o from the committed generation. It never takes the
// refresh lock and never waits for a writer: it opens the generation the
// sidecar names read-only, and if that generation was collected in the
// meantime it retries once from the new sidecar.
func (e *Engine) Query(ctx context.Context, o QueryOptions) (*QueryResult, error) {
	return e.QueryAt(ctx, nil, o)
}

// QueryAt is Query for a caller that has read the sidecar already (the CLI
// reads it for its cache key): it opens the generation sc names, and only
// when that fails (collected by a newer commit) reads the sidecar again.
// A nil sc reads it.
func (e *Engine) QueryAt(ctx context.Context, sc *fingerprint.Sidecar, o QueryOptions) (*QueryResult, error) {
	start := time.Now()
	if strings.TrimSpace(o.Text) == "" {
		return nil, usagef("empty query: give the words to search for")
	}
	filter, err := newPathFilter(o.PathGlob)
	if err != nil {
		return nil, err
	}
	var g *Generation
	if sc != nil {
		g, _ = e.OpenGeneration(sc) // on failure, openCommitted says why
	}
	if g == nil {
		if g, err = e.openCommitted(); err != nil {
			return nil, err
		}
	}
	defer g.Close()
	res, err := g.st.search(ctx, e, g.Sidecar, o, filter)
	if errors.Is(err, context.Canceled) || errors.Is(err, ErrUsage) {
		return nil, err // what was asked, not the generation, is at fault
	}
	if err != nil {
		return nil, fmt.Errorf("generation %s: %w", g.Sidecar.Generation, err)
	}
	res.TookMS = ms(time.Since(start))
	return res, nil
}

// openCommitted opens the generation the sidecar names. An open generation
// stays readable when a refresh collects it (its files are mapped at open),
// so only opening races with the collection: when it fails, the sidecar is
// read again and a newer generation it names is tried once.
func (e *Engine) openCommitted() (*Generation, error) {
	var failed string // the generation that failed to open
	var lastErr error
	for attempt := 0; attempt < 2; attempt++ {
		sc, err := readCommitted(e.Layout.SidecarPath())
		if err != nil {
			return nil, err
		}
		if attempt > 0 && sc.Generation == failed {
			break
		}
		g, err := e.OpenGeneration(sc)
		if err == nil {
			return g, nil
		}
		failed, lastErr = sc.Generation, fmt.Errorf("generation %s: %w", sc.Generation, err)
	}
	return nil, lastErr
}

// Generation is a committed generation opened for reading: the sidecar
// that names it and its state in the storage that wrote it (storage.go).
// Long-running callers keep one open across queries; it stays valid after a
// newer generation is committed.
type Generation struct {
	Sidecar *fingerprint.Sidecar
	st      state
}

// OpenGeneration opens the generation sc names, read-only, from the backend
// that wrote it.
func (e *Engine) OpenGeneration(sc *fingerprint.Sidecar) (*Generation, error) {
	e.assumeRecordedDims(sc)
	st, err := e.storageFor(sc)
	if err != nil {
		return nil, err
	}
	s, err := st.open(sc)
	if err != nil {
		return nil, err
	}
	return &Generation{Sidecar: sc, st: s}, nil
}

// Close releases the generation's files.
func (g *Generation) Close() error { return g.st.close() }

// Search answers o from an open generation.
func (e *Engine) Search(ctx context.Context, g *Generation, o QueryOptions) (*QueryResult, error) {
	start := time.Now()
	filter, err := newPathFilter(o.PathGlob)
	if err != nil {
		return nil, err
	}
	res, err := g.st.search(ctx, e, g.Sidecar, o, filter)
	if err != nil {
		return nil, err
	}
	res.TookMS = ms(time.Since(start))
	return res, nil
}

// search answers o from the local generation.
func (ls *localState) search(ctx context.Context, e *Engine, sc *fingerprint.Sidecar, o QueryOptions, filter *pathFilter) (*QueryResult, error) {
	facets, err := filterTerms(o)
	if err != nil {
		return nil, err
	}
	mode, err := e.resolveMode(sc, o.Mode)
	if err != nil {
		return nil, err
	}
	r, err := openReader(ls.idx)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	s := &searcher{r: r, model: e.model(sc)}
	if filter, err = s.withFacets(ctx, filter, facets); err != nil {
		return nil, err
	}
	k, perFile := defaults(o)
	want := max(50, 5*k*perFile) // each list is oversampled before fusion
	var terms []queryTerm
	lexical := func() ([]listHit, error) {
		var err error
		if terms, err = s.queryTerms(ctx, ls, sc, o.Text); err != nil {
			return nil, err
		}
		return s.bm25List(ctx, terms, filter, mode, want, k, perFile)
	}
	f := e.fusion()
	dense := func(bm []listHit) ([]listHit, int, error) {
		return e.denseList(ctx, ls.vec, sc, f, o.Text, bm, filter, want)
	}
	bmList, deList, fed, err := searchLists(mode, f, lexical, dense)
	if err != nil {
		return nil, err
	}
	f, floor, ranking, dropped := e.fuseWith(f, mode, o.Text, bmList, deList)
	pg := page{k: k, perFile: perFile, collapse: !o.NoCollapse, explain: o.Explain, mode: mode, f: f}
	results, collapsed, err := s.materialize(ranking, pg)
	// In bm25 mode the list holds just enough chunks for k files; when
	// collapsing used some of them up, score deeper.
	for mode == ModeBM25 && collapsed > 0 && len(results) < k && err == nil {
		n := len(bmList)
		pg.k = k
		if bmList, err = s.bm25List(ctx, terms, filter, mode, want, 2*len(results)+k+collapsed, perFile); err != nil || len(bmList) == n {
			break
		}
		ranking, _ = rank(mode, f, 1, 0, bmList, nil)
		results, collapsed, err = s.materialize(ranking, pg)
	}
	if err != nil {
		return nil, err
	}
	how := ranked{mode: mode, f: f, floor: floor, dropped: dropped, terms: len(terms), fed: fed}
	return how.result(sc, results, o.Explain), nil
}

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
		res.Explain = explainQuery(how.mode, how.f, how.floor, how.dropped, how.terms) + explainFeedback(how.mode, how.f, how.fed)
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
// feedback from BM25's best chunks (feedback.go): dense then follows and
// gets BM25's list, where side by side it gets nil. It returns both lists
// and how many chunks turned the query vector.
func searchLists(mode string, f Fusion, lexical func() ([]listHit, error), dense func(bm []listHit) ([]listHit, int, error)) (bm, de []listHit, fed int, err error) {
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
func (e *Engine) fuseWith(f Fusion, mode, text string, bm, de []listHit) (_ Fusion, floor float64, ranking []fused, dropped int) {
	if mode == ModeHybrid {
		floor = e.floor(f, text, bm)
	}
	ranking, dropped = rank(mode, f, queryWeight(f, text), floor, bm, de)
	return f, floor, ranking, dropped
}

// rank turns the lists into one ranking for the mode; in hybrid mode it
// also returns how many vector-only chunks fell below the floor. q is the
// query's dense weight factor (adaptive fusion).
func rank(mode string, f Fusion, q, floor float64, bm, de []listHit) ([]fused, int) {
	switch mode {
	case ModeBM25:
		return single(bm, true), 0
	case ModeVector:
		return single(de, false), 0
	}
	return dropBelowFloor(floor, fuseQ(f, q, bm, de))
}

func single(l []listHit, isBM25 bool) []fused {
	out := make([]fused, len(l))
	for i, h := range l {
		out[i] = fused{id: h.id, score: h.score}
		if isBM25 {
			out[i].bm25, out[i].bm25Rank = h.score, i+1
		} else {
			out[i].dense, out[i].denseRank = h.score, i+1
		}
	}
	return out
}
