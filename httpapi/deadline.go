package httpapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"sync"

	"github.com/autorag/autorag/envelope"
)

// errPastDeadline is what a handler still writing after its request's
// time limit gets: the server has already answered for it.
var errPastDeadline = errors.New("the request's time limit has passed")

// withDeadline serves r with h until ctx ends, then answers 504 itself
// (unless h has begun its answer) and returns, whatever h is doing: a
// handler stuck in a system call cannot hold the request open. h keeps
// running on its goroutine until it returns; its later writes are dropped.
// Unlike http.TimeoutHandler the answer is not buffered, so event streams
// (MCP over HTTP) flush as they are written.
func withDeadline(ctx context.Context, w http.ResponseWriter, r *http.Request, h http.Handler) {
	tw := &deadlineWriter{w: w, header: w.Header().Clone()}
	// The handler notes its error code on a note of its own, read once it
	// has returned, so that a late handler and the log never race.
	outer, inner := noteOf(r), &note{}
	ctx = context.WithValue(ctx, noteKey{}, inner)
	done := make(chan struct{})
	panicked := make(chan any, 1)
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				panicked <- p
			}
		}()
		h.ServeHTTP(tw, r.WithContext(ctx))
	}()
	select {
	case <-done:
		if outer != nil {
			outer.code = inner.code
		}
		select {
		case p := <-panicked:
			panic(p)
		default:
		}
	case <-ctx.Done():
		tw.expire(r, ctx.Err())
	}
}

// deadlineWriter passes a handler's answer through until expire.
type deadlineWriter struct {
	mu      sync.Mutex
	w       http.ResponseWriter
	header  http.Header // the handler's, copied to w's at WriteHeader
	wrote   bool
	expired bool
}

func (d *deadlineWriter) Header() http.Header { return d.header }

func (d *deadlineWriter) WriteHeader(code int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.writeHeaderLocked(code)
}

func (d *deadlineWriter) writeHeaderLocked(code int) {
	if d.expired || d.wrote {
		return
	}
	d.wrote = true
	maps.Copy(d.w.Header(), d.header)
	d.w.WriteHeader(code)
}

func (d *deadlineWriter) Write(b []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.expired {
		return 0, errPastDeadline
	}
	d.writeHeaderLocked(http.StatusOK)
	return d.w.Write(b)
}

// Flush lets streamed answers through while the request is live.
func (d *deadlineWriter) Flush() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if f, ok := d.w.(http.Flusher); ok && !d.expired {
		d.writeHeaderLocked(http.StatusOK)
		f.Flush()
	}
}

// expire answers 504 if the handler has not begun its answer, and stops
// passing anything through.
func (d *deadlineWriter) expire(r *http.Request, cause error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.wrote {
		var buf bytes.Buffer
		_ = envelope.Write(&buf, envelope.NewErrorCode(fmt.Errorf("%s %s: %w", r.Method, r.URL.Path, cause), "timeout"))
		if n := noteOf(r); n != nil { // the outer note: r is the outer request
			n.code = "timeout"
		}
		h := d.w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Cache-Control", "no-store")
		d.w.WriteHeader(http.StatusGatewayTimeout)
		_, _ = d.w.Write(buf.Bytes())
	}
	d.expired = true
}
