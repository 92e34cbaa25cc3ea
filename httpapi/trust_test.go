package httpapi

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCrossOriginRefused checks that a web page cannot drive the server:
// any request carrying a foreign Origin is refused before it does
// anything, and a POST must say application/json even with an empty
// body (a "simple" cross-origin POST needs no preflight).
func TestCrossOriginRefused(t *testing.T) {
	s := start(t, "")
	for _, tt := range []struct {
		method, path, origin, ctype string
		status                      int
	}{
		{"POST", "/v1/refresh", "https://evil.example", "", 403},
		{"POST", "/v1/refresh", "https://evil.example", "application/json", 403},
		{"POST", "/v1/refresh", "null", "application/json", 403},
		{"GET", "/v1/search?q=heron", "https://evil.example", "", 403},
		{"GET", "/v1/read?path=a.md", "http://localhost:1", "", 403},
		{"POST", "/v1/refresh", "", "", 400},
		{"POST", "/v1/refresh", "", "text/plain", 400},
		{"POST", "/v1/refresh", "", "application/x-www-form-urlencoded", 400},
		{"POST", "/v1/refresh", s.base, "application/json", 200},
		{"GET", "/v1/search?q=heron", s.base, "", 200},
	} {
		req, _ := http.NewRequest(tt.method, s.base+tt.path, nil)
		if tt.origin != "" {
			req.Header.Set("Origin", tt.origin)
		}
		if tt.ctype != "" {
			req.Header.Set("Content-Type", tt.ctype)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tt.status {
			t.Errorf("%s %s Origin %q Content-Type %q: %d, want %d (%s)", tt.method, tt.path, tt.origin, tt.ctype, res.StatusCode, tt.status, b)
		}
	}
}

// TestDeadlineHolds serves a handler stuck where no context reaches it (a
// system call): the request still gets its 504 answer at its time limit.
func TestDeadlineHolds(t *testing.T) {
	stuck := make(chan struct{})
	defer close(stuck)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-stuck
		w.Write([]byte("too late"))
	})
	base := serveHandler(t, h, Limits{Timeout: 100 * time.Millisecond})
	c := &http.Client{Timeout: time.Minute}
	res, err := c.Get(base + "/v1/status")
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusGatewayTimeout || !strings.Contains(string(b), `"timeout"`) {
		t.Errorf("stuck handler: %d %s, want 504 timeout", res.StatusCode, b)
	}
}

// TestReadOfFIFOAnswers reads a FIFO behind a source-looking symlink and
// the FIFO itself: refused at once, not a hung request.
func TestReadOfFIFOAnswers(t *testing.T) {
	s := start(t, "")
	root := s.api.Root()
	if err := syscall.Mkfifo(filepath.Join(root, "docs", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("fifo", filepath.Join(root, "docs", "pipe.md")); err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Timeout: time.Minute}
	for _, p := range []string{"docs/pipe.md", "docs/fifo"} {
		res, err := c.Get(s.base + "/v1/read?path=" + p)
		if err != nil {
			t.Fatalf("read %s: no answer: %v", p, err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("read %s: %d, want 403", p, res.StatusCode)
		}
	}
}

func serveHandler(t *testing.T, h http.Handler, l Limits) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, h, Options{Limits: l}) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return "http://" + ln.Addr().String()
}
