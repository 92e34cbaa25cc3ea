package engine

import (
	"encoding/json"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/engine/embed/openai"
)

// These tests run the refresh and query pipelines end to end against an
// httptest server speaking the OpenAI embeddings wire format, and count
// what reaches it.

// markers are the words the fake embedder understands: a text's vector
// points along marker i's axis (i mod dims) once per occurrence, plus a
// little noise derived from a hash of the whole text, so that distinct
// inputs get distinct vectors and a query naming a marker finds the chunk
// that holds it.
var markers = []string{"heron", "otter", "falcon", "walrus", "lynx", "badger", "ibis", "marmot"}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
}

func fakeVector(text string, dims int) []float32 {
	h := fnv.New64a()
	h.Write([]byte(text))
	sum := h.Sum64()
	v := make([]float32, dims)
	for j := range v {
		v[j] = 0.001 + 0.01*float32((sum>>(8*(j%8)))&0xff)/255
	}
	for _, w := range words(text) {
		if i := slices.Index(markers, w); i >= 0 {
			v[i%dims]++
		}
	}
	return v
}

// embedRequest is an embeddings request as the server decodes it.
type embedRequest struct {
	Input      []string `json:"input"`
	Model      string   `json:"model"`
	Dimensions *int     `json:"dimensions"`
}

type embedItem struct {
	Object    string    `json:"object"`
	Index     int       `json:"index"`
	Embedding []float32 `json:"embedding"`
}

type embedReply struct {
	Object string         `json:"object"`
	Data   []embedItem    `json:"data"`
	Model  string         `json:"model"`
	Usage  map[string]int `json:"usage"`
}

// faultFunc may answer request n (0-based, counted since the last take)
// itself and return true; else the server replies correctly.
type faultFunc func(w http.ResponseWriter, n int, req embedRequest) bool

// embedServer is a fake embeddings API that records every request.
type embedServer struct {
	*httptest.Server
	mu    sync.Mutex
	reqs  []embedRequest
	dims  int
	fault faultFunc
}

func newEmbedServer(t *testing.T, dims int) *embedServer {
	t.Helper()
	s := &embedServer{dims: dims}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
			t.Errorf("request %s %s, want POST /v1/embeddings", r.Method, r.URL.Path)
			http.NotFound(w, r)
			return
		}
		var req embedRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Errorf("decode request: %v", err)
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		if req.Dimensions != nil {
			t.Errorf("dimensions %d sent to model %q, which does not take them", *req.Dimensions, req.Model)
		}
		s.mu.Lock()
		n, dims, fault := len(s.reqs), s.dims, s.fault
		s.reqs = append(s.reqs, req)
		s.mu.Unlock()
		if fault != nil && fault(w, n, req) {
			return
		}
		rep := embedReply{Object: "list", Model: req.Model, Usage: map[string]int{"prompt_tokens": 0, "total_tokens": 0}}
		for i, in := range req.Input {
			rep.Data = append(rep.Data, embedItem{Object: "embedding", Index: i, Embedding: fakeVector(in, dims)})
		}
		writeReply(w, http.StatusOK, rep)
	}))
	t.Cleanup(s.Close)
	return s
}

func writeReply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *embedServer) setFault(f faultFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fault = f
}

func (s *embedServer) setDims(d int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dims = d
}

// take returns the requests received since the last take and forgets them.
func (s *embedServer) take() []embedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.reqs
	s.reqs = nil
	return out
}

func inputsOf(reqs []embedRequest) []string {
	var out []string
	for _, r := range reqs {
		out = append(out, r.Input...)
	}
	return out
}

const testAPIKey = "sk-hybrid-test-K3y"

// newRemoteEmbedder returns an openai embedder for srv that gives up after
// two attempts with no real wait between them.
func newRemoteEmbedder(t *testing.T, srv *embedServer, mutate func(*openai.Config)) *openai.Embedder {
	t.Helper()
	cfg := openai.Config{
		BaseURL: srv.URL + "/v1", APIKey: testAPIKey, Model: "fake-embed", Dimensions: 8,
		MaxAttempts: 2, MaxBackoff: time.Nanosecond, Timeout: 10 * time.Second,
	}
	if mutate != nil {
		mutate(&cfg)
	}
	emb, err := openai.New(cfg)
	if err != nil {
		t.Fatalf("openai.New: %v", err)
	}
	return emb
}

// newHybridEngine writes files under a fresh root and returns an engine
// over it that embeds with emb (nil: BM25 only).
func newHybridEngine(t *testing.T, files map[string]string, emb *openai.Embedder) *Engine {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		writeSource(t, root, rel, content)
	}
	return engineAt(t, root, emb)
}

func engineAt(t *testing.T, root string, emb *openai.Embedder) *Engine {
	t.Helper()
	s := DefaultSettings()
	if emb != nil {
		s.Embedder = emb
	}
	e, err := New(root, s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func writeSource(t testing.TB, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustRefresh(t *testing.T, e *Engine) *RefreshResult {
	t.Helper()
	r, err := e.Refresh(t.Context(), RefreshOptions{})
	if err != nil {
		t.Fatalf("refresh: %v", err)
	}
	return r
}

// mustQuery runs a query with collapsing off: these tests copy files and
// check that each copy is found in its own right.
func mustQuery(t *testing.T, e *Engine, mode, text string) *QueryResult {
	t.Helper()
	q, err := e.Query(t.Context(), QueryOptions{Text: text, Mode: mode, NoCollapse: true})
	if err != nil {
		t.Fatalf("query %q in mode %q: %v", text, mode, err)
	}
	if mode != "" && q.Mode != mode {
		t.Fatalf("query %q answered in mode %q, want %q", text, q.Mode, mode)
	}
	if len(q.Results) == 0 {
		t.Fatalf("query %q in mode %q: no results", text, mode)
	}
	return q
}

// fieldGuide is a markdown file of three chunks (level-2 headings close
// chunks), one marker each; no heading names a marker.
const fieldGuide = "# Field Guide\n\n## Part one\n\nThe heron stands still in shallow water.\n\n" +
	"## Part two\n\nThe otter floats on its back.\n\n" +
	"## Part three\n\nThe falcon dives from a great height.\n"

const lynxNote = "# Cats\n\nThe lynx hunts in deep snow.\n"

const badgerCode = "package c\n\n// Badger digs long tunnels under the meadow.\nfunc Badger() {}\n"

// checkMarkers checks that every wanted marker appears in exactly one
// input (however often), that no other marker appears in any, and that there is one input
// per wanted marker.
func checkMarkers(t *testing.T, inputs []string, want []string) {
	t.Helper()
	got := map[string]int{}
	for _, in := range inputs {
		ws := words(in)
		for _, m := range markers {
			if slices.Contains(ws, m) {
				got[m]++
			}
		}
	}
	wantCounts := map[string]int{}
	for _, m := range want {
		wantCounts[m] = 1
	}
	if diff := cmp.Diff(wantCounts, got); diff != "" {
		t.Errorf("markers in the embedded inputs (-want +got):\n%s\ninputs: %q", diff, inputs)
	}
	if len(inputs) != len(want) {
		t.Errorf("%d inputs embedded, want %d: %q", len(inputs), len(want), inputs)
	}
}
