// Package parallel shares a range of independent work items out among
// goroutines: the panels of a matrix product (packages gemm and qgemm)
// for one short sequence, where there is no other sequence to give the
// other cores.
package parallel

import "sync"

// Split calls part over [0, n) cut into workers contiguous runs of nearly
// equal length (at most n runs), each in a goroutine of its own, and
// returns when every run is done; with one worker or none, part(0, n) runs
// in the caller's goroutine. (Running the first run in the caller's
// goroutine instead measured 8 % more CPU in gemm's
// BenchmarkMatMulParallel, likely because the other core must then steal
// the one new goroutine from the caller's run-next slot, which the
// scheduler lets it do only after a pause.)
func Split(n, workers int, part func(lo, hi int)) {
	workers = min(workers, n)
	if workers <= 1 {
		part(0, n)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { part(w*n/workers, (w+1)*n/workers) })
	}
	wg.Wait()
}
