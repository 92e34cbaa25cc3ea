package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/autorag/autorag/engine/backend/weaviate"
	"github.com/autorag/autorag/engine/embed/static"
	"github.com/autorag/autorag/lock"
)

// The contract tests run the engine's promises against every backend: the
// local one always, Weaviate on the cluster AUTORAG_WEAVIATE_URL names
// (`make weaviate-up`; .ci/run starts one). Without it the Weaviate runs
// skip with a logged reason, and fail when CI is set.

// contractBackend builds the settings of one backend.
type contractBackend struct {
	name     string
	settings func(t *testing.T) Settings
}

func contractBackends() []contractBackend {
	return []contractBackend{
		{name: BackendLocal, settings: func(*testing.T) Settings {
			s := DefaultSettings()
			s.Embedder = static.New()
			return s
		}},
		{name: BackendWeaviate, settings: weaviateSettings},
	}
}

// weaviateSettings points the engine at the test cluster: 3 shards × 2
// replicas when it has 3 nodes, else 1 × 1.
func weaviateSettings(t *testing.T) Settings {
	t.Helper()
	url := os.Getenv("AUTORAG_WEAVIATE_URL")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but AUTORAG_WEAVIATE_URL is not: .ci/run must start the cluster")
		}
		t.Skip("AUTORAG_WEAVIATE_URL not set: start a cluster with `make weaviate-up` to run the Weaviate backend")
	}
	key := os.Getenv("AUTORAG_WEAVIATE_API_KEY")
	c, err := weaviate.New(weaviate.Config{URL: url, APIKey: key})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	nodes, err := waitNodes(ctx, c)
	if err != nil {
		t.Fatalf("weaviate cluster at %s: %v", url, err)
	}
	s := DefaultSettings()
	s.Embedder = static.New()
	s.Backend = Backend{Name: BackendWeaviate, URL: url, APIKey: key, Shards: 1, Replicas: 1}
	if nodes >= 3 {
		s.Backend.Shards, s.Backend.Replicas = 3, 2
	}
	return s
}

