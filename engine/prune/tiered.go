package prune

import (
	"errors"
	"fmt"
	"slices"
	"sync"
)

// Cell is the documents of a term that share a length bucket and a term
// frequency class, and a bound of the term's weight in any of them.
type Cell struct {
	Docs   []uint32 // increasing
	TF, DL []uint32 // the term's frequency and the length of each of Docs
	Class  uint8    // the Code of the documents, at least 1
	Bound  float64
}

// TieredTerm is one query term whose documents are partitioned into cells:
// Buckets[j] holds the term's cells of length bucket j, which must be the
// same bucket of a document for every term of a query (its length's), each
// of its own Class.
type TieredTerm struct {
	// Code[d] is the Class of document d's cell, 0 (or past the end) when
	// the term is not in d.
	Code    []uint8
	Buckets [][]Cell
	// Weight is the term's weight in a document of the given term
	// frequency and length; it must be positive.
	Weight func(tf uint64, dl int) float64
}

func (t *TieredTerm) code(d uint32) uint8 {
	if int(d) < len(t.Code) {
		return t.Code[d]
	}
	return 0
}

// ErrBudget reports a tiered search that stopped after its budget of
// work: its caller scores another way.
var ErrBudget = errors.New("top k: tiered search over budget")

// TopKTiered is TopK over tiered terms: it returns, unordered, every
// document whose score is at least the k-th best (all when fewer match),
// and whether that is every matching document. It walks the combinations
// of one cell (or none) per term, bucket by bucket, and skips every
// combination whose bounds add up below the k-th best score so far, so
// that documents holding the terms rarely or in long chunks are never
// looked at. A combination's documents are its smallest cell's whose codes
// in the other terms match: its cost is that cell's size, not the others'.
// Combinations with a small cell are scored first, over every bucket, so
// that the threshold is high before any large cell is read. Each document
// is in exactly one combination; its score is the sum of its terms'
// weights in the order of terms. Past budget documents examined (and
// combinations walked) it gives up with ErrBudget.
func TopKTiered(terms []TieredTerm, k, budget int) ([]Hit, bool, error) {
	if k < 1 {
		return nil, false, fmt.Errorf("top k: k is %d", k)
	}
	s := newTiered(terms, k, budget)
	defer scratchPool.Put(s.scratch)
	return s.run()
}

func (s *tiered) run() ([]Hit, bool, error) {
	order := s.bucketOrder()
	for s.phase = 1; s.phase <= 2; s.phase++ {
		for _, j := range order {
			s.prepare(j)
			if s.below(s.rest[0]) {
				continue
			}
			if err := s.walk(0, make([]choice, 0, len(s.terms)), nil, 0); err != nil {
				return nil, false, err
			}
		}
	}
	hits, complete := s.top.result()
	return hits, complete, nil
}

// choice is the cell chosen for a term of a combination; a nil cell is
// the term's absence.
type choice struct {
	term int
	cell *Cell
}

// tiered is the state of one TopKTiered.
type tiered struct {
	terms []TieredTerm
	order []int // terms in walk order: fewest documents first
	top   collector
	work  int // documents examined, and combinations
	// listedLarge counts the second phase's lists before a leaf (tests)
	listedLarge int
	budget      int
	buckets     int
	phase       int       // 1: combinations with a small cell, 2: the others
	cells       [][]*Cell // per walk position: the bucket's cells, best bound first
	rest        []float64 // rest[i]: the best bounds of walk positions i.. summed
	prep        []prepared
	present     []bool // per query term: it holds the leaf's documents
	*scratch
}

