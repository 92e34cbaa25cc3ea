package watch

import (
	"context"
	"fmt"
	"os"
)

// Pool bounds the ticks in flight over several watchers: each watcher
// runs at most one tick at a time of its own, and those sharing a Pool at
// most its size together, so a server keeping many roots live never runs
// more refreshes at once than it has room for. A watcher waiting for a
// slot holds its pending work (events keep coalescing into it); a root
// whose ticks fail or are busy returns its slot at once and backs off, so
// it never holds up the others.
type Pool struct{ slots chan struct{} }

// NewPool returns a pool of n slots (at least 1).
func NewPool(n int) *Pool { return &Pool{slots: make(chan struct{}, max(n, 1))} }

// acquire takes a slot, or fails when ctx ends first; a nil pool has room
// for everyone.
func (p *Pool) acquire(ctx context.Context) error {
	if p == nil {
		return nil
	}
	select {
	case p.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (p *Pool) release() {
	if p != nil {
		<-p.slots
	}
}

// checkRoot fails a tick whose root is no longer a directory:
// refreshing would create it again and commit it empty.
func checkRoot(root string) error {
	fi, err := os.Stat(root)
	if err == nil && !fi.IsDir() {
		err = fmt.Errorf("not a directory")
	}
	if err != nil {
		return fmt.Errorf("root %s is gone (%v): nothing refreshed, the last index is kept", root, err)
	}
	return nil
}
