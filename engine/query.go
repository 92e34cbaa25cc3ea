package engine

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/fingerprint"
)

// ErrNoIndex reports a root that has no committed index yet.
var ErrNoIndex = errors.New("no index yet: run `autorag refresh` first")

// QueryOptions describe one search.
type QueryOptions struct {
	Text     string
	K        int    // results to return; default 10
	PerFile  int    // results per source file; default 1
	PathGlob string // only paths matching this glob
}

// Scores explains a result: each list's score and rank (1-based). Vector
// fields are null until the vector index exists.
type Scores struct {
	BM25       float64  `json:"bm25"`
	BM25Rank   int      `json:"bm25_rank"`
	Vector     *float64 `json:"vector"`
	VectorRank *int     `json:"vector_rank"`
}

// Result is one passage.
type Result struct {
	Rank    int     `json:"rank"`
	Path    string  `json:"path"`
	Chunk   int     `json:"chunk"`
	Lines   [2]int  `json:"lines"`
	Section string  `json:"section"`
	Title   string  `json:"title"`
	Score   float64 `json:"score"`
	Scores  Scores  `json:"scores"`
	Text    string  `json:"text"`
}

// QueryResult is the answer to a query.
type QueryResult struct {
	Fingerprint string
	Generation  string
	Results     []Result
	TookMS      float64
}

// Query answers o from the committed generation. It never takes the
// refresh lock and never waits for a writer: it opens the generation the
// sidecar names read-only, and if that generation was collected in the
// meantime it retries once from the new sidecar.
func (e *Engine) Query(ctx context.Context, o QueryOptions) (*QueryResult, error) {
	start := time.Now()
	filter, err := newPathFilter(o.PathGlob)
	if err != nil {
		return nil, err
	}
	var lastErr error
	for attempt := 0; attempt < 2; attempt++ {
		sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
		if errors.Is(err, fingerprint.ErrNoSidecar) {
			return nil, ErrNoIndex
		}
		if err != nil {
			return nil, err
		}
		if lastErr != nil && sc.Generation == lastGen(lastErr) {
			return nil, lastErr
		}
		res, err := e.queryGeneration(ctx, sc, o, filter)
		if err == nil {
			res.TookMS = ms(time.Since(start))
			return res, nil
		}
		if errors.Is(err, context.Canceled) {
			return nil, err
		}
		lastErr = &genError{gen: sc.Generation, err: err}
	}
	return nil, lastErr
}

// genError is an error while reading one generation.
type genError struct {
	gen string
	err error
}

func (g *genError) Error() string { return fmt.Sprintf("generation %s: %v", g.gen, g.err) }
func (g *genError) Unwrap() error { return g.err }

func lastGen(err error) string {
	var g *genError
	if errors.As(err, &g) {
		return g.gen
	}
	return ""
}

func (e *Engine) queryGeneration(ctx context.Context, sc *fingerprint.Sidecar, o QueryOptions, filter *pathFilter) (*QueryResult, error) {
	idx, err := openBleveRO(filepath.Join(e.Layout.GenDir(sc.Generation), bleveDir), sc.Generation)
	if err != nil {
		return nil, err
	}
	defer idx.Close()
	s := &searcher{idx: idx, model: e.model(sc)}
	hits, err := s.bm25(ctx, analyze.Terms(o.Text))
	if err != nil {
		return nil, err
	}
	results, err := s.materialize(hits, o, filter)
	if err != nil {
		return nil, err
	}
	return &QueryResult{Fingerprint: sc.Fingerprint, Generation: sc.Generation, Results: results}, nil
}

func (e *Engine) model(sc *fingerprint.Sidecar) bm25 {
	m := bm25{n: float64(sc.Counts.Chunks), k1: e.Settings.K1, b: e.Settings.B, avgdl: 1}
	if sc.Counts.Chunks > 0 && sc.Counts.Tokens > 0 {
		m.avgdl = float64(sc.Counts.Tokens) / float64(sc.Counts.Chunks)
	}
	return m
}

// hit is one scored chunk, by bleve's internal document number.
type hit struct {
	num   uint64
	score float64
	id    string // external ID, filled lazily
}

