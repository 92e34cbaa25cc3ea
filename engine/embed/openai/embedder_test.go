package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/autorag/autorag/engine/embed"
)

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("text number %d", i)
	}
	return out
}

func checkVectors(t *testing.T, in []string, got [][]float32, dims int) {
	t.Helper()
	if len(got) != len(in) {
		t.Fatalf("got %d vectors for %d texts", len(got), len(in))
	}
	for i, v := range got {
		if diff := cmp.Diff(unit(testVector(in[i], dims)), v); diff != "" {
			t.Errorf("vector %d (-want +got):\n%s", i, diff)
		}
		var s float64
		for _, x := range v {
			s += float64(x) * float64(x)
		}
		if math.Abs(s-1) > 1e-5 {
			t.Errorf("vector %d has squared norm %v, want 1", i, s)
		}
	}
}

func TestEmbedBatchesPreserveOrder(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		rep := okReply(c.req, testDims)
		slices.Reverse(rep.Data) // out of index order on purpose
		writeJSON(w, http.StatusOK, rep)
	})
	var (
		mu       sync.Mutex
		progress [][2]int
	)
	e, _ := newTestEmbedder(t, srv.URL+"/v1", func(c *Config) {
		c.BatchSize = 3
		c.Concurrency = 2
		c.Progress = func(done, total int) {
			mu.Lock()
			progress = append(progress, [2]int{done, total})
			mu.Unlock()
		}
	})
	in := texts(10)
	if got := e.Batches(in); got != 4 {
		t.Errorf("Batches = %d, want 4", got)
	}
	got, err := e.Embed(t.Context(), in)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	checkVectors(t, in, got, testDims)

	calls := srv.Calls()
	if len(calls) != 4 {
		t.Fatalf("server saw %d requests, want 4", len(calls))
	}
	var sent []string
	var sizes []int
	for _, c := range calls {
		if c.auth != "Bearer "+testKey {
			t.Errorf("Authorization = %q", c.auth)
		}
		if c.path != "/v1/embeddings" {
			t.Errorf("path = %q, want /v1/embeddings", c.path)
		}
		if c.req.Model != "test-model" || c.req.EncodingFormat != "float" {
			t.Errorf("model %q, encoding_format %q", c.req.Model, c.req.EncodingFormat)
		}
		if c.req.Dimensions != nil {
			t.Errorf("dimensions sent to a model outside the text-embedding-3 family: %d", *c.req.Dimensions)
		}
		sent = append(sent, c.req.Input...)
		sizes = append(sizes, len(c.req.Input))
	}
	slices.Sort(sent)
	want := slices.Clone(in)
	slices.Sort(want)
	if diff := cmp.Diff(want, sent); diff != "" {
		t.Errorf("inputs sent (-want +got):\n%s", diff)
	}
	slices.Sort(sizes)
	if diff := cmp.Diff([]int{1, 3, 3, 3}, sizes); diff != "" {
		t.Errorf("batch sizes (-want +got):\n%s", diff)
	}
	if len(progress) != 4 || progress[3] != [2]int{10, 10} {
		t.Errorf("progress = %v, want 4 calls ending at 10/10", progress)
	}
	for i := 1; i < len(progress); i++ {
		if progress[i][0] <= progress[i-1][0] {
			t.Errorf("progress not increasing: %v", progress)
		}
	}
}

func TestEmbedNoTexts(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		writeJSON(w, http.StatusOK, okReply(c.req, testDims))
	})
	e, _ := newTestEmbedder(t, srv.URL, nil)
	got, err := e.Embed(t.Context(), nil)
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("Embed(nil) = %v, %v; want empty, nil", got, err)
	}
	if _, err := e.Embed(t.Context(), []string{"a", ""}); err == nil || !strings.Contains(err.Error(), "text 1 is empty") {
		t.Errorf("Embed with an empty text: err = %v", err)
	}
	if n := len(srv.Calls()); n != 0 {
		t.Errorf("server saw %d requests, want 0", n)
	}
}

