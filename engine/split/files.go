package split

import (
	"context"
	"runtime"
	"sync"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/internal/memfault"
	"github.com/autorag/autorag/mirror"
)

// File is one file cut into chunk records (Files).
type File struct {
	Chunks   []*backend.Chunk
	Fallback error // its syntax parser failed: cut by the chunker's heuristics (Doc)
	Err      error // its Doc could not be read, or the context ended
}

// aheadPerWorker bounds the files cut and not yet taken, per worker:
// enough to keep every worker busy while the taker embeds and applies.
const aheadPerWorker = 2

// Files cuts the files of entries into chunk records (Doc with o) on one
// goroutine per core, reading each one's Doc with read: parsing code is
// the costly part, and tree-sitter's parses run concurrently, an
// instance each. It runs at most aheadPerWorker files a worker ahead of
// the taker and hands the files out in entries' order: next returns the
// next one (with ctx's error once ctx ends). stop ends the workers, which
// finish the file at hand; call it once, when done taking.
func Files(ctx context.Context, entries []mirror.Entry, read func(mirror.Entry) (*mirror.Doc, error), o Options) (next func() File, stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	workers := max(1, min(runtime.GOMAXPROCS(0), len(entries)))
	out := make([]chan File, len(entries))
	for i := range out {
		out[i] = make(chan File, 1)
	}
	jobs := make(chan int)
	room := make(chan struct{}, workers*aheadPerWorker) // a token per file handed out and not taken
	go handOut(ctx, len(entries), room, jobs)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				out[i] <- cutFile(ctx, entries[i], read, o)
			}
		})
	}
	k := 0
	next = func() File {
		if err := ctx.Err(); err != nil {
			return File{Err: err}
		}
		select {
		case f := <-out[k]:
			k++
			<-room
			return f
		case <-ctx.Done():
			return File{Err: ctx.Err()}
		}
	}
	stop = func() {
		cancel()
		wg.Wait()
	}
	return next, stop
}

// handOut sends the indexes 0..n-1 to jobs, each once room takes its
// token, until ctx ends; then it closes jobs.
func handOut(ctx context.Context, n int, room chan<- struct{}, jobs chan<- int) {
	defer close(jobs)
	for i := range n {
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
}

// cutFile reads and cuts one file. The mirror's packs are mapped: a fault
// reading one is an error of this file, not the end of the process.
func cutFile(ctx context.Context, en mirror.Entry, read func(mirror.Entry) (*mirror.Doc, error), o Options) File {
	var f File
	f.Err = memfault.Guard(func() error {
		doc, err := read(en)
		if err != nil {
			return err
		}
		f.Chunks, f.Fallback = Doc(ctx, en.Path, doc, o)
		return nil
	})
	return f
}
