package rerank

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/rank"
)

const key = "sk-test-secret-0123"

// score is the fake model: the share of the query's words a text holds.
func score(q, text string) float64 {
	n := 0
	words := strings.Fields(q)
	for _, w := range words {
		if strings.Contains(text, w) {
			n++
		}
	}
	return float64(n) / float64(len(words))
}

// cohere speaks Cohere's (and Jina's) /v2/rerank: it checks the request
// as the service does and answers best first, as it does.
func cohere(t testing.TB) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v2/rerank" || r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+key {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"message":"invalid api token"}`))
			return
		}
		var req struct {
			Model     string   `json:"model"`
			Query     string   `json:"query"`
			Documents []string `json:"documents"`
			TopN      int      `json:"top_n"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "rerank-v3.5" || req.TopN != len(req.Documents) {
			http.Error(w, `{"message":"bad request"}`, http.StatusBadRequest)
			return
		}
		type res struct {
			Index int     `json:"index"`
			Score float64 `json:"relevance_score"`
		}
		var out []res
		for i, d := range req.Documents {
			out = append(out, res{i, score(req.Query, d)})
		}
		sort.SliceStable(out, func(a, b int) bool { return out[a].Score > out[b].Score })
		json.NewEncoder(w).Encode(map[string]any{"id": "x", "results": out, "meta": map[string]any{"billed_units": map[string]int{"search_units": 1}}})
	}))
}

// tei speaks text-embeddings-inference's /rerank.
func tei(t testing.TB) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Query string   `json:"query"`
			Texts []string `json:"texts"`
		}
		if r.URL.Path != "/rerank" || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Texts) == 0 {
			http.Error(w, `{"error":"Input validation error","error_type":"Validation"}`, http.StatusUnprocessableEntity)
			return
		}
		type res struct {
			Index int     `json:"index"`
			Score float64 `json:"score"`
		}
		var out []res
		for i, d := range req.Texts {
			out = append(out, res{i, score(req.Query, d)})
		}
		sort.SliceStable(out, func(a, b int) bool { return out[a].Score > out[b].Score })
		json.NewEncoder(w).Encode(out)
	}))
}

var texts = []string{"boil pasta in water", "rotate signing keys", "rotate the keys of the signing service"}

func TestCohereFormat(t *testing.T) {
	srv := cohere(t)
	defer srv.Close()
	c, err := New(Config{URL: srv.URL + "/v2/rerank", Model: "rerank-v3.5", APIKey: key})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Rerank(context.Background(), "rotate signing keys", texts)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0, 1, 1}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("scores %v, want %v (in the texts' order)", got, want)
		}
	}
	if strings.Contains(c.Name(), key) {
		t.Fatal("the reranker's name holds the key")
	}
}

func TestTEIFormatChosenFromURL(t *testing.T) {
	srv := tei(t)
	defer srv.Close()
	c, err := New(Config{URL: srv.URL + "/rerank"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Rerank(context.Background(), "boil pasta", texts)
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != 1 || got[1] != 0 {
		t.Fatalf("scores %v", got)
	}
}

func TestErrorsNeverShowTheKey(t *testing.T) {
	srv := cohere(t)
	defer srv.Close()
	c, _ := New(Config{URL: srv.URL + "/v2/rerank", Model: "rerank-v3.5", APIKey: "wrong-" + key})
	_, err := c.Rerank(context.Background(), "q", texts)
	if err == nil || !strings.Contains(err.Error(), "401") || strings.Contains(err.Error(), key) {
		t.Fatalf("unauthorized: %v, want a 401 without the key", err)
	}
	c, _ = New(Config{URL: srv.URL + "/v1/nowhere", APIKey: key})
	if _, err := c.Rerank(context.Background(), "q", texts); err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("wrong path: %v", err)
	}
}

func TestParseRejectsIncompleteAnswers(t *testing.T) {
	for _, raw := range []string{
		`{"results":[{"index":0,"relevance_score":0.5}]}`,                                   // one of two
		`{"results":[{"index":0,"relevance_score":0.5},{"index":0,"relevance_score":0.1}]}`, // twice the same
		`[{"index":2,"score":0.5},{"index":1,"score":0.4}]`,                                 // out of range
		`{"results":[{"index":0},{"index":1,"relevance_score":0.4}]}`,                       // no score
		`not json`,
	} {
		if _, err := parse([]byte(raw), 2); err == nil {
			t.Errorf("answer %s was accepted", raw)
		}
	}
}

func TestConfigFromEnv(t *testing.T) {
	env := map[string]string{}
	get := func(k string) string { return env[k] }
	if _, ok, err := ConfigFromEnv(get); ok || err != nil {
		t.Fatalf("no URL: ok %v err %v, want not configured", ok, err)
	}
	env["AUTORAG_RERANK_URL"] = "ftp://example.com/rerank"
	if _, ok, err := ConfigFromEnv(get); !ok || err == nil {
		t.Fatalf("ftp URL: ok %v err %v, want an error", ok, err)
	}
	env["AUTORAG_RERANK_URL"], env["AUTORAG_RERANK_FORMAT"] = "http://127.0.0.1:1/v1/rerank", "tei"
	cfg, ok, err := ConfigFromEnv(get)
	if !ok || err != nil || cfg.Format != "tei" {
		t.Fatalf("cfg %+v ok %v err %v", cfg, ok, err)
	}
}

// scorer answers fixed scores (or err).
type scorer struct {
	scores []float64
	err    error
}

func (s scorer) Rerank(context.Context, string, []string) ([]float64, error) { return s.scores, s.err }

// TestReorder: the passages are sorted by the scores, ties keeping their
// order, each score recorded and ranks renumbered; a failure or a wrong
// count leaves them as they were.
func TestReorder(t *testing.T) {
	top := func() []rank.Result {
		return []rank.Result{{Rank: 1, Path: "a", Score: 1}, {Rank: 2, Path: "b", Score: 0.9}, {Rank: 3, Path: "c", Score: 0.8}}
	}
	got := top()
	if err := Reorder(context.Background(), scorer{scores: []float64{-3, -1, -3}}, "q", got, true); err != nil {
		t.Fatal(err)
	}
	var order []string
	for i, r := range got {
		order = append(order, r.Path)
		if r.Rank != i+1 || r.Scores.Rerank == nil || r.Score != *r.Scores.Rerank || !strings.Contains(r.Explain, "fused rank") {
			t.Errorf("result %d: %+v", i, r)
		}
	}
	if strings.Join(order, ",") != "b,a,c" {
		t.Errorf("order %v, want b,a,c (a before c: a tie keeps the fused order)", order)
	}
	for _, s := range []scorer{{err: errors.New("down")}, {scores: []float64{1}}} {
		got := top()
		if err := Reorder(context.Background(), s, "q", got, false); err == nil || got[0].Path != "a" || got[0].Scores.Rerank != nil {
			t.Errorf("%+v: err %v, %+v: want an error and the order untouched", s, err, got)
		}
	}
}
