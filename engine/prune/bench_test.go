package prune

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkTopK is the broad query of the generated corpora in memory:
// three terms, each in 28 % of 300,000 documents, tf mostly 1, lengths
// around 300, k = 50, with the loose bound idf·(k1+1) the engine uses.
// It measures the algorithm without bleve's decoding, and reports the
// share of the postings it read.
func BenchmarkTopK(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	const docs = 300000
	c := corpus{lens: make([]int, docs)}
	for d := range c.lens {
		c.lens[d] = 250 + r.IntN(100)
	}
	for range 3 {
		var ds, tfs []uint64
		for d := range docs {
			if r.Float64() < 0.28 {
				tf := uint64(1)
				for r.Float64() < 0.15 {
					tf++
				}
				ds, tfs = append(ds, uint64(d)), append(tfs, tf)
			}
		}
		c.terms, c.tfs = append(c.terms, ds), append(c.tfs, tfs)
	}
	var reads int
	var lists []*list
	terms := c.query([]int{0, 1, 2}, true, &reads, &lists)
	total := len(c.terms[0]) + len(c.terms[1]) + len(c.terms[2])
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, l := range lists {
			l.i = -1
		}
		reads = 0
		if _, _, err := TopK(terms, 50); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(reads)/float64(total), "read/postings")
}