func TestDimensionsField(t *testing.T) {
	tests := []struct {
		model string
		dims  int
		want  *int // dimensions in the request
	}{
		{"text-embedding-3-small", 4, ptr(4)},
		{"text-embedding-3-large", 4, ptr(4)},
		{"nomic-embed-text", 4, nil},
		{"text-embedding-ada-002", 4, nil},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
				writeJSON(w, http.StatusOK, okReply(c.req, tt.dims))
			})
			e, _ := newTestEmbedder(t, srv.URL, func(c *Config) {
				c.Model, c.Dimensions, c.MaxInputTokens = tt.model, tt.dims, DefaultMaxInputTokens
			})
			if _, err := e.Embed(t.Context(), []string{"x"}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, srv.Calls()[0].req.Dimensions); diff != "" {
				t.Errorf("dimensions (-want +got):\n%s", diff)
			}
			want := embed.Identity{Provider: "openai", Model: tt.model, Dims: tt.dims}
			if got := e.Identity(); got != want {
				t.Errorf("Identity = %v, want %v", got, want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestTokenBudgetSplitsBatches(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		writeJSON(w, http.StatusOK, okReply(c.req, testDims))
	})
	e, _ := newTestEmbedder(t, srv.URL, func(c *Config) {
		c.BatchSize = 100
		c.MaxBatchTokens = 10
		c.Concurrency = 1
	})
	// Estimated tokens: 4, 4, 3, 1, 10, 12 (split into 10 and 2), 2.
	in := []string{
		strings.Repeat("a", 16),
		strings.Repeat("b", 13),
		strings.Repeat("c", 12),
		"d",
		strings.Repeat("e", 40),
		strings.Repeat("f", 45),
		"gg gg",
	}
	if got := e.Batches(in); got != 5 {
		t.Errorf("Batches = %d, want 5", got)
	}
	got, err := e.Embed(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	var batches [][]int
	for _, c := range srv.Calls() {
		var lens []int
		for _, s := range c.req.Input {
			lens = append(lens, len(s))
		}
		batches = append(batches, lens)
	}
	if diff := cmp.Diff([][]int{{16, 13}, {12, 1}, {40}, {40}, {5, 5}}, batches); diff != "" {
		t.Errorf("batches by input length (-want +got):\n%s", diff)
	}
	if len(got) != len(in) {
		t.Fatalf("got %d vectors", len(got))
	}
	// The split text's vector is the mean of its pieces' unit vectors,
	// weighted by length (40 and 5 bytes), normalized.
	a, b := unit(testVector(in[5][:40], testDims)), unit(testVector(in[5][40:], testDims))
	mean := make([]float32, testDims)
	for j := range mean {
		mean[j] = 40*a[j] + 5*b[j]
	}
	if diff := cmp.Diff(unit(mean), got[5], cmpopts.EquateApprox(0, 1e-6)); diff != "" {
		t.Errorf("split text vector (-want +got):\n%s", diff)
	}
}

func TestBaseURLTrailingSlash(t *testing.T) {
	for _, suffix := range []string{"/v1", "/v1/", "/v1//"} {
		t.Run(suffix, func(t *testing.T) {
			srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
				writeJSON(w, http.StatusOK, okReply(c.req, testDims))
			})
			e, _ := newTestEmbedder(t, srv.URL+suffix, nil)
			in := []string{"hello"}
			got, err := e.Embed(t.Context(), in)
			if err != nil {
				t.Fatal(err)
			}
			checkVectors(t, in, got, testDims)
			if p := srv.Calls()[0].path; p != "/v1/embeddings" {
				t.Errorf("path = %q, want /v1/embeddings", p)
			}
		})
	}
}

func TestInvalidRepliesFailWithoutRetry(t *testing.T) {
	tests := []struct {
		name string
		body func(c call) string
		want string
	}{
		{"short reply", func(c call) string {
			rep := okReply(c.req, testDims)
			rep.Data = rep.Data[:1]
			return mustJSON(rep)
		}, "1 embeddings for 2 inputs"},
		{"malformed JSON", func(c call) string { return `{"object":"list","data":[{"index":0,` }, "malformed reply"},
		{"not JSON", func(c call) string { return `<html>gateway</html>` }, "malformed reply"},
		{"wrong dimensions", func(c call) string {
			rep := okReply(c.req, testDims)
			rep.Data[1].Embedding = rep.Data[1].Embedding[:3]
			return mustJSON(rep)
		}, "embedding 1: 3 dimensions, want 4"},
		{"NaN literal", func(c call) string {
			return `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[NaN,1,1,1]},{"object":"embedding","index":1,"embedding":[1,1,1,1]}]}`
		}, "malformed reply"},
		{"overflows float32", func(c call) string {
			return `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[1e39,1,1,1]},{"object":"embedding","index":1,"embedding":[1,1,1,1]}]}`
		}, "malformed reply"},
		{"duplicate index", func(c call) string {
			rep := okReply(c.req, testDims)
			rep.Data[1].Index = 0
			return mustJSON(rep)
		}, "index 0 appears more than once"},
		{"index out of range", func(c call) string {
			rep := okReply(c.req, testDims)
			rep.Data[1].Index = 2
			return mustJSON(rep)
		}, "index 2 out of range"},
		{"missing index", func(c call) string {
			return `{"object":"list","data":[{"object":"embedding","embedding":[1,1,1,1]},{"object":"embedding","embedding":[1,2,1,1]}]}`
		}, "index 0 appears more than once"},
		{"zero vector", func(c call) string {
			rep := okReply(c.req, testDims)
			rep.Data[0].Embedding = make([]float32, testDims)
			return mustJSON(rep)
		}, "embedding 0: zero vector"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, tt.body(c))
			})
			e, sl := newTestEmbedder(t, srv.URL, nil)
			got, err := e.Embed(t.Context(), []string{"one", "two"})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
			if got != nil {
				t.Errorf("got %d vectors with the error, want none", len(got))
			}
			if n := len(srv.Calls()); n != 1 {
				t.Errorf("server saw %d requests, want 1 (no retry)", n)
			}
			if len(sl.Durations()) != 0 {
				t.Errorf("slept %v", sl.Durations())
			}
		})
	}
}

