package vector

import (
	"bytes"
	"math"
	"runtime"
	"slices"

	"github.com/autorag/autorag/internal/memfault"
)

// Hit is one search result. Score is the dot product of the query and the
// stored vector: the cosine similarity for unit vectors.
type Hit struct {
	ID    string
	Score float32
}

const (
	// parallelMinFloats is the live payload (in float32s) above which Search
	// splits the scan across goroutines; each worker gets at least half of it.
	parallelMinFloats = 2 << 20
	maxWorkers        = 4
)

// Search returns the top k live vectors by dot product with q, best first,
// ties broken by ID ascending: SearchQuery with no filter, the scan chosen
// by the index's size.
func (ix *Index) Search(q []float32, k int) []Hit {
	return ix.SearchQuery(Query{Vec: q, K: k})
}

// scan runs the exact scan, split across workers when the index is large.
func (ix *Index) scan(q []float32, k int, accept func(string) bool) *topK {
	floats := ix.live * ix.dims
	w := 1
	if floats > parallelMinFloats {
		w = min(runtime.GOMAXPROCS(0), maxWorkers, floats/(parallelMinFloats/2))
	}
	total := 0
	for _, s := range ix.segs {
		total += s.count
	}
	if w <= 1 {
		t := newTopK(ix, k)
		ix.scanRange(q, t, accept, 0, total)
		return t
	}
	tops := make([]*topK, w)
	var wg memfault.Group // the workers read mapped segments
	for i := range w {
		tops[i] = newTopK(ix, k)
		lo, hi := total*i/w, total*(i+1)/w
		wg.Go(func() { ix.scanRange(q, tops[i], accept, lo, hi) })
	}
	wg.Wait()
	for _, t := range tops[1:] {
		for _, c := range t.h {
			tops[0].push(c)
		}
	}
	return tops[0]
}

// scanRange scores the rows [lo, hi) of the concatenation of all segments.
func (ix *Index) scanRange(q []float32, t *topK, accept func(string) bool, lo, hi int) {
	base := 0
	for si, s := range ix.segs {
		a, b := max(lo-base, 0), min(hi-base, s.count)
		base += s.count
		if a < b {
			t.scanSegment(q, si, s, accept, a, b)
		}
	}
}

// cand is a scored row.
type cand struct {
	score float32
	seg   int32
	row   int32
}

// topK keeps the k best candidates in a min-heap whose root is the worst.
type topK struct {
	ix *Index
	k  int
	h  []cand
}

func newTopK(ix *Index, k int) *topK { return &topK{ix: ix, k: k, h: make([]cand, 0, k)} }

func (t *topK) id(c cand) []byte { return t.ix.segs[c.seg].id(int(c.row)) }

// worse reports whether a ranks below b: lower score, or equal score and larger ID.
func (t *topK) worse(a, b cand) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	return bytes.Compare(t.id(a), t.id(b)) > 0
}

func (t *topK) scanSegment(q []float32, si int, s *segment, accept func(string) bool, lo, hi int) {
	tombs := s.meta.tombs
	ti, _ := slices.BinarySearch(tombs, uint32(lo))
	d := s.dims
	vecs := s.vecs
	thresh := float32(math.Inf(-1))
	if len(t.h) == t.k {
		thresh = t.h[0].score
	}
	var buf [scanBlock]float32
	for r0 := lo; r0 < hi; r0 += scanBlock {
		scores := buf[:min(scanBlock, hi-r0)]
		dotRows(q, vecs[r0*d:(r0+len(scores))*d], scores)
		for j, sc := range scores {
			r := r0 + j
			if ti < len(tombs) && int(tombs[ti]) == r {
				ti++
				continue
			}
			if sc < thresh || accept != nil && !acceptRow(accept, s, r) {
				continue
			}
			t.push(cand{score: sc, seg: int32(si), row: int32(r)})
			if len(t.h) == t.k {
				thresh = t.h[0].score
			}
		}
	}
}

// scanBlock is the rows the exact scan scores in one dotRows call.
const scanBlock = 64

func (t *topK) push(c cand) {
	h := t.h
	if len(h) < t.k {
		h = append(h, c)
		i := len(h) - 1
		for i > 0 {
			p := (i - 1) / 2
			if !t.worse(h[i], h[p]) {
				break
			}
			h[i], h[p] = h[p], h[i]
			i = p
		}
		t.h = h
		return
	}
	if !t.worse(h[0], c) {
		return
	}
	h[0] = c
	i := 0
	for {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		m := l
		if r := l + 1; r < len(h) && t.worse(h[r], h[l]) {
			m = r
		}
		if !t.worse(h[m], h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// hits sorts the candidates best first (sortBest) and copies their IDs
// out of the mapping.
func (ix *Index) hits(t *topK) []Hit {
	t.sortBest()
	out := make([]Hit, len(t.h))
	for i, c := range t.h {
		out[i] = Hit{ID: string(t.id(c)), Score: c.score}
	}
	return out
}

func finite(v []float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}
