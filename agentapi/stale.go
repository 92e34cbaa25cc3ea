package agentapi

import (
	"context"
	"sync"
	"time"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/fingerprint"
)

// staleness keeps the last answer of engine.SourcesChanged and refreshes
// it in the background (see doc.go, "The stale flag").
type staleness struct {
	e     *engine.Engine
	every time.Duration

	ctx    context.Context // cancelled by close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	last    staleValue
	cost    time.Duration // how long the last check took
	running chan struct{} // closed when the running check ends; nil when none runs
	dirty   bool          // a commit of ours since last was taken
}

// staleValue is one check's answer: whether the sources differ from the
// commit of fingerprint fp, as of at.
type staleValue struct {
	fp      string
	changed bool
	at      time.Time
}

func newStaleness(e *engine.Engine, every time.Duration) *staleness {
	ctx, cancel := context.WithCancel(context.Background())
	return &staleness{e: e, every: every, ctx: ctx, cancel: cancel}
}

// get returns the last answer for the commit of fingerprint fp, starting a
// check when the last one is old enough. Only when no answer for fp exists
// yet (the first search, or the first after a commit) does it wait for the
// check; ok is false when that check failed or ctx ended first.
func (s *staleness) get(ctx context.Context, fp string) (staleValue, bool) {
	s.mu.Lock()
	v, fresh := s.last, s.last.fp == fp && !s.dirty
	wait := s.startLocked(fresh)
	s.mu.Unlock()
	if fresh {
		return v, true
	}
	select {
	case <-wait:
	case <-ctx.Done():
		return staleValue{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last, s.last.fp == fp
}

// startLocked starts a check unless one runs or (when the answer is for
// the current commit) the last one is recent; it returns the channel the
// running check closes.
func (s *staleness) startLocked(fresh bool) chan struct{} {
	if s.running != nil {
		return s.running
	}
	if fresh && time.Since(s.last.at) < max(s.every, 10*s.cost) {
		return nil
	}
	if s.ctx.Err() != nil {
		return closed
	}
	done := make(chan struct{})
	s.running, s.dirty = done, false
	s.wg.Go(func() {
		defer close(done)
		s.check()
	})
	return done
}

var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// check runs one sources check against the committed sidecar.
func (s *staleness) check() {
	start := time.Now()
	v := staleValue{at: start}
	sc, err := fingerprint.ReadSidecar(s.e.Layout.SidecarPath())
	if err == nil {
		v.fp = sc.Fingerprint
		v.changed, err = s.e.SourcesChanged(s.ctx, sc)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running, s.cost = nil, time.Since(start)
	if err == nil {
		s.last = v
	}
}

// invalidate makes the next search check again: a refresh of ours
// committed (or found nothing to do, with a manifest now up to date).
func (s *staleness) invalidate() {
	s.mu.Lock()
	s.dirty = true
	s.mu.Unlock()
}

// close stops a running check and waits for it.
func (s *staleness) close() {
	s.cancel()
	s.wg.Wait()
}
