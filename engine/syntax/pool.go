package syntax

import (
	"context"
	"runtime"
	"sync"
)

// keepMemory is how far an instance's linear memory may grow past its
// size at start (about 28 MiB: the grammars' parse tables, copied into
// every instance) and still be pooled: one that grew further (a huge file)
// is dropped, since a WebAssembly memory never shrinks.
const keepMemory = 64 << 20

// maxInstances bounds the instances alive at once: each holds its own copy
// of the parse tables, so one per core on a large machine would cost
// hundreds of MiB for little gain.
const maxInstances = 4

// pool hands out instances, one parse each at a time, at most one per core
// and maxInstances in all.
type pool struct {
	slots chan struct{}  // one token per instance in use
	idle  chan *instance // instances ready for another parse
}

var thePool = sync.OnceValue(func() *pool {
	n := min(runtime.GOMAXPROCS(0), maxInstances)
	return &pool{slots: make(chan struct{}, n), idle: make(chan *instance, n)}
})

// get returns an idle instance or a new one, waiting for a slot if every
// core's instance is busy.
func (p *pool) get(ctx context.Context, e *engine) (*instance, error) {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case in := <-p.idle:
		return in, nil
	default:
	}
	in, err := newInstance(ctx, e)
	if err != nil {
		<-p.slots
		return nil, err
	}
	return in, nil
}

// put gives the instance back, or drops it when broken (a trap, a closed
// module) or grown too large.
func (p *pool) put(ctx context.Context, in *instance, broken bool) {
	defer func() { <-p.slots }()
	if broken || in.memoryBytes() > in.startMemory+keepMemory {
		in.close(ctx)
		return
	}
	select {
	case p.idle <- in:
	default:
		in.close(ctx)
	}
}
