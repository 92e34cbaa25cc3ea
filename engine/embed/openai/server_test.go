package openai

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

const testKey = "sk-test-5ecret-K3y"

// wireRequest is the embeddings request as the server sees it.
type wireRequest struct {
	Input          []string `json:"input"`
	Model          string   `json:"model"`
	Dimensions     *int     `json:"dimensions"`
	EncodingFormat string   `json:"encoding_format"`
}

type wireEmbedding struct {
	Object    string    `json:"object"`
	Index     int       `json:"index"`
	Embedding []float32 `json:"embedding"`
}

type wireReply struct {
	Object string          `json:"object"`
	Data   []wireEmbedding `json:"data"`
	Model  string          `json:"model"`
	Usage  map[string]int  `json:"usage"`
}

// call is one request the fake server received; n counts from 0.
type call struct {
	n    int
	req  wireRequest
	auth string
	path string
}

// fakeServer speaks the embeddings wire format. handle decides each reply;
// it is called with the request already decoded and checked.
type fakeServer struct {
	*httptest.Server
	mu     sync.Mutex
	calls  []call
	handle func(w http.ResponseWriter, r *http.Request, c call)
}

func newFakeServer(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, c call)) *fakeServer {
	t.Helper()
	fs := &fakeServer{handle: handle}
	fs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req wireRequest
		if r.Method != http.MethodPost {
			t.Errorf("method = %s, want POST", r.Method)
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Errorf("decode request: %v", err)
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		fs.mu.Lock()
		c := call{n: len(fs.calls), req: req, auth: r.Header.Get("Authorization"), path: r.URL.Path}
		fs.calls = append(fs.calls, c)
		fs.mu.Unlock()
		fs.handle(w, r, c)
	}))
	t.Cleanup(fs.Close)
	return fs
}

func (fs *fakeServer) Calls() []call {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return append([]call(nil), fs.calls...)
}

// testVector is the raw (unnormalized) vector the fake server returns for
// a text: a function of the text only, so order mix-ups show.
func testVector(text string, dims int) []float32 {
	h := fnv.New64a()
	h.Write([]byte(text))
	sum := h.Sum64()
	v := make([]float32, dims)
	for j := range v {
		v[j] = float32(1 + (sum>>(8*(j%8)))&0xff)
	}
	return v
}

func unit(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / math.Sqrt(s))
	}
	return out
}

// okReply builds a correct reply for req.
func okReply(req wireRequest, dims int) wireReply {
	rep := wireReply{Object: "list", Model: req.Model, Usage: map[string]int{"prompt_tokens": 1, "total_tokens": 1}}
	for i, in := range req.Input {
		rep.Data = append(rep.Data, wireEmbedding{Object: "embedding", Index: i, Embedding: testVector(in, dims)})
	}
	return rep
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeAPIError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "code": nil}})
}

// testDims is the vector size the tests use with model "test-model".
const testDims = 4

// newTestEmbedder returns an Embedder for srv whose sleeps are recorded
// instead of waited and whose jitter is the ceiling itself.
func newTestEmbedder(t *testing.T, baseURL string, mutate func(*Config)) (*Embedder, *sleepLog) {
	t.Helper()
	cfg := Config{BaseURL: baseURL, APIKey: testKey, Model: "test-model", Dimensions: testDims, Timeout: 5 * time.Second}
	if mutate != nil {
		mutate(&cfg)
	}
	e, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	sl := &sleepLog{}
	e.sleep = sl.sleep
	e.jitter = func(d time.Duration) time.Duration { return d }
	e.now = func() time.Time { return fixedNow }
	return e, sl
}

var fixedNow = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

type sleepLog struct {
	mu sync.Mutex
	ds []time.Duration
}

func (s *sleepLog) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.ds = append(s.ds, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleepLog) Durations() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.ds...)
}