// waitNodes waits until every node of the cluster reports healthy.
func waitNodes(ctx context.Context, c *weaviate.Client) (int, error) {
	for {
		nodes, err := c.Nodes(ctx)
		if err == nil && c.Health(ctx) == nil {
			return len(nodes), nil
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("not healthy: %v", err)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// forBackends runs f once per backend, each on its own root.
func forBackends(t *testing.T, f func(t *testing.T, h *contractRoot)) {
	for _, b := range contractBackends() {
		t.Run(b.name, func(t *testing.T) {
			f(t, newContractRoot(t, b.settings(t)))
		})
	}
}

// contractRoot is a root with its engine; Weaviate collections are dropped
// when the test ends.
type contractRoot struct {
	t   *testing.T
	e   *Engine
	ctx context.Context
}

func newContractRoot(t *testing.T, s Settings) *contractRoot {
	t.Helper()
	e, err := New(t.TempDir(), s)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	h := &contractRoot{t: t, e: e, ctx: ctx}
	t.Cleanup(func() {
		if _, err := e.Reset(context.Background(), time.Minute, "test cleanup"); err != nil {
			t.Errorf("reset at cleanup: %v", err)
		}
	})
	return h
}

func (h *contractRoot) write(rel, content string) {
	h.t.Helper()
	p := filepath.Join(h.e.Layout.Root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

func (h *contractRoot) refresh(o RefreshOptions) *RefreshResult {
	h.t.Helper()
	r, err := h.e.Refresh(h.ctx, o)
	if err != nil {
		h.t.Fatalf("refresh: %v", err)
	}
	return r
}

func (h *contractRoot) query(text, mode string) []string {
	h.t.Helper()
	q, err := h.e.Query(h.ctx, QueryOptions{Text: text, Mode: mode, K: 50})
	if err != nil {
		h.t.Fatalf("query %q: %v", text, err)
	}
	return paths(q)
}

// contractCorpus is a small corpus of distinct topics, one file each.
var contractCorpus = map[string]string{
	"birds/heron.md":   "# Heron\n\nThe grey heron fishes at dawn in shallow water.\n",
	"birds/owl.md":     "# Owl\n\nThe barn owl hunts mice at night over the fields.\n",
	"code/parse.go":    "package code\n\n// ParseConfig reads the configuration file of the service.\nfunc ParseConfig() {}\n",
	"notes/garden.txt": "Tomatoes and basil grow well together in the summer garden.\n",
	"notes/travel.md":  "# Travel\n\nThe night train crosses the mountains to the coast.\n",
}

func (h *contractRoot) writeCorpus() {
	for rel, content := range contractCorpus {
		h.write(rel, content)
	}
}

func TestContractRefreshNoopAndQuery(t *testing.T) {
	forBackends(t, func(t *testing.T, h *contractRoot) {
		h.writeCorpus()
		r := h.refresh(RefreshOptions{})
		if r.Outcome != OutcomeRebuilt || r.Files != 5 || r.ChunksEmbedded != r.Chunks {
			t.Fatalf("first refresh: outcome %s, files %d, chunks %d, embedded %d", r.Outcome, r.Files, r.Chunks, r.ChunksEmbedded)
		}
		for _, mode := range []string{ModeBM25, ModeVector, ModeHybrid} {
			if got := h.query("heron fishes", mode); len(got) == 0 || got[0] != "birds/heron.md" {
				t.Errorf("%s: heron fishes: %v", mode, got)
			}
		}
		// Vector scores are cosine similarities (in [-1, 1]: the built-in
		// embedder's vectors can point away from each other), best first,
		// on both backends.
		q, err := h.e.Query(h.ctx, QueryOptions{Text: "heron fishes", Mode: ModeVector, K: 10})
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range q.Results {
			if r.Scores.Vector == nil || *r.Scores.Vector < -1.0001 || *r.Scores.Vector > 1.0001 ||
				i > 0 && *r.Scores.Vector > *q.Results[i-1].Scores.Vector {
				t.Fatalf("vector result %d (%s): score %s, not a similarity in descending order", i, r.Path, fmtScore(r.Scores.Vector))
			}
		}
		again := h.refresh(RefreshOptions{})
		if again.Outcome != OutcomeUnchanged || again.Generation != r.Generation || again.ChunksEmbedded != 0 || again.ChunksIndexed != 0 {
			t.Fatalf("no-op refresh did work: %+v", again)
		}
	})
}

func TestContractEditsDeletesRenames(t *testing.T) {
	forBackends(t, func(t *testing.T, h *contractRoot) {
		h.writeCorpus()
		h.refresh(RefreshOptions{})
		h.write("birds/owl.md", "# Owl\n\nThe barn owl now sleeps in the old church tower.\n")
		h.write("notes/new.md", "# New\n\nA kayak drifts down the quiet river.\n")
		if err := os.Remove(filepath.Join(h.e.Layout.Root, "notes/garden.txt")); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(filepath.Join(h.e.Layout.Root, "notes/travel.md"), filepath.Join(h.e.Layout.Root, "notes/trips.md")); err != nil {
			t.Fatal(err)
		}
		r := h.refresh(RefreshOptions{})
		if r.Outcome != OutcomeUpdated || r.Added != 1 || r.Modified != 1 || r.Deleted != 1 || r.Renamed != 1 {
			t.Fatalf("counts: %+v", r)
		}
		// Only the new and the edited chunks are embedded; the renamed
		// file's chunk comes from the embedding cache.
		if r.ChunksEmbedded != 2 || r.Files != 5 {
			t.Fatalf("embedded %d chunks, want 2 (files %d)", r.ChunksEmbedded, r.Files)
		}
		checks := []struct {
			q, want, gone string
		}{
			{"church tower", "birds/owl.md", ""},
			{"kayak river", "notes/new.md", ""},
			{"tomatoes basil", "", "notes/garden.txt"},
			{"night train mountains", "notes/trips.md", "notes/travel.md"},
		}
		for _, c := range checks {
			got := h.query(c.q, ModeBM25)
			if c.want != "" && (len(got) == 0 || got[0] != c.want) {
				t.Errorf("%q: %v, want %s first", c.q, got, c.want)
			}
			if c.gone != "" && slices.Contains(got, c.gone) {
				t.Errorf("%q: %v still has %s", c.q, got, c.gone)
			}
		}
		if got := h.query("hunts mice", ModeBM25); slices.Contains(got, "birds/owl.md") {
			t.Errorf("the old owl text is still indexed: %v", got)
		}
	})
}

func TestContractRebuildAndReset(t *testing.T) {
	forBackends(t, func(t *testing.T, h *contractRoot) {
		h.writeCorpus()
		first := h.refresh(RefreshOptions{})
		before := h.query("the night", ModeHybrid)
		r := h.refresh(RefreshOptions{Rebuild: true})
		if r.Outcome != OutcomeRebuilt || r.Generation == first.Generation || r.Chunks != first.Chunks {
			t.Fatalf("rebuild: %+v", r)
		}
		// Weaviate's BM25 statistics are per shard, so a rebuild may order
		// near ties differently there: compare what was found.
		after := h.query("the night", ModeHybrid)
		if h.e.Settings.Backend.Name == BackendWeaviate {
			before, after = sorted(before), sorted(after)
		}
		if !slices.Equal(before, after) {
			t.Errorf("rebuild changed the answer: %v, then %v", before, after)
		}
		var alias string
		if h.e.Settings.Backend.Name == BackendWeaviate {
			alias = h.alias()
		}
		removed, err := h.e.Reset(h.ctx, 0, "test")
		if err != nil || len(removed) == 0 {
			t.Fatalf("reset: %v, %v", removed, err)
		}
		if _, err := h.e.Query(h.ctx, QueryOptions{Text: "heron"}); !errors.Is(err, ErrNoIndex) {
			t.Fatalf("query after reset: %v, want ErrNoIndex", err)
		}
		if h.e.Settings.Backend.Name == BackendWeaviate {
			h.checkAliasGone(alias)
			if got := h.alias(); got == alias {
				t.Fatalf("the index id survived the reset: %s", got)
			}
		}
		if again := h.refresh(RefreshOptions{}); again.Outcome != OutcomeRebuilt {
			t.Fatalf("refresh after reset: %s", again.Outcome)
		}
		if got := h.query("heron", ModeBM25); len(got) == 0 || got[0] != "birds/heron.md" {
			t.Fatalf("after reset and refresh: %v", got)
		}
	})
}

// alias is the root's Weaviate alias (made if there is none yet).
func (h *contractRoot) alias() string {
	h.t.Helper()
	a, err := h.e.weaviateAlias(nil)
	if err != nil {
		h.t.Fatal(err)
	}
	return a
}

// checkAliasGone checks that reset dropped the root's alias.
func (h *contractRoot) checkAliasGone(alias string) {
	h.t.Helper()
	b := h.e.Settings.Backend
	c, err := weaviate.New(weaviate.Config{URL: b.URL, APIKey: b.APIKey})
	if err != nil {
		h.t.Fatal(err)
	}
	if got, err := c.ResolveAlias(h.ctx, alias); !errors.Is(err, weaviate.ErrNotFound) {
		h.t.Fatalf("alias after reset: %q, %v; want not found", got, err)
	}
}

func TestContractBusy(t *testing.T) {
	forBackends(t, func(t *testing.T, h *contractRoot) {
		h.writeCorpus()
		h.refresh(RefreshOptions{})
		h.write("notes/new.md", "# New\n\nA kayak drifts down the quiet river.\n")
		lk, err := lock.Acquire(h.ctx, h.e.Layout.LockPath(), 0, "test holder")
		if err != nil {
			t.Fatal(err)
		}
		_, err = h.e.Refresh(h.ctx, RefreshOptions{})
		if !errors.Is(err, lock.ErrBusy) {
			t.Fatalf("refresh under a held lock: %v, want busy", err)
		}
		if got := h.query("kayak river", ModeBM25); slices.Contains(got, "notes/new.md") {
			t.Fatalf("a busy refresh changed the index: %v", got)
		}
		lk.Release()
		if r := h.refresh(RefreshOptions{}); r.Outcome != OutcomeUpdated || r.Added != 1 {
			t.Fatalf("after the lock is free: %+v", r)
		}
	})
}
