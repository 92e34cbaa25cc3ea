package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// endpoint is one route of a server.
type endpoint struct {
	method, path, body string
}

var serveEndpoints = []endpoint{
	{"GET", "/v1/search?q=heronword", ""}, {"POST", "/v1/search", `{"query":"heronword"}`},
	{"GET", "/v1/status", ""}, {"POST", "/v1/refresh", ``},
	{"GET", "/v1/read?path=ok.md", ""}, {"POST", "/v1/read", `{"path":"ok.md"}`},
}

var mcpEndpoints = []endpoint{
	{"POST", "/", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`},
	{"GET", "/", ""},
}

// serverLimit is the --timeout of the servers under test; every answer
// must come within it and a grace (the slow body's read deadline is the
// same limit).
const serverLimit = 3 * time.Second

// serverAbuse sends every endpoint of autorag serve and autorag mcp --http
// a cross-origin request, a POST of the wrong content type, a body over
// the limit, a body that trickles in slower than the limit, and (serve) a
// read of a FIFO: each is refused, and answered within its limit.
func (h *harness) serverAbuse() outcome {
	o := outcome{Scenario: "server endpoints (serve, mcp --http) × (cross-origin, wrong content type, huge body, slow body, path to a FIFO), each with a deadline"}
	root, done, ok := h.refreshedTrapRoot(&o, "servers-")
	if !ok {
		return o
	}
	defer done()
	limit := "--timeout=" + serverLimit.String()
	for _, srv := range []struct {
		name string
		args []string
		eps  []endpoint
	}{
		{"serve", []string{"serve", "--addr", "127.0.0.1:0", limit, "--refresh-timeout=" + serverLimit.String()}, serveEndpoints},
		{"mcp --http", []string{"mcp", "--http", "127.0.0.1:0", limit, "--refresh-timeout=" + serverLimit.String()}, mcpEndpoints},
	} {
		s, base, err := h.startServer(root, srv.args...)
		if err != nil {
			o.fail("%s: %v", srv.name, err)
			continue
		}
		for _, ep := range srv.eps {
			h.abuseEndpoint(&o, srv.name, base, ep)
		}
		if srv.name == "serve" {
			for _, p := range []string{"special/pipe.md", "special/dev.md", "special/fifodir/.gitignore"} {
				o.Trials++
				if code, err := send(base, "GET", "/v1/read?path="+url.QueryEscape(p), nil, nil); err != nil || code != 403 {
					o.fail("serve: read %s: %d %v, want 403", p, code, err)
				}
			}
		}
		s.kill()
	}
	return o
}

// abuseEndpoint sends one endpoint each abuse and checks the answer.
func (h *harness) abuseEndpoint(o *outcome, srv, base string, ep endpoint) {
	json := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
	check := func(what string, code int, err error, ok func(int) bool) {
		o.Trials++
		if err != nil || !ok(code) {
			o.fail("%s %s %s: %s: %d %v", srv, ep.method, ep.path, what, code, err)
		}
	}
	refused := func(want int) func(int) bool { return func(c int) bool { return c == want } }
	hdr := map[string]string{"Origin": "https://evil.example"}
	for k, v := range json {
		hdr[k] = v
	}
	code, err := send(base, ep.method, ep.path, strings.NewReader(ep.body), hdr)
	check("cross-origin", code, err, refused(403))
	if ep.method != "POST" {
		return
	}
	code, err = send(base, ep.method, ep.path, strings.NewReader(ep.body), map[string]string{"Content-Type": "text/plain"})
	check("wrong content type", code, err, refused(400))
	huge := `{"query":"` + strings.Repeat("x", 2<<20) + `"}`
	code, err = send(base, ep.method, ep.path, strings.NewReader(huge), json)
	check("huge body", code, err, func(c int) bool { return c >= 400 && c < 500 })
	code, err = slowPost(base, ep.path)
	check("slow body", code, err, func(c int) bool { return c >= 400 })
}

// send makes one request and returns its status; the client's own
// deadline (the server's limit and a grace) makes a hang an error.
func send(base, method, path string, body io.Reader, hdr map[string]string) (int, error) {
	req, err := http.NewRequest(method, base+path, body)
	if err != nil {
		return 0, err
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	c := &http.Client{Timeout: serverLimit + 20*time.Second}
	res, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
	res.Body.Close()
	return res.StatusCode, nil
}

// slowPost sends a JSON POST whose 200-byte body arrives a byte every
// 100 ms (20 s in all, past the limit) and returns the status the server
// answers with, which must come within the limit and a grace.
func slowPost(base, path string) (int, error) {
	u, err := url.Parse(base)
	if err != nil {
		return 0, err
	}
	conn, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(serverLimit + 20*time.Second))
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 200\r\n\r\n{", path, u.Host)
	answered := make(chan struct{})
	go func() {
		for i := 0; i < 199; i++ {
			select {
			case <-answered:
				return
			case <-time.After(100 * time.Millisecond):
			}
			if _, err := conn.Write([]byte(" ")); err != nil {
				return
			}
		}
	}()
	defer close(answered)
	var buf bytes.Buffer
	b := make([]byte, 512)
	for !strings.Contains(buf.String(), "\r\n") {
		n, err := conn.Read(b)
		buf.Write(b[:n])
		if err != nil {
			break
		}
	}
	var code int
	if _, err := fmt.Sscanf(buf.String(), "HTTP/1.1 %d", &code); err != nil {
		return 0, fmt.Errorf("no status line (%q): %w", buf.String(), err)
	}
	return code, nil
}

// refreshedTrapRoot makes a root with every path trap planted (its outside
// targets beside it) and refreshes it; done removes both. A failure is
// recorded in o.
func (h *harness) refreshedTrapRoot(o *outcome, prefix string) (root string, done func(), ok bool) {
	root, err := os.MkdirTemp(h.work, prefix)
	if err != nil {
		o.fail("setup: %v", err)
		return "", nil, false
	}
	done = func() { os.RemoveAll(root); os.RemoveAll(root + "-outside") }
	if _, err := plantTraps(root, root+"-outside"); err != nil {
		done()
		o.fail("setup: %v", err)
		return "", nil, false
	}
	if r := h.cli.run(nil, "--root", root, "refresh", "-q"); r.code != 0 {
		done()
		o.fail("refresh: %s", r)
		return "", nil, false
	}
	return root, done, true
}
