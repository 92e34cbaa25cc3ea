package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// mappedDamages are the ways a mapped file of a live generation is damaged.
var mappedDamages = []string{"truncated", "zeroed", "removed"}

// mappedFault serves two roots at once on every surface (serve, serve
// --watch, mcp over stdio and over streamable HTTP), searches both (each
// root's segments and vectors are now mapped), damages every mapped file
// of root B's committed generation, and searches again: the process must
// answer, root A with its results and root B with its own error, damaged
// (a truncated mapping raised SIGBUS and killed the process with both
// roots). A refresh of B then brings it back.
func (h *harness) mappedFault(trials int) outcome {
	o := outcome{Scenario: "live servers × (truncated, zeroed, removed mapped files of one of two roots) × (serve, serve --watch, mcp stdio, mcp --http): the other root answers, the damaged one says damaged, a refresh brings it back"}
	for _, surface := range []string{"serve", "serve --watch", "mcp stdio", "mcp --http"} {
		for _, how := range mappedDamages {
			for i := range trials {
				o.Trials++
				if err := h.mappedTrial(surface, how, i); err != nil {
					o.fail("%s, %s, trial %d: %v", surface, how, i, err)
				}
			}
		}
	}
	return o
}

// mappedTrial is one trial of mappedFault.
func (h *harness) mappedTrial(surface, how string, trial int) error {
	parent, err := os.MkdirTemp(h.work, "mapped-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(parent)
	a, b := filepath.Join(parent, "alpha"), filepath.Join(parent, "beta")
	if err := twoRoots(a, b, h.cli); err != nil {
		return err
	}
	c, err := h.dial(surface, a, b)
	if err != nil {
		return err
	}
	defer c.close()
	if ans, err := c.ask(fmt.Sprintf("heron boat reeds%d", trial)); err != nil || !strings.Contains(ans, "p1.md") || !strings.Contains(ans, "q1.md") {
		return fmt.Errorf("before the damage: %v %.300s", err, ans)
	}
	if err := damageGeneration(b, how); err != nil {
		return err
	}
	for i := range 3 {
		ans, err := c.ask(fmt.Sprintf("heron reeds%d boat", i))
		if err != nil {
			return fmt.Errorf("search %d after beta's files were %s: %w", i, how, err)
		}
		if !strings.Contains(ans, "p1.md") && !strings.Contains(ans, "alpha") || !strings.Contains(ans, "damaged") {
			return fmt.Errorf("search %d after beta's files were %s: %.400s", i, how, ans)
		}
	}
	if r := h.cli.run(nil, "--root", b, "refresh", "--json", "--wait", "1m"); r.code != 0 { // serve --watch may be ticking
		return fmt.Errorf("refresh of beta: %s", r)
	}
	if ans, err := c.ask("heron boat again"); err != nil || strings.Contains(ans, "damaged") || !strings.Contains(ans, "q1.md") {
		return fmt.Errorf("after beta's refresh: %v %.300s", err, ans)
	}
	return nil
}

// twoRoots writes and refreshes two small roots whose files all hold
// "heron" and "boat", named p0.md… and q0.md…: names the file-name signal
// reads alike, so that the merge weighs the two roots the same (with
// a0.md and b0.md it did not: "a" is a stop word, so a0.md's one word "0"
// matched "reeds0" wholly and b0.md's two words half, and alpha's whole
// list came before beta's second file).
func twoRoots(a, b string, c *cli) error {
	for _, r := range []struct{ dir, p string }{{a, "p"}, {b, "q"}} {
		if err := os.MkdirAll(r.dir, 0o755); err != nil {
			return err
		}
		for i := range 30 {
			text := fmt.Sprintf("# Heron %d\n\nThe heron fishes by the boat near reeds%d.\n", i, i)
			if err := os.WriteFile(filepath.Join(r.dir, fmt.Sprintf("%s%d.md", r.p, i)), []byte(text), 0o644); err != nil {
				return err
			}
		}
		if res := c.run(nil, "--root", r.dir, "refresh", "--json"); res.code != 0 {
			return fmt.Errorf("refresh %s: %s", r.dir, res)
		}
	}
	return nil
}

// damageGeneration damages every mapped file (bleve segment, vector file)
// of root's committed generation the way how says.
func damageGeneration(root, how string) error {
	var sc struct {
		Generation string `json:"generation"`
	}
	b, err := os.ReadFile(filepath.Join(root, ".autorag", "fingerprint.json"))
	if err == nil {
		err = json.Unmarshal(b, &sc)
	}
	if err != nil {
		return err
	}
	n := 0
	err = filepath.Walk(filepath.Join(root, ".autorag", "index", sc.Generation), func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() || !strings.HasSuffix(p, ".zap") && !strings.Contains(p, string(filepath.Separator)+"vectors"+string(filepath.Separator)) {
			return err
		}
		n++
		switch how {
		case "truncated":
			return os.Truncate(p, 0)
		case "zeroed":
			return os.WriteFile(p, make([]byte, fi.Size()), 0o600)
		}
		return os.Remove(p)
	})
	if err == nil && n == 0 {
		err = fmt.Errorf("no mapped file in %s's generation %s", root, sc.Generation)
	}
	return err
}

