package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// teiServer speaks text-embeddings-inference's /rerank, preferring texts
// that mention pasta.
func teiServer(t *testing.T, calls *atomic.Int32) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var req struct {
			Query string   `json:"query"`
			Texts []string `json:"texts"`
		}
		if r.URL.Path != "/rerank" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, "bad request", http.StatusUnprocessableEntity)
			return
		}
		answerPasta(w, req.Texts)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// answerPasta writes a TEI rerank answer that scores texts about pasta
// 0.9 and every other text 0.1.
func answerPasta(w io.Writer, texts []string) {
	type res struct {
		Index int     `json:"index"`
		Score float64 `json:"score"`
	}
	out := []res{}
	for i, text := range texts {
		s := 0.1
		if strings.Contains(text, "pasta") {
			s = 0.9
		}
		out = append(out, res{i, s})
	}
	json.NewEncoder(w).Encode(out)
}

// TestQueryRerank: --rerank sends the best candidates to the endpoint and
// orders by its scores; the query cache never serves an answer of another
// reranker (or none).
func TestQueryRerank(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "keys.md", "# Keys\nRotate the signing keys, rotate them often: keys keys keys.\n")
	writeFile(t, root, "pasta.md", "# Dinner\nThe pasta is cooked while you rotate the keys.\n")
	if r := cli(t, nil, "--root", root, "refresh", "--embedder", "none"); r.code != 0 {
		t.Fatalf("refresh: %d %s", r.code, r.stderr)
	}
	var calls atomic.Int32
	srv := teiServer(t, &calls)
	plain := cli(t, nil, "--root", root, "query", "--json", "-k", "1", "rotate keys")
	if p := plain.json(t)["results"].([]any)[0].(map[string]any)["path"]; p != "keys.md" {
		t.Fatalf("without rerank the best is %v, want keys.md", p)
	}
	env := []string{"AUTORAG_RERANK_URL=" + srv.URL + "/rerank"}
	r := cli(t, env, "--root", root, "query", "--json", "-k", "1", "--rerank", "rotate keys")
	if r.code != 0 {
		t.Fatalf("rerank query: exit %d %s", r.code, r.stderr)
	}
	res := r.json(t)["results"].([]any)[0].(map[string]any)
	if res["path"] != "pasta.md" || res["scores"].(map[string]any)["rerank"] != 0.9 {
		t.Fatalf("reranked best %v, want pasta.md with the service's score 0.9", res)
	}
	if r.json(t)["cached"] == true || calls.Load() != 1 {
		t.Fatalf("the reranked query was served from the cache of the plain one (calls %d)", calls.Load())
	}
	r = cli(t, nil, "--root", root, "query", "--json", "-k", "1", "--rerank", "rotate keys")
	if r.code != 2 || !strings.Contains(r.stdout+r.stderr, "AUTORAG_RERANK_URL") {
		t.Fatalf("--rerank without a URL: exit %d %s%s, want 2 naming AUTORAG_RERANK_URL", r.code, r.stdout, r.stderr)
	}
}
