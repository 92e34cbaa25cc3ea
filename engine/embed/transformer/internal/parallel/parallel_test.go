package parallel

import (
	"slices"
	"sync"
	"testing"
)

// TestSplitCoversOnce: every item of the range is handed to exactly one
// run, the runs are contiguous and at most workers of them, for ranges
// smaller than, equal to and larger than the number of workers.
func TestSplitCoversOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 7, 16, 96} {
		for _, workers := range []int{-1, 0, 1, 2, 3, 8, 200} {
			var mu sync.Mutex
			seen := make([]int, n)
			runs := 0
			Split(n, workers, func(lo, hi int) {
				mu.Lock()
				defer mu.Unlock()
				runs++
				for i := lo; i < hi; i++ {
					seen[i]++
				}
			})
			if slices.ContainsFunc(seen, func(c int) bool { return c != 1 }) {
				t.Errorf("n=%d workers=%d: items handed out %v times", n, workers, seen)
			}
			if want := max(1, min(workers, n)); runs != want {
				t.Errorf("n=%d workers=%d: %d runs, want %d", n, workers, runs, want)
			}
		}
	}
}
