package prune

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// list is an in-memory Postings that checks the contract it is used by.
type list struct {
	docs  []uint64
	tfs   []uint64
	lens  []int
	i     int // current index; -1 before the first
	reads *int
	bad   error
}

func (l *list) Next() (bool, error) {
	l.i++
	*l.reads++
	return l.i < len(l.docs), nil
}

func (l *list) Advance(target uint64) (bool, error) {
	if l.i >= 0 && l.i < len(l.docs) && target <= l.docs[l.i] {
		l.bad = fmt.Errorf("advance to %d from %d", target, l.docs[l.i])
	}
	for l.i++; l.i < len(l.docs) && l.docs[l.i] < target; l.i++ {
	}
	*l.reads++
	return l.i < len(l.docs), nil
}

func (l *list) Doc() uint64  { return l.docs[l.i] }
func (l *list) Freq() uint64 { return l.tfs[l.i] }
func (l *list) Len() int     { return l.lens[l.i] }

// corpus is a random index: per document a length, per term its postings.
type corpus struct {
	lens  []int
	terms [][]uint64 // docs of each term, ascending
	tfs   [][]uint64
}

func randomCorpus(r *rand.Rand, docs, vocab int) corpus {
	c := corpus{lens: make([]int, docs), terms: make([][]uint64, vocab), tfs: make([][]uint64, vocab)}
	for d := range c.lens {
		c.lens[d] = 1 + r.IntN(8) // few lengths: many equal scores
	}
	for t := range vocab {
		p := math.Pow(r.Float64(), 2) // some terms rare, some broad
		for d := range docs {
			if r.Float64() < p {
				c.terms[t] = append(c.terms[t], uint64(d))
				c.tfs[t] = append(c.tfs[t], uint64(1+r.IntN(1+r.IntN(4))))
			}
		}
	}
	return c
}

// weightFunc is BM25 (k1 1.2, b 0.75) with this idf over c.
func (c corpus) weightFunc(df int) func(uint64, int) float64 {
	n := float64(len(c.lens))
	idf := math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
	total := 0
	for _, l := range c.lens {
		total += l
	}
	avgdl := float64(total) / n
	return func(tf uint64, dl int) float64 {
		f := float64(tf)
		return idf * f * 2.2 / (f + 1.2*(0.25+0.75*float64(dl)/avgdl))
	}
}

// query builds the Terms of qs; loose bounds are the weight's limit in tf
// (valid, far from tight), else each term's exact maximum.
func (c corpus) query(qs []int, loose bool, reads *int, lists *[]*list) []Term {
	var out []Term
	for _, t := range qs {
		l := &list{docs: c.terms[t], tfs: c.tfs[t], i: -1, reads: reads}
		for _, d := range l.docs {
			l.lens = append(l.lens, c.lens[d])
		}
		w := c.weightFunc(len(l.docs))
		bound := w(1e12, 1)
		if !loose {
			bound = 0
			for i := range l.docs {
				bound = max(bound, w(l.tfs[i], l.lens[i]))
			}
		}
		*lists = append(*lists, l)
		out = append(out, Term{Postings: l, Weight: w, Bound: bound})
	}
	return out
}

// exhaustive scores every posting as the engine's accumulator does, and
// returns the top k with ties, best first, equal scores by document.
func exhaustive(terms []Term, k int) []Hit {
	scores := map[uint64]float64{}
	var order []uint64
	for _, t := range terms {
		for ok, _ := t.Postings.Next(); ok; ok, _ = t.Postings.Next() {
			p := t.Postings
			if _, seen := scores[p.Doc()]; !seen {
				order = append(order, p.Doc())
			}
			scores[p.Doc()] += t.Weight(p.Freq(), p.Len())
		}
	}
	var hits []Hit
	for _, d := range order {
		hits = append(hits, Hit{Doc: d, Score: scores[d]})
	}
	sortHits(hits)
	if len(hits) > k {
		t := hits[k-1].Score
		n := k
		for n < len(hits) && hits[n].Score == t {
			n++
		}
		hits = hits[:n]
	}
	return hits
}

