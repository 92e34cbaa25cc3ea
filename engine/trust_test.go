package engine

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autorag/autorag/cache"
	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/failpoint"
	"github.com/autorag/autorag/mirror"
)

// failingEmbedder fails every call, like a provider that gave up.
type failingEmbedder struct{}

func (failingEmbedder) Identity() embed.Identity {
	return embed.Identity{Provider: "test", Model: "failing", Dims: 4}
}

func (failingEmbedder) Embed(context.Context, []string) ([][]float32, error) {
	return nil, errors.New("provider gave up")
}

// indexEntries lists the names under .autorag/index.
func indexEntries(t *testing.T, e *Engine) []string {
	t.Helper()
	ents, err := os.ReadDir(e.Layout.IndexDir())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, en := range ents {
		names = append(names, en.Name())
	}
	return names
}

// TestUntrustedSidecarRemovesNothing is defect 1: a sidecar this binary
// cannot trust (unknown format, unreadable) stops the refresh before it
// removes anything, even when the build would then fail.
func TestUntrustedSidecarRemovesNothing(t *testing.T) {
	damage := map[string]func(t *testing.T, path string){
		"newer format": func(t *testing.T, path string) {
			b, _ := os.ReadFile(path)
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			m["format"] = 2
			b, _ = json.Marshal(m)
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"unreadable": func(t *testing.T, path string) {
			// A directory in place of the file: reading it is an I/O error.
			b, _ := os.ReadFile(path)
			os.Remove(path)
			if err := os.MkdirAll(filepath.Join(path, "x"), 0o700); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(path, "x", "keep"), b, 0o600)
		},
	}
	for name, f := range damage {
		t.Run(name, func(t *testing.T) {
			e := newTestEngine(t, map[string]string{"a.md": "# A\n\nheron\n"})
			first, err := e.Refresh(context.Background(), RefreshOptions{})
			if err != nil {
				t.Fatal(err)
			}
			f(t, e.Layout.SidecarPath())
			os.WriteFile(filepath.Join(e.Layout.Root, "b.md"), []byte("# B\n\negret\n"), 0o644)
			e.Settings.Embedder = failingEmbedder{}
			_, err = e.Refresh(context.Background(), RefreshOptions{})
			if err == nil {
				t.Fatal("refresh over an untrusted sidecar succeeded")
			}
			if !strings.Contains(err.Error(), "sidecar") {
				t.Errorf("error does not name the sidecar: %v", err)
			}
			if got := indexEntries(t, e); len(got) != 1 || got[0] != first.Generation {
				t.Fatalf("index/ after the refaused refresh holds %v, want only %s", got, first.Generation)
			}
		})
	}
}

// TestCommitSurvivesDirSyncFailure is defect 2: the sidecar was renamed
// into place, then the directory fsync failed. The commit has happened: the
// generation the sidecar names must not be removed.
func TestCommitSurvivesDirSyncFailure(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.md": "# A\n\nheron\n"})
	if _, err := e.Refresh(context.Background(), RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(e.Layout.Root, "b.md"), []byte("# B\n\negret\n"), 0o644)
	restore := failpoint.Set("after-rename-fingerprint.json:error")
	res, err := e.Refresh(context.Background(), RefreshOptions{})
	restore()
	if err != nil {
		t.Fatalf("refresh whose sidecar was renamed reported failure: %v", err)
	}
	if len(res.Warnings) == 0 {
		t.Error("the failed directory sync was not reported as a warning")
	}
	sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
	if err != nil {
		t.Fatal(err)
	}
	if sc.Generation != res.Generation {
		t.Fatalf("sidecar names %s, refresh reported %s", sc.Generation, res.Generation)
	}
	q, err := e.Query(context.Background(), QueryOptions{Text: "egret"})
	if err != nil || len(q.Results) != 1 {
		t.Fatalf("query after the commit: %v %v", q, err)
	}
}

