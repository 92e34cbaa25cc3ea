package watch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/autorag/autorag/engine"
)

// Run keeps svc's index fresh until ctx is cancelled, then finishes the
// tick in flight (or abandons it after Options.Grace) and returns nil.
// It returns an error only when it cannot start (no root, no watcher).
// Busy ticks are retried and never make Run fail.
func Run(ctx context.Context, svc *engine.Service, o Options) error {
	r := &runner{e: svc.Engine(), o: o.withDefaults(), done: make(chan result, 1)}
	return r.run(ctx)
}

// runner is the scheduler: one goroutine owns all its state; ticks run one
// at a time on another goroutine and report on done.
type runner struct {
	e    *engine.Engine
	o    Options
	tree *tree // nil when polling

	pend     work    // what the next tick must cover
	flight   *flight // the tick in flight, nil when none
	done     chan result
	n        int
	dirty    bool          // a tick committed since the last compaction check
	backoff  time.Duration // after a busy or failed tick
	notUntil time.Time     // no tick before this (backoff)

	wake, idle *time.Timer
	poll       *time.Ticker // nil unless polling

	addWatch func(abs string) error    // replaces fsnotify's Add when set (tests: the watch limit)
	lose     func(fsnotify.Event) bool // tests: drop this event, as a queue overflow does
}

// flight is a tick in progress.
type flight struct {
	cancel  context.CancelFunc
	compact bool
}

// result is a finished tick and the work it covered (to retry).
type result struct {
	tick Tick
	work work
}

func (r *runner) run(ctx context.Context) error {
	if err := r.setup(ctx); err != nil {
		return err
	}
	defer r.teardown()
	r.pend.addFull(TriggerStart)
	if r.o.Once {
		r.start(ctx)
		r.finish(<-r.done)
		return nil
	}
	var reconcile <-chan time.Time
	if r.o.Reconcile > 0 {
		t := time.NewTicker(r.o.Reconcile)
		defer t.Stop()
		reconcile = t.C
	}
	r.schedule(ctx)
	for {
		select {
		case <-ctx.Done():
			r.stop()
			return nil
		case ev, ok := <-r.events():
			if !ok {
				r.lostWatcher()
				continue
			}
			if r.lose != nil && r.lose(ev) {
				continue
			}
			r.onEvent(ctx, ev)
		case err, ok := <-r.errors():
			if !ok {
				r.lostWatcher()
				continue
			}
			r.onWatchError(ctx, err)
		case <-r.wake.C:
		case <-reconcile:
			r.pend.addFull(TriggerReconcile)
		case <-r.pollC():
			r.pend.addFull(TriggerPoll)
		case <-r.idle.C:
			r.compact(ctx)
		case res := <-r.done:
			r.finish(res)
		}
		r.schedule(ctx)
	}
}

// setup watches the tree, or starts polling when asked to or when the
// watch limit is hit.
func (r *runner) setup(ctx context.Context) error {
	r.wake, r.idle = time.NewTimer(time.Hour), time.NewTimer(time.Hour)
	r.wake.Stop()
	r.idle.Stop()
	if r.o.Poll > 0 {
		r.startPolling(r.o.Poll)
		return nil
	}
	t, err := newTree(ctx, r.e.Layout.Root)
	if err == nil {
		r.tree = t
		if r.addWatch != nil {
			t.add = r.addWatch
		}
		err = t.addTree(ctx, "")
	}
	if errors.Is(err, ErrWatchLimit) {
		r.fallBack(err)
		return nil
	}
	if err != nil {
		r.dropTree()
		return err
	}
	r.o.OnReady(Ready{Root: r.e.Layout.Root, Mode: "events", Dirs: len(t.dirs)})
	return nil
}

// fallBack reports the watch limit and polls instead of watching.
func (r *runner) fallBack(err error) {
	r.o.OnNotice(fmt.Sprintf("%v; polling every %s instead (raise fs.inotify.max_user_watches to watch)", err, r.o.FallbackPoll))
	r.dropTree()
	r.startPolling(r.o.FallbackPoll)
}

func (r *runner) startPolling(every time.Duration) {
	r.poll = time.NewTicker(every)
	r.o.OnReady(Ready{Root: r.e.Layout.Root, Mode: "poll"})
}

func (r *runner) dropTree() {
	if r.tree != nil {
		_ = r.tree.close()
		r.tree = nil
	}
}

func (r *runner) teardown() {
	r.dropTree()
	if r.poll != nil {
		r.poll.Stop()
	}
	r.wake.Stop()
	r.idle.Stop()
}

// events, errors and pollC are nil channels (never ready) in the mode
// that does not use them.
func (r *runner) events() <-chan fsnotify.Event {
	if r.tree == nil {
		return nil
	}
	return r.tree.fs.Events
}

func (r *runner) errors() <-chan error {
	if r.tree == nil {
		return nil
	}
	return r.tree.fs.Errors
}

func (r *runner) pollC() <-chan time.Time {
	if r.poll == nil {
		return nil
	}
	return r.poll.C
}

// onEvent records the path an event changed. A compaction in flight gives
// way: it is cancelled and tried again at the next quiet period.
func (r *runner) onEvent(ctx context.Context, ev fsnotify.Event) {
	c, err := r.tree.handle(ctx, ev)
	if errors.Is(err, ErrWatchLimit) {
		r.fallBack(err)
		r.pend.addFull(TriggerPoll)
		return
	}
	if err != nil {
		r.o.OnNotice(fmt.Sprintf("watch: %v; a full walk follows", err))
		r.pend.addFull(TriggerReconcile)
		return
	}
	if !c.ok {
		return
	}
	r.pend.addPath(c.path, time.Now())
	if r.flight != nil && r.flight.compact {
		r.flight.cancel()
	}
}

// lostWatcher falls back to polling when fsnotify closed its channels on
// its own (it does so only when its file descriptor fails).
func (r *runner) lostWatcher() {
	r.o.OnNotice(fmt.Sprintf("watch: file events stopped; polling every %s instead", r.o.FallbackPoll))
	r.dropTree()
	r.startPolling(r.o.FallbackPoll)
	r.pend.addFull(TriggerPoll)
}

// onWatchError handles fsnotify's errors. A queue overflow lost events:
// among them, maybe, the creation of directories that are therefore not
// watched, and edits of ignore files. So the watch set is rebuilt from a
// walk (rules read again, every directory a scan would enter watched,
// watches of vanished ones dropped) before a full refresh catches up.
// Any other error is treated the same way: whatever it lost is found.
func (r *runner) onWatchError(ctx context.Context, err error) {
	r.o.OnNotice(fmt.Sprintf("watch: %v; watching the tree again, a full walk follows", err))
	r.pend.addFull(TriggerReconcile)
	if err := r.tree.rewatch(ctx); errors.Is(err, ErrWatchLimit) {
		r.fallBack(err)
	} else if err != nil {
		r.o.OnNotice(fmt.Sprintf("watch: %v", err))
	}
}
