package prune

import (
	"errors"
	"fmt"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
)

// Cell is the documents of a term that share a length bucket and a term
// frequency class, and a bound of the term's weight in any of them.
type Cell struct {
	Docs  *roaring.Bitmap
	Bound float64
}

// TieredTerm is one query term whose documents are partitioned into cells:
// Buckets[j] holds the term's cells of length bucket j, which must be the
// same bucket of a document for every term of a query (its length's).
type TieredTerm struct {
	All     *roaring.Bitmap // every document of the term
	Buckets [][]Cell
	// Weights sets out[i] to the term's weight in docs[i]; docs are
	// increasing and all in All.
	Weights func(docs []uint32, out []float64)
}

// ErrBudget reports a tiered search that stopped after its budget of
// bitmap operations: its caller scores another way.
var ErrBudget = errors.New("top k: tiered search over budget")

// TopKTiered is TopK over tiered terms: it returns, unordered, every
// document whose score is at least the k-th best (all when fewer match),
// and whether that is every matching document. It walks the combinations
// of one cell (or none) per term, bucket by bucket, intersecting their
// documents, and skips every combination whose bounds add up below the
// k-th best score so far, so that documents holding the terms rarely or
// in long chunks are never looked at. Each document is in exactly one
// combination; its score is the sum of its terms' weights in the order of
// terms. Past budget bitmap operations it gives up with ErrBudget.
func TopKTiered(terms []TieredTerm, k, budget int) ([]Hit, bool, error) {
	if k < 1 {
		return nil, false, fmt.Errorf("top k: k is %d", k)
	}
	s := newTiered(terms, k, budget)
	for _, j := range s.bucketOrder() {
		s.prepare(j)
		if s.below(s.rest[0]) {
			continue
		}
		if err := s.walk(0, nil, nil, 0); err != nil {
			return nil, false, err
		}
	}
	hits, complete := s.top.result()
	return hits, complete, nil
}

// tiered is the state of one TopKTiered.
type tiered struct {
	terms   []TieredTerm
	order   []int // terms in walk order: fewest documents first
	top     collector
	ops     int
	budget  int
	buckets int
	cells   [][]Cell  // per walk position: the bucket's cells, best bound first
	rest    []float64 // rest[i]: the best bounds of walk positions i.. summed
	present []bool    // per query term: it holds the leaf's documents
	weights [][]float64
}

func newTiered(terms []TieredTerm, k, budget int) *tiered {
	s := &tiered{terms: terms, top: collector{k: k}, budget: budget}
	for i, t := range terms {
		s.order = append(s.order, i)
		s.buckets = max(s.buckets, len(t.Buckets))
	}
	slices.SortStableFunc(s.order, func(a, b int) int {
		return int(terms[a].All.GetCardinality()) - int(terms[b].All.GetCardinality())
	})
	s.cells = make([][]Cell, len(terms))
	s.rest = make([]float64, len(terms)+1)
	s.present = make([]bool, len(terms))
	s.weights = make([][]float64, len(terms))
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
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case best[a] > best[b]:
			return -1
		case best[a] < best[b]:
			return 1
		}
		return 0
	})
	return order
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

// prepare sets the cells and the bounds' suffix sums of bucket j.
func (s *tiered) prepare(j int) {
	for i := len(s.order) - 1; i >= 0; i-- {
		cells := slices.Clone(cellsOf(s.terms[s.order[i]], j))
		slices.SortStableFunc(cells, func(a, b Cell) int {
			switch {
			case a.Bound > b.Bound:
				return -1
			case a.Bound < b.Bound:
				return 1
			}
			return 0
		})
		s.cells[i] = cells
		s.rest[i] = s.rest[i+1] + bestBound(cells)
	}
}

// below reports whether a document whose score is at most bound cannot
// enter the top k.
func (s *tiered) below(bound float64) bool {
	t, full := s.top.threshold()
	return full && bound*(1+slack) < t
}

// walk chooses a cell of the term at walk position i, or none, for the
// documents cur (nil: not narrowed yet, then absent lists the positions
// whose term the documents must not hold) whose chosen cells' bounds sum
// to partial.
func (s *tiered) walk(i int, cur *roaring.Bitmap, absent []int, partial float64) error {
	if i == len(s.order) {
		if cur == nil {
			return nil // no term chosen: no document
		}
		return s.leaf(cur)
	}
	t := s.order[i]
	for _, c := range s.cells[i] {
		if s.below(partial + c.Bound + s.rest[i+1]) {
			break
		}
		next, err := s.narrow(cur, absent, c.Docs)
		if err != nil {
			return err
		}
		if next.IsEmpty() {
			continue
		}
		s.present[t] = true
		err = s.walk(i+1, next, absent, partial+c.Bound)
		s.present[t] = false
		if err != nil {
			return err
		}
	}
	if s.below(partial + s.rest[i+1]) {
		return nil
	}
	if cur == nil {
		return s.walk(i+1, nil, append(absent, t), partial)
	}
	next, err := s.op(func() *roaring.Bitmap { return roaring.AndNot(cur, s.terms[t].All) })
	if err != nil || next.IsEmpty() {
		return err
	}
	return s.walk(i+1, next, absent, partial)
}

// narrow is the documents of cur (nil: all but those of the absent terms)
// in cell.
func (s *tiered) narrow(cur *roaring.Bitmap, absent []int, cell *roaring.Bitmap) (*roaring.Bitmap, error) {
	if cur != nil {
		return s.op(func() *roaring.Bitmap { return roaring.And(cur, cell) })
	}
	next := cell
	for _, a := range absent {
		prev := next
		var err error
		if next, err = s.op(func() *roaring.Bitmap { return roaring.AndNot(prev, s.terms[a].All) }); err != nil {
			return nil, err
		}
	}
	return next, nil
}

// op counts one bitmap operation against the budget and runs it.
func (s *tiered) op(f func() *roaring.Bitmap) (*roaring.Bitmap, error) {
	if s.ops++; s.ops > s.budget {
		return nil, ErrBudget
	}
	return f(), nil
}

// leaf scores the documents of one combination of cells.
func (s *tiered) leaf(cur *roaring.Bitmap) error {
	docs := cur.ToArray()
	for t, on := range s.present {
		if !on {
			continue
		}
		if cap(s.weights[t]) < len(docs) {
			s.weights[t] = make([]float64, len(docs), 2*len(docs))
		}
		s.weights[t] = s.weights[t][:len(docs)]
		s.terms[t].Weights(docs, s.weights[t])
	}
	for d, doc := range docs {
		score := 0.0
		for t, on := range s.present {
			if on {
				score += s.weights[t][d]
			}
		}
		s.top.offer(Hit{Doc: uint64(doc), Score: score})
	}
	return nil
}
