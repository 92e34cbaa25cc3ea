package openai

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"
)

func TestCancelMidway(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	blocked := make(chan struct{})
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		if c.n == 0 {
			writeJSON(w, http.StatusOK, okReply(c.req, testDims))
			return
		}
		close(blocked)
		<-r.Context().Done() // until the client gives up
	})
	e, _ := newTestEmbedder(t, srv.URL, func(c *Config) { c.BatchSize = 1; c.Concurrency = 1 })
	go func() {
		<-blocked
		cancel()
	}()
	got, err := e.Embed(ctx, texts(5))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if got != nil {
		t.Errorf("got vectors after cancellation")
	}
	if n := len(srv.Calls()); n != 2 {
		t.Errorf("server saw %d requests, want 2", n)
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		w.Header().Set("Retry-After", "3600")
		writeAPIError(w, http.StatusTooManyRequests, "slow down")
		cancel() // the client is about to wait an hour
	})
	e, _ := newTestEmbedder(t, srv.URL, func(c *Config) { c.MaxBackoff = 1 << 62 })
	e.sleep = sleepCtx // the real, context-aware wait
	_, err := e.Embed(ctx, []string{"x"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n := len(srv.Calls()); n != 1 {
		t.Errorf("server saw %d requests, want 1", n)
	}
}

// inflightGate holds each request until limit requests are in flight (or
// every request has arrived), recording the most seen at once.
type inflightGate struct {
	mu                    sync.Mutex
	inFlight, started, hi int
	changed               chan struct{}
}

func (g *inflightGate) notify() {
	close(g.changed)
	g.changed = make(chan struct{})
}

func (g *inflightGate) enter(ctx context.Context, limit, total int) {
	g.mu.Lock()
	g.started++
	g.inFlight++
	g.hi = max(g.hi, g.inFlight)
	g.notify()
	for g.inFlight < limit && g.started < total {
		ch := g.changed
		g.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return
		}
		g.mu.Lock()
	}
	g.mu.Unlock()
}

func (g *inflightGate) leave() {
	g.mu.Lock()
	g.inFlight--
	g.notify()
	g.mu.Unlock()
}

func TestConcurrencyBound(t *testing.T) {
	const limit, total = 3, 20
	g := &inflightGate{changed: make(chan struct{})}
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		g.enter(r.Context(), limit, total)
		defer g.leave()
		// Stay in flight a moment so that a client sending more than
		// limit requests at once is caught; correct clients pass anyway.
		select {
		case <-time.After(5 * time.Millisecond):
		case <-r.Context().Done():
		}
		writeJSON(w, http.StatusOK, okReply(c.req, testDims))
	})
	e, _ := newTestEmbedder(t, srv.URL, func(c *Config) { c.BatchSize = 1; c.Concurrency = limit })
	in := texts(total)
	got, err := e.Embed(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	checkVectors(t, in, got, testDims)
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.hi != limit {
		t.Errorf("at most %d requests in flight, want exactly %d", g.hi, limit)
	}
}