func sortHits(h []Hit) {
	slices.SortFunc(h, func(a, b Hit) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return cmp.Compare(a.Doc, b.Doc)
	})
}

func TestTopKMatchesExhaustive(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 25))
	for round := range 300 {
		c := randomCorpus(r, 50+r.IntN(400), 12)
		qs := make([]int, 1+r.IntN(7))
		for i := range qs {
			qs[i] = r.IntN(len(c.terms)) // repeats allowed, as in a query
		}
		k := 1 + r.IntN(30)
		loose := round%3 == 0
		var reads int
		var lists []*list
		want := exhaustive(c.query(qs, loose, &reads, &lists), k)
		lists = nil
		got, complete, err := TopK(c.query(qs, loose, &reads, &lists), k)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lists {
			if l.bad != nil {
				t.Fatalf("round %d: %v", round, l.bad)
			}
		}
		sortHits(got)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d, query %v, k %d, loose %v:\n got %v\nwant %v", round, qs, k, loose, got, want)
		}
		if complete != (len(matching(c, qs)) < k) {
			t.Fatalf("round %d: complete %v with %d matching, k %d", round, complete, len(matching(c, qs)), k)
		}
	}
}

func matching(c corpus, qs []int) map[uint64]bool {
	m := map[uint64]bool{}
	for _, t := range qs {
		for _, d := range c.terms[t] {
			m[d] = true
		}
	}
	return m
}

// TestTopKPrunes checks that the bounds are used: a query of one rare,
// heavy term and common light ones reads far fewer postings than there
// are, and still answers exactly.
func TestTopKPrunes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	c := corpus{lens: make([]int, 20000)}
	for d := range c.lens {
		c.lens[d] = 4 + r.IntN(3)
	}
	for _, p := range []float64{0.002, 0.5, 0.6} {
		var docs, tfs []uint64
		for d := range c.lens {
			if r.Float64() < p {
				docs, tfs = append(docs, uint64(d)), append(tfs, uint64(1+r.IntN(2)))
			}
		}
		c.terms, c.tfs = append(c.terms, docs), append(c.tfs, tfs)
	}
	total := len(c.terms[0]) + len(c.terms[1]) + len(c.terms[2])
	var reads int
	var lists []*list
	want := exhaustive(c.query([]int{0, 1, 2}, false, &reads, &lists), 10)
	reads = 0
	got, _, err := TopK(c.query([]int{0, 1, 2}, false, &reads, &lists), 10)
	if err != nil {
		t.Fatal(err)
	}
	sortHits(got)
	if !slices.Equal(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	if reads > total/4 {
		t.Errorf("read %d of %d postings, want at most a quarter", reads, total)
	}
}

func TestTopKEdges(t *testing.T) {
	one := func(docs ...uint64) Term {
		n := 0
		l := &list{docs: docs, i: -1, reads: &n}
		for range docs {
			l.tfs, l.lens = append(l.tfs, 1), append(l.lens, 1)
		}
		return Term{Postings: l, Weight: func(uint64, int) float64 { return 1 }, Bound: 1}
	}
	for _, tc := range []struct {
		name     string
		terms    []Term
		k        int
		want     []Hit
		complete bool
	}{
		{"no terms", nil, 3, nil, true},
		{"empty postings", []Term{one()}, 3, nil, true},
		{"fewer than k", []Term{one(4, 9)}, 3, []Hit{{4, 1}, {9, 1}}, true},
		{"ties at the boundary stay", []Term{one(1, 2, 3), one(2)}, 1, []Hit{{2, 2}}, false},
		{"all tied", []Term{one(1, 2, 3)}, 2, []Hit{{1, 1}, {2, 1}, {3, 1}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, complete, err := TopK(tc.terms, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			sortHits(got)
			if !slices.Equal(got, tc.want) || complete != tc.complete {
				t.Errorf("got %v complete %v, want %v complete %v", got, complete, tc.want, tc.complete)
			}
		})
	}
	if _, _, err := TopK(nil, 0); err == nil {
		t.Error("k 0: no error")
	}
}
