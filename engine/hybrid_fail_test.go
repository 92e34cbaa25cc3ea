package engine

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/cache"
	"github.com/autorag/autorag/engine/embed/openai"
	"github.com/autorag/autorag/fingerprint"
)

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