type searcher struct {
	idx   bleve.Index
	model bm25
}

// bm25 scores every chunk that holds a query term, best first.
func (s *searcher) bm25(ctx context.Context, terms []string) ([]hit, error) {
	adv, err := s.idx.Advanced()
	if err != nil {
		return nil, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, fmt.Errorf("open reader: %w", err)
	}
	defer r.Close()
	scores := map[uint64]float64{}
	for _, t := range terms {
		if err := s.scoreTerm(ctx, r, t, scores); err != nil {
			return nil, err
		}
	}
	hits := make([]hit, 0, len(scores))
	for n, sc := range scores {
		hits = append(hits, hit{num: n, score: sc})
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		return hits[i].num < hits[j].num
	})
	return hits, s.resolveTies(r, hits)
}

func (s *searcher) scoreTerm(ctx context.Context, r index.IndexReader, term string, scores map[uint64]float64) error {
	tfr, err := r.TermFieldReader(ctx, []byte(term), fieldBody, true, true, false)
	if err != nil {
		return fmt.Errorf("postings of %q: %w", term, err)
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
			return fmt.Errorf("postings of %q: %w", term, err)
		}
		if d == nil {
			return nil
		}
		scores[internalNum(d.ID)] += s.model.weight(idf, d.Freq, lengthFromNorm(d.Norm))
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
func (s *searcher) resolveTies(r index.IndexReader, hits []hit) error {
	for i := 0; i < len(hits); {
		j := i + 1
		for j < len(hits) && hits[j].score == hits[i].score {
			j++
		}
		if j-i > 1 {
			if err := s.sortRun(r, hits[i:j]); err != nil {
				return err
			}
		}
		i = j
	}
	return nil
}

func (s *searcher) sortRun(r index.IndexReader, run []hit) error {
	for k := range run {
		id, err := r.ExternalID(internalID(run[k].num))
		if err != nil {
			return fmt.Errorf("resolve document: %w", err)
		}
		run[k].id = id
	}
	sort.Slice(run, func(a, b int) bool { return lessChunkID(run[a].id, run[b].id) })
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

// materialize walks the ranking, applies the path filter and the per-file
// limit, and loads the stored fields of the results it keeps.
func (s *searcher) materialize(hits []hit, o QueryOptions, filter *pathFilter) ([]Result, error) {
	k, perFile := o.K, o.PerFile
	if k <= 0 {
		k = 10
	}
	if perFile <= 0 {
		perFile = 1
	}
	adv, err := s.idx.Advanced()
	if err != nil {
		return nil, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, fmt.Errorf("open reader: %w", err)
	}
	defer r.Close()
	seen := map[string]int{}
	var out []Result
	for rank, h := range hits {
		if len(out) == k {
			break
		}
		if h.id == "" {
			if h.id, err = r.ExternalID(internalID(h.num)); err != nil {
				return nil, fmt.Errorf("resolve document: %w", err)
			}
		}
		path, ord := splitChunkID(h.id)
		if !filter.match(path) || seen[path] >= perFile {
			continue
		}
		seen[path]++
		res, err := s.load(h.id, path, ord)
		if err != nil {
			return nil, err
		}
		res.Rank, res.Score = len(out)+1, h.score
		res.Scores = Scores{BM25: h.score, BM25Rank: rank + 1}
		out = append(out, res)
	}
	if out == nil {
		out = []Result{}
	}
	return out, nil
}

func (s *searcher) load(id, path string, ord int) (Result, error) {
	doc, err := s.idx.Document(id)
	if err != nil || doc == nil {
		return Result{}, fmt.Errorf("load chunk %s#%d: %v", path, ord, err)
	}
	res := Result{Path: path, Chunk: ord}
	doc.VisitFields(func(f index.Field) {
		switch f.Name() {
		case fieldText:
			res.Text = string(f.Value())
		case fieldMeta:
			parts := strings.SplitN(string(f.Value()), metaSep, 4)
			if len(parts) == 4 {
				res.Lines[0], _ = strconv.Atoi(parts[0])
				res.Lines[1], _ = strconv.Atoi(parts[1])
				res.Section, res.Title = parts[2], parts[3]
			}
		}
	})
	return res, nil
}
