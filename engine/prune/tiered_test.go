package prune

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// tieredQuery is c's terms qs as tiered terms: a document's bucket is its
// length, a cell holds one frequency (rounded up to an even one when
// coarse, so that cells hold several). scored counts the weights computed.
func (c corpus) tieredQuery(qs []int, coarse bool, scored *int) []TieredTerm {
	var out []TieredTerm
	for _, t := range qs {
		w := c.weightFunc(len(c.terms[t]))
		tt := TieredTerm{Code: make([]uint8, len(c.lens)), Buckets: make([][]Cell, 10)}
		cells := map[[2]int]*Cell{}
		for i, d := range c.terms[t] {
			tf := int(c.tfs[t][i])
			if coarse {
				tf += tf % 2
			}
			key := [2]int{c.lens[d], tf}
			if cells[key] == nil {
				cells[key] = &Cell{Class: uint8(tf), Bound: w(uint64(tf), c.lens[d])}
			}
			cl := cells[key]
			cl.Docs, cl.TF, cl.DL = append(cl.Docs, uint32(d)), append(cl.TF, uint32(c.tfs[t][i])), append(cl.DL, uint32(c.lens[d]))
			tt.Code[d] = uint8(tf)
		}
		for key, cell := range cells {
			tt.Buckets[key[0]] = append(tt.Buckets[key[0]], *cell)
		}
		tt.Weight = func(tf uint64, dl int) float64 {
			*scored++
			return w(tf, dl)
		}
		out = append(out, tt)
	}
	return out
}

func TestTopKTieredMatchesExhaustive(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 25))
	for round := range 300 {
		docs := 50 + r.IntN(400)
		if round%10 == 0 { // cells past materialize, and the k that needs them
			docs = 3000 + r.IntN(3000)
		}
		c := randomCorpus(r, docs, 12)
		qs := make([]int, 1+r.IntN(6))
		for i := range qs {
			qs[i] = r.IntN(len(c.terms)) // repeats allowed, as in a query
		}
		k := 1 + r.IntN(30)
		if round%10 == 0 {
			k = 100 + r.IntN(1000)
		}
		var reads, scored int
		var lists []*list
		want := exhaustive(c.query(qs, true, &reads, &lists), k)
		got, complete, err := TopKTiered(c.tieredQuery(qs, round%2 == 0, &scored), k, 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		sortHits(got)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d, query %v, k %d:\n got %v\nwant %v", round, qs, k, got, want)
		}
		if complete != (len(matching(c, qs)) < k) {
			t.Fatalf("round %d: complete %v with %d matching, k %d", round, complete, len(matching(c, qs)), k)
		}
	}
}

// TestTopKTieredPrunes checks that the cells are skipped: three broad
// terms, whose best documents hold all three often, score far fewer
// documents than match; and that a tiny budget gives up.
func TestTopKTieredPrunes(t *testing.T) {
	c := broadCorpus(rand.New(rand.NewPCG(3, 5)), 20000)
	qs := []int{0, 1, 2}
	var reads, scored int
	var lists []*list
	want := exhaustive(c.query(qs, true, &reads, &lists), 10)
	got, _, err := TopKTiered(c.tieredQuery(qs, false, &scored), 10, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	sortHits(got)
	if !slices.Equal(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	if n := len(matching(c, qs)); scored > n/20 {
		t.Errorf("scored %d of %d matching documents, want at most a twentieth", scored, n)
	}
	if _, _, err := TopKTiered(c.tieredQuery(qs, false, &scored), 10, 3); !errors.Is(err, ErrBudget) {
		t.Errorf("budget 3: error %v, want ErrBudget", err)
	}
	if _, _, err := TopKTiered(nil, 0, 10); err == nil {
		t.Error("k 0: no error")
	}
}

// TestTopKTieredListsLargeCells checks the second phase's lists of cells
// past materialize before a leaf (listLarge): three broad terms over
// corpora large enough that the best documents' cells hold hundreds, for
// several k, against exhaustive scoring.
func TestTopKTieredListsLargeCells(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	early := 0
	for _, docs := range []int{20000, 60000} {
		c := broadCorpus(r, docs)
		qs := []int{0, 1, 2}
		for _, k := range []int{10, 50, 200, 1000} {
			var reads, scored int
			var lists []*list
			want := exhaustive(c.query(qs, true, &reads, &lists), k)
			s := newTiered(c.tieredQuery(qs, false, &scored), k, 1<<30)
			got, _, err := s.run()
			if err != nil {
				t.Fatal(err)
			}
			sortHits(got)
			if !slices.Equal(got, want) {
				t.Fatalf("%d documents, k %d:\n got %v\nwant %v", docs, k, got, want)
			}
			early += s.listedLarge
		}
	}
	if early == 0 {
		t.Error("no second-phase list before a leaf")
	}
}

// broadCorpus is n short documents and three broad terms, each in about
// 30 % of them with small term frequencies: the best documents hold all
// three, as a broad query's do.
func broadCorpus(r *rand.Rand, n int) corpus {
	c := corpus{lens: make([]int, n)}
	for d := range c.lens {
		c.lens[d] = 4 + r.IntN(5)
	}
	for range 3 {
		var docs, tfs []uint64
		for d := range c.lens {
			if r.Float64() < 0.3 {
				docs, tfs = append(docs, uint64(d)), append(tfs, uint64(1+r.IntN(1+r.IntN(4))))
			}
		}
		c.terms, c.tfs = append(c.terms, docs), append(c.tfs, tfs)
	}
	return c
}
