package engine

import (
	"context"
	"runtime"
	"sync"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/internal/memfault"
	"github.com/autorag/autorag/mirror"
)

// chunked is one file cut into chunk records.
type chunked struct {
	docs     []*backend.Chunk
	fallback error // its syntax parser failed: cut by the line heuristic
	err      error
}

// aheadPerWorker bounds the files chunked and not yet taken, per worker:
// enough to keep every worker busy while the taker embeds and applies.
const aheadPerWorker = 2

// chunkAhead cuts entries into chunks on one goroutine per core (parsing
// code is the costly part: tree-sitter's parses run concurrently, one
// instance each), at most aheadPerWorker files a worker ahead of the
// taker, and hands them out in entries' order: next returns the next
// file's (or ctx's error once ctx ends). stop ends the workers, which
// finish the file at hand; call it once, when done taking.
func (b *builder) chunkAhead(ctx context.Context, entries []mirror.Entry) (next func() chunked, stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	workers := max(1, min(runtime.GOMAXPROCS(0), len(entries)))
	out := make([]chan chunked, len(entries))
	for i := range out {
		out[i] = make(chan chunked, 1)
	}
	jobs := make(chan int)
	room := make(chan struct{}, workers*aheadPerWorker) // one token per file handed out and not taken
	go func() {
		defer close(jobs)
		for i := range entries {
			select {
			case room <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				var c chunked
				// The mirror's packs are mapped: a fault reading one is
				// an error of this file, not the end of the process.
				c.err = memfault.Guard(func() (err error) {
					c.docs, c.fallback, err = b.chunkFile(ctx, entries[i])
					return err
				})
				out[i] <- c
			}
		})
	}
	k := 0
	next = func() chunked {
		select {
		case c := <-out[k]:
			k++
			<-room
			return c
		case <-ctx.Done():
			return chunked{err: ctx.Err()}
		}
	}
	stop = func() {
		cancel()
		wg.Wait()
	}
	return next, stop
}
