package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
}

// flaky fails its first fails calls (with err, or with a wrong number of
// scores when err is nil), then ranks like byLength, under one name.
type flaky struct {
	byLength
	fails int
	err   error
}

func (f *flaky) Name() string { return "flaky" }

func (f *flaky) Rerank(ctx context.Context, q string, texts []string) ([]float64, error) {
	if f.fails > 0 {
		f.fails--
		if f.err == nil {
			return []float64{1}, nil
		}
		return nil, f.err
	}
	return f.byLength.Rerank(ctx, q, texts)
}

func keysEngine(t *testing.T) *Engine {
	e := newTestEngine(t, map[string]string{
		"long.md":  "# Keys\nRotate the signing keys. Rotate them every ninety days, and rotate them at once after a leak of any key.\n",
		"mid.md":   "# Keys\nRotate the signing keys every ninety days.\n",
		"short.md": "# Keys\nRotate keys.\n",
		"other.md": "# Pasta\nBoil the spaghetti.\n",
	})
	mustRefresh(t, e)
	return e
}

// TestRerankFailureKeepsFusedOrder: a reranker that errors or answers
// garbage leaves the fused order, cut to k, and the answer says it was not
// reranked and why, once (issue 36 item 4); RerankRequired makes it fail
// the query, and so does a cancelled context.
func TestRerankFailureKeepsFusedOrder(t *testing.T) {
	e := keysEngine(t)
	ctx := context.Background()
	q := QueryOptions{Text: "rotate keys", Mode: ModeBM25, K: 2, Explain: true}
	plain, err := e.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Reranked != nil {
		t.Fatalf("without a reranker: reranked %v, want unset", *plain.Reranked)
	}
	for _, rr := range []*flaky{{fails: 1, err: errors.New("service down")}, {fails: 1}} {
		e.Settings.Reranker, e.Settings.RerankN, e.Settings.RerankRequired = rr, 3, false
		got, err := e.Query(ctx, q)
		if err != nil {
			t.Fatalf("%+v: %v, want the fused order", rr, err)
		}
		if d := cmp.Diff(paths(plain), paths(got)); d != "" || got.Results[0].Scores.Rerank != nil {
			t.Errorf("failed rerank (-fused +got):\n%s", d)
		}
		if got.Reranked == nil || *got.Reranked || strings.Count(got.RerankError, "rerank") != 1 ||
			!strings.Contains(got.Explain, "not reranked, fused order kept: "+got.RerankError) {
			t.Errorf("failed rerank: reranked %v, error %q, explain %q", got.Reranked, got.RerankError, got.Explain)
		}
		rr.fails = 1
		e.Settings.RerankRequired = true
		if _, err := e.Query(ctx, q); err == nil || strings.Count(err.Error(), "rerank") != 1 {
			t.Errorf("required: %v, want one error naming rerank once", err)
		}
	}
	e.Settings.Reranker, e.Settings.RerankRequired = &flaky{fails: 1, err: context.Canceled}, false
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e.Query(cancelled, q); err == nil {
		t.Error("a cancelled query answered")
	}
}

// TestServiceNeverCachesAFailedRerank: the answer the reranker failed on
// is not kept, so the next asking, with the reranker back, is reranked.
func TestServiceNeverCachesAFailedRerank(t *testing.T) {
	e := keysEngine(t)
	rr := &flaky{fails: 1, err: errors.New("timeout")}
	e.Settings.Reranker, e.Settings.RerankN = rr, 3
	s := NewService(e, 1<<20)
	defer s.Close()
	q := QueryOptions{Text: "rotate keys", Mode: ModeBM25, K: 2}
	first, _, err := s.Query(context.Background(), q)
	if err != nil || first.RerankError == "" {
		t.Fatalf("first: %v %+v, want a failed rerank", err, first)
	}
	second, cached, err := s.Query(context.Background(), q)
	if err != nil || cached || second.Reranked == nil || !*second.Reranked || second.Results[0].Path != "short.md" {
		t.Fatalf("second: cached %v, err %v, %+v: want reranked afresh", cached, err, second)
	}
	if _, cached, _ := s.Query(context.Background(), q); !cached {
		t.Error("a reranked answer was not cached")
	}
}
