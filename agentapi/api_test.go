package agentapi

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
	"github.com/autorag/autorag/internal/indextest"
	"github.com/autorag/autorag/lock"
)

var testFiles = map[string]string{
	"a.md":         "---\ntitle: Herons\ntags: [birds]\n---\n# Alpha\n\nThe heron fishes at dawn.\n\n## Later\n\nThe heron sleeps by the river.\n",
	"b/code.go":    "package b\n\n// ParseConfig reads the heron configuration file.\nfunc ParseConfig() {}\n",
	"c.txt":        "nothing relevant here, only a river and a boat\n",
	"docs/boat.md": "# Boats\n\nA boat on the river carries the heron upstream.\n",
	".gitignore":   "secret.txt\nbuild/\n",
	"secret.txt":   "the heron password is hunter2\n",
	"build/out.md": "# Built\n\nheron build output\n",
	"data.bin":     "heron\x00\x01\x02binary",
	"dump.dat":     "heron\x00\x01\x02binary content under a text extension",
}

// newAPI indexes testFiles in a new root with the built-in embedder and
// returns an API over it (checking the sources every millisecond).
func newAPI(t *testing.T) *API {
	t.Helper()
	e := indextest.Files(t, t.TempDir(), testFiles)
	a := New(e, Options{CacheBytes: 1 << 20, StaleInterval: time.Millisecond, Command: "agentapi test"})
	t.Cleanup(func() { a.Close() })
	return a
}

func intp(n int) *int { return &n }

func search(t *testing.T, a *API, r SearchRequest) *envelope.Query {
	t.Helper()
	res, err := a.Search(t.Context(), r)
	if err != nil {
		t.Fatalf("search %+v: %v", r, err)
	}
	return res
}

func TestSearchAnswersLikeQuery(t *testing.T) {
	a := newAPI(t)
	for _, r := range []SearchRequest{
		{Query: "heron"},
		{Query: "heron river", K: intp(2), PerFile: 2},
		{Query: "heron", Mode: engine.ModeBM25, Explain: true},
		{Query: "boat upstream", Mode: engine.ModeVector, K: intp(3)},
		{Query: "heron", Path: "docs/**"},
	} {
		k, _ := ResolveK(r.K)
		want, err := a.Engine().Query(t.Context(), engine.QueryOptions{Text: r.Query, K: k, PerFile: r.PerFile,
			Mode: r.Mode, PathGlob: r.Path, Explain: r.Explain})
		if err != nil {
			t.Fatal(err)
		}
		for round, wantCached := range []bool{false, true} {
			got := search(t, a, r)
			if got.Cached != wantCached {
				t.Errorf("%+v round %d: cached = %v", r, round, got.Cached)
			}
			if d := cmp.Diff(want.Results, got.Results); d != "" {
				t.Errorf("%+v round %d: results differ from engine.Query (-want +got):\n%s", r, round, d)
			}
			if got.Generation != want.Generation || got.Fingerprint != want.Fingerprint || got.Mode != want.Mode {
				t.Errorf("%+v: answered %s/%s/%s, want %s/%s/%s", r, got.Generation, got.Fingerprint, got.Mode,
					want.Generation, want.Fingerprint, want.Mode)
			}
			if got.Stale == nil || *got.Stale {
				t.Errorf("%+v: stale = %v right after a refresh, want false", r, got.Stale)
			}
		}
	}
}

func TestSearchRefusesBadRequests(t *testing.T) {
	a := newAPI(t)
	for _, r := range []SearchRequest{
		{Query: "  "},
		{Query: "heron", K: intp(-1)},
		{Query: "heron", K: intp(0)},
		{Query: "heron", K: intp(MaxK + 1)},
		{Query: "heron", PerFile: -2},
		{Query: "heron", Mode: "fuzzy"},
	} {
		if _, err := a.Search(t.Context(), r); Code(err) != envelope.CodeUsage {
			t.Errorf("%+v: err = %v (code %s), want a usage error", r, err, Code(err))
		}
	}
}