// TestGenerationNamesNeverRepeat is defect 3: after index reset, and after a
// refresh that failed before its commit, the next generation still gets a
// name never used before in this root.
func TestGenerationNamesNeverRepeat(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.md": "# A\n\nheron\n"})
	seen := map[string]bool{}
	note := func(gen string) {
		t.Helper()
		if seen[gen] {
			t.Fatalf("generation name %s used twice", gen)
		}
		seen[gen] = true
	}
	r, err := e.Refresh(context.Background(), RefreshOptions{})
	if err != nil {
		t.Fatal(err)
	}
	note(r.Generation)
	if _, err := e.Reset(context.Background(), 0, "test"); err != nil {
		t.Fatal(err)
	}
	r, err = e.Refresh(context.Background(), RefreshOptions{})
	if err != nil {
		t.Fatal(err)
	}
	note(r.Generation)
	// A refresh that fails before its commit has used a name too.
	restore := failpoint.Set("before-sidecar:error")
	_, err = e.Refresh(context.Background(), RefreshOptions{Rebuild: true})
	restore()
	if !errors.Is(err, failpoint.ErrInjected) {
		t.Fatalf("failed refresh: %v", err)
	}
	r, err = e.Refresh(context.Background(), RefreshOptions{Rebuild: true})
	if err != nil {
		t.Fatal(err)
	}
	note(r.Generation)
	if len(seen) != 3 {
		t.Fatalf("names: %v", seen)
	}
}

// TestResetKeepsLockFiles is defect 6: index reset removes the index, the
// mirror and the caches, but never a lock file another process may hold
// (the refresh lock, the caches' locks), the config or the generation
// counter.
func TestResetKeepsLockFiles(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.md": "# A\n\nheron\n"})
	if _, err := e.Refresh(context.Background(), RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	q := cache.OpenQueries(filepath.Join(e.Layout.CacheDir(), "query"), 1<<20)
	if err := q.Put(strings.Repeat("a", 64), [32]byte{1}, []byte("answer")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(e.Layout.ConfigPath(), []byte("# settings\n"), 0o600)
	keep := []string{e.Layout.LockPath(), e.Layout.ConfigPath(), e.Layout.CounterPath(),
		filepath.Join(e.Layout.CacheDir(), "query", ".lock")}
	for _, p := range keep {
		if _, err := os.Lstat(p); err != nil {
			t.Fatalf("before reset: %v", err)
		}
	}
	if _, err := e.Reset(context.Background(), 0, "test"); err != nil {
		t.Fatal(err)
	}
	for _, p := range keep {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("reset removed %s", p)
		}
	}
	for _, p := range []string{e.Layout.SidecarPath(), e.Layout.IndexDir(), e.Layout.MirrorDir()} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("reset left %s", p)
		}
	}
	filepath.WalkDir(e.Layout.CacheDir(), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !cache.IsLockFile(d.Name()) {
			t.Errorf("reset left cache file %s", p)
		}
		return nil
	})
}

// TestEvictNothingWhenLiveSetFails is defect 10: when the live set of
// embeddings cannot be computed completely (a committed file can be
// chunked neither from the mirror nor from its source), the embedding cache
// evicts nothing, instead of evicting that file's live entries.
func TestEvictNothingWhenLiveSetFails(t *testing.T) {
	srv := newEmbedServer(t, 8)
	e := newHybridEngine(t, map[string]string{"a.md": fieldGuide, "c.go": badgerCode}, newRemoteEmbedder(t, srv, nil))
	mustRefresh(t, e)
	before := embedCacheLen(t, e)
	man, err := mirror.LoadManifest(e.Layout.ManifestPath())
	if err != nil {
		t.Fatal(err)
	}
	// An empty mirror and a vanished source: c.go cannot be chunked again.
	store := mirror.OpenStore(t.TempDir())
	defer store.Close()
	if err := os.Remove(filepath.Join(e.Layout.Root, "c.go")); err != nil {
		t.Fatal(err)
	}
	e.Settings.EmbedCacheCap = 1 // over the cap: Collect runs
	vb, err := e.openVectorBuilder(RefreshOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res := &RefreshResult{}
	e.collectEmbeddings(t.Context(), vb, man, store, res)
	vb.Close()
	if after := embedCacheLen(t, e); after != before {
		t.Fatalf("embedding cache went from %d to %d entries although the live set was incomplete", before, after)
	}
	if len(res.Warnings) == 0 {
		t.Error("the skipped collection was not reported")
	}
}
