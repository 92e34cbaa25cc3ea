package syntax

import (
	"context"
	"runtime"
	"sync"
)

// keepMemory is the largest linear memory an instance may keep between
// parses: one that grew past it (a huge file) is dropped rather than pooled,
// since a WebAssembly memory never shrinks.
const keepMemory = 64 << 20

// pool hands out instances, one parse each at a time, at most one per core.
type pool struct {
	slots chan struct{}  // one token per instance in use
	idle  chan *instance // instances ready for another parse
}

var thePool = sync.OnceValue(func() *pool {
	n := runtime.GOMAXPROCS(0)
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
	if broken || in.memoryBytes() > keepMemory {
		in.close(ctx)
		return
	}
	select {
	case p.idle <- in:
	default:
		in.close(ctx)
	}
}
