package engine

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	index "github.com/blevesearch/bleve_index_api"

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
	// In hybrid mode the two lists are computed at once: BM25 scoring runs
	// on one core, and the dense scan would otherwise wait for it.
	var bmList, deList []listHit
	var bmErr, deErr error
	var wg sync.WaitGroup
	if mode != ModeBM25 {
		wg.Go(func() { deList, deErr = e.denseList(ctx, ls.vec, sc, o.Text, filter, want) })
	}
	var terms []queryTerm
	if mode != ModeVector {
		if terms, bmErr = s.queryTerms(ctx, ls, sc, o.Text); bmErr == nil {
			bmList, bmErr = s.bm25List(ctx, terms, filter, mode, want, k, perFile)
		}
	}
	wg.Wait()
	if bmErr != nil {
		return nil, bmErr
	}
	if deErr != nil {
		return nil, deErr
	}
	f := e.fusion()
	pg := page{k: k, perFile: perFile, collapse: !o.NoCollapse, explain: o.Explain, mode: mode, f: f}
	floor := 0.0
	if mode == ModeHybrid {
		floor = e.floor(f, o.Text, bmList)
	}
	ranking, dropped := rank(mode, f, queryWeight(f, o.Text), floor, bmList, deList)
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
	res := &QueryResult{Fingerprint: sc.Fingerprint, Generation: sc.Generation, Mode: mode, Results: results, Dropped: dropped}
	if mode == ModeHybrid {
		res.Fusion = f.String()
	}
	if o.Explain {
		res.Explain = explainQuery(mode, f, floor, dropped, len(terms))
	}
	return res, nil
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

func (e *Engine) model(sc *fingerprint.Sidecar) bm25 {
	m := bm25{n: float64(sc.Counts.Chunks), k1: e.Settings.K1, b: e.Settings.B, avgdl: 1}
	if sc.Counts.Chunks > 0 && sc.Counts.Tokens > 0 {
		m.avgdl = float64(sc.Counts.Tokens) / float64(sc.Counts.Chunks)
	}
	return m
}

// hit is one scored chunk, by bleve's internal document number. It holds
// no pointer: a broad query at 100,000 docs selects among 300,000 of them,
// and swapping pointer-free values needs no write barriers.
type hit struct {
	num   uint64
	score float64
}

// searcher answers one query from one reader of a generation.
type searcher struct {
	r        index.IndexReader
	model    bm25
	ids      map[uint64]string // external IDs resolved so far
	langs    *genLangs         // the generation's analysis languages (querylang.go)
	postings []posting         // scoreTermIn's buffer
	// remote, when set, loads a chunk's stored fields from a remote
	// backend instead of r (which is then nil).
	remote func(id string) (Result, error)
}

// externalID returns the chunk ID of internal document n.
func (s *searcher) externalID(n uint64) (string, error) {
	if id, ok := s.ids[n]; ok {
		return id, nil
	}
	id, err := s.r.ExternalID(internalID(n))
	if err != nil {
		return "", fmt.Errorf("resolve document: %w", err)
	}
	if s.ids == nil {
		s.ids = make(map[uint64]string)
	}
	s.ids[n] = id
	return id, nil
}

func openReader(idx bleve.Index) (index.IndexReader, error) {
	adv, err := idx.Advanced()
	if err != nil {
		return nil, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, fmt.Errorf("open reader: %w", err)
	}
	return r, nil
}

// bm25List scores the query and returns the best chunks that pass the
// filter: in hybrid mode the top want chunks; in bm25 mode as many as it
// takes to fill k files with perFile chunks each. Only a prefix of the
// ranking is ordered (and has its external IDs resolved); it doubles when
// the filter or the per-file limit use it up.
func (s *searcher) bm25List(ctx context.Context, terms []queryTerm, filter *pathFilter, mode string, want, k, perFile int) ([]listHit, error) {
	hits, err := s.bm25(ctx, terms)
	if err != nil {
		return nil, err
	}
	for m := max(want, 4*k*perFile); ; m *= 2 {
		ranked, err := s.topHits(hits, m)
		if err != nil {
			return nil, err
		}
		out, enough, err := s.collect(ranked, filter, mode, want, k, perFile)
		if err != nil || enough || len(ranked) == len(hits) {
			return out, err
		}
	}
}

// collect walks an ordered prefix of the ranking and reports whether it
// held enough chunks.
func (s *searcher) collect(ranked []hit, filter *pathFilter, mode string, want, k, perFile int) ([]listHit, bool, error) {
	var out []listHit
	files := map[string]int{}
	accepted := 0 // results the per-file limit would keep
	for _, h := range ranked {
		if mode == ModeBM25 && accepted >= k || mode != ModeBM25 && len(out) >= want {
			return out, true, nil
		}
		id, err := s.externalID(h.num)
		if err != nil {
			return nil, false, err
		}
		path, _ := splitChunkID(id)
		if !filter.match(path) {
			continue
		}
		out = append(out, listHit{id: id, score: h.score})
		if files[path]++; files[path] <= perFile {
			accepted++
		}
	}
	enough := mode == ModeBM25 && accepted >= k || mode != ModeBM25 && len(out) >= want
	return out, enough, nil
}

