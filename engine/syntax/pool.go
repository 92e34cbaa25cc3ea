package syntax

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// keepMemory is how far an instance's linear memory may grow past its
// size at start (about 28 MiB: the grammars' parse tables, mapped or
// copied into every instance) and still be pooled: one that grew further
// (a huge file) is dropped, since a WebAssembly memory never shrinks.
const keepMemory = 64 << 20

// maxInstances bounds the instances alive at once: each holds its own
// memory (where the module is loaded whole, its own copy of the parse
// tables), so one per core on a large machine would cost hundreds of MiB
// for little gain.
const maxInstances = 4

// backstop is how long Parse waits for one call into the module before it
// cancels it: far past what a budget of steps takes on an idle machine (a
// clean 2 MiB file spends seconds; one the parser recovers from errors
// throughout spends minutes of CPU within its budget: docs/BENCHMARKS.md).
// The cancel word stops a parse at its next step; a loop inside one step
// that the budget cannot see (a grammar's scanner that stops advancing)
// cannot be stopped: wazero interrupts running code only when the module
// is compiled with a check at every loop head, an exit to Go that made
// parsing three times slower. Such a call is abandoned: it keeps its
// instance and its slot until it returns.
var backstop = 10 * time.Minute

// errStuck is a call into the module that ran past the backstop, or a
// parse refused because every slot is held by such a call.
var errStuck = errors.New("tree-sitter module: a parse ran past the backstop")

// pool hands out instances, one parse each at a time, at most one per core
// and maxInstances in all.
type pool struct {
	slots chan struct{}  // one token per instance in use
	idle  chan *instance // instances ready for another parse
	stuck atomic.Int32   // calls abandoned at the backstop and not yet returned
	made  atomic.Int32   // instances made (each costs tens of ms: BenchmarkInstance)
}

var thePool = sync.OnceValue(func() *pool {
	n := min(runtime.GOMAXPROCS(0), maxInstances)
	return &pool{slots: make(chan struct{}, n), idle: make(chan *instance, n)}
})

// Call states, for run and the goroutine that makes the call.
const (
	callRunning = iota
	callReturned
	callAbandoned
)

// run parses src as lang in an instance of the pool. The call runs on a
// goroutine of its own, which gives the instance back when it returns;
// when ctx ends or at the backstop, run sets the instance's cancel word
// (the parse stops at its next step, and frees its instance) and returns.
func (p *pool) run(ctx context.Context, e *engine, lang string, src []byte) ([]record, []string, error) {
	if int(p.stuck.Load()) >= cap(p.slots) {
		return nil, nil, fmt.Errorf("%w: every instance is held by one", errStuck)
	}
	in, err := p.get(ctx, e)
	if err != nil {
		return nil, nil, err
	}
	type result struct {
		recs  []record
		kinds []string
		err   error
	}
	done := make(chan result, 1)
	var state atomic.Int32
	n := in.begin()
	go func() {
		cctx := context.WithoutCancel(ctx)
		recs, kinds, _, err := parseIn(cctx, in, lang, src)
		// A status error leaves the instance sound; any other (a trap,
		// memory) may not.
		p.put(cctx, in, err != nil && !errors.Is(err, errStatus))
		if !state.CompareAndSwap(callRunning, callReturned) {
			p.stuck.Add(-1)
		}
		done <- result{recs, kinds, err}
	}()
	t := time.NewTimer(backstop)
	defer t.Stop()
	var why error
	select {
	case r := <-done:
		return r.recs, r.kinds, r.err
	case <-ctx.Done():
		why = ctx.Err()
	case <-t.C:
		why = errStuck
	}
	if !state.CompareAndSwap(callRunning, callAbandoned) {
		r := <-done
		return r.recs, r.kinds, r.err
	}
	p.stuck.Add(1)
	in.cancelCall(n)
	return nil, nil, why
}

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
	in, err := newInstance(context.WithoutCancel(ctx), e)
	if err != nil {
		<-p.slots
		return nil, err
	}
	p.made.Add(1)
	return in, nil
}

// put gives the instance back, or drops it when broken (a trap) or grown
// too large.
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
