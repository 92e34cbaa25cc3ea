package main

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/autorag/autorag/engine"
)

// fakeOllama speaks Ollama's /v1/embeddings: vectors in base64 whatever
// was asked, no "usage" field, no "dimensions" taken. The vector size can
// change under it (a different model pulled under the same name); it can
// answer the first requests with 429 and delay every reply.
type fakeOllama struct {
	*httptest.Server
	mu       sync.Mutex
	dims     int
	limit429 int // answer this many requests with 429 first
	delay    time.Duration
	requests int
	inputs   int
}

func newFakeOllama(t *testing.T, dims int) *fakeOllama {
	t.Helper()
	f := &fakeOllama{dims: dims}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeOllama) set(fn func(f *fakeOllama)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f)
}

func (f *fakeOllama) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Input []string `json:"input"`
		Model string   `json:"model"`
	}
	if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Input) == 0 {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.requests++
	f.inputs += len(req.Input)
	dims, delay, busy := f.dims, f.delay, f.limit429 > 0
	if busy {
		f.limit429--
	}
	f.mu.Unlock()
	time.Sleep(delay)
	if busy {
		w.Header().Set("Retry-After", "1")
		http.Error(w, `{"error":{"message":"server busy"}}`, http.StatusTooManyRequests)
		return
	}
	data := make([]map[string]any, len(req.Input))
	for i, in := range req.Input {
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": base64Vector(in, dims)}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": req.Model, "data": data})
}

// base64Vector is a vector that depends on the text's words, so that
// texts sharing words are near each other, as base64 of float32s.
func base64Vector(text string, dims int) string {
	v := make([]float32, dims)
	for _, w := range strings.Fields(strings.ToLower(text)) {
		h := fnv.New32a()
		h.Write([]byte(w))
		v[h.Sum32()%uint32(dims)]++
	}
	v[0] += 0.01 // never the zero vector
	b := make([]byte, 4*dims)
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return base64.StdEncoding.EncodeToString(b)
}

// providerEnv configures the openai embedder for f with no dimensions.
func providerEnv(f *fakeOllama, extra ...string) []string {
	return append([]string{
		"AUTORAG_EMBEDDER=openai",
		"OPENAI_BASE_URL=" + f.URL + "/v1",
		"OPENAI_EMBEDDING_MODEL=nomic-embed-text",
		"OPENAI_API_KEY=",
		"OPENAI_EMBEDDING_DIMENSIONS=",
	}, extra...)
}

