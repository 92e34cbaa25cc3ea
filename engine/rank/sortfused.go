package rank

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/internal/scorekey"
)

// sortFused sorts best first, ties on chunk ID: an order without ties
// (chunk IDs are unique), so no sort needs to be stable. It sorts one
// integer per chunk, the high bits of its score made an unsigned key (best
// smallest) above its position, then each run of equal high bits by
// compareFused, and moves each chunk once: swapping the chunks themselves
// (IDs and pointers, under write barriers) cost more than the fusion it
// sorted, and sorting positions through a comparison function cost a cold
// code query 0.3 M instructions. A NaN score, which has no key, leaves the
// whole sort to compareFused.
func sortFused(xs []Fused) {
	shift := bits.Len(uint(len(xs)))
	mask := uint64(1)<<shift - 1
	keys := make([]uint64, len(xs))
	for i := range xs {
		s := xs[i].Score
		if math.IsNaN(s) {
			sortFusedCompared(xs)
			return
		}
		keys[i] = scorekey.BestFirst(s)&^mask | uint64(i)
	}
	slices.Sort(keys)
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j]&^mask == keys[i]&^mask {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(keys[i:j], func(a, b uint64) int { return compareFused(xs, int(a&mask), int(b&mask)) })
		}
		i = j
	}
	sorted := make([]Fused, len(xs))
	for i, k := range keys {
		sorted[i] = xs[k&mask]
	}
	copy(xs, sorted)
}

// compareFused orders chunks i and j of xs best first: higher score, then
// the smaller chunk ID.
func compareFused(xs []Fused, i, j int) int {
	a, b := &xs[i], &xs[j]
	if c := cmp.Compare(b.Score, a.Score); c != 0 || i == j {
		return c
	}
	if record.LessChunkID(a.ID, b.ID) {
		return -1
	}
	return 1
}

// sortFusedCompared is sortFused through compareFused alone.
func sortFusedCompared(xs []Fused) {
	pos := make([]int32, len(xs))
	for i := range pos {
		pos[i] = int32(i)
	}
	slices.SortFunc(pos, func(i, j int32) int { return compareFused(xs, int(i), int(j)) })
	sorted := make([]Fused, len(xs))
	for i, p := range pos {
		sorted[i] = xs[p]
	}
	copy(xs, sorted)
}
