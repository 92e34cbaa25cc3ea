package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
)

var files = map[string]string{
	"a.md":         "# Alpha\n\nThe heron fishes at dawn.\n\n## Later\n\nThe heron sleeps by the river.\n",
	"docs/boat.md": "# Boats\n\nA boat on the river carries the heron upstream.\n",
	".gitignore":   "secret.txt\n",
	"secret.txt":   "the heron password\n",
	"tagged.md":    "---\ntags: [birds]\n---\n# Herons\n\nA grey heron stands in the reeds.\n",
}

type server struct {
	api  *agentapi.API
	base string
	logs *bytes.Buffer
	stop func() error
}

// start indexes a new root and serves it on a loopback port.
func start(t *testing.T, token string) *server {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e, err := engine.New(root, engine.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Refresh(t.Context(), engine.RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	api := agentapi.New(e, agentapi.Options{CacheBytes: 1 << 20})
	ws := agentapi.Single(e, agentapi.Options{CacheBytes: 1 << 20})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	logs := &bytes.Buffer{}
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, ln, Handler(ws), Options{Token: token, Log: slog.New(slog.NewJSONHandler(logs, nil))})
	}()
	s := &server{api: api, base: "http://" + ln.Addr().String(), logs: logs}
	s.stop = func() error { cancel(); err := <-done; ws.Close(); api.Close(); return err }
	t.Cleanup(func() {
		if s.stop != nil {
			s.stop()
		}
	})
	return s
}

// do sends a request and decodes the envelope.
func do(t *testing.T, method, u, token, ctype string, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s %s: %d, body %q is not JSON", method, u, res.StatusCode, b)
	}
	return res.StatusCode, m
}

func TestSearchGETAndPOSTAnswerLikeTheAPI(t *testing.T) {
	s := start(t, "")
	two := 2
	want, err := s.api.Search(t.Context(), agentapi.SearchRequest{Query: "heron river", K: &two, PerFile: 2, Mode: "bm25"})
	if err != nil {
		t.Fatal(err)
	}
	wantResults, _ := json.Marshal(want.Results)
	code, get := do(t, "GET", s.base+"/v1/search?"+url.Values{"q": {"heron river"}, "k": {"2"}, "per_file": {"2"}, "mode": {"bm25"}}.Encode(), "", "", "")
	code2, post := do(t, "POST", s.base+"/v1/search", "", "application/json", `{"query":"heron river","k":2,"per_file":2,"mode":"bm25"}`)
	for i, m := range []map[string]any{get, post} {
		if c := []int{code, code2}[i]; c != 200 || m["ok"] != true || m["generation"] != want.Generation {
			t.Fatalf("answer %d: %d %v", i, c, m)
		}
		// Results name their root (here the one root, named after its
		// directory), the only field the API's results lack.
		for _, r := range m["results"].([]any) {
			if r := r.(map[string]any); r["root"] != agentapi.RootName(s.api.Root()) {
				t.Errorf("answer %d: root %v", i, r["root"])
			} else {
				delete(r, "root")
			}
		}
		got, _ := json.Marshal(m["results"])
		var a, b any
		json.Unmarshal(wantResults, &a)
		json.Unmarshal(got, &b)
		if d := cmp.Diff(a, b); d != "" {
			t.Errorf("answer %d: results (-api +http):\n%s", i, d)
		}
	}
}

// Every query option works on GET as in a POST body: the same request
// gives the same results both ways, and the options do narrow them.
func TestSearchGETTakesEveryOption(t *testing.T) {
	s := start(t, "")
	for _, tt := range []struct {
		get   url.Values
		post  string
		paths []string
	}{
		{url.Values{"q": {"heron"}, "type": {"code"}}, `{"query":"heron","type":"code"}`, nil},
		{url.Values{"q": {"heron"}, "filter": {"tag=birds"}}, `{"query":"heron","filters":["tag=birds"]}`, []string{"tagged.md"}},
		{url.Values{"q": {"heron"}, "filter": {"tag=birds", "type=doc"}, "no_collapse": {"true"}, "mode": {"bm25"}},
			`{"query":"heron","filters":["tag=birds","type=doc"],"no_collapse":true,"mode":"bm25"}`, []string{"tagged.md"}},
	} {
		code, get := do(t, "GET", s.base+"/v1/search?"+tt.get.Encode(), "", "", "")
		code2, post := do(t, "POST", s.base+"/v1/search", "", "application/json", tt.post)
		if code != 200 || code2 != 200 {
			t.Fatalf("%v: GET %d %v, POST %d %v", tt.get, code, get, code2, post)
		}
		if d := cmp.Diff(post["results"], get["results"]); d != "" {
			t.Errorf("%v: results (-post +get):\n%s", tt.get, d)
		}
		var paths []string
		for _, r := range get["results"].([]any) {
			paths = append(paths, r.(map[string]any)["path"].(string))
		}
		if d := cmp.Diff(tt.paths, paths); d != "" {
			t.Errorf("%v: paths (-want +got):\n%s", tt.get, d)
		}
	}
}

