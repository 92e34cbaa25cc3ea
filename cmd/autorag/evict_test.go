package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// builtinLogSize is the size of the built-in embedder's vectors.log in
// root's embedding cache (the directory whose log header names it).
func builtinLogSize(t *testing.T, root string) int64 {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(root, ".autorag", "cache", "embeddings", "*", "vectors.log"))
	for _, p := range dirs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b[:min(len(b), 256)], []byte("local/")) {
			return int64(len(b))
		}
	}
	t.Fatalf("no built-in embedder's log among %v", dirs)
	return 0
}

// TestEvictionKeepsUpgradeTarget, through real processes with the cache
// capped by AUTORAG_EMBED_CACHE_BYTES: an upgrade killed after its first
// group keeps the vectors it finished even when a first-stage refresh
// (built-in embedder) finds the cache over its cap and evicts (the
// built-in vectors of a deleted file go); the resumed upgrade embeds only
// the rest.
func TestEvictionKeepsUpgradeTarget(t *testing.T) {
	f := newFakeOllama(t, 8)
	env := providerEnv(f, "AUTORAG_EMBED_CACHE_BYTES=1")
	root := stagedTree(t, 30)
	if r := cli(t, env, "--root", root, "refresh", "--no-wait"); r.code != 0 {
		t.Fatalf("refresh --no-wait: exit %d\n%s", r.code, r.stderr)
	}
	killed := cli(t, append(env, "AUTORAG_FAILPOINT=upgrade-group:kill"), "--root", root, "upgrade")
	if killed.code != -1 {
		t.Fatalf("upgrade with the kill failpoint: exit %d, want killed\n%s", killed.code, killed.stderr)
	}
	before := statusUpgrade(t, root, env)
	done := num(before, "done")
	if done < 64 || num(before, "total") <= done {
		t.Fatalf("after SIGKILL: %v, want the first group of 64 kept and more to do", before)
	}
	logBefore := builtinLogSize(t, root)
	if err := os.Remove(filepath.Join(root, "notes", "n029.md")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "edit.md", "# Edit\nA new note while the upgrade waits.\n")
	if r := cli(t, env, "--root", root, "refresh", "--no-wait"); r.code != 0 {
		t.Fatalf("first-stage refresh of an edit: exit %d\n%s", r.code, r.stderr)
	}
	if got := builtinLogSize(t, root); got >= logBefore {
		t.Fatalf("the built-in embedder's log grew %d -> %d bytes: the refresh over the cap evicted nothing", logBefore, got)
	}
	after := statusUpgrade(t, root, env)
	if num(after, "done") < done {
		t.Fatalf("after a first-stage refresh over the cache's cap: %v, had %d finished vectors", after, done)
	}
	r := cli(t, env, "--root", root, "upgrade", "--json")
	if r.code != 0 {
		t.Fatalf("resumed upgrade: exit %d\n%s", r.code, r.stderr)
	}
	if got, most := num(r.json(t), "chunks_embedded"), num(after, "total")-done; got > most {
		t.Fatalf("resumed upgrade embedded %d chunks, want at most the %d the first group left", got, most)
	}
}
