package openai

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/autorag/autorag/engine/embed"
)

// ollamaReply is the reply of Ollama's /v1/embeddings: no usage field, and
// the vectors as base64 when asked or always (always64).
func ollamaReply(w http.ResponseWriter, req wireRequest, dims int, always64 bool) {
	data := make([]map[string]any, len(req.Input))
	for i, in := range req.Input {
		v := testVector(in, dims)
		var emb any = v
		if always64 || req.EncodingFormat == "base64" {
			b := make([]byte, 4*len(v))
			for j, x := range v {
				binary.LittleEndian.PutUint32(b[4*j:], math.Float32bits(x))
			}
			emb = base64.StdEncoding.EncodeToString(b)
		}
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": emb}
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data, "model": req.Model})
}

// TestLearnsDimensionsFromFirstReply: with no configured size, the first
// reply sets it, the identity reports it, and every later reply is held to
// it; base64 replies without usage decode like float ones.
func TestLearnsDimensionsFromFirstReply(t *testing.T) {
	dims := 6
	var mu sync.Mutex
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		mu.Lock()
		d := dims
		mu.Unlock()
		ollamaReply(w, c.req, d, c.n%2 == 0)
	})
	e, _ := newTestEmbedder(t, srv.URL+"/v1", func(c *Config) { c.Dimensions = 0; c.Model = "nomic-embed-text" })
	if e.KnowsDims() || e.Identity().Dims != 0 {
		t.Fatalf("identity before any reply: %v", e.Identity())
	}
	if err := e.ProbeDims(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := e.Identity().String(); got != "openai/nomic-embed-text@max-tokens=512/6" {
		t.Errorf("identity after the probe = %s", got)
	}
	in := texts(5)
	got, err := e.Embed(t.Context(), in) // answered in base64 and float
	if err != nil {
		t.Fatal(err)
	}
	checkVectors(t, in, got, 6)
	if calls := srv.Calls(); calls[0].req.Dimensions != nil {
		t.Errorf("dimensions sent to a model that does not take them: %d", *calls[0].req.Dimensions)
	}
	mu.Lock()
	dims = 8
	mu.Unlock()
	_, err = e.Embed(t.Context(), []string{"after the model changed"})
	var dc *dimsChangedError
	if err == nil || !strings.Contains(err.Error(), "now returns 8-dimensional vectors") || !strings.Contains(err.Error(), "autorag index rebuild") {
		t.Fatalf("reply of another size: err = %v, want the model-changed error", err)
	} else if !errors.As(err, &dc) || dc.want != 6 || dc.got != 8 {
		t.Errorf("err %v is not a dimsChangedError", err)
	}
	// A probe (what a rebuild does) learns the new size.
	if err := e.ProbeDims(t.Context()); err != nil || e.Identity().Dims != 8 {
		t.Fatalf("probe after the change: %v, dims %d; want 8", err, e.Identity().Dims)
	}
	if _, err := e.Embed(t.Context(), []string{"after the rebuild"}); err != nil {
		t.Errorf("embed at the new size: %v", err)
	}
	// A configured size is never probed.
	n := len(srv.Calls())
	fixed, _ := newTestEmbedder(t, srv.URL+"/v1", func(c *Config) { c.Dimensions = 8 })
	if err := fixed.ProbeDims(t.Context()); err != nil || len(srv.Calls()) != n {
		t.Errorf("probe with a configured size: err %v, %d requests", err, len(srv.Calls())-n)
	}
}

// TestAssumeDimsMakesNoRequest: a size recorded by an index is taken
// without a request, and a provider answering otherwise is refused.
func TestAssumeDimsMakesNoRequest(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		ollamaReply(w, c.req, 5, true)
	})
	e, _ := newTestEmbedder(t, srv.URL, func(c *Config) { c.Dimensions = 0 })
	e.AssumeDims(7)
	if !e.KnowsDims() || e.Identity().Dims != 7 || len(srv.Calls()) != 0 {
		t.Fatalf("assumed size: known %v, identity %v, %d requests; want 7 and none", e.KnowsDims(), e.Identity(), len(srv.Calls()))
	}
	if _, err := e.Embed(t.Context(), []string{"x"}); err == nil || !strings.Contains(err.Error(), "now returns 5-dimensional vectors, but the index holds 7-dimensional ones") {
		t.Errorf("err = %v", err)
	}
}

// recorder is an embed.Observer that keeps what it heard.
type recorder struct {
	mu       sync.Mutex
	maxWait  time.Duration
	whys     []string
	maxInFl  int
	lastInFl int
	split    int
}

func (r *recorder) Requests(n, done, total int) {
	r.mu.Lock()
	r.maxInFl, r.lastInFl = max(r.maxInFl, n), n
	r.mu.Unlock()
}

func (r *recorder) Retrying(d time.Duration, why string) {
	r.mu.Lock()
	r.maxWait, r.whys = max(r.maxWait, d), append(r.whys, why)
	r.mu.Unlock()
}

func (r *recorder) Split(n int) {
	r.mu.Lock()
	r.split += n
	r.mu.Unlock()
}

var _ embed.Observer = (*recorder)(nil)

