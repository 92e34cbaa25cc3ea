package vector

import (
	"bytes"
	"slices"

	"github.com/autorag/autorag/internal/scorekey"
)

// sortBest sorts the candidates best first: higher score, then smaller ID
// (worse, read backwards). It sorts one integer per candidate, its score
// made an unsigned key (best smallest) above its position, and then sorts
// each run of equal scores by ID: sorting the candidates through a
// comparison function cost a cold query 0.2 M instructions. A NaN score,
// which no order ranks, leaves the candidates to sortCompared.
func (t *topK) sortBest() {
	keys := make([]uint64, len(t.h))
	for i, c := range t.h {
		if c.score != c.score {
			t.sortCompared()
			return
		}
		keys[i] = scorekey.BestFirst(c.score)<<32 | uint64(i)
	}
	slices.Sort(keys)
	pos := func(k uint64) cand { return t.h[uint32(k)] }
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j]>>32 == keys[i]>>32 {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(keys[i:j], func(a, b uint64) int { return bytes.Compare(t.id(pos(a)), t.id(pos(b))) })
		}
		i = j
	}
	sorted := make([]cand, len(keys))
	for i, k := range keys {
		sorted[i] = pos(k)
	}
	copy(t.h, sorted)
}

// sortCompared is sortBest through the comparison, for candidates with a
// NaN score.
func (t *topK) sortCompared() {
	slices.SortFunc(t.h, func(a, b cand) int { // worse(b, a): -1, worse(a, b): 1, in one pass
		switch {
		case a.score != b.score && b.score < a.score:
			return -1
		case a.score != b.score && a.score < b.score:
			return 1
		case a.score != b.score: // NaN: neither is worse
			return 0
		}
		return bytes.Compare(t.id(a), t.id(b))
	})
}
