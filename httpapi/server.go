package httpapi

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Limits bound each request.
type Limits struct {
	Timeout        time.Duration // search, read, status: the whole request; 0 = 30 s
	RefreshTimeout time.Duration // refresh (POST /v1/refresh, MCP tools over HTTP); 0 = 30 min
}

func (l Limits) withDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = 30 * time.Second
	}
	if l.RefreshTimeout <= 0 {
		l.RefreshTimeout = 30 * time.Minute
	}
	return l
}

// Options configure Serve.
type Options struct {
	Token  string       // bearer token; "" = loopback Host headers only
	Limits Limits       //
	Log    *slog.Logger // one line per request; nil logs nothing
	// Long reports whether a request may run for Limits.RefreshTimeout
	// (nil: POST /v1/refresh only).
	Long func(*http.Request) bool
}

// Serve serves h on ln, behind the guard, the limits and the request log,
// until ctx ends; then it stops accepting, lets running requests finish
// for at most grace (10 s), cancels those still running (a refresh stops
// before committing, leaving the index as it was) and returns nil.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, o Options) error {
	o.Limits = o.Limits.withDefaults()
	if o.Long == nil {
		o.Long = func(r *http.Request) bool { return r.Method == http.MethodPost && r.URL.Path == "/v1/refresh" }
	}
	reqs, cancelReqs := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelReqs()
	srv := &http.Server{
		Handler:           logged(o.Log, guard(limited(h, o), o.Token)),
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return reqs },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(reqs, grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		cancelReqs()
		_ = srv.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// grace is how long Serve lets running requests finish after its context
// ends.
var grace = 10 * time.Second

// limited bounds the body and the time of each request.
func limited(h http.Handler, o Options) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d := o.Limits.Timeout
		if o.Long(r) {
			d = o.Limits.RefreshTimeout
		}
		ctx, cancel := context.WithTimeout(r.Context(), d)
		defer cancel()
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(time.Now().Add(d))
		_ = rc.SetWriteDeadline(time.Now().Add(d + 5*time.Second))
		r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
		withDeadline(ctx, w, r, h)
	})
}

// note is what the request log learns from the handler.
type note struct{ code string }

type noteKey struct{}

func noteOf(r *http.Request) *note {
	n, _ := r.Context().Value(noteKey{}).(*note)
	return n
}

// logged writes one JSON line per request to log (nil: none): method,
// path (never the query string, which holds the search text), status,
// error code, bytes and milliseconds.
func logged(log *slog.Logger, h http.Handler) http.Handler {
	if log == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		n := &note{}
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), noteKey{}, n)))
		attrs := []any{"method", r.Method, "path", r.URL.Path, "status", sw.status, "bytes", sw.bytes,
			"ms", float64(time.Since(start).Microseconds()) / 1000, "remote", remoteHost(r.RemoteAddr)}
		if n.code != "" {
			attrs = append(attrs, "code", n.code)
		}
		log.Info("request", attrs...)
	})
}

func remoteHost(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}

type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (s *statusWriter) WriteHeader(code int) { s.status = code; s.ResponseWriter.WriteHeader(code) }
func (s *statusWriter) Write(b []byte) (int, error) {
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Flush lets streamed answers (MCP's event streams) through.
func (s *statusWriter) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
