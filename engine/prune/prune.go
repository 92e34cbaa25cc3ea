package prune

import (
	"fmt"
	"slices"
)

// Postings is one term's documents in increasing document order. It starts
// before its first document.
type Postings interface {
	// Next moves to the next document and reports whether there is one.
	Next() (bool, error)
	// Advance moves to the first document at or after target, which is
	// greater than the current document, and reports whether there is one.
	Advance(target uint64) (bool, error)
	// Doc, Freq and Len describe the current document: its number, the
	// term's frequency in it and its length.
	Doc() uint64
	Freq() uint64
	Len() int
}

// Term is one query term.
type Term struct {
	Postings Postings
	// Weight is the term's score contribution to a document of its
	// postings; it must be positive.
	Weight func(tf uint64, dl int) float64
	// Bound is at least Weight of every document of Postings.
	Bound float64
}

// Hit is one scored document.
type Hit struct {
	Doc   uint64
	Score float64
}

// slack widens every pruning test: a document is skipped only when its
// upper bound, enlarged by this relative margin, is still below the
// threshold. Bounds and partial sums are added in another order than the
// exhaustive scorer adds weights, so they may differ from it in the last
// bits; the margin dwarfs that.
const slack = 1e-9

// TopK returns, unordered, every document whose score is at least the
// k-th best score of the query (all of them when fewer match), and
// whether that is every matching document. A document's score is the sum
// of its terms' weights added in the order of terms.
func TopK(terms []Term, k int) ([]Hit, bool, error) {
	if k < 1 {
		return nil, false, fmt.Errorf("top k: k is %d", k)
	}
	s, err := newSearch(terms, k)
	if err != nil {
		return nil, false, err
	}
	if err := s.run(); err != nil {
		return nil, false, err
	}
	hits, complete := s.top.result()
	return hits, complete, nil
}

// cursor is a term's postings in the search, with its place in the query.
type cursor struct {
	term *Term
	at   int    // index in the query's terms
	doc  uint64 // the current document, unless done
	done bool
}

// moved records the outcome of a step of c's postings.
func (c *cursor) moved(ok bool, err error) error {
	c.done = !ok || err != nil
	if !c.done {
		c.doc = c.term.Postings.Doc()
	}
	return err
}

// search is the state of one TopK.
type search struct {
	byBound []*cursor // ascending bound: a prefix of them is non-essential
	cum     []float64 // cum[i]: sum of the first i bounds of byBound
	weights []float64 // per query term: its weight in the current document
	stamp   []uint64  // per query term: the document its weight is for, +1
	top     collector
}

func newSearch(terms []Term, k int) (*search, error) {
	s := &search{
		weights: make([]float64, len(terms)),
		stamp:   make([]uint64, len(terms)),
		top:     collector{k: k},
	}
	for i := range terms {
		c := &cursor{term: &terms[i], at: i}
		if err := c.moved(c.term.Postings.Next()); err != nil {
			return nil, err
		}
		s.byBound = append(s.byBound, c)
	}
	slices.SortStableFunc(s.byBound, func(a, b *cursor) int {
		switch {
		case a.term.Bound < b.term.Bound:
			return -1
		case a.term.Bound > b.term.Bound:
			return 1
		}
		return 0
	})
	s.cum = make([]float64, len(terms)+1)
	for i, c := range s.byBound {
		s.cum[i+1] = s.cum[i] + c.term.Bound
	}
	return s, nil
}

// below reports whether a document whose score is at most bound cannot
// enter the top k.
func (s *search) below(bound float64) bool {
	t, full := s.top.threshold()
	return full && bound*(1+slack) < t
}

// run enumerates the candidates of the essential terms until none is left.
func (s *search) run() error {
	ne := 0 // byBound[:ne] are non-essential
	for {
		for ne < len(s.byBound) && s.below(s.cum[ne+1]) {
			ne++
		}
		doc, ok := s.nextCandidate(ne)
		if !ok {
			return nil
		}
		if err := s.score(doc, ne); err != nil {
			return err
		}
	}
}

// nextCandidate is the smallest current document of the essential terms.
func (s *search) nextCandidate(ne int) (uint64, bool) {
	var doc uint64
	found := false
	for _, c := range s.byBound[ne:] {
		if !c.done && (!found || c.doc < doc) {
			doc, found = c.doc, true
		}
	}
	return doc, found
}

// score scores doc: the essential terms on it (which it moves past doc),
// then the non-essential ones from the highest bound down while doc can
// still compete.
func (s *search) score(doc uint64, ne int) error {
	partial := 0.0
	for _, c := range s.byBound[ne:] {
		if c.done || c.doc != doc {
			continue
		}
		partial += s.take(c, doc)
		if err := c.moved(c.term.Postings.Next()); err != nil {
			return err
		}
	}
	for i := ne - 1; i >= 0; i-- {
		if s.below(partial + s.cum[i+1]) {
			return nil
		}
		c := s.byBound[i]
		if !c.done && c.doc < doc {
			if err := c.moved(c.term.Postings.Advance(doc)); err != nil {
				return err
			}
		}
		if !c.done && c.doc == doc {
			partial += s.take(c, doc)
		}
	}
	s.top.offer(Hit{Doc: doc, Score: s.sum(doc)})
	return nil
}

// take records c's weight in doc, where c's postings are.
func (s *search) take(c *cursor, doc uint64) float64 {
	p := c.term.Postings
	w := c.term.Weight(p.Freq(), p.Len())
	s.weights[c.at], s.stamp[c.at] = w, doc+1
	return w
}

// sum adds doc's weights in query order, as the exhaustive scorer does.
func (s *search) sum(doc uint64) float64 {
	score := 0.0
	for i, st := range s.stamp {
		if st == doc+1 {
			score += s.weights[i]
		}
	}
	return score
}
