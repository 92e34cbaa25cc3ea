package local

// Exact BM25 over bleve's postings: the local backend's lexical list, from
// the pruned scorer (bm25prune.go) or by scoring every posting.

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"

	index "github.com/blevesearch/bleve_index_api"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/engine/record"
)

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
	nums     map[string]uint64 // and the other way (defsof.go)
	offsets  []uint64          // each segment's first document number (defsof.go)
	langs    *genLangs         // the generation's analysis languages (querylang.go)
	postings []posting         // scoreTermIn's buffer
	// exhaustive scores every posting instead of pruning (ScorerExhaustive).
	exhaustive bool
	// tiers are the State's tiered postings (tiers.go), nil without;
	// tieredRuns counts the lists they answered.
	tiers      *tierCache
	tieredRuns int
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

func openReader(idx *bleveIndex) (index.IndexReader, error) {
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
//
// The prefix comes from the pruned scorer (bm25prune.go) while that is
// cheaper than scoring everything, else from the exhaustive one: both
// order the same ranking, and the output depends on its order alone.
func (s *searcher) bm25List(ctx context.Context, terms []queryTerm, filter *backend.PathFilter, mode string, want, k, perFile int) ([]rank.Hit, error) {
	m := max(want, 4*k*perFile)
	if !s.exhaustive {
		out, done, next, err := s.prunedList(ctx, terms, filter, mode, want, k, perFile, m)
		if err != nil || done {
			return out, err
		}
		m = next
	}
	hits, err := s.bm25(ctx, terms)
	if err != nil {
		return nil, err
	}
	for ; ; m *= 2 {
		ranked, err := s.topHits(hits, m)
		if err != nil {
			return nil, err
		}
		out, enough, _, err := s.collect(ranked, filter, mode, want, k, perFile)
		if err != nil || enough || len(ranked) == len(hits) {
			return out, err
		}
	}
}

// collect walks an ordered prefix of the ranking and reports whether it
// held enough chunks, and how many of the wanted ones it found (files in
// bm25 mode, chunks in hybrid mode).
func (s *searcher) collect(ranked []hit, filter *backend.PathFilter, mode string, want, k, perFile int) ([]rank.Hit, bool, int, error) {
	var out []rank.Hit
	files := map[string]int{}
	accepted := 0 // results the per-file limit would keep
	for _, h := range ranked {
		if mode == rank.ModeBM25 && accepted >= k || mode != rank.ModeBM25 && len(out) >= want {
			return out, true, 0, nil
		}
		id, err := s.externalID(h.num)
		if err != nil {
			return nil, false, 0, err
		}
		if !filter.Match(id) {
			continue
		}
		path := record.ChunkPath(id)
		out = append(out, rank.Hit{ID: id, Score: h.score})
		if files[path]++; files[path] <= perFile {
			accepted++
		}
	}
	if mode != rank.ModeBM25 {
		return out, len(out) >= want, len(out), nil
	}
	return out, accepted >= k, accepted, nil
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
	p, err := openPostings(ctx, s.r, fieldBody, qt.term, true, "postings of")
	if err != nil {
		return err
	}
	defer p.close()
	idf := s.model.idf(p.count())
	for {
		d, err := p.next(ctx)
		if err != nil || d == nil {
			return err
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
	sort.Slice(run, func(a, b int) bool { return record.LessChunkID(s.ids[run[a].num], s.ids[run[b].num]) })
	return nil
}
