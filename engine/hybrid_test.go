package engine

import (
	"encoding/json"
	"errors"
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

	"github.com/autorag/autorag/cache"
	"github.com/autorag/autorag/engine/embed/openai"
	"github.com/autorag/autorag/fingerprint"
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

// TestRemoteEmbedderEmbedsOnlyNewChunks walks a corpus through add, no-op,
// edit, rename, copy and delete, and checks after each refresh exactly what
// the embeddings API received and that vector and hybrid queries see the
// change.
func TestRemoteEmbedderEmbedsOnlyNewChunks(t *testing.T) {
	srv := newEmbedServer(t, 8)
	e := newHybridEngine(t, map[string]string{
		"a.md":               fieldGuide,
		"b.md":               lynxNote,
		"notes/lynx-copy.md": lynxNote, // same chunk as b.md: embedded once
		"c.go":               badgerCode,
	}, newRemoteEmbedder(t, srv, nil))
	root := e.Layout.Root

	type query struct {
		text    string
		top     []string // paths expected first, in any order
		absent  string   // a path no result may have
		lacking string   // a word no result text may hold
	}
	type counts struct {
		Outcome                                   string
		Added, Modified, Deleted, Renamed, Chunks int
		ChunksEmbedded, Hits, Misses              int
	}
	steps := []struct {
		name    string
		change  func(t *testing.T)
		embed   []string // markers of the chunks that must be sent, one input each
		want    counts
		queries []query
	}{
		{
			name:   "first refresh embeds every distinct chunk once",
			change: func(t *testing.T) {},
			embed:  []string{"heron", "otter", "falcon", "lynx", "badger"},
			want:   counts{Outcome: OutcomeRebuilt, Added: 4, Chunks: 6, ChunksEmbedded: 5, Misses: 6},
			queries: []query{
				{text: "falcon", top: []string{"a.md"}},
				{text: "badger", top: []string{"c.go"}},
			},
		},
		{
			name:    "no-op refresh embeds nothing",
			change:  func(t *testing.T) {},
			want:    counts{Outcome: OutcomeUnchanged, Chunks: 6},
			queries: []query{{text: "otter", top: []string{"a.md"}}},
		},
		{
			name: "editing one paragraph embeds only its chunk",
			change: func(t *testing.T) {
				writeSource(t, root, "a.md", strings.Replace(fieldGuide, "The otter floats on its back.", "The walrus hauls out onto the ice floe.", 1))
			},
			embed:   []string{"walrus"},
			want:    counts{Outcome: OutcomeUpdated, Modified: 1, Chunks: 6, ChunksEmbedded: 1, Hits: 2, Misses: 1},
			queries: []query{{text: "walrus", top: []string{"a.md"}, lacking: "otter"}},
		},
		{
			name: "renaming a file embeds nothing",
			change: func(t *testing.T) {
				writeSource(t, root, "src/badger.go", badgerCode)
				if err := os.Remove(filepath.Join(root, "c.go")); err != nil {
					t.Fatal(err)
				}
			},
			want:    counts{Outcome: OutcomeUpdated, Renamed: 1, Chunks: 6, Hits: 1},
			queries: []query{{text: "badger", top: []string{"src/badger.go"}, absent: "c.go"}},
		},
		{
			name: "copying a file embeds nothing",
			change: func(t *testing.T) {
				b, err := os.ReadFile(filepath.Join(root, "a.md"))
				if err != nil {
					t.Fatal(err)
				}
				writeSource(t, root, "archive/a-copy.md", string(b))
			},
			want:    counts{Outcome: OutcomeUpdated, Added: 1, Chunks: 9, Hits: 3},
			queries: []query{{text: "falcon", top: []string{"a.md", "archive/a-copy.md"}}},
		},
		{
			name: "deleting a file embeds nothing",
			change: func(t *testing.T) {
				if err := os.Remove(filepath.Join(root, "b.md")); err != nil {
					t.Fatal(err)
				}
			},
			want:    counts{Outcome: OutcomeUpdated, Deleted: 1, Chunks: 8},
			queries: []query{{text: "lynx", top: []string{"notes/lynx-copy.md"}, absent: "b.md"}},
		},
	}
	for _, st := range steps {
		st.change(t)
		r := mustRefresh(t, e)
		reqs := srv.take()
		inputs := inputsOf(reqs)
		got := counts{r.Outcome, r.Added, r.Modified, r.Deleted, r.Renamed, r.Chunks, r.ChunksEmbedded, r.EmbedCacheHits, r.EmbedCacheMisses}
		if diff := cmp.Diff(st.want, got); diff != "" {
			t.Errorf("%s: refresh counts (-want +got):\n%s", st.name, diff)
		}
		if r.ChunksEmbedded != len(inputs) {
			t.Errorf("%s: ChunksEmbedded = %d but the server received %d inputs", st.name, r.ChunksEmbedded, len(inputs))
		}
		checkMarkers(t, inputs, st.embed)
		for _, req := range reqs {
			if req.Model != "fake-embed" {
				t.Errorf("%s: request for model %q, want fake-embed", st.name, req.Model)
			}
		}
		for _, mode := range []string{ModeVector, ModeHybrid} {
			for _, qq := range st.queries {
				checkQuery(t, st.name, mustQuery(t, e, mode, qq.text), mode, qq.text, qq.top, qq.absent, qq.lacking)
			}
		}
		srv.take() // query vectors
	}
}

func checkQuery(t *testing.T, step string, q *QueryResult, mode, text string, top []string, absent, lacking string) {
	t.Helper()
	got := paths(q)
	if len(got) < len(top) {
		t.Fatalf("%s: %s query %q returned %v, want %v first", step, mode, text, got, top)
	}
	first := slices.Clone(got[:len(top)])
	slices.Sort(first)
	if diff := cmp.Diff(top, first); diff != "" {
		t.Errorf("%s: %s query %q: first results %v (-want +got):\n%s", step, mode, text, got, diff)
	}
	if !slices.Contains(words(q.Results[0].Text), text) {
		t.Errorf("%s: %s query %q: best result %s holds %q", step, mode, text, q.Results[0].Path, q.Results[0].Text)
	}
	for _, res := range q.Results {
		if absent != "" && res.Path == absent {
			t.Errorf("%s: %s query %q still returns %s: %v", step, mode, text, absent, got)
		}
		if lacking != "" && slices.Contains(words(res.Text), lacking) {
			t.Errorf("%s: %s query %q returns stale text %q from %s", step, mode, text, res.Text, res.Path)
		}
	}
}

// TestFailedEmbeddingKeepsCommittedIndex makes the embeddings API fail in
// several ways during a refresh after an edit: the refresh fails, the
// committed generation stays named and served, the cache gains nothing,
// and once the API answers again the next refresh sends exactly the chunks
// that failed.
func TestFailedEmbeddingKeepsCommittedIndex(t *testing.T) {
	status500 := func(w http.ResponseWriter, n int, req embedRequest) bool {
		// Servers do echo keys back; the engine's error must not.
		writeReply(w, http.StatusInternalServerError, map[string]any{"error": map[string]any{
			"message": "upstream overloaded for key " + testAPIKey, "type": "server_error"}})
		return true
	}
	tests := []struct {
		name      string
		batchSize int
		fault     faultFunc
		wantReqs  int // requests the failed refresh makes
	}{
		{name: "HTTP 500 on every attempt", fault: status500, wantReqs: 2},
		{
			name: "malformed reply",
			fault: func(w http.ResponseWriter, n int, req embedRequest) bool {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.1,`))
				return true
			},
			wantReqs: 1,
		},
		{
			name: "wrong dimensions",
			fault: func(w http.ResponseWriter, n int, req embedRequest) bool {
				rep := embedReply{Object: "list", Model: req.Model, Usage: map[string]int{}}
				for i, in := range req.Input {
					rep.Data = append(rep.Data, embedItem{Object: "embedding", Index: i, Embedding: fakeVector(in, 5)})
				}
				writeReply(w, http.StatusOK, rep)
				return true
			},
			wantReqs: 1,
		},
		{
			name: "fewer embeddings than inputs",
			fault: func(w http.ResponseWriter, n int, req embedRequest) bool {
				rep := embedReply{Object: "list", Model: req.Model, Usage: map[string]int{},
					Data: []embedItem{{Object: "embedding", Index: 0, Embedding: fakeVector(req.Input[0], 8)}}}
				writeReply(w, http.StatusOK, rep)
				return true
			},
			wantReqs: 1,
		},
		{
			// The first batch is answered, the second fails: the refresh's
			// vectors fail as a whole and the answered one is not kept.
			name:      "second batch fails after the first succeeds",
			batchSize: 1,
			fault: func(w http.ResponseWriter, n int, req embedRequest) bool {
				return n > 0 && status500(w, n, req)
			},
			wantReqs: 3,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newEmbedServer(t, 8)
			emb := newRemoteEmbedder(t, srv, func(c *openai.Config) {
				c.BatchSize = tt.batchSize
				c.Concurrency = 1
			})
			e := newHybridEngine(t, map[string]string{"a.md": fieldGuide, "b.md": lynxNote}, emb)
			first := mustRefresh(t, e)
			mustQuery(t, e, ModeHybrid, "otter") // caches the query vector
			cached := embedCacheLen(t, e)
			srv.take()

			edited := strings.Replace(fieldGuide, "The otter floats on its back.", "The walrus hauls out onto the ice floe.", 1)
			edited = strings.Replace(edited, "The falcon dives from a great height.", "The marmot whistles from its burrow.", 1)
			writeSource(t, e.Layout.Root, "a.md", edited)
			srv.setFault(tt.fault)
			_, err := e.Refresh(t.Context(), RefreshOptions{})
			if err == nil {
				t.Fatal("refresh succeeded while the embeddings API failed")
			}
			if strings.Contains(err.Error(), testAPIKey) {
				t.Errorf("refresh error shows the API key: %v", err)
			}
			failed := srv.take()
			if len(failed) != tt.wantReqs {
				t.Errorf("failed refresh made %d requests, want %d", len(failed), tt.wantReqs)
			}
			for _, in := range inputsOf(failed) {
				if !strings.Contains(in, "walrus") && !strings.Contains(in, "marmot") {
					t.Errorf("failed refresh sent an unchanged chunk: %q", in)
				}
			}

			sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
			if err != nil {
				t.Fatal(err)
			}
			if sc.Generation != first.Generation || sc.Fingerprint != first.Fingerprint {
				t.Errorf("sidecar names generation %s fingerprint %s, want the previous %s %s",
					sc.Generation, sc.Fingerprint, first.Generation, first.Fingerprint)
			}
			if diff := cmp.Diff([]string{first.Generation}, dirNames(t, e.Layout.IndexDir())); diff != "" {
				t.Errorf("generation directories after the failed refresh (-want +got):\n%s", diff)
			}
			if n := embedCacheLen(t, e); n != cached {
				t.Errorf("embedding cache holds %d vectors after the failed refresh, want the %d it held before", n, cached)
			}
			// The old content is still served; the query vector is cached,
			// so the failing server is not asked.
			for _, mode := range []string{ModeBM25, ModeHybrid, ModeVector} {
				checkQuery(t, "after failure", mustQuery(t, e, mode, "otter"), mode, "otter", []string{"a.md"}, "", "walrus")
			}
			if reqs := srv.take(); len(reqs) != 0 {
				t.Errorf("queries of a cached text sent %d requests", len(reqs))
			}

			srv.setFault(nil)
			r := mustRefresh(t, e)
			inputs := inputsOf(srv.take())
			checkMarkers(t, inputs, []string{"walrus", "marmot"})
			if r.Outcome != OutcomeUpdated || r.ChunksEmbedded != 2 || r.EmbedCacheHits != 1 {
				t.Errorf("refresh after repair: outcome %s, %d embedded, %d cache hits; want updated, 2, 1",
					r.Outcome, r.ChunksEmbedded, r.EmbedCacheHits)
			}
			for _, mode := range []string{ModeVector, ModeHybrid} {
				checkQuery(t, "after repair", mustQuery(t, e, mode, "marmot"), mode, "marmot", []string{"a.md"}, "", "falcon")
			}
		})
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, en := range ents {
		out = append(out, en.Name())
	}
	return out
}

func embedCacheLen(t *testing.T, e *Engine) int {
	t.Helper()
	c, err := cache.OpenEmbeddings(filepath.Join(e.Layout.CacheDir(), "embeddings"), e.Settings.Embedder.Identity().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.Len()
}

// TestQueryVectorCache checks that a remote embedder is asked for a query
// vector once per distinct text, across engines over the same root.
func TestQueryVectorCache(t *testing.T) {
	srv := newEmbedServer(t, 8)
	emb := newRemoteEmbedder(t, srv, nil)
	e := newHybridEngine(t, map[string]string{"a.md": fieldGuide, "c.go": badgerCode}, emb)
	mustRefresh(t, e)
	srv.take()

	steps := []struct {
		engine *Engine
		mode   string
		text   string
		want   []string // inputs the server receives
	}{
		{e, ModeVector, "heron", []string{"heron"}},
		{e, ModeVector, "heron", nil},
		{e, ModeHybrid, "heron", nil},
		{engineAt(t, e.Layout.Root, emb), ModeVector, "heron", nil}, // the cache is on disk
		{e, ModeBM25, "falcon", nil},
		{e, ModeVector, "falcon", []string{"falcon"}},
		{e, ModeHybrid, "badger", []string{"badger"}},
		{e, ModeVector, "falcon", nil},
	}
	prev := map[string][]string{}
	for i, st := range steps {
		q := mustQuery(t, st.engine, st.mode, st.text)
		if diff := cmp.Diff(st.want, inputsOf(srv.take())); diff != "" {
			t.Errorf("step %d (%s %q): inputs sent (-want +got):\n%s", i, st.mode, st.text, diff)
		}
		key := st.mode + " " + st.text
		if p, ok := prev[key]; ok {
			if diff := cmp.Diff(p, paths(q)); diff != "" {
				t.Errorf("step %d: a cached query vector changed the answer (-before +after):\n%s", i, diff)
			}
		}
		prev[key] = paths(q)
	}
}

// TestEmbedderSwitchRebuilds switches the embedder's identity: the old
// index refuses vector queries with a usage error, the next refresh
// rebuilds with new vectors, and switching back reuses the old identity's
// cached embeddings.
func TestEmbedderSwitchRebuilds(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(*openai.Config)
		newDims int
		model   string
	}{
		{"dimensions 8 to 16", func(c *openai.Config) { c.Dimensions = 16 }, 16, "fake-embed"},
		{"model renamed", func(c *openai.Config) { c.Model = "fake-embed-v2" }, 8, "fake-embed-v2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newEmbedServer(t, 8)
			oldEmb := newRemoteEmbedder(t, srv, nil)
			a := newHybridEngine(t, map[string]string{"a.md": fieldGuide, "c.go": badgerCode}, oldEmb)
			first := mustRefresh(t, a)
			mustQuery(t, a, ModeVector, "heron")
			srv.take()

			srv.setDims(tt.newDims)
			b := engineAt(t, a.Layout.Root, newRemoteEmbedder(t, srv, tt.mutate))
			for _, mode := range []string{"", ModeVector, ModeHybrid} {
				if _, err := b.Query(t.Context(), QueryOptions{Text: "heron", Mode: mode}); !errors.Is(err, ErrUsage) {
					t.Errorf("mode %q on an index of another embedder: err = %v, want ErrUsage", mode, err)
				}
			}
			mustQuery(t, b, ModeBM25, "heron")
			if reqs := srv.take(); len(reqs) != 0 {
				t.Errorf("refused queries sent %d requests", len(reqs))
			}

			r := mustRefresh(t, b)
			reqs := srv.take()
			if r.Outcome != OutcomeRebuilt || r.Fingerprint == first.Fingerprint {
				t.Errorf("refresh after the switch: outcome %s fingerprint %s, want rebuilt with a fingerprint other than %s",
					r.Outcome, r.Fingerprint, first.Fingerprint)
			}
			checkMarkers(t, inputsOf(reqs), []string{"heron", "otter", "falcon", "badger"})
			if r.ChunksEmbedded != 4 || r.EmbedCacheHits != 0 {
				t.Errorf("refresh after the switch: %d embedded, %d cache hits; want 4, 0", r.ChunksEmbedded, r.EmbedCacheHits)
			}
			for _, req := range reqs {
				if req.Model != tt.model {
					t.Errorf("request for model %q, want %q", req.Model, tt.model)
				}
			}
			checkQuery(t, "switched", mustQuery(t, b, ModeVector, "otter"), ModeVector, "otter", []string{"a.md"}, "", "")
			checkQuery(t, "switched", mustQuery(t, b, ModeHybrid, "heron"), ModeHybrid, "heron", []string{"a.md"}, "", "")
			if _, err := a.Query(t.Context(), QueryOptions{Text: "heron", Mode: ModeVector}); !errors.Is(err, ErrUsage) {
				t.Errorf("old embedder on the new index: err = %v, want ErrUsage", err)
			}
			srv.take()

			srv.setDims(8)
			back := mustRefresh(t, a)
			if n := len(srv.take()); back.Outcome != OutcomeRebuilt || back.Fingerprint != first.Fingerprint || back.ChunksEmbedded != 0 || n != 0 {
				t.Errorf("switching back: outcome %s, fingerprint %s (first %s), %d embedded, %d requests; want rebuilt, the first fingerprint, 0, 0",
					back.Outcome, back.Fingerprint, first.Fingerprint, back.ChunksEmbedded, n)
			}
			checkQuery(t, "switched back", mustQuery(t, a, ModeVector, "heron"), ModeVector, "heron", []string{"a.md"}, "", "")
		})
	}
}

// TestModesWithoutEmbedder checks which modes a BM25-only index serves,
// with and without an embedder configured at query time.
func TestModesWithoutEmbedder(t *testing.T) {
	e := newHybridEngine(t, map[string]string{"a.md": fieldGuide, "c.go": badgerCode}, nil)
	r := mustRefresh(t, e)
	if r.ChunksEmbedded != 0 || r.EmbedCacheMisses != 0 {
		t.Errorf("BM25-only refresh embedded %d chunks (%d misses)", r.ChunksEmbedded, r.EmbedCacheMisses)
	}
	srv := newEmbedServer(t, 8)
	withEmb := engineAt(t, e.Layout.Root, newRemoteEmbedder(t, srv, nil))
	tests := []struct {
		mode     string
		wantMode string // "" means a usage error
	}{
		{"", ModeBM25},
		{ModeBM25, ModeBM25},
		{ModeVector, ""},
		{ModeHybrid, ""},
		{"semantic", ""},
	}
	for _, eng := range []struct {
		name string
		e    *Engine
	}{{"no embedder", e}, {"embedder configured", withEmb}} {
		for _, tt := range tests {
			q, err := eng.e.Query(t.Context(), QueryOptions{Text: "falcon", Mode: tt.mode})
			if tt.wantMode == "" {
				if !errors.Is(err, ErrUsage) {
					t.Errorf("%s, mode %q: err = %v, want ErrUsage", eng.name, tt.mode, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s, mode %q: %v", eng.name, tt.mode, err)
				continue
			}
			if q.Mode != tt.wantMode || len(q.Results) == 0 || q.Results[0].Path != "a.md" {
				t.Errorf("%s, mode %q: answered in mode %q with %v, want mode %q with a.md first", eng.name, tt.mode, q.Mode, paths(q), tt.wantMode)
			}
		}
	}
	if reqs := srv.take(); len(reqs) != 0 {
		t.Errorf("queries of a BM25-only index sent %d embedding requests", len(reqs))
	}
}