// scratch is a search's buffers, kept for the next search: at 100,000
// documents allocating and clearing them anew was 18 % of a query's CPU
// profile (mallocgc).
type scratch struct {
	weights [][]float64 // per query term
	checks  []check     // list's
	// per walk position: the documents listed, and split, there (they
	// live while the position's subtree is walked)
	listed [][]uint32
	split1 [][]uint32
	parts  [][][]uint32
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// sized is sc with room for n terms.
func (sc *scratch) sized(n int) *scratch {
	for len(sc.weights) < n {
		sc.weights = append(sc.weights, nil)
		sc.split1 = append(sc.split1, nil)
		sc.parts = append(sc.parts, nil)
	}
	for len(sc.listed) < n+1 {
		sc.listed = append(sc.listed, nil)
	}
	return sc
}

func newTiered(terms []TieredTerm, k, budget int) *tiered {
	s := &tiered{terms: terms, top: collector{k: k}, budget: budget}
	size := make([]int, len(terms))
	for i, t := range terms {
		s.order = append(s.order, i)
		s.buckets = max(s.buckets, len(t.Buckets))
		for _, cells := range t.Buckets {
			for _, c := range cells {
				size[i] += len(c.Docs)
			}
		}
	}
	slices.SortStableFunc(s.order, func(a, b int) int { return size[a] - size[b] })
	s.prep = make([]prepared, s.buckets)
	s.present = make([]bool, len(terms))
	s.scratch = scratchPool.Get().(*scratch).sized(len(terms))
	return s
}

// bucketOrder is the buckets by their best bound, highest first, so that
// the threshold rises early.
func (s *tiered) bucketOrder() []int {
	best := make([]float64, s.buckets)
	var order []int
	for j := range s.buckets {
		for _, t := range s.terms {
			best[j] += bestBound(cellsOf(t, j))
		}
		if best[j] > 0 {
			order = append(order, j)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return descending(best[a], best[b]) })
	return order
}

func descending(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

func cellsOf(t TieredTerm, j int) []Cell {
	if j < len(t.Buckets) {
		return t.Buckets[j]
	}
	return nil
}

func bestBound(cells []Cell) float64 {
	b := 0.0
	for _, c := range cells {
		b = max(b, c.Bound)
	}
	return b
}

// prepared is a bucket's cells and bounds in walk order: rest[i] sums the
// best bounds of walk positions i.., rest2[i] those of their cells larger
// than materialize, the only ones the second phase chooses.
type prepared struct {
	cells       [][]*Cell
	rest, rest2 []float64
}

// prepare sets the cells and the bounds' suffix sums of bucket j for the
// phase, sorted on the first phase's visit.
func (s *tiered) prepare(j int) {
	p := &s.prep[j]
	if p.cells == nil {
		p.cells = make([][]*Cell, len(s.order))
		p.rest = make([]float64, len(s.order)+1)
		p.rest2 = make([]float64, len(s.order)+1)
		for i := len(s.order) - 1; i >= 0; i-- {
			cells := cellsOf(s.terms[s.order[i]], j)
			large := 0.0
			for ci := range cells {
				p.cells[i] = append(p.cells[i], &cells[ci])
				if len(cells[ci].Docs) > materialize {
					large = max(large, cells[ci].Bound)
				}
			}
			byBound := func(a, b *Cell) int { return descending(a.Bound, b.Bound) }
			if !slices.IsSortedFunc(p.cells[i], byBound) {
				slices.SortStableFunc(p.cells[i], byBound)
			}
			p.rest[i] = p.rest[i+1] + bestBound(cells)
			p.rest2[i] = p.rest2[i+1] + large
		}
	}
	s.cells, s.rest = p.cells, p.rest
	if s.phase == 2 {
		s.rest = p.rest2
	}
}

// below reports whether a document whose score is at most bound cannot
// enter the top k.
func (s *tiered) below(bound float64) bool {
	t, full := s.top.threshold()
	return full && bound*(1+slack) < t
}

// materialize is the size up to which a chosen cell's documents are
// listed before the combination's last term is chosen: the list is then
// split by each further term's codes, and an empty part ends a combination
// early. Larger cells wait for a smaller one in the first phase.
const materialize = 256

// listLarge is the size up to which the second phase lists a chosen cell
// (with the choices before it) before the last term, as the first phase
// lists small ones: a cell of a few hundred chunks is then read once and
// split, not once per combination below it. At 100,000 documents the
// broad query's walk did 41,231 units of work without it and 31,568 with
// it (512: 40,905; 768: 33,115; 2,048 alike; 4,096: 35,173); at 2,000
// and 16,000 documents 2,106 and 9,260 against 2,092 and 10,017.
const listLarge = 1024

// walk chooses a cell of the term at walk position i, or none, for a
// combination of the choices so far whose bounds sum to partial; docs
// are its documents once listed (nil before).
func (s *tiered) walk(i int, chosen []choice, docs []uint32, partial float64) error {
	if s.work++; s.work > s.budget {
		return ErrBudget
	}
	if i == len(s.order) {
		if docs == nil {
			if s.phase == 1 {
				return nil // no small cell: the second phase's
			}
			docs = s.list(i, chosen)
		}
		return s.leaf(chosen, docs)
	}
	t := s.order[i]
	var parts [][]uint32
	if docs != nil {
		parts = s.split(i, docs, t)
	}
	for _, c := range s.cells[i] {
		if s.below(partial + c.Bound + s.rest[i+1]) {
			break
		}
		small := len(c.Docs) <= materialize
		if small && s.phase == 2 {
			continue // the first phase's
		}
		with := append(chosen, choice{term: t, cell: c})
		var next []uint32
		switch {
		case docs != nil:
			if int(c.Class) >= len(parts) || len(parts[c.Class]) == 0 {
				continue
			}
			next = parts[c.Class]
		case small || s.phase == 2 && len(c.Docs) <= listLarge && i+1 < len(s.order):
			if !small {
				s.listedLarge++
			}
			if next = s.list(i, with); len(next) == 0 {
				continue
			}
		}
		if err := s.walk(i+1, with, next, partial+c.Bound); err != nil {
			return err
		}
	}
	if s.below(partial + s.rest[i+1]) {
		return nil
	}
	var next []uint32
	if docs != nil {
		if next = parts[0]; len(next) == 0 {
			return nil
		}
	}
	return s.walk(i+1, append(chosen, choice{term: t}), next, partial)
}
