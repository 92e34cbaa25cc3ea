package vector

import (
	"runtime"
	"slices"
	"sync"
	"unsafe"
)

const (
	// quantMinLive is the live row count from which Search scans the int8
	// codes instead of the float32 payload (docs/BENCHMARKS.md, "Vectors
	// at a million chunks": below it the exact scan is as fast).
	quantMinLive = 20_000
	// oversample: the quantized scan keeps oversample×k candidates (at
	// least minCandidates) and rescores them exactly; chosen by measured
	// recall on clustered vectors (TestQuantizedRecall).
	oversample    = 4
	minCandidates = 100
	// quantParallelMinBytes is the code bytes above which the quantized
	// scan splits across goroutines.
	quantParallelMinBytes = 8 << 20
	// block is the rows one kernel call scores.
	block = 256
)

// Query is a search: the query vector, how many hits, and optionally a
// filter and the choice of scan.
type Query struct {
	Vec []float32
	K   int
	// Accept, when set, admits a stored ID: only accepted vectors are
	// returned. It is called for the rows that would enter the best list,
	// with an ID that aliases the mapping and is valid during the call only.
	Accept func(id string) bool
	// Exact forces the exact float32 scan; otherwise indexes of at least
	// quantMinLive live rows scan their int8 codes and rescore the best
	// candidates exactly.
	Exact bool
}

// SearchQuery runs q: the top q.K accepted live vectors by dot product
// with q.Vec, best first, ties by ID ascending, exact float32 scores. The
// quantized scan may miss a vector the exact scan would return (recall is
// measured in docs/BENCHMARKS.md); the scores of what it returns are exact.
// It returns nil when K <= 0, when len(Vec) != Dims(), when Vec has a NaN
// or infinite component, or after Close.
func (ix *Index) SearchQuery(q Query) []Hit {
	if q.K <= 0 || len(q.Vec) != ix.dims || !finite(q.Vec) {
		return nil
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed || ix.live == 0 {
		return nil
	}
	k := min(q.K, ix.live)
	if q.Exact || ix.live < quantMinLive {
		return ix.hits(ix.scan(q.Vec, k, q.Accept))
	}
	cands := ix.qscan(quantizeQuery(q.Vec), max(oversample*k, minCandidates), q.Accept)
	t := newTopK(ix, k)
	for _, c := range cands {
		c.score = dot(q.Vec, ix.segs[c.seg].vec(int(c.row)))
		t.push(c)
	}
	return ix.hits(t)
}

// qscan returns the n best rows by approximate score, split across
// workers when the codes are large. The candidate order (score, then
// segment and row) is total, so the set does not depend on the split.
func (ix *Index) qscan(q qquery, n int, accept func(string) bool) []cand {
	stride := codeStride(ix.dims)
	total := 0
	for _, s := range ix.segs {
		total += s.count
	}
	w := 1
	if bytes := total * stride; bytes > quantParallelMinBytes {
		w = min(runtime.GOMAXPROCS(0), maxWorkers, bytes/(quantParallelMinBytes/2))
	}
	heaps := make([]candHeap, w)
	var wg sync.WaitGroup
	for i := range w {
		heaps[i] = candHeap{n: n, h: make([]cand, 0, n)}
		lo, hi := total*i/w, total*(i+1)/w
		run := func() { ix.qscanRange(q, &heaps[i], accept, lo, hi) }
		if w == 1 {
			run()
		} else {
			wg.Go(run)
		}
	}
	wg.Wait()
	for _, h := range heaps[1:] {
		for _, c := range h.h {
			heaps[0].push(c)
		}
	}
	return heaps[0].h
}

// qscanRange scores the rows [lo, hi) of the concatenation of all segments.
func (ix *Index) qscanRange(q qquery, h *candHeap, accept func(string) bool, lo, hi int) {
	out := make([]int32, block)
	base := 0
	for si, s := range ix.segs {
		a, b := max(lo-base, 0), min(hi-base, s.count)
		base += s.count
		if a < b {
			h.scanSegment(q, int32(si), s, accept, out, a, b)
		}
	}
}

func (h *candHeap) scanSegment(q qquery, si int32, s *segment, accept func(string) bool, out []int32, lo, hi int) {
	stride := len(q.codes)
	tombs := s.meta.tombs
	ti, _ := slices.BinarySearch(tombs, uint32(lo))
	for b0 := lo; b0 < hi; b0 += block {
		b1 := min(b0+block, hi)
		o := out[:b1-b0]
		dots(s.codes[b0*stride:b1*stride], q.codes, stride, o)
		for i, d := range o {
			r := b0 + i
			if ti < len(tombs) && int(tombs[ti]) == r {
				ti++
				continue
			}
			c := cand{score: float32(d-q.bias) * s.scales[r], seg: si, row: int32(r)}
			if !h.better(c) {
				continue
			}
			if accept != nil && !acceptRow(accept, s, r) {
				continue
			}
			h.push(c)
		}
	}
}

// acceptRow asks accept about row r's ID, aliased in the mapping.
func acceptRow(accept func(string) bool, s *segment, r int) bool {
	id := s.id(r)
	return accept(unsafe.String(unsafe.SliceData(id), len(id)))
}

// candHeap keeps the n best candidates by approximate score in a min-heap
// whose root is the worst; ties rank by segment and row, ascending.
type candHeap struct {
	n int
	h []cand
}

func candWorse(a, b cand) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	if a.seg != b.seg {
		return a.seg > b.seg
	}
	return a.row > b.row
}

// better reports whether c would enter the heap.
func (h *candHeap) better(c cand) bool { return len(h.h) < h.n || candWorse(h.h[0], c) }

func (h *candHeap) push(c cand) {
	if len(h.h) < h.n {
		h.h = append(h.h, c)
		hs := h.h
		for i := len(hs) - 1; i > 0; {
			p := (i - 1) / 2
			if !candWorse(hs[i], hs[p]) {
				break
			}
			hs[i], hs[p] = hs[p], hs[i]
			i = p
		}
		return
	}
	if !candWorse(h.h[0], c) {
		return
	}
	hs := h.h
	hs[0] = c
	for i := 0; ; {
		l := 2*i + 1
		if l >= len(hs) {
			break
		}
		m := l
		if r := l + 1; r < len(hs) && candWorse(hs[r], hs[l]) {
			m = r
		}
		if !candWorse(hs[m], hs[i]) {
			break
		}
		hs[i], hs[m] = hs[m], hs[i]
		i = m
	}
}