// staleAfter searches until the answer's stale flag is want (the check
// runs in the background, so the first answers may predate the change).
func staleAfter(t *testing.T, a *API, want bool) *envelope.Query {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		res := search(t, a, SearchRequest{Query: "heron"})
		if res.Stale != nil && *res.Stale == want {
			return res
		}
		if time.Now().After(deadline) {
			t.Fatalf("stale never became %v (last %v at %v)", want, res.Stale, res.StaleCheckedAt)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestSearchStale(t *testing.T) {
	a := newAPI(t)
	root := a.Root()
	staleAfter(t, a, false)
	// A touch changes the mtime, not the bytes: not stale.
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(root, "c.txt"), future, future); err != nil {
		t.Fatal(err)
	}
	// An ignored or binary file is never indexed: not stale either.
	indextest.WriteTree(t, root, map[string]string{"build/new.md": "# New build\n", "more.bin": "\x00\x00"})
	time.Sleep(20 * time.Millisecond) // several check intervals
	for range 5 {
		if res := search(t, a, SearchRequest{Query: "heron"}); res.Stale == nil || *res.Stale {
			t.Fatalf("stale = %v after a touch and ignored/binary files", res.Stale)
		}
		time.Sleep(2 * time.Millisecond)
	}
	for _, change := range []func(){
		func() { indextest.WriteTree(t, root, map[string]string{"c.txt": "a river and a heron\n"}) },
		func() { indextest.WriteTree(t, root, map[string]string{"new.md": "# New\n"}) },
		func() { os.Remove(filepath.Join(root, "docs/boat.md")) },
	} {
		change()
		if res := staleAfter(t, a, true); res.StaleCheckedAt == nil {
			t.Error("a stale answer without the time of its check")
		}
		env, err := a.Refresh(t.Context(), RefreshRequest{})
		if err != nil || !env.OK {
			t.Fatalf("refresh: %+v %v", env, err)
		}
		staleAfter(t, a, false)
	}
}

func TestRefreshBusyIsAResult(t *testing.T) {
	a := newAPI(t)
	lk, err := lock.Acquire(t.Context(), a.Engine().Layout.LockPath(), 0, "test holder")
	if err != nil {
		t.Fatal(err)
	}
	env, err := a.Refresh(t.Context(), RefreshRequest{})
	lk.Release()
	if err != nil {
		t.Fatalf("busy refresh: err = %v, want a busy envelope", err)
	}
	if env.OK || env.Outcome != "busy" || env.Error == nil || env.Error.Code != envelope.CodeBusy ||
		env.Holder == nil || env.Holder.Command != "test holder" || env.RefreshResult != nil {
		t.Errorf("busy refresh envelope = %+v", env)
	}
	indextest.WriteTree(t, a.Root(), map[string]string{"kingfisher.md": "# Kingfisher\n\nkingfisher dives\n"})
	env, err = a.Refresh(t.Context(), RefreshRequest{Paths: []string{"kingfisher.md"}})
	if err != nil || !env.OK || env.Outcome != engine.OutcomeUpdated || env.Added != 1 {
		t.Fatalf("targeted refresh: %+v %v", env, err)
	}
	res := search(t, a, SearchRequest{Query: "kingfisher"})
	if res.Generation != env.Generation || len(res.Results) == 0 || res.Results[0].Path != "kingfisher.md" {
		t.Errorf("after the refresh: generation %s, results %+v; want %s with kingfisher.md", res.Generation, res.Results, env.Generation)
	}
}

func TestStatus(t *testing.T) {
	a := newAPI(t)
	st, err := a.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !st.OK || !st.Indexed || st.SourcesChanged == nil || *st.SourcesChanged || st.Counts.Files != 4 { // .gitignore is hidden: not indexed
		t.Errorf("status = %+v", st)
	}
	empty := New(mustEngine(t, t.TempDir()), Options{})
	defer empty.Close()
	if _, err := empty.Status(t.Context()); !errors.Is(err, engine.ErrNoIndex) || Code(err) != envelope.CodeNoIndex {
		t.Errorf("status without an index: %v", err)
	}
	if _, err := empty.Search(t.Context(), SearchRequest{Query: "x"}); Code(err) != envelope.CodeNoIndex {
		t.Errorf("search without an index: %v", err)
	}
}

func mustEngine(t *testing.T, root string) *engine.Engine {
	t.Helper()
	e, err := engine.New(root, engine.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestSearchFilters: the metadata filters and the type reach the engine,
// and bad ones are usage errors.
func TestSearchFilters(t *testing.T) {
	a := newAPI(t)
	out, err := a.Search(t.Context(), SearchRequest{Query: "heron", K: intp(10), Filters: []string{"tag=birds"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 1 || out.Results[0].Path != "a.md" {
		t.Errorf("tag=birds: %+v", out.Results)
	}
	out, err = a.Search(t.Context(), SearchRequest{Query: "heron", K: intp(10), Type: "code"})
	if err != nil || len(out.Results) != 1 || out.Results[0].Path != "b/code.go" {
		t.Errorf("type=code: %v %+v", err, out)
	}
	if _, err := a.Search(t.Context(), SearchRequest{Query: "heron", Type: "video"}); err == nil {
		t.Errorf("type=video accepted")
	}
}
