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
// tied scores, NaN, infinities and both zeros among them.
func TestSortFusedIsRef(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 0.5, 0.25}
	for n := range 300 {
		xs := make([]Fused, n%120)
		for i := range xs {
			xs[i].ID = record.ChunkID(fmt.Sprintf("d%d/f%d.go", r.IntN(5), r.IntN(7)), i)
			switch r.IntN(3) {
			case 0:
				xs[i].Score = special[r.IntN(len(special))]
			default:
				xs[i].Score = float64(r.IntN(20)) / 8
			}
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
