package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/autorag/autorag/envelope"
)

// server is an `autorag serve` or `autorag mcp --http` process.
type server struct {
	cmd    *exec.Cmd
	base   string         // http://127.0.0.1:PORT
	guard  string         // how it said it is guarded
	stderr chan string    // the lines after the first
	done   chan exitState // the exit, once
}

type exitState struct {
	code int
	err  error
}

var listenLine = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+) \((.*)\)`)

// startServer starts autorag with args and waits for it to say where it
// listens. The process is killed when the test ends, if still running.
func startServer(t *testing.T, args ...string) *server {
	t.Helper()
	return startServerEnv(t, nil, args...)
}

// startServerEnv is startServer with extra environment.
func startServerEnv(t *testing.T, env []string, args ...string) *server {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(cleanEnv(), "AUTORAG_TEST_MAIN=1"), env...)
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, stderr: make(chan string, 1<<16), done: make(chan exitState, 1)}
	t.Cleanup(func() { cmd.Process.Kill(); <-s.done })
	lines := bufio.NewScanner(errPipe)
	if !lines.Scan() {
		cmd.Process.Kill()
		t.Fatalf("%v: no output", args)
	}
	m := listenLine.FindStringSubmatch(lines.Text())
	if m == nil {
		t.Fatalf("%v: first line %q", args, lines.Text())
	}
	s.base, s.guard = m[1], m[2]
	go func() {
		for lines.Scan() {
			s.stderr <- lines.Text()
		}
		close(s.stderr)
		err := cmd.Wait()
		st := exitState{err: err}
		if ee, ok := err.(*exec.ExitError); ok {
			st.code, st.err = ee.ExitCode(), nil
		}
		s.done <- st
	}()
	return s
}

// stop signals the server and returns its exit code.
func (s *server) stop(t *testing.T, sig syscall.Signal) int {
	t.Helper()
	if err := s.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case st := <-s.done:
		s.done <- st // for the cleanup
		if st.err != nil {
			t.Fatal(st.err)
		}
		return st.code
	case <-time.After(time.Minute):
		t.Fatal("server did not stop within a minute of the signal")
		return -1
	}
}

func getJSON(t *testing.T, c *http.Client, u string, v any) int {
	t.Helper()
	res, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("GET %s: %d %q: %v", u, res.StatusCode, b, err)
	}
	return res.StatusCode
}

func TestServeRefusesNonLoopbackWithoutToken(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		r := cli(t, nil, "--root", root, "serve", "--addr", addr)
		if r.code != exitUsage || !strings.Contains(r.stderr, "--token") {
			t.Errorf("serve --addr %s without a token: exit %d, stderr %q", addr, r.code, r.stderr)
		}
		r = cli(t, nil, "--root", root, "mcp", "--http", addr)
		if r.code != exitUsage || !strings.Contains(r.stderr, "--token") {
			t.Errorf("mcp --http %s without a token: exit %d, stderr %q", addr, r.code, r.stderr)
		}
	}
}

func TestGuardNote(t *testing.T) {
	for _, tt := range []struct {
		loopback, token bool
		want            string
	}{
		{true, false, "loopback only, no token"},
		{true, true, "loopback, bearer token required"},
		{false, true, "NOT loopback: reachable from other hosts, every request needs the bearer token"},
	} {
		if got := guardNote(tt.loopback, tt.token); got != tt.want {
			t.Errorf("guardNote(%v, %v) = %q, want %q", tt.loopback, tt.token, got, tt.want)
		}
	}
}

func TestServeAnswersAndStopsCleanly(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		s := startServer(t, "--root", root, "serve", "--addr", "127.0.0.1:0", "-v", "--token", "tok")
		if s.guard != guardNote(true, true) {
			t.Errorf("the server said it is guarded by %q", s.guard)
		}
		var got envelope.Query
		req, _ := http.NewRequest("GET", s.base+"/v1/search?"+url.Values{"q": {"rotate JWT signing keys"}, "k": {"3"}}.Encode(), nil)
		req.Header.Set("Authorization", "Bearer tok")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		json.NewDecoder(res.Body).Decode(&got)
		res.Body.Close()
		var cli envelope.Query
		json.Unmarshal([]byte(mustOK(t, "--root", root, "query", "--json", "-k", "3", "rotate JWT signing keys").stdout), &cli)
		if a, b := resultsJSON(t, got.Results), resultsJSON(t, cli.Results); a != b || len(cli.Results) == 0 {
			t.Errorf("serve answered %s\nthe CLI %s", a, b)
		}
		var env envelope.Error
		if code := getJSON(t, http.DefaultClient, s.base+"/v1/status", &env); code != 401 || env.Error.Code != "unauthorized" {
			t.Errorf("status without the token: %d %+v", code, env)
		}
		if code := s.stop(t, sig); code != 0 {
			t.Errorf("after %v: exit %d, want 0", sig, code)
		}
		var logs []string
		for l := range s.stderr {
			logs = append(logs, l)
		}
		if len(logs) != 2 || !strings.Contains(logs[0], `"path":"/v1/search"`) || !strings.Contains(logs[1], `"status":401`) {
			t.Errorf("-v log, one JSON line per request: %q", logs)
		}
	}
}

func resultsJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMCPOverHTTP drives `autorag mcp --http` with the Go SDK's
// streamable HTTP client.
func TestMCPOverHTTP(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	s := startServer(t, "--root", root, "mcp", "--http", "127.0.0.1:0")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: s.base}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// full_text: the whole passages, as the CLI prints them (snippets by
	// default, see mcpserver).
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "retry with exponential backoff", "k": 3, "full_text": true}})
	if err != nil || res.IsError {
		t.Fatalf("search: %v %+v", err, res)
	}
	var got envelope.Query
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &got)
	var cli envelope.Query
	json.Unmarshal([]byte(mustOK(t, "--root", root, "query", "--json", "-k", "3", "retry with exponential backoff").stdout), &cli)
	if a, b := resultsJSON(t, got.Results), resultsJSON(t, cli.Results); a != b || len(cli.Results) == 0 {
		t.Errorf("mcp --http answered %s\nthe CLI %s", a, b)
	}
	cs.Close()
	if code := s.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit %d after SIGTERM, want 0", code)
	}
}

// TestServeConcurrentSearchesWhileRefreshing: 8 clients send 1,000
// searches each to one `autorag serve` while refreshes by other processes
// commit new generations in a loop. No search fails, every answer comes
// from a committed generation, and equals what `autorag query --json`
// answers on that generation.
func TestServeConcurrentSearchesWhileRefreshing(t *testing.T) {
	root := copyCorpus(t)
	version := func(v int) {
		writeFile(t, root, "zebra.md", fmt.Sprintf("# Zebra\n\nzebra crossing version%d, the striped zebra crossing\n", v))
	}
	queries := []string{"zebra crossing", "striped zebra", "retry with exponential backoff"}
	// expected[generation][query] is the CLI's answer on that generation.
	expected := map[string]map[string]string{}
	record := func() string {
		gen := refreshJSON(t, root)["generation"].(string)
		expected[gen] = map[string]string{}
		for _, q := range queries {
			var env envelope.Query
			if err := json.Unmarshal([]byte(mustOK(t, "--root", root, "query", "--json", "-k", "3", q).stdout), &env); err != nil {
				t.Fatal(err)
			}
			if env.Generation != gen {
				t.Fatalf("the CLI answered from %s right after committing %s", env.Generation, gen)
			}
			expected[gen][q] = resultsJSON(t, env.Results)
		}
		return gen
	}
	version(0)
	record()
	s := startServer(t, "--root", root, "serve", "--addr", "127.0.0.1:0")

	type answer struct{ gen, query, results string }
	const clients, searches = 8, 1000
	answers := make([][]answer, clients)
	errs := make(chan error, clients)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
			for i := range searches {
				q := queries[(c+i)%len(queries)]
				env, err := searchOnce(ctx, hc, s.base, q)
				if err != nil {
					errs <- fmt.Errorf("client %d search %d: %w", c, i, err)
					return
				}
				answers[c] = append(answers[c], answer{env.Generation, q, resultsJSON(t, env.Results)})
			}
		})
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	refreshes := 0
	for v := 1; ; v++ {
		select {
		case <-finished:
		default:
			version(v)
			record()
			refreshes++
			continue
		}
		break
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	gens := map[string]int{}
	for _, as := range answers {
		for _, a := range as {
			want, ok := expected[a.gen]
			if !ok {
				t.Fatalf("an answer from generation %s, never committed", a.gen)
			}
			if want[a.query] != a.results {
				t.Fatalf("generation %s, %q: served\n%s\nthe CLI answered\n%s", a.gen, a.query, a.results, want[a.query])
			}
			gens[a.gen]++
		}
	}
	t.Logf("%d searches over %d generations (%d refreshes meanwhile): %v", clients*searches, len(gens), refreshes, gens)
	if len(gens) < 2 {
		t.Errorf("all answers from one generation: the refreshes did not overlap the searches")
	}
	if code := s.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit %d after SIGTERM", code)
	}
}

func searchOnce(ctx context.Context, hc *http.Client, base, q string) (*envelope.Query, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/v1/search?"+url.Values{"q": {q}, "k": {"3"}}.Encode(), nil)
	if err != nil {
		return nil, err
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != 200 {
		return nil, fmt.Errorf("status %d: %s", res.StatusCode, b)
	}
	var env envelope.Query
	if err := json.Unmarshal(b, &env); err != nil {
		return nil, err
	}
	if !env.OK || len(env.Results) == 0 {
		return nil, fmt.Errorf("answer %s", b)
	}
	return &env, nil
}
