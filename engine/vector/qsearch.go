package vector

import (
	"runtime"
	"slices"
	"unsafe"

	"github.com/autorag/autorag/internal/memfault"
)

const (
	// quantMinLive is the live row count from which ScanAuto scans the 4-bit
	// codes instead of the float32 payload (docs/BENCHMARKS.md, "Queries at
	// scale": below it the exact scan is as fast).
	quantMinLive = 20_000
	// The 4-bit scan keeps max(oversample×k, minCandidates) candidates and
	// rescores them exactly; chosen by measured recall (BenchmarkRecall).
	oversample    = 10
	minCandidates = 500
	// quantParallelMinBytes is the code bytes above which a quantized scan
	// splits across goroutines.
	quantParallelMinBytes = 8 << 20
	// block is the rows one kernel call scores.
	block = 256
)

// Scan chooses how a search reads the vectors.
type Scan int

const (
	ScanAuto  Scan = iota // by the index's size: exact below quantMinLive, else int4
	ScanExact             // every float32 vector
	ScanInt4              // the 4-bit codes, then the candidates' floats
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
	Scan   Scan
	// Candidates is how many rows a quantized scan rescores exactly (at
	// least K); 0 takes the scan's default.
	Candidates int
}

// SearchQuery runs q: the top q.K accepted live vectors by dot product
// with q.Vec, best first, ties by ID ascending, exact float32 scores. A
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
	scan := q.Scan
	if scan == ScanAuto {
		scan = ix.autoScan()
	}
	var cands []cand
	switch scan {
	case ScanInt4:
		n := candidates(q.Candidates, k, oversample, minCandidates)
		cands = ix.candidates(n, func(h *candHeap, si int32, s *segment, lo, hi int) {
			h.scanCodes(quantizeQuery(q.Vec), si, s, q.Accept, lo, hi)
		})
	default:
		return ix.hits(ix.scan(q.Vec, k, q.Accept))
	}
	t := newTopK(ix, k)
	for _, c := range cands {
		c.score = dot(q.Vec, ix.segs[c.seg].vec(int(c.row)))
		t.push(c)
	}
	return ix.hits(t)
}

func (ix *Index) autoScan() Scan {
	if ix.live >= quantMinLive {
		return ScanInt4
	}
	return ScanExact
}

// candidates is how many rows a quantized scan rescores for k hits.
func candidates(asked, k, factor, floor int) int {
	if asked > 0 {
		return max(asked, k)
	}
	return max(factor*k, floor)
}

// candidates returns the n best rows by the approximate score scanSeg
// gives, split across workers when the index is large. The candidate order
// (score, then segment and row) is total, so the set does not depend on
// the split.
func (ix *Index) candidates(n int, scanSeg func(h *candHeap, si int32, s *segment, lo, hi int)) []cand {
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
	var wg memfault.Group // the workers read mapped segments
	for i := range w {
		heaps[i] = candHeap{n: n, h: make([]cand, 0, n)}
		lo, hi := total*i/w, total*(i+1)/w
		run := func() {
			base := 0
			for si, s := range ix.segs {
				a, b := max(lo-base, 0), min(hi-base, s.count)
				base += s.count
				if a < b {
					scanSeg(&heaps[i], int32(si), s, a, b)
				}
			}
		}
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

// scanCodes scores rows [lo, hi) of s by their 4-bit codes.
func (h *candHeap) scanCodes(q qquery, si int32, s *segment, accept func(string) bool, lo, hi int) {
	stride := codeStride(s.dims)
	tombs := s.meta.tombs
	ti, _ := slices.BinarySearch(tombs, uint32(lo))
	var out [block]int32
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
			h.offer(cand{score: float32(d-q.bias) * s.scales[r], seg: si, row: int32(r)}, accept, s)
		}
	}
}

// offer pushes c if it would enter the heap and its ID is accepted.
func (h *candHeap) offer(c cand, accept func(string) bool, s *segment) {
	if !h.better(c) || accept != nil && !acceptRow(accept, s, int(c.row)) {
		return
	}
	h.push(c)
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
