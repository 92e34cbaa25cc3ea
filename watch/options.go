package watch

import (
	"time"

	"github.com/autorag/autorag/engine"
)

// Triggers: what started a tick.
const (
	TriggerStart     = "start"     // the full refresh every run begins with
	TriggerEvent     = "event"     // file events: a targeted refresh of the changed paths
	TriggerReconcile = "reconcile" // the periodic full walk (or one after lost events)
	TriggerPoll      = "poll"      // the full walk of polling mode
	TriggerIdle      = "idle"      // compaction after a quiet period
)

// Tick outcomes besides the refresh's own (unchanged, updated, rebuilt)
// and compaction's (compacted, unchanged).
const (
	OutcomeBusy      = "busy"      // another process held the lock; the work is retried
	OutcomeError     = "error"     // the refresh failed; the work is retried
	OutcomeCancelled = "cancelled" // a compaction gave way to new events, or a stop abandoned the tick
)

// Defaults of Options.
const (
	DefaultDebounce     = 300 * time.Millisecond
	DefaultReconcile    = 5 * time.Minute
	DefaultFallbackPoll = 2 * time.Second
	DefaultIdle         = 30 * time.Second
	DefaultGrace        = 5 * time.Second
	maxBackoff          = 5 * time.Second
	abandonWait         = 2 * time.Second
)

// Options tune Run. Zero values take the defaults.
type Options struct {
	// Debounce is the quiet time after the last event before an event tick.
	Debounce time.Duration
	// MaxDelay bounds how long an event waits under a steady stream of
	// events; default 10 × Debounce.
	MaxDelay time.Duration
	// Reconcile is the period of the full mtime-then-hash walk; negative
	// disables it.
	Reconcile time.Duration
	// Poll, when positive, replaces file events with a full walk every Poll
	// (file systems without events: NFS, FUSE).
	Poll time.Duration
	// FallbackPoll is the polling period used when the watch limit is hit.
	FallbackPoll time.Duration
	// Idle is the quiet time after a committing tick before segments are
	// compacted; negative disables compaction.
	Idle time.Duration
	// Grace is how long a stop waits for the tick in flight to finish
	// before cancelling it (an uncommitted generation is simply garbage).
	Grace time.Duration
	// Once runs the start tick only, and returns nil even when it is busy.
	Once bool
	// Command is recorded as the lock holder's command.
	Command string
	// Pool, when set, is shared with other watchers: a tick waits for one
	// of its slots (see Pool).
	Pool *Pool

	// OnReady is called once the watches are set up, before the start tick.
	OnReady func(Ready)
	// OnTick is called after every tick, from Run's goroutine.
	OnTick func(Tick)
	// OnNotice reports conditions a person should know about (the fall
	// back to polling, lost events).
	OnNotice func(string)
}

// Ready describes a watcher that has set up its watches.
type Ready struct {
	Root string // the root, absolute
	Mode string // "events" or "poll"
	Dirs int    // directories watched (events mode)
}

// Tick is what one tick did.
type Tick struct {
	N       int
	Trigger string
	Outcome string
	Paths   []string // the paths an event tick refreshed, relative to the root
	Refresh *engine.RefreshResult
	Compact *engine.CompactResult
	Err     error // the busy error (lock.BusyError) or the failure; nil on success
	TookMS  float64
}

func (o Options) withDefaults() Options {
	if o.Debounce <= 0 {
		o.Debounce = DefaultDebounce
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = 10 * o.Debounce
	}
	if o.Reconcile == 0 {
		o.Reconcile = DefaultReconcile
	}
	if o.FallbackPoll <= 0 {
		o.FallbackPoll = DefaultFallbackPoll
	}
	if o.Idle == 0 {
		o.Idle = DefaultIdle
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	if o.OnNotice == nil {
		o.OnNotice = func(string) {}
	}
	if o.OnTick == nil {
		o.OnTick = func(Tick) {}
	}
	if o.OnReady == nil {
		o.OnReady = func(Ready) {}
	}
	return o
}
