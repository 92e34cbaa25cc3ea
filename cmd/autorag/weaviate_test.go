package main

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/autorag/autorag/engine/backend/weaviate"
)

// weaviateURL is the test cluster's url (`make weaviate-up`; .ci/run
// starts one): without it the test skips with a reason, and fails in CI.
func weaviateURL(t *testing.T) (url string, shape []string) {
	t.Helper()
	url = os.Getenv("AUTORAG_WEAVIATE_URL")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but AUTORAG_WEAVIATE_URL is not: .ci/run must start the cluster")
		}
		t.Skip("AUTORAG_WEAVIATE_URL not set: start a cluster with `make weaviate-up` to run the Weaviate backend")
	}
	c, err := weaviate.New(weaviate.Config{URL: url, APIKey: os.Getenv("AUTORAG_WEAVIATE_API_KEY")})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for {
		nodes, err := c.Nodes(ctx)
		if err == nil && c.Health(ctx) == nil {
			if len(nodes) >= 3 {
				return url, []string{"--shards", "3", "--replicas", "2"}
			}
			return url, nil
		}
		select {
		case <-ctx.Done():
			t.Fatalf("weaviate cluster at %s not healthy: %v", url, err)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func resultPaths(t *testing.T, r result) []string {
	t.Helper()
	var out []string
	for _, x := range r.json(t)["results"].([]any) {
		out = append(out, x.(map[string]any)["path"].(string))
	}
	return out
}

// TestWeaviateBackendCLI runs refresh, query, status, a failing refresh
// against an unreachable cluster, index rebuild and index reset through
// the CLI on the Weaviate backend.
func TestWeaviateBackendCLI(t *testing.T) {
	url, shape := weaviateURL(t)
	root := copyCorpus(t)
	env := []string{"AUTORAG_WEAVIATE_URL=" + url}
	run := func(env []string, args ...string) result {
		t.Helper()
		return cli(t, env, append([]string{"--root", root}, args...)...)
	}
	ok := func(args ...string) result {
		t.Helper()
		r := run(env, args...)
		if r.code != 0 {
			t.Fatalf("autorag %v: exit %d\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
		}
		return r
	}
	t.Cleanup(func() { run(env, "index", "reset", "--yes") })

	first := ok(append([]string{"refresh", "--json", "--backend", "weaviate"}, shape...)...).json(t)
	if first["outcome"] != "rebuilt" || num(first, "chunks") == 0 {
		t.Fatalf("first refresh: %v", first)
	}
	st := ok("status", "--json").json(t)
	if st["sources_changed"] != false || !strings.HasPrefix(st["settings"].(map[string]any)["backend"].(string), "weaviate") {
		t.Fatalf("status: %v", st)
	}
	if again := ok("refresh", "--json").json(t); again["outcome"] != "unchanged" {
		t.Fatalf("second refresh without --backend: %v", again)
	}
	// A query of the corpus's words: "heron", no word of it, now answers
	// nothing (no lexical match, and no vector hit clears the floor).
	before := resultPaths(t, ok("query", "--json", "retry backoff"))
	if len(before) == 0 {
		t.Fatal("query found nothing")
	}

	// An unreachable cluster fails the refresh (exit 3) and keeps the
	// committed state; the API key appears nowhere.
	writeFile(t, root, "zz-new.md", "# Heron notes\n\nThe heron heron heron waits by the reeds.\n")
	const key = "sekrit-key-4711"
	down := []string{"AUTORAG_WEAVIATE_URL=http://127.0.0.1:9", "AUTORAG_WEAVIATE_API_KEY=" + key}
	r := run(down, "refresh")
	if r.code != 3 || !strings.Contains(r.stderr, "weaviate unreachable") {
		t.Fatalf("refresh with the cluster down: exit %d, stderr %s", r.code, r.stderr)
	}
	if rj := run(down, "refresh", "--json"); rj.code != 3 || strings.Contains(rj.stdout+rj.stderr, key) || strings.Contains(r.stderr, key) {
		t.Fatalf("refresh --json with the cluster down: exit %d, or the key was printed:\n%s%s", rj.code, rj.stdout, rj.stderr)
	}
	if got := resultPaths(t, ok("query", "--json", "retry backoff")); !slices.Equal(got, before) {
		t.Fatalf("after a failed refresh: %v, want the committed %v", got, before)
	}

	upd := ok("refresh", "--json").json(t)
	// Only the new chunk is indexed; the failed refresh embedded it already.
	if upd["outcome"] != "updated" || num(upd, "added") != 1 || num(upd, "chunks_indexed") != 1 ||
		num(upd, "chunks_embedded")+num(upd, "embed_cache_hits") != 1 {
		t.Fatalf("refresh after the cluster is back: %v", upd)
	}
	if got := resultPaths(t, ok("query", "--json", "--mode", "bm25", "heron")); len(got) == 0 || got[0] != "zz-new.md" {
		t.Fatalf("bm25 heron after the update: %v", got)
	}
	if rb := ok("index", "rebuild", "--json").json(t); rb["outcome"] != "rebuilt" {
		t.Fatalf("index rebuild: %v", rb)
	}
	if got := resultPaths(t, ok("query", "--json", "--mode", "bm25", "heron")); len(got) == 0 || got[0] != "zz-new.md" {
		t.Fatalf("bm25 heron after the rebuild: %v", got)
	}
	ok("index", "reset", "--yes")
	if q := run(env, "query", "heron"); q.code != 2 {
		t.Fatalf("query after reset: exit %d, want 2 (no index)\n%s", q.code, q.stderr)
	}
}

// TestWeaviateKilledRefreshConverges kills a refresh on the Weaviate
// backend with SIGKILL before and after the alias swap: before it, queries
// still answer the committed state; in every case the next refresh
// converges on the sources and index verify passes.
func TestWeaviateKilledRefreshConverges(t *testing.T) {
	url, shape := weaviateURL(t)
	env := []string{"AUTORAG_WEAVIATE_URL=" + url}
	for _, point := range []string{"mid-generation", "after-generation", "before-sidecar"} {
		t.Run(point, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, root, "a.md", "# A\n\nThe heron fishes at dawn.\n")
			writeFile(t, root, "b.md", "# B\n\nThe owl hunts at night.\n")
			run := func(env []string, args ...string) result {
				t.Helper()
				return cli(t, env, append([]string{"--root", root}, args...)...)
			}
			t.Cleanup(func() { run(env, "index", "reset", "--yes") })
			if r := run(env, append([]string{"refresh", "--backend", "weaviate"}, shape...)...); r.code != 0 {
				t.Fatalf("first refresh: exit %d: %s", r.code, r.stderr)
			}
			writeFile(t, root, "b.md", "# B\n\nThe kestrel hovers over the meadow.\n")
			if r := run(append([]string{"AUTORAG_FAILPOINT=" + point}, env...), "refresh"); r.code != -1 && r.code != 137 {
				t.Fatalf("refresh killed at %s: exit %d: %s", point, r.code, r.stderr)
			}
			q := run(env, "query", "--json", "--mode", "bm25", "owl kestrel")
			if q.code != 0 {
				t.Fatalf("query after the kill: exit %d: %s", q.code, q.stderr)
			}
			if got := resultPaths(t, q); point != "before-sidecar" && !strings.Contains(q.stdout, "owl hunts") {
				t.Fatalf("killed before the swap, the committed state must be served: %v\n%s", got, q.stdout)
			}
			if r := run(env, "refresh", "--json"); r.code != 0 {
				t.Fatalf("refresh after the kill: exit %d: %s", r.code, r.stderr)
			}
			q = run(env, "query", "--json", "--mode", "bm25", "owl kestrel")
			if q.code != 0 || !strings.Contains(q.stdout, "kestrel hovers") || strings.Contains(q.stdout, "owl hunts") {
				t.Fatalf("after converging: exit %d\n%s", q.code, q.stdout)
			}
			if v := run(env, "index", "verify"); v.code != 0 {
				t.Fatalf("index verify: exit %d: %s%s", v.code, v.stdout, v.stderr)
			}
		})
	}
}
