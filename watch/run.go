package watch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/lock"
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

// schedule starts the pending tick when it is due and nothing is in
// flight, or sets the wake timer for when it will be; with nothing to do
// and a committed change since the last check, it arms the idle timer.
func (r *runner) schedule(ctx context.Context) {
	r.wake.Stop()
	if r.flight != nil {
		r.idle.Stop()
		return
	}
	if r.pend.empty() {
		if r.dirty && r.o.Idle > 0 {
			r.idle.Reset(r.o.Idle)
		}
		return
	}
	r.idle.Stop()
	due := r.pend.due(r.o.Debounce, r.o.MaxDelay)
	if r.notUntil.After(due) {
		due = r.notUntil
	}
	if wait := time.Until(due); wait > 0 {
		r.wake.Reset(wait)
		return
	}
	r.start(ctx)
}

// start runs the pending work as the next tick.
func (r *runner) start(ctx context.Context) {
	w := r.pend
	r.pend = work{}
	r.n++
	tick := Tick{N: r.n, Trigger: w.trigger()}
	opts := engine.RefreshOptions{Command: r.o.Command}
	if w.full == "" {
		tick.Paths = w.list()
		opts.Paths = tick.Paths
	}
	tctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	r.flight = &flight{cancel: cancel}
	go func() {
		defer cancel()
		begin := time.Now()
		res, err := r.refresh(tctx, opts)
		tick.Refresh, tick.Err, tick.TookMS = res, err, ms(time.Since(begin))
		tick.Outcome = outcomeOf(res, err)
		r.done <- result{tick: tick, work: w}
	}()
}

// refresh runs one refresh in a slot of the pool, unless the root is gone.
func (r *runner) refresh(ctx context.Context, opts engine.RefreshOptions) (*engine.RefreshResult, error) {
	if err := checkRoot(r.e.Layout.Root); err != nil {
		return nil, err
	}
	if err := r.o.Pool.acquire(ctx); err != nil {
		return nil, err
	}
	defer r.o.Pool.release()
	return r.e.Refresh(ctx, opts)
}

// compact runs an idle compaction tick.
func (r *runner) compact(ctx context.Context) {
	if r.flight != nil || !r.pend.empty() || !r.dirty {
		return
	}
	r.n++
	tick := Tick{N: r.n, Trigger: TriggerIdle}
	tctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	r.flight = &flight{cancel: cancel, compact: true}
	go func() {
		defer cancel()
		begin := time.Now()
		var res *engine.CompactResult
		err := r.o.Pool.acquire(tctx)
		if err == nil {
			res, err = r.e.Compact(tctx, engine.CompactOptions{Command: r.o.Command})
			r.o.Pool.release()
		}
		tick.Compact, tick.Err, tick.TookMS = res, err, ms(time.Since(begin))
		tick.Outcome = OutcomeError
		switch {
		case err == nil:
			tick.Outcome = res.Outcome
		case errors.Is(err, lock.ErrBusy):
			tick.Outcome = OutcomeBusy
		case errors.Is(err, context.Canceled):
			tick.Outcome = OutcomeCancelled
		}
		r.done <- result{tick: tick}
	}()
}

// finish records a finished tick: committed work marks the index dirty
// for compaction; busy and failed work goes back into the pending tick,
// retried after a growing backoff.
func (r *runner) finish(res result) {
	r.flight = nil
	t := res.tick
	switch {
	case t.Trigger == TriggerIdle:
		// Compacted, or nothing to reclaim: done until the next commit.
		// Busy, cancelled or failed: tried at the next quiet period.
		r.dirty = t.Outcome != engine.OutcomeCompacted && t.Outcome != engine.OutcomeUnchanged
	case t.Err == nil:
		r.backoff, r.notUntil = 0, time.Time{}
		if t.Outcome != engine.OutcomeUnchanged {
			r.dirty = true
		}
	default:
		r.pend.merge(res.work)
		r.backoff = min(max(2*r.backoff, r.o.Debounce), maxBackoff)
		r.notUntil = time.Now().Add(r.backoff)
	}
	r.o.OnTick(t)
}

// stop finishes the tick in flight, waiting up to Grace, then cancels it
// and waits a little more; a tick that still has not returned is left to
// die with the process (nothing it wrote is committed).
func (r *runner) stop() {
	if r.flight == nil {
		return
	}
	if r.flight.compact {
		r.flight.cancel()
	}
	grace := time.NewTimer(r.o.Grace)
	defer grace.Stop()
	select {
	case res := <-r.done:
		r.finish(res)
		return
	case <-grace.C:
	}
	r.flight.cancel()
	abandon := time.NewTimer(abandonWait)
	defer abandon.Stop()
	select {
	case res := <-r.done:
		if errors.Is(res.tick.Err, context.Canceled) {
			res.tick.Outcome = OutcomeCancelled
		}
		r.finish(res)
	case <-abandon.C:
		r.o.OnNotice("watch: the tick in flight did not stop; leaving it uncommitted")
	}
}

func outcomeOf(res *engine.RefreshResult, err error) string {
	switch {
	case err == nil:
		return res.Outcome
	case errors.Is(err, lock.ErrBusy):
		return OutcomeBusy
	case errors.Is(err, context.Canceled):
		return OutcomeCancelled
	default:
		return OutcomeError
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