func TestFailureDiscardsOtherBatches(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		if slices.Contains(c.req.Input, "bad") {
			writeAPIError(w, http.StatusBadRequest, "input rejected")
			return
		}
		writeJSON(w, http.StatusOK, okReply(c.req, testDims))
	})
	e, _ := newTestEmbedder(t, srv.URL, func(c *Config) { c.BatchSize = 1; c.Concurrency = 1 })
	got, err := e.Embed(t.Context(), []string{"a", "b", "bad", "c"})
	if err == nil || got != nil {
		t.Fatalf("Embed = %d vectors, %v; want no vectors and an error", len(got), err)
	}
	for _, want := range []string{"inputs 2-2", "HTTP 400", "input rejected"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %q, want it to contain %q", err, want)
		}
	}
	if n := len(srv.Calls()); n != 3 {
		t.Errorf("server saw %d requests, want 3 (stop at the failure)", n)
	}
}

func TestCancelMidway(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	blocked := make(chan struct{})
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		if c.n == 0 {
			writeJSON(w, http.StatusOK, okReply(c.req, testDims))
			return
		}
		close(blocked)
		<-r.Context().Done() // until the client gives up
	})
	e, _ := newTestEmbedder(t, srv.URL, func(c *Config) { c.BatchSize = 1; c.Concurrency = 1 })
	go func() {
		<-blocked
		cancel()
	}()
	got, err := e.Embed(ctx, texts(5))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if got != nil {
		t.Errorf("got vectors after cancellation")
	}
	if n := len(srv.Calls()); n != 2 {
		t.Errorf("server saw %d requests, want 2", n)
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		w.Header().Set("Retry-After", "3600")
		writeAPIError(w, http.StatusTooManyRequests, "slow down")
		cancel() // the client is about to wait an hour
	})
	e, _ := newTestEmbedder(t, srv.URL, func(c *Config) { c.MaxBackoff = 1 << 62 })
	e.sleep = sleepCtx // the real, context-aware wait
	_, err := e.Embed(ctx, []string{"x"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n := len(srv.Calls()); n != 1 {
		t.Errorf("server saw %d requests, want 1", n)
	}
}

// inflightGate holds each request until limit requests are in flight (or
// every request has arrived), recording the most seen at once.
type inflightGate struct {
	mu                    sync.Mutex
	inFlight, started, hi int
	changed               chan struct{}
}

func (g *inflightGate) notify() {
	close(g.changed)
	g.changed = make(chan struct{})
}

func (g *inflightGate) enter(ctx context.Context, limit, total int) {
	g.mu.Lock()
	g.started++
	g.inFlight++
	g.hi = max(g.hi, g.inFlight)
	g.notify()
	for g.inFlight < limit && g.started < total {
		ch := g.changed
		g.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return
		}
		g.mu.Lock()
	}
	g.mu.Unlock()
}

func (g *inflightGate) leave() {
	g.mu.Lock()
	g.inFlight--
	g.notify()
	g.mu.Unlock()
}

func TestConcurrencyBound(t *testing.T) {
	const limit, total = 3, 20
	g := &inflightGate{changed: make(chan struct{})}
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		g.enter(r.Context(), limit, total)
		defer g.leave()
		// Stay in flight a moment so that a client sending more than
		// limit requests at once is caught; correct clients pass anyway.
		select {
		case <-time.After(5 * time.Millisecond):
		case <-r.Context().Done():
		}
		writeJSON(w, http.StatusOK, okReply(c.req, testDims))
	})
	e, _ := newTestEmbedder(t, srv.URL, func(c *Config) { c.BatchSize = 1; c.Concurrency = limit })
	in := texts(total)
	got, err := e.Embed(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	checkVectors(t, in, got, testDims)
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.hi != limit {
		t.Errorf("at most %d requests in flight, want exactly %d", g.hi, limit)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
