package rank

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/autorag/autorag/engine/record"
)

// refSortFused is sortFused as first written: the positions sorted by a
// comparison that reads each chunk's score through its position.
func refSortFused(xs []Fused) {
	pos := make([]int32, len(xs))
	for i := range pos {
		pos[i] = int32(i)
	}
	slices.SortFunc(pos, func(i, j int32) int {
		a, b := &xs[i], &xs[j]
		if c := cmp.Compare(b.Score, a.Score); c != 0 || i == j {
			return c
		}
		if record.LessChunkID(a.ID, b.ID) {
			return -1
		}
		return 1
	})
	sorted := make([]Fused, len(xs))
	for i, p := range pos {
		sorted[i] = xs[p]
	}
	copy(xs, sorted)
}

// TestSortFusedIsRef: sortFused orders chunks as refSortFused does, with
// tied scores, scores a few units in the last place apart, NaN,
// infinities and both zeros among them.
func TestSortFusedIsRef(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	special := []float64{math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 0.5, 0.25, -0.25,
		math.Nextafter(0.5, 1), math.Nextafter(0.5, 0), math.Nextafter(-0.25, 0), 5e-324, -5e-324}
	for n := range 600 {
		xs := make([]Fused, n%150)
		for i := range xs {
			xs[i].ID = record.ChunkID(fmt.Sprintf("d%d/f%d.go", r.IntN(5), r.IntN(7)), i)
			switch r.IntN(4) {
			case 0:
				xs[i].Score = special[r.IntN(len(special))]
			case 1:
				xs[i].Score = 0.1 + float64(r.IntN(2000))*1e-17 // equal in their high bits
			default:
				xs[i].Score = float64(r.IntN(20)) / 8
			}
		}
		if n%10 == 0 && len(xs) > 0 {
			xs[r.IntN(len(xs))].Score = math.NaN()
		}
		got, want := slices.Clone(xs), slices.Clone(xs)
		sortFused(got)
		refSortFused(want)
		for i := range got {
			if got[i].ID != want[i].ID {
				t.Fatalf("n=%d: position %d is %s, want %s", len(xs), i, got[i].ID, want[i].ID)
			}
		}
	}
}

// BenchmarkSortFused sorts a fusion's worth of chunks: 1,000 scores, a
// fifth of them tied.
func BenchmarkSortFused(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	xs := make([]Fused, 1000)
	for i := range xs {
		xs[i].ID = record.ChunkID(fmt.Sprintf("src/f%d.go", i/4), i%4)
		xs[i].Score = r.Float64()
		if i%5 == 0 {
			xs[i].Score = 0.5
		}
	}
	ys := make([]Fused, len(xs))
	b.ReportAllocs()
	for b.Loop() {
		copy(ys, xs)
		sortFused(ys)
	}
}