// TestZeroConfigProvider: against a provider that omits dimensions and
// usage and answers in base64, refresh works with no
// OPENAI_EMBEDDING_DIMENSIONS and records the learned size; when the
// model's size changes the next refresh fails with exit 3 and a hint,
// commits nothing, and the committed index is still served; index rebuild
// then learns the new size.
func TestZeroConfigProvider(t *testing.T) {
	// The recorded identity carries the index semantics version.
	idx := "+index" + strconv.Itoa(engine.IndexSemanticsVersion)
	f := newFakeOllama(t, 16)
	root := copyCorpus(t)
	env := providerEnv(f)
	r := cli(t, env, "--root", root, "refresh", "--json")
	if r.code != 0 {
		t.Fatalf("refresh: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	first := r.json(t)
	if num(first, "chunks_embedded") == 0 {
		t.Fatalf("nothing embedded: %v", first)
	}
	if got := statusEmbedder(t, env, root); got != "openai/nomic-embed-text@max-tokens=512"+idx+"/16" {
		t.Errorf("recorded embedder %q, want openai/nomic-embed-text@max-tokens=512/16", got)
	}
	if out := mustOKEnv(t, env, "--root", root, "config"); !strings.Contains(out, "indexed_embedder") || !strings.Contains(out, "openai/nomic-embed-text@max-tokens=512"+idx+"/16") {
		t.Errorf("config does not show the learned size:\n%s", out)
	}
	q := cli(t, env, "--root", root, "query", "--json", "--mode", "hybrid", "--no-cache", "retry backoff jitter")
	if q.code != 0 || len(q.json(t)["results"].([]any)) == 0 {
		t.Fatalf("hybrid query: exit %d\n%s%s", q.code, q.stdout, q.stderr)
	}
	f.set(func(f *fakeOllama) { f.requests = 0 })
	if r := cli(t, env, "--root", root, "refresh", "--json"); r.code != 0 || r.json(t)["outcome"] != "unchanged" {
		t.Fatalf("second refresh: exit %d %s", r.code, r.stdout)
	}
	if f.requests != 0 {
		t.Errorf("an unchanged refresh sent %d requests, want none (the size comes from the index)", f.requests)
	}

	f.set(func(f *fakeOllama) { f.dims = 24 })
	writeFile(t, root, "docs/new.md", "# New page\n\nretry storms and how to calm them\n")
	r = cli(t, env, "--root", root, "refresh")
	if r.code != exitFailed || !strings.Contains(r.stderr, "now returns 24-dimensional vectors") || !strings.Contains(r.stderr, "autorag index rebuild") {
		t.Fatalf("refresh after the size changed: exit %d, stderr %q; want exit 3 naming index rebuild", r.code, r.stderr)
	}
	st := mustStatus(t, env, root)
	if st["generation"] != first["generation"] || st["sources_changed"] != true {
		t.Errorf("after the failed refresh: generation %v (want %v), sources changed %v", st["generation"], first["generation"], st["sources_changed"])
	}
	q = cli(t, env, "--root", root, "query", "--json", "--mode", "bm25", "retry backoff jitter")
	if q.code != 0 || len(q.json(t)["results"].([]any)) == 0 {
		t.Fatalf("the committed index is not served after the failed refresh: exit %d %s", q.code, q.stderr)
	}

	if r := cli(t, env, "--root", root, "index", "rebuild", "--json"); r.code != 0 {
		t.Fatalf("index rebuild: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := statusEmbedder(t, env, root); got != "openai/nomic-embed-text@max-tokens=512"+idx+"/24" {
		t.Errorf("after rebuild the recorded embedder is %q, want openai/nomic-embed-text@max-tokens=512/24", got)
	}
	q = cli(t, env, "--root", root, "query", "--json", "--no-cache", "retry storms")
	if q.code != 0 || q.json(t)["mode"] != "hybrid" {
		t.Fatalf("hybrid query after rebuild: exit %d %s %s", q.code, q.stdout, q.stderr)
	}
}

func mustStatus(t *testing.T, env []string, root string) map[string]any {
	t.Helper()
	r := cli(t, env, "--root", root, "status", "--json")
	if r.code != 0 {
		t.Fatalf("status: exit %d %s", r.code, r.stderr)
	}
	return r.json(t)
}

func statusEmbedder(t *testing.T, env []string, root string) string {
	t.Helper()
	s, _ := mustStatus(t, env, root)["settings"].(map[string]any)
	e, _ := s["embedder"].(string)
	return e
}

// TestTokenBudgetSplitsLongChunks: a chunk over the per-input budget is
// sent in pieces, and the refresh counts it.
func TestTokenBudgetSplitsLongChunks(t *testing.T) {
	f := newFakeOllama(t, 8)
	root := t.TempDir()
	writeFile(t, root, "long.txt", strings.Repeat("lorem ipsum dolor sit amet ", 80)+"\n") // 2,160 bytes: 540 tokens
	writeFile(t, root, "short.txt", "a short note\n")
	m := cli(t, providerEnv(f), "--root", root, "refresh", "--json").json(t)
	if num(m, "embed_inputs_split") != 1 {
		t.Errorf("embed_inputs_split = %v, want 1 (default budget 512 tokens)", m["embed_inputs_split"])
	}
	if f.inputs != 2+3 { // the probe, the staged upgrade's check of its target, the short text, the long one in two
		t.Errorf("provider got %d inputs, want 5", f.inputs)
	}
	root2 := t.TempDir()
	writeFile(t, root2, "long.txt", strings.Repeat("lorem ipsum dolor sit amet ", 80)+"\n")
	m = cli(t, providerEnv(f, "OPENAI_EMBEDDING_MAX_TOKENS=1000"), "--root", root2, "refresh", "--json").json(t)
	if num(m, "embed_inputs_split") != 0 {
		t.Errorf("with a budget of 1000 tokens embed_inputs_split = %v, want 0", m["embed_inputs_split"])
	}
}

func mustOKEnv(t *testing.T, env []string, args ...string) string {
	t.Helper()
	r := cli(t, env, args...)
	if r.code != 0 {
		t.Fatalf("autorag %v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
	}
	return r.stdout
}
