package weaviate

import (
	"fmt"
	"testing"
	"time"
)

// The benchmarks run against AUTORAG_WEAVIATE_URL with the settings of the
// tests (3 shards × 2 replicas on 3 nodes, 1 × 1 on one). docs/BENCHMARKS.md
// has the command and the figures.

const benchDocs = 2000

// BenchmarkImport: one collection, 2,000 chunks with 16-dimension vectors.
func BenchmarkImport(b *testing.B) {
	c := testCluster(b)
	ctx := testContext(b)
	s := testSettings(b, c)
	objs := corpus(benchDocs, 1)
	alias := testAlias(b, c)
	start := time.Now()
	for i := 0; i < b.N; i++ {
		name := fmt.Sprintf("%s_i%d_a", alias, i)
		if err := c.CreateCollection(ctx, name, s); err != nil {
			b.Fatal(err)
		}
		if err := c.Import(ctx, name, objs, s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchDocs*b.N)/time.Since(start).Seconds(), "docs/s")
}

func benchPair(b *testing.B) (*Client, *Pair, []Object) {
	c := testCluster(b)
	objs := corpus(benchDocs, 2)
	p := NewPair(c, testAlias(b, c), testSettings(b, c))
	if _, err := p.Build(testContext(b), "e1", objs); err != nil {
		b.Fatal(err)
	}
	return c, p, objs
}

func BenchmarkQuery(b *testing.B) {
	c, p, _ := benchPair(b)
	ctx := testContext(b)
	q := object("q", "retry with exponential backoff on timeout")
	for _, m := range []struct {
		name string
		mode Mode
	}{{"bm25", BM25}, {"hybrid", Hybrid}} {
		b.Run(m.name, func(b *testing.B) {
			qq := Query{Mode: m.mode, Tokens: q.Tokens, Vector: q.Vector, Alpha: 0.5, K: 10}
			for i := 0; i < b.N; i++ {
				if _, err := c.Search(ctx, p.Alias(), qq, p.s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkUpdate compares a 1-edit update of the pair (apply, swap,
// replay) with a rebuild of the 2,000 chunks (a new epoch, both collections).
func BenchmarkUpdate(b *testing.B) {
	_, p, objs := benchPair(b)
	ctx := testContext(b)
	b.Run("1-edit", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			o := objs[i%len(objs)]
			ch := Change{Upserts: []Object{object(o.ChunkID, fmt.Sprintf("edit %d %s", i, o.Text))}}
			if _, err := p.Commit(ctx, ch); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("rebuild", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := p.Build(ctx, fmt.Sprintf("r%d", i), objs); err != nil {
				b.Fatal(err)
			}
		}
	})
}
