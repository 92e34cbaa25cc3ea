package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// byLength prefers shorter passages: an order unlike BM25's.
type byLength struct{ calls, got int }

func (r *byLength) Name() string { return "by-length" }

func (r *byLength) Rerank(_ context.Context, _ string, texts []string) ([]float64, error) {
	r.calls++
	r.got = len(texts)
	out := make([]float64, len(texts))
	for i, t := range texts {
		out[i] = -float64(len(t))
	}
	return out, nil
}

type failing struct{}

func (failing) Name() string { return "failing" }
func (failing) Rerank(context.Context, string, []string) ([]float64, error) {
	return nil, errors.New("service down")
}

func TestRerankReordersTheBestN(t *testing.T) {
	e := newTestEngine(t, map[string]string{
		"long.md":  "# Keys\nRotate the signing keys. Rotate them every ninety days, and rotate them at once after a leak of any key.\n",
		"mid.md":   "# Keys\nRotate the signing keys every ninety days.\n",
		"short.md": "# Keys\nRotate keys.\n",
		"other.md": "# Pasta\nBoil the spaghetti.\n",
	})
	mustRefresh(t, e)
	plain, err := e.Query(context.Background(), QueryOptions{Text: "rotate keys", Mode: ModeBM25, K: 2})
	if err != nil {
		t.Fatal(err)
	}
	rr := &byLength{}
	e.Settings.Reranker, e.Settings.RerankN = rr, 3
	got, err := e.Query(context.Background(), QueryOptions{Text: "rotate keys", Mode: ModeBM25, K: 2, Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	if rr.calls != 1 || rr.got != 3 {
		t.Fatalf("reranker saw %d calls of %d passages, want 1 of 3 (N, not k)", rr.calls, rr.got)
	}
	if len(got.Results) != 2 || got.Results[0].Path != "short.md" || got.Results[1].Path != "mid.md" {
		t.Fatalf("reranked %v, want short.md, mid.md (plain BM25: %v)", paths(got), paths(plain))
	}
	r0 := got.Results[0]
	if r0.Rank != 1 || r0.Scores.Rerank == nil || r0.Score != *r0.Scores.Rerank || !strings.Contains(r0.Explain, "rerank") ||
		!strings.Contains(got.Explain, "by-length") {
		t.Fatalf("first result %+v, explain %q: want the reranker's score and explanation", r0, got.Explain)
	}
	if !strings.Contains(e.QuerySettings(), "rerank by-length top 3") {
		t.Fatalf("query settings %q do not name the reranker (the cache key would serve unreranked answers)", e.QuerySettings())
	}
	e.Settings.Reranker = failing{}
	if _, err := e.Query(context.Background(), QueryOptions{Text: "rotate keys", Mode: ModeBM25}); err == nil || !strings.Contains(err.Error(), "service down") {
		t.Fatalf("failing reranker: %v, want the query to fail with its error", err)
	}
}
