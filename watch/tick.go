package watch

import (
	"context"
	"errors"
	"time"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/lock"
	"github.com/autorag/autorag/upgrade"
)

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
	// With a slow embedder, a tick commits with the built-in one (package
	// upgrade); the embedding upgrade runs beside the watch.
	res, _, err := upgrade.Refresh(ctx, r.e, opts)
	return res, err
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