// bm25 scores every chunk that holds a query term, unordered. Scores
// accumulate in a slice indexed by bleve's internal document number (dense
// per index), not a map: a broad query touches most chunks.
func (s *searcher) bm25(ctx context.Context, terms []queryTerm) ([]hit, error) {
	// Internal numbers run up to about the chunk count (more after deletes
	// that are not merged away yet; the accumulator grows then).
	acc := &accumulator{scores: make([]float64, int(s.model.n)+1024)}
	for _, t := range terms {
		if err := s.scoreTerm(ctx, t, acc); err != nil {
			return nil, err
		}
	}
	hits := make([]hit, len(acc.touched))
	for i, n := range acc.touched {
		hits[i] = hit{num: n, score: acc.scores[n]}
	}
	return hits, nil
}

// accumulator sums per-document scores over the query terms.
type accumulator struct {
	scores  []float64
	touched []uint64
}

func (a *accumulator) add(n uint64, w float64) {
	if n >= uint64(len(a.scores)) {
		grown := make([]float64, max(n+1, uint64(2*len(a.scores)), 1024))
		copy(grown, a.scores)
		a.scores = grown
	}
	if a.scores[n] == 0 {
		a.touched = append(a.touched, n)
	}
	a.scores[n] += w // w > 0: idf > 0 and tf >= 1
}

// topHits orders the m best hits (more when hits tie with the m-th) best
// first, equal scores by chunk ID, and returns that prefix. hits is
// reordered in place.
func (s *searcher) topHits(hits []hit, m int) ([]hit, error) {
	byScore := func(a, b hit) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return cmp.Compare(a.num, b.num)
	}
	if m < len(hits) {
		selectTop(hits, m)
		t := hits[m-1].score
		for i := m; i < len(hits); i++ { // keep the boundary's ties together
			if hits[i].score == t {
				hits[m], hits[i] = hits[i], hits[m]
				m++
			}
		}
	} else {
		m = len(hits)
	}
	top := hits[:m]
	slices.SortFunc(top, byScore)
	return top, s.resolveTies(top)
}

// selectTop moves the m highest-scoring hits to the front, in any order
// (quickselect; the minimum of the front is at m-1).
func selectTop(h []hit, m int) {
	lo, hi := 0, len(h)-1
	for lo < hi {
		p := h[(lo+hi)/2].score
		i, j := lo, hi
		for i <= j {
			for h[i].score > p {
				i++
			}
			for h[j].score < p {
				j--
			}
			if i <= j {
				h[i], h[j] = h[j], h[i]
				i++
				j--
			}
		}
		switch {
		case m-1 <= j:
			hi = j
		case m-1 >= i:
			lo = i
		default:
			return
		}
	}
	// put the smallest of the front at m-1
	minAt := 0
	for i := 1; i < m; i++ {
		if h[i].score < h[minAt].score {
			minAt = i
		}
	}
	h[minAt], h[m-1] = h[m-1], h[minAt]
}

func (s *searcher) scoreTerm(ctx context.Context, qt queryTerm, acc *accumulator) error {
	if qt.langs != allLangs {
		return s.scoreTermIn(ctx, qt, acc)
	}
	tfr, err := s.r.TermFieldReader(ctx, []byte(qt.term), fieldBody, true, true, false)
	if err != nil {
		return fmt.Errorf("postings of %q: %w", qt.term, err)
	}
	defer tfr.Close()
	idf := s.model.idf(tfr.Count())
	var tfd index.TermFieldDoc
	for i := 0; ; i++ {
		if i%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		d, err := tfr.Next(&tfd)
		if err != nil {
			return fmt.Errorf("postings of %q: %w", qt.term, err)
		}
		if d == nil {
			return nil
		}
		acc.add(internalNum(d.ID), s.model.weight(idf, d.Freq, lengthFromNorm(d.Norm)))
	}
}

func internalNum(id index.IndexInternalID) uint64 { return binary.BigEndian.Uint64(id) }

func internalID(n uint64) index.IndexInternalID {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, n)
	return b
}

// resolveTies orders runs of equal scores by external ID (path, then
// ordinal), so the ranking does not depend on segment layout. Only the
// runs near the top matter, but a run is cheap to resolve whole.
func (s *searcher) resolveTies(hits []hit) error {
	for i := 0; i < len(hits); {
		j := i + 1
		for j < len(hits) && hits[j].score == hits[i].score {
			j++
		}
		if j-i > 1 {
			if err := s.sortRun(hits[i:j]); err != nil {
				return err
			}
		}
		i = j
	}
	return nil
}

// sortRun orders a run of equal scores by external ID, which it resolves
// into s.ids.
func (s *searcher) sortRun(run []hit) error {
	for _, h := range run {
		if _, err := s.externalID(h.num); err != nil {
			return err
		}
	}
	sort.Slice(run, func(a, b int) bool { return lessChunkID(s.ids[run[a].num], s.ids[run[b].num]) })
	return nil
}

// lessChunkID orders chunk IDs by path, then numerically by ordinal.
func lessChunkID(a, b string) bool {
	pa, oa := splitChunkID(a)
	pb, ob := splitChunkID(b)
	if pa != pb {
		return pa < pb
	}
	return oa < ob
}