func TestErrorsAndStatuses(t *testing.T) {
	s := start(t, "")
	for _, tt := range []struct {
		method, path, ctype, body string
		status                    int
		code                      string
	}{
		{"GET", "/v1/search", "", "", 400, "usage"},
		{"GET", "/v1/search?q=heron&k=ten", "", "", 400, "usage"},
		{"GET", "/v1/search?q=heron&k=0", "", "", 400, "usage"},
		{"POST", "/v1/search", "application/json", `{"query":"heron","k":0}`, 400, "usage"},
		{"GET", "/v1/search?q=heron&type=bogus", "", "", 400, "usage"},
		{"GET", "/v1/search?q=heron&mode=fuzzy", "", "", 400, "usage"},
		{"GET", "/v1/search?q=heron&filter=nokey", "", "", 400, "usage"},
		{"GET", "/v1/search?q=heron&colour=red", "", "", 400, "usage"},
		{"GET", "/v1/search?q=heron&q=river", "", "", 400, "usage"},
		{"GET", "/v1/search?q=heron&explain=maybe", "", "", 400, "usage"},
		{"GET", "/v1/read?path=a.md&lines=1", "", "", 400, "usage"},
		{"POST", "/v1/search", "text/plain", `{"query":"heron"}`, 400, "usage"},
		{"POST", "/v1/search", "application/json", `{"query":"heron","bogus":1}`, 400, "usage"},
		{"POST", "/v1/search", "application/json", `{"query":"` + strings.Repeat("x", MaxBody) + `"}`, 400, "usage"},
		{"GET", "/v1/read?path=secret.txt", "", "", 403, "refused"},
		{"GET", "/v1/read?path=..%2Fx", "", "", 403, "refused"},
		{"GET", "/v1/read?path=%2Fetc%2Fpasswd", "", "", 403, "refused"},
		{"GET", "/v1/read?path=none.md", "", "", 404, "not_found"},
		{"GET", "/v1/nothing", "", "", 404, "not_found"},
		{"DELETE", "/v1/search", "", "", 405, "usage"},
		{"GET", "/v1/refresh", "", "", 405, "usage"},
	} {
		req, _ := http.NewRequest(tt.method, s.base+tt.path, strings.NewReader(tt.body))
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
			t.Errorf("%s %.60s: %d, want %d (%s)", tt.method, tt.path, res.StatusCode, tt.status, b)
			continue
		}
		var env envelope.Error
		if tt.code != "" && (json.Unmarshal(b, &env) != nil || env.OK || env.Error.Code != tt.code) {
			t.Errorf("%s %.60s: body %s, want code %s", tt.method, tt.path, b, tt.code)
		}
	}
	code, rd := do(t, "GET", s.base+"/v1/read?path=docs%2Fboat.md&start=3&end=3", "", "", "")
	if code != 200 || rd["text"] != "A boat on the river carries the heron upstream.\n" {
		t.Errorf("read: %d %v", code, rd)
	}
	code, rd = do(t, "POST", s.base+"/v1/read", "", "application/json", `{"path":"a.md","start":1,"end":1}`)
	if code != 200 || rd["text"] != "# Alpha\n" {
		t.Errorf("POST read: %d %v", code, rd)
	}
	code, st := do(t, "GET", s.base+"/v1/status", "", "", "")
	if code != 200 || st["indexed"] != true {
		t.Errorf("status: %d %v", code, st)
	}
	code, ref := do(t, "POST", s.base+"/v1/refresh", "", "application/json", "")
	if code != 200 || ref["outcome"] != "unchanged" {
		t.Errorf("refresh: %d %v", code, ref)
	}
}