// TestObserverHearsRequestsRetriesAndSplits: requests in flight, a 429's
// Retry-After wait and the inputs split by the token budget reach the
// observer in the context.
func TestObserverHearsRequestsRetriesAndSplits(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		if c.n == 0 {
			w.Header().Set("Retry-After", "7")
			writeAPIError(w, http.StatusTooManyRequests, "slow down")
			return
		}
		writeJSON(w, http.StatusOK, okReply(c.req, testDims))
	})
	e, _ := newTestEmbedder(t, srv.URL, func(c *Config) { c.BatchSize = 2; c.Concurrency = 2; c.MaxInputTokens = 5 })
	rec := &recorder{}
	in := append(texts(5), strings.Repeat("long ", 10)) // 50 bytes: 13 tokens, over 5
	got, err := e.Embed(embed.WithObserver(context.Background(), rec), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(in) {
		t.Fatalf("%d vectors for %d texts", len(got), len(in))
	}
	if rec.maxWait != 7*time.Second || len(rec.whys) != 1 || !strings.Contains(rec.whys[0], "HTTP 429") {
		t.Errorf("retry heard: wait %s, %q; want 7s for HTTP 429", rec.maxWait, rec.whys)
	}
	if rec.maxInFl < 1 || rec.maxInFl > 2 || rec.lastInFl != 0 {
		t.Errorf("requests in flight: max %d, last %d; want 1..2 and 0 at the end", rec.maxInFl, rec.lastInFl)
	}
	if rec.split != 1 {
		t.Errorf("split = %d, want 1", rec.split)
	}
}

// floatReplyOf is the reply of servers that answer floats: usage and
// object fields as each has them; base64 when asked if honour64.
func floatReplyOf(w http.ResponseWriter, req wireRequest, dims int, honour64, usage bool) {
	if honour64 && req.EncodingFormat == "base64" {
		ollamaReply(w, req, dims, true)
		return
	}
	rep := map[string]any{"object": "list", "model": req.Model}
	data := make([]map[string]any, len(req.Input))
	for i, in := range req.Input {
		data[i] = map[string]any{"index": i, "embedding": testVector(in, dims)}
	}
	rep["data"] = data
	if usage {
		rep["usage"] = map[string]int{"prompt_tokens": 3, "total_tokens": 3}
	}
	writeJSON(w, http.StatusOK, rep)
}

// TestLocalServerVariants embeds with no configured size against the wire
// variants of the four local servers the package doc lists: each learns
// the size from the first reply, and a text over the budget is split so
// that a server with a small context accepts it.
func TestLocalServerVariants(t *testing.T) {
	const contextTokens = 128 // the vLLM fake's model context
	variants := []struct {
		name   string
		dims   int
		handle func(w http.ResponseWriter, c call, dims int)
	}{
		{"ollama", 768 / 32, func(w http.ResponseWriter, c call, dims int) { ollamaReply(w, c.req, dims, true) }},
		{"vllm", 384 / 32, func(w http.ResponseWriter, c call, dims int) {
			if c.req.Dimensions != nil {
				writeAPIError(w, http.StatusBadRequest, "Model does not support matryoshka representation")
				return
			}
			for _, in := range c.req.Input {
				if estimateTokens(in) > contextTokens {
					writeAPIError(w, http.StatusBadRequest, "This model's maximum context length is 128 tokens")
					return
				}
			}
			floatReplyOf(w, c.req, dims, false, true)
		}},
		{"llama.cpp", 1024 / 32, func(w http.ResponseWriter, c call, dims int) { floatReplyOf(w, c.req, dims, true, true) }},
		{"lm studio", 512 / 32, func(w http.ResponseWriter, c call, dims int) { floatReplyOf(w, c.req, dims, false, true) }},
	}
	long := strings.Repeat("words of a long passage ", 30) // 720 bytes: 180 tokens
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) { v.handle(w, c, v.dims) })
			e, _ := newTestEmbedder(t, srv.URL+"/v1", func(c *Config) {
				c.Model, c.Dimensions, c.MaxInputTokens = "local-model", 0, 100
			})
			rec := &recorder{}
			got, err := e.Embed(embed.WithObserver(t.Context(), rec), []string{"short", long})
			if err != nil {
				t.Fatal(err)
			}
			if e.Identity().Dims != v.dims || len(got) != 2 || len(got[1]) != v.dims || rec.split != 1 {
				t.Errorf("identity %v, %d vectors, split %d; want %d dims and one split", e.Identity(), len(got), rec.split, v.dims)
			}
		})
	}
	// Without a budget below its context, the vLLM fake rejects the long
	// text, and the error says which setting to lower.
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) { variants[1].handle(w, c, 12) })
	e, _ := newTestEmbedder(t, srv.URL+"/v1", func(c *Config) { c.Model, c.Dimensions = "local-model", 0 })
	if _, err := e.Embed(t.Context(), []string{long}); err == nil || !strings.Contains(err.Error(), "lower OPENAI_EMBEDDING_MAX_TOKENS") {
		t.Errorf("over-long input: err = %v, want the hint to lower OPENAI_EMBEDDING_MAX_TOKENS", err)
	}
}

// TestIdentityNamesTheBudget: the per-input budget shapes long texts'
// vectors, so a budget other than the historical 8191 is in the identity
// (the fingerprint and the embedding cache's namespace); OpenAI's models at
// their default keep the identity they always had.
func TestIdentityNamesTheBudget(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, "openai/text-embedding-3-small/1536"},
		{Config{Model: "text-embedding-3-large", MaxInputTokens: 2000}, "openai/text-embedding-3-large@max-tokens=2000/3072"},
		{Config{Model: "bge-m3", Dimensions: 1024}, "openai/bge-m3@max-tokens=512/1024"},
		{Config{Model: "bge-m3", Dimensions: 1024, MaxInputTokens: 8191}, "openai/bge-m3/1024"},
	} {
		e, err := New(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Identity().String(); got != c.want {
			t.Errorf("%v: identity %s, want %s", c.cfg, got, c.want)
		}
	}
}
