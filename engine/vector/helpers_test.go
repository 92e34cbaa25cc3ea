package vector

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randUnit returns a random L2-normalized vector.
func randUnit(rng *rand.Rand, dims int) []float32 {
	v := make([]float32, dims)
	var n float64
	for i := range v {
		x := rng.NormFloat64()
		v[i] = float32(x)
		n += x * x
	}
	inv := float32(1 / math.Sqrt(n))
	for i := range v {
		v[i] *= inv
	}
	return v
}

func chunkID(path string, ord int) string { return fmt.Sprintf("%s\x00%d", path, ord) }

// model is the reference: the live vectors by ID.
type model map[string][]float32

// search is brute force with the same kernel, so results must match exactly.
func (m model) search(q []float32, k int) []Hit {
	all := make([]Hit, 0, len(m))
	for id, v := range m {
		all = append(all, Hit{ID: id, Score: dot(q, v)})
	}
	slices.SortFunc(all, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	if k < len(all) {
		all = all[:k]
	}
	if len(all) == 0 {
		return nil
	}
	return all
}

func (m model) entries(ids []string) []Entry {
	out := make([]Entry, len(ids))
	for i, id := range ids {
		out[i] = Entry{ID: id, Vec: m[id]}
	}
	return out
}

// checkSearch compares ix against m for a few random queries and k values.
func checkSearch(t *testing.T, ix *Index, m model, rng *rand.Rand, queries int) {
	t.Helper()
	if ix.Len() != len(m) {
		t.Fatalf("Len = %d, want %d", ix.Len(), len(m))
	}
	for range queries {
		q := randUnit(rng, ix.Dims())
		for _, k := range []int{1, 10, len(m) + 3} {
			got, want := ix.Search(q, k), m.search(q, k)
			if !slices.Equal(got, want) {
				t.Fatalf("Search(k=%d) over %d vectors:\n got %v\nwant %v", k, len(m), brief(got), brief(want))
			}
		}
	}
}

func brief(h []Hit) []Hit {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func mustBuild(t *testing.T, dir, base string, dims int, deletes []string, adds []Entry) Stats {
	t.Helper()
	st, err := Build(dir, base, dims, deletes, adds)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return st
}

func mustOpen(t *testing.T, dir string, dims int) *Index {
	t.Helper()
	ix, err := Open(dir, dims)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}