func TestTokenGuard(t *testing.T) {
	s := start(t, "s3cret")
	for _, token := range []string{"", "wrong", "s3cret2", "s3cre"} {
		code, m := do(t, "GET", s.base+"/v1/search?q=heron", token, "", "")
		if code != 401 || m["ok"] != false || m["results"] != nil || m["error"].(map[string]any)["code"] != "unauthorized" {
			t.Errorf("token %q: %d %v", token, code, m)
		}
		if code, m := do(t, "POST", s.base+"/v1/refresh", token, "", ""); code != 401 || m["outcome"] != "error" {
			t.Errorf("refresh with token %q: %d %v", token, code, m)
		}
	}
	code, m := do(t, "GET", s.base+"/v1/search?q=heron", "s3cret", "", "")
	if code != 200 || len(m["results"].([]any)) == 0 {
		t.Errorf("right token: %d %v", code, m)
	}
}

func TestHostHeaderWithoutToken(t *testing.T) {
	s := start(t, "")
	for host, want := range map[string]int{"evil.example:80": 403, "localhost:1": 200, "127.0.0.1": 200, "[::1]:8": 200} {
		req, _ := http.NewRequest("GET", s.base+"/v1/status", nil)
		req.Host = host
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, res.StatusCode, want)
		}
	}
}

func TestCheckBind(t *testing.T) {
	for _, tt := range []struct {
		addr, token string
		loopback    bool
		err         error
	}{
		{"127.0.0.1:7700", "", true, nil},
		{"127.0.0.2:0", "", true, nil},
		{"[::1]:7700", "", true, nil},
		{"localhost:7700", "", true, nil},
		{"0.0.0.0:7700", "", false, ErrNeedToken},
		{":7700", "", false, ErrNeedToken},
		{"[::]:7700", "", false, ErrNeedToken},
		{"192.0.2.1:7700", "", false, ErrNeedToken},
		{"0.0.0.0:7700", "t", false, nil},
	} {
		loopback, err := CheckBind(tt.addr, tt.token)
		if loopback != tt.loopback || !errors.Is(err, tt.err) {
			t.Errorf("CheckBind(%q, %q) = %v, %v; want %v, %v", tt.addr, tt.token, loopback, err, tt.loopback, tt.err)
		}
	}
}

func TestShutdownAndLog(t *testing.T) {
	s := start(t, "")
	do(t, "GET", s.base+"/v1/search?q=heron", "", "", "")
	do(t, "GET", s.base+"/v1/read?path=secret.txt", "", "", "")
	stop := s.stop
	s.stop = nil
	if err := stop(); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if _, err := http.Get(s.base + "/v1/status"); err == nil {
		t.Error("still serving after shutdown")
	}
	lines := strings.Split(strings.TrimSpace(s.logs.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d log lines, want one per request:\n%s", len(lines), s.logs)
	}
	var first, second map[string]any
	json.Unmarshal([]byte(lines[0]), &first)
	json.Unmarshal([]byte(lines[1]), &second)
	if first["path"] != "/v1/search" || first["status"] != float64(200) || second["code"] != "refused" || second["status"] != float64(403) {
		t.Errorf("log lines: %v / %v", first, second)
	}
	if strings.Contains(s.logs.String(), "heron") {
		t.Errorf("the log holds the query text: %s", s.logs)
	}
}

// A request still running when the grace period ends is cancelled, and
// Serve still returns nil (a clean exit).
func TestShutdownCancelsLongRequests(t *testing.T) {
	defer func(g time.Duration) { grace = g }(grace)
	grace = 50 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started, cancelled := make(chan struct{}), make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-r.Context().Done()
		close(cancelled)
	})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, h, Options{}) }()
	go http.Get("http://" + ln.Addr().String() + "/slow")
	<-started
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve = %v, want nil", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return")
	}
	select {
	case <-cancelled:
	case <-time.After(30 * time.Second):
		t.Error("the running request's context was not cancelled")
	}
}
