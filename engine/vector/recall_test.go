package vector

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// clustered returns n stored and nq query vectors shaped like a text
// embedder's: unit vectors around a shared mean direction, drawn from
// topics and subtopics, with uneven per-dimension spread and a few
// outlier dimensions (the features that hurt a per-vector scale).
// Queries come from the same topics but are not stored vectors.
func clustered(seed uint64, n, nq, dims int) (data, queries [][]float32) {
	rng := rand.New(rand.NewPCG(seed, 99))
	spread := make([]float64, dims)
	for i := range spread {
		spread[i] = math.Exp(0.5 * rng.NormFloat64())
	}
	for i := 0; i < 3 && i < dims; i++ {
		spread[rng.IntN(dims)] *= 5
	}
	mean := gauss(rng, dims, 1)
	const topics, subtopics = 500, 8
	centers := make([][]float64, topics*subtopics)
	for t := range topics {
		tc := gauss(rng, dims, 1)
		for s := range subtopics {
			sc := gauss(rng, dims, 0.8)
			c := make([]float64, dims)
			for i := range c {
				c[i] = 0.8*mean[i] + tc[i] + sc[i]
			}
			centers[t*subtopics+s] = c
		}
	}
	point := func() []float32 {
		c := centers[rng.IntN(len(centers))]
		v := make([]float32, dims)
		var norm float64
		for i := range v {
			x := (c[i] + 1.4*rng.NormFloat64()) * spread[i]
			v[i] = float32(x)
			norm += x * x
		}
		inv := float32(1 / math.Sqrt(norm))
		for i := range v {
			v[i] *= inv
		}
		return v
	}
	data = make([][]float32, n)
	for i := range data {
		data[i] = point()
	}
	queries = make([][]float32, nq)
	for i := range queries {
		queries[i] = point()
	}
	return data, queries
}

func gauss(rng *rand.Rand, dims int, s float64) []float64 {
	v := make([]float64, dims)
	for i := range v {
		v[i] = s * rng.NormFloat64()
	}
	return v
}

// buildClustered builds an index of the clustered vectors in segs segments.
func buildClustered(t testing.TB, data [][]float32, dims, segs int) *Index {
	t.Helper()
	dir := t.TempDir()
	base := ""
	per := (len(data) + segs - 1) / segs
	for s := 0; s*per < len(data); s++ {
		adds := make([]Entry, 0, per)
		for i := s * per; i < min((s+1)*per, len(data)); i++ {
			adds = append(adds, Entry{ID: chunkID(fmt.Sprintf("doc%07d", i), i%3), Vec: data[i]})
		}
		g := filepath.Join(dir, fmt.Sprintf("g%d", s))
		if _, err := Build(g, base, dims, nil, adds); err != nil {
			t.Fatal(err)
		}
		base = g
	}
	ix, err := Open(base, dims)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// exactLists is the exact scan's top k of every query.
func exactLists(ix *Index, queries [][]float32, k int) [][]Hit {
	out := make([][]Hit, len(queries))
	for i, q := range queries {
		out[i] = ix.SearchQuery(Query{Vec: q, K: k, Scan: ScanExact})
	}
	return out
}

// recallAt is the share of the exact top k (a prefix of exact) that scan
// with n candidates returns in its top k.
func recallAt(ix *Index, queries [][]float32, exact [][]Hit, scan Scan, k, n int) float64 {
	found, total := 0, 0
	for i, q := range queries {
		got := map[string]bool{}
		for _, h := range ix.SearchQuery(Query{Vec: q, K: k, Scan: scan, Candidates: n}) {
			got[h.ID] = true
		}
		for _, h := range exact[i][:min(k, len(exact[i]))] {
			if got[h.ID] {
				found++
			}
		}
		total += min(k, len(exact[i]))
	}
	return float64(found) / float64(total)
}

// TestQuantizedRecall is the recall floor of the default setting on a
// seeded clustered dataset: recall@10 and @50 of SearchQuery against the
// exact scan at least 0.99.
func TestQuantizedRecall(t *testing.T) {
	const dims = 384
	data, queries := clustered(1, quantMinLive+5000, 200, dims)
	ix := buildClustered(t, data, dims, 3)
	for _, k := range []int{10, 50} {
		found, total := 0, 0
		for _, q := range queries {
			exact := ix.SearchQuery(Query{Vec: q, K: k, Scan: ScanExact})
			got := map[string]float32{}
			for _, h := range ix.SearchQuery(Query{Vec: q, K: k}) {
				got[h.ID] = h.Score
			}
			for _, h := range exact {
				if s, ok := got[h.ID]; ok {
					if s != h.Score {
						t.Fatalf("%s: rescored %g, exact %g", h.ID, s, h.Score)
					}
					found++
				}
			}
			total += len(exact)
		}
		if r := float64(found) / float64(total); r < 0.99 {
			t.Errorf("recall@%d = %.4f, want ≥ 0.99", k, r)
		} else {
			t.Logf("recall@%d = %.4f", k, r)
		}
	}
}
