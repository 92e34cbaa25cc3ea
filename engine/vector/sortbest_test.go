package vector

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortBestIsCompared: sortBest orders candidates of several segments
// as the comparison does, with tied scores, both zeros and infinities
// among them; and a NaN score leaves the order to the comparison.
func TestSortBestIsCompared(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	ix, rows := sortRows(t, rng, 300)
	special := []float32{float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)), -0.5, 1e-30, -1e-30}
	for round := range 200 {
		n := 1 + rng.IntN(len(rows))
		cs := make([]cand, n)
		for i, j := range rng.Perm(len(rows))[:n] {
			cs[i] = rows[j]
			switch rng.IntN(3) {
			case 0:
				cs[i].score = special[rng.IntN(len(special))]
			default:
				cs[i].score = float32(rng.IntN(9)-4) / 4
			}
		}
		if round%20 == 0 {
			cs[rng.IntN(n)].score = float32(math.NaN())
		}
		got, want := &topK{ix: ix, h: slices.Clone(cs)}, &topK{ix: ix, h: slices.Clone(cs)}
		got.sortBest()
		want.sortCompared()
		for i := range got.h {
			g, w := got.h[i], want.h[i]
			if !bytes.Equal(got.id(g), want.id(w)) || math.Float32bits(g.score) != math.Float32bits(w.score) {
				t.Fatalf("round %d, position %d: %q %v, want %q %v", round, i, got.id(g), g.score, want.id(w), w.score)
			}
		}
	}
}

// BenchmarkSortBest sorts a dense list's candidates (rank.DenseRef of
// them), a fifth of them tied, across three segments.
func BenchmarkSortBest(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	ix, cs := sortRows(b, rng, 600)
	cs = cs[:500]
	for i := range cs {
		cs[i].score = rng.Float32()
		if i%5 == 0 {
			cs[i].score = 0.5
		}
	}
	t := &topK{ix: ix, h: make([]cand, len(cs))}
	b.ReportAllocs()
	for b.Loop() {
		copy(t.h, cs)
		t.sortBest()
	}
}

// sortRows is an index of n random 4-d vectors in three segments and a
// candidate (no score) for each of its rows, segment by segment.
func sortRows(t testing.TB, rng *rand.Rand, n int) (*Index, []cand) {
	t.Helper()
	data := make([][]float32, n)
	for i := range data {
		data[i] = []float32{rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32()}
	}
	ix := buildClustered(t, data, 4, 3)
	var rows []cand
	for si, s := range ix.segs {
		for r := range s.count {
			rows = append(rows, cand{seg: int32(si), row: int32(r)})
		}
	}
	return ix, rows
}
