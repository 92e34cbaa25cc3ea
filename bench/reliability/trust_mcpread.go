package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"time"
)

// specialPaths are the trap root's special files a read may name: a link
// to a FIFO, a device (or a FIFO where none may be made), a FIFO as an
// ignore file, a socket.
var specialPaths = []string{"special/pipe.md", "special/dev.md", "special/fifodir/.gitignore", "special/sock.md"}

const mcpInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`

// mcpRead calls MCP's read tool on every special file of a trap root, over
// stdio and over streamable HTTP: each call must answer within the
// server's limit and a grace, with an error result (not a hang, not
// text). A read of a plain file first must return its text: the calls
// reach the tool.
func (h *harness) mcpRead() outcome {
	o := outcome{Scenario: "MCP read (stdio, streamable HTTP) × (link to a FIFO, device, FIFO ignore file, socket): a prompt error result"}
	root, done, ok := h.refreshedTrapRoot(&o, "mcpread-")
	if !ok {
		return o
	}
	defer done()
	h.mcpReadStdio(&o, root)
	h.mcpReadHTTP(&o, root)
	return o
}

// readCall is the tools/call request of read for path.
func readCall(id int, path string) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": "read", "arguments": map[string]any{"path": path}}})
	return string(b)
}

// refusedResult checks one JSON-RPC answer: a tool error result (isError)
// or a JSON-RPC error, never file text.
func refusedResult(line string) error {
	var m struct {
		Result *struct {
			IsError bool `json:"isError"`
		} `json:"result"`
		Error *json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		return fmt.Errorf("not JSON-RPC: %.200s", line)
	}
	if m.Error != nil || (m.Result != nil && m.Result.IsError) {
		return nil
	}
	return fmt.Errorf("not an error: %.200s", line)
}

func (h *harness) mcpReadStdio(o *outcome, root string) {
	cmd := exec.Command(h.cli.bin, "--root", root, "mcp", "--timeout="+serverLimit.String())
	in, err := cmd.StdinPipe()
	if err != nil {
		o.fail("mcp stdio: %v", err)
		return
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		o.fail("mcp stdio: %v", err)
		return
	}
	if err := cmd.Start(); err != nil {
		o.fail("mcp stdio: %v", err)
		return
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func() (string, bool) {
		select {
		case l, ok := <-lines:
			return l, ok
		case <-time.After(serverLimit + 20*time.Second):
			return "", false
		}
	}
	fmt.Fprintln(in, mcpInit)
	if _, ok := next(); !ok {
		o.fail("mcp stdio: no answer to initialize")
		return
	}
	fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	fmt.Fprintln(in, readCall(2, "ok.md"))
	if l, ok := next(); !ok || refusedResult(l) == nil || !strings.Contains(l, "heronword") {
		o.fail("mcp stdio: read ok.md (the control): %.200s", l)
	}
	for i, p := range specialPaths {
		o.Trials++
		fmt.Fprintln(in, readCall(10+i, p))
		l, ok := next()
		if !ok {
			o.fail("mcp stdio: read %s: no answer within %v", p, serverLimit+20*time.Second)
			return // the server is stuck: later calls would queue behind it
		}
		if err := refusedResult(l); err != nil {
			o.fail("mcp stdio: read %s: %v", p, err)
		}
	}
}

func (h *harness) mcpReadHTTP(o *outcome, root string) {
	s, base, err := h.startServer(root, "mcp", "--http", "127.0.0.1:0", "--timeout="+serverLimit.String())
	if err != nil {
		o.fail("mcp --http: %v", err)
		return
	}
	defer s.kill()
	session := ""
	post := func(body string) (string, error) {
		req, err := http.NewRequest("POST", base+"/", strings.NewReader(body))
		if err != nil {
			return "", err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		res, err := (&http.Client{Timeout: serverLimit + 20*time.Second}).Do(req)
		if err != nil {
			return "", err
		}
		defer res.Body.Close()
		if id := res.Header.Get("Mcp-Session-Id"); id != "" {
			session = id
		}
		b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
		return sseData(string(b)), err
	}
	if _, err := post(mcpInit); err != nil {
		o.fail("mcp --http: initialize: %v", err)
		return
	}
	if _, err := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		o.fail("mcp --http: initialized: %v", err)
		return
	}
	if l, err := post(readCall(2, "ok.md")); err != nil || refusedResult(l) == nil || !strings.Contains(l, "heronword") {
		o.fail("mcp --http: read ok.md (the control): %v %.200s", err, l)
	}
	for i, p := range specialPaths {
		o.Trials++
		l, err := post(readCall(10+i, p))
		if err == nil {
			err = refusedResult(l)
		}
		if err != nil {
			o.fail("mcp --http: read %s: %v", p, err)
		}
	}
}

// sseData is the JSON of a streamable-HTTP answer: the body itself, or
// the data line of its one server-sent event.
func sseData(body string) string {
	for l := range strings.Lines(body) {
		if d, ok := strings.CutPrefix(strings.TrimRight(l, "\r\n"), "data: "); ok {
			return d
		}
	}
	return strings.TrimSpace(body)
}
