package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/autorag/autorag/agentapi"
)

// Faults of the fake rerank service.
const (
	rerankOK      = "ok"      // TEI's answer, preferring passages about pasta
	rerankError   = "error"   // 503 with TEI's error body
	rerankTimeout = "timeout" // no answer until the client gives up
	rerankGarbage = "garbage" // 200 with an answer that is not TEI's
)

// faultyReranker speaks text-embeddings-inference's /rerank, or fails as
// its mode says; mode can change between requests.
func faultyReranker(t *testing.T, mode *atomic.Value) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Query string   `json:"query"`
			Texts []string `json:"texts"`
		}
		if r.URL.Path != "/rerank" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, `{"error":"Input validation error","error_type":"Validation"}`, http.StatusUnprocessableEntity)
			return
		}
		switch mode.Load().(string) {
		case rerankError:
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"error":"Model is overloaded","error_type":"overloaded"}`)
		case rerankTimeout:
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		case rerankGarbage:
			io.WriteString(w, `[{"index":0,"score":"high"},{"index":99,"score":1}]`)
		default:
			answerPasta(w, req.Texts)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// rerankRoot is a root whose best BM25 match for "rotate keys" is
// keys.md, and whose only passage about pasta ranks below it.
func rerankRoot(t *testing.T) string {
	root := t.TempDir()
	writeFile(t, root, "keys.md", "# Keys\nRotate the signing keys, rotate them often: keys keys keys.\n")
	writeFile(t, root, "pasta.md", "# Dinner\nThe pasta is cooked while you rotate the keys.\n")
	mustOK(t, "--root", root, "refresh", "--embedder", "none")
	return root
}

var rerankFaults = []string{rerankError, rerankTimeout, rerankGarbage}

// TestQueryRerankFailureKeepsFusedOrder: a reranker that errors, times out
// or answers garbage leaves `autorag query` its fused order, exit 0, the
// answer marked reranked: false with the reason (said once, in JSON, in
// --explain and on stderr), and nothing cached; --rerank=required makes it
// the query's failure, exit 3 (issue 36 item 4).
func TestQueryRerankFailureKeepsFusedOrder(t *testing.T) {
	root := rerankRoot(t)
	var mode atomic.Value
	srv := faultyReranker(t, &mode)
	env := []string{"AUTORAG_RERANK_URL=" + srv.URL + "/rerank", "AUTORAG_RERANK_TIMEOUT=300ms"}
	for _, fault := range rerankFaults {
		mode.Store(fault)
		r := cli(t, env, "--root", root, "query", "--json", "-k", "2", "--rerank", "rotate keys")
		if r.code != 0 {
			t.Fatalf("%s: exit %d %s%s, want 0 with the fused order", fault, r.code, r.stdout, r.stderr)
		}
		got := r.json(t)
		res := got["results"].([]any)
		if len(res) != 2 || res[0].(map[string]any)["path"] != "keys.md" || got["reranked"] != false {
			t.Fatalf("%s: %s, want keys.md first (fused) and reranked false", fault, r.stdout)
		}
		msg, _ := got["rerank_error"].(string)
		if !saysRerankOnce(msg) {
			t.Errorf("%s: rerank_error %q, want the reason naming rerank once", fault, msg)
		}
		r = cli(t, env, "--root", root, "query", "--explain", "-k", "2", "--rerank", "rotate keys")
		if r.code != 0 || !strings.Contains(r.stdout, "not reranked, fused order kept: "+msg) || !strings.Contains(r.stderr, "not reranked") {
			t.Errorf("%s --explain: exit %d\n%s%s", fault, r.code, r.stdout, r.stderr)
		}
		r = cli(t, env, "--root", root, "query", "--json", "--rerank=required", "rotate keys")
		if r.code != 3 || !saysRerankOnce(r.stdout) {
			t.Errorf("%s, required: exit %d %s, want 3 and the reason once", fault, r.code, r.stdout)
		}
	}
	mode.Store(rerankOK) // the reranker is back: no failed answer was cached
	r := cli(t, env, "--root", root, "query", "--json", "-k", "2", "--rerank", "rotate keys")
	got := r.json(t)
	if r.code != 0 || got["reranked"] != true || got["results"].([]any)[0].(map[string]any)["path"] != "pasta.md" {
		t.Fatalf("reranker back: exit %d %s, want pasta.md first and reranked true", r.code, r.stdout)
	}
}

// twoRerankRoots are two roots for the servers: keys (rerankRoot) and
// dinner, whose pasta passage the fake reranker scores as keys' is.
func twoRerankRoots(t *testing.T) (keys, dinner string) {
	keys = rerankRoot(t)
	dinner = t.TempDir()
	writeFile(t, dinner, "menu.md", "# Menu\nFirst the pasta; then rotate the keys of the cellar.\n")
	writeFile(t, dinner, "wine.md", "# Wine\nKeep the keys of the cellar; rotate the bottles.\n")
	mustOK(t, "--root", dinner, "refresh", "--embedder", "none")
	return keys, dinner
}

// postSearch asks serve's /v1/search and decodes the answer.
func postSearch(t *testing.T, base, query string) (int, agentapi.SearchAnswer, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "k": 4})
	res, err := http.Post(base+"/v1/search", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var a agentapi.SearchAnswer
	json.Unmarshal(b, &a)
	return res.StatusCode, a, string(b)
}

// checkUnreranked: every root answered, in its fused order, and the
// answer and each root say reranked false with a reason.
func checkUnreranked(t *testing.T, how, fault string, a agentapi.SearchAnswer) {
	t.Helper()
	if !a.OK || len(a.Roots) != 2 || len(a.Results) == 0 || a.Reranked == nil || *a.Reranked || a.RerankError == "" {
		t.Fatalf("%s, %s: %+v, want both roots' answers marked not reranked", how, fault, a)
	}
	for _, ra := range a.Roots {
		if !ra.OK || ra.Reranked == nil || *ra.Reranked || !saysRerankOnce(ra.RerankError) {
			t.Errorf("%s, %s: root %+v", how, fault, ra)
		}
	}
	for _, h := range a.Results {
		if h.Scores.Rerank != nil {
			t.Errorf("%s, %s: %s/%s has a rerank score", how, fault, h.Root, h.Path)
		}
	}
}

// TestServeRerankFailureAnswersEveryRoot: serve over two roots answers
// 200 from both roots when the reranker fails, marked; with the reranker
// answering, the merged order is its scores' as they are.
func TestServeRerankFailureAnswersEveryRoot(t *testing.T) {
	keys, dinner := twoRerankRoots(t)
	var mode atomic.Value
	srv := faultyReranker(t, &mode)
	s := startServerEnv(t, []string{"AUTORAG_RERANK_URL=" + srv.URL + "/rerank", "AUTORAG_RERANK_TIMEOUT=300ms"},
		"--root", keys, "--root", dinner, "serve", "--rerank", "--addr", "127.0.0.1:0")
	for _, fault := range rerankFaults {
		mode.Store(fault)
		code, a, raw := postSearch(t, s.base, "rotate keys")
		if code != http.StatusOK {
			t.Fatalf("%s: status %d %s, want 200", fault, code, raw)
		}
		checkUnreranked(t, "serve", fault, a)
	}
	mode.Store(rerankOK)
	code, a, raw := postSearch(t, s.base, "rotate keys")
	if code != http.StatusOK || a.Reranked == nil || !*a.Reranked || len(a.Results) < 3 {
		t.Fatalf("reranker back: %d %s", code, raw)
	}
	for i, h := range a.Results {
		want := 0.1
		if i < 2 {
			want = 0.9 // the two pasta passages, one per root, before anything else
		}
		if h.Scores.Rerank == nil || *h.Scores.Rerank != want || h.Score != want {
			t.Errorf("merged %d: %s/%s score %v, want the reranker's %v as it is", i+1, h.Root, h.Path, h.Score, want)
		}
	}
}

// TestMCPRerankFailureAnswersEveryRoot: the same through mcp --http.
func TestMCPRerankFailureAnswersEveryRoot(t *testing.T) {
	keys, dinner := twoRerankRoots(t)
	var mode atomic.Value
	srv := faultyReranker(t, &mode)
	s := startServerEnv(t, []string{"AUTORAG_RERANK_URL=" + srv.URL + "/rerank", "AUTORAG_RERANK_TIMEOUT=300ms"},
		"--root", keys, "--root", dinner, "mcp", "--rerank", "--http", "127.0.0.1:0")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: s.base}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, fault := range rerankFaults {
		mode.Store(fault)
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "rotate keys", "k": 4}})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v, want an answer", fault, err, res)
		}
		var a agentapi.SearchAnswer
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &a)
		checkUnreranked(t, "mcp", fault, a)
		if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, "not reranked") {
			t.Errorf("%s: text %q does not say it was not reranked", fault, text)
		}
	}
}

// saysRerankOnce: the reason is given once, as "rerank: ...", never
// "rerank: rerank: ..." (the URL may end in /rerank).
func saysRerankOnce(s string) bool {
	return strings.Contains(s, "rerank: ") && !strings.Contains(s, "rerank: rerank:")
}