// asker searches a server of two roots and returns its answer's text.
type asker interface {
	ask(q string) (string, error)
	close()
}

// dial starts the surface over roots a and b.
func (h *harness) dial(surface, a, b string) (asker, error) {
	switch surface {
	case "serve", "serve --watch":
		args := []string{"--root", b, "serve", "--addr", "127.0.0.1:0", "--timeout", serverLimit.String()}
		if surface == "serve --watch" {
			args = append(args, "--watch")
		}
		s, base, err := h.startServer(a, args...)
		if err != nil {
			return nil, err
		}
		return &httpAsker{s: s, base: base}, nil
	case "mcp --http":
		s, base, err := h.startServer(a, "--root", b, "mcp", "--http", "127.0.0.1:0", "--timeout="+serverLimit.String())
		if err != nil {
			return nil, err
		}
		m := &mcpHTTP{s: s, base: base}
		return m, m.init()
	}
	return startMCPStdio(exec.Command(h.cli.bin, "--root", a, "--root", b, "mcp", "--timeout="+serverLimit.String()))
}

// httpAsker asks GET /v1/search.
type httpAsker struct {
	s    *started
	base string
}

func (c *httpAsker) ask(q string) (string, error) {
	res, err := (&http.Client{Timeout: serverLimit + 20*time.Second}).Get(c.base + "/v1/search?" + url.Values{"q": {q}}.Encode())
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return string(b), err
}

func (c *httpAsker) close() { c.s.kill() }

// searchCall is the tools/call request of search for q.
func searchCall(id int, q string) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": "search", "arguments": map[string]any{"query": q}}})
	return string(b)
}

// mcpStdio asks MCP's search tool over stdio.
type mcpStdio struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	id    int
}

// startMCPStdio starts cmd, an `autorag mcp` on stdio, and initializes it.
func startMCPStdio(cmd *exec.Cmd) (*mcpStdio, error) {
	m := &mcpStdio{cmd: cmd, lines: make(chan string, 16), id: 1}
	var err error
	if m.in, err = m.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := m.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := m.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			m.lines <- sc.Text()
		}
		close(m.lines)
	}()
	fmt.Fprintln(m.in, mcpInit)
	if _, err := m.next(); err != nil {
		m.close()
		return nil, fmt.Errorf("mcp stdio: initialize: %w", err)
	}
	fmt.Fprintln(m.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return m, nil
}

func (m *mcpStdio) next() (string, error) {
	select {
	case l, ok := <-m.lines:
		if !ok {
			return "", fmt.Errorf("the server exited: %v", m.cmd.Wait())
		}
		return l, nil
	case <-time.After(serverLimit + 20*time.Second):
		return "", fmt.Errorf("no answer within %v", serverLimit+20*time.Second)
	}
}

func (m *mcpStdio) ask(q string) (string, error) {
	m.id++
	fmt.Fprintln(m.in, searchCall(m.id, q))
	return m.next()
}

func (m *mcpStdio) close() { _ = m.cmd.Process.Kill(); _ = m.cmd.Wait() }

// mcpHTTP asks MCP's search tool over streamable HTTP.
type mcpHTTP struct {
	s       *started
	base    string
	session string
	id      int
}

func (m *mcpHTTP) init() error {
	if _, err := m.post(mcpInit); err != nil {
		m.close()
		return fmt.Errorf("mcp --http: initialize: %w", err)
	}
	_, err := m.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return err
}

func (m *mcpHTTP) post(body string) (string, error) {
	req, err := http.NewRequest("POST", m.base+"/", strings.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if m.session != "" {
		req.Header.Set("Mcp-Session-Id", m.session)
	}
	res, err := (&http.Client{Timeout: serverLimit + 20*time.Second}).Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	if id := res.Header.Get("Mcp-Session-Id"); id != "" {
		m.session = id
	}
	b, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	return sseData(string(b)), err
}

func (m *mcpHTTP) ask(q string) (string, error) {
	m.id++
	return m.post(searchCall(10+m.id, q))
}

func (m *mcpHTTP) close() { m.s.kill() }
