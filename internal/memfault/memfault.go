package memfault

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
)

// ErrFault reports a memory fault: a mapped file changed under a reader
// (truncated, or its pages gone), so the memory it was read through no
// longer holds what was mapped.
var ErrFault = errors.New("memory fault reading a mapped file")

// addrError is what the runtime panics with on a fault under
// debug.SetPanicOnFault: the faulting address.
type addrError interface {
	error
	Addr() uintptr
}

// IsFault reports whether r, a recovered panic value, is a memory fault.
func IsFault(r any) bool {
	_, ok := r.(addrError)
	return ok
}

// faultError wraps a recovered fault as an error.
func faultError(r any) error {
	return fmt.Errorf("%w (%v)", ErrFault, r)
}

// Guard runs f on the calling goroutine with faults turned into panics and
// returns f's error, or an error wrapping ErrFault when f (or a Group it
// waited for) faulted. Panics other than faults go on as they were.
func Guard(f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if !IsFault(r) {
				panic(r)
			}
			err = faultError(r)
		}
	}()
	return f()
}

// Group runs workers that read mapped memory: a fault or a panic in one is
// caught on its goroutine, which would otherwise end the process, and
// raised again by Wait on the goroutine that waits, where a Guard (or the
// process's end, as before) takes it.
type Group struct {
	wg    sync.WaitGroup
	mu    sync.Mutex
	panic any // the first fault or panic of a worker
}

// Go runs f on a new goroutine with faults turned into panics.
func (g *Group) Go(f func()) {
	g.wg.Go(func() {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() {
			if r := recover(); r != nil {
				g.mu.Lock()
				if g.panic == nil {
					g.panic = r
				}
				g.mu.Unlock()
			}
		}()
		f()
	})
}

// Wait waits for every worker and then raises again the first fault or
// panic one of them caught.
func (g *Group) Wait() {
	g.wg.Wait()
	g.mu.Lock()
	r := g.panic
	g.mu.Unlock()
	if r != nil {
		panic(r)
	}
}
