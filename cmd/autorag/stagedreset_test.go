package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestResetStopsUpgrade: `index reset` while an upgrader runs (in another
// process) ends the upgrade: the upgrader stops, saying why, and commits
// nothing, so the root stays reset (nothing indexed); the next plain
// refresh follows the settings (the built-in embedder here: the
// transformer was only asked for by a flag) and no upgrade is due after it.
func TestResetStopsUpgrade(t *testing.T) {
	root := stagedTree(t, 30)
	r := cli(t, nil, "--root", root, "refresh", "--no-wait", "--embedder", "transformer", "--model", "all-minilm-l6-v2-q")
	if r.code != 0 {
		t.Fatalf("refresh --no-wait: exit %d\n%s", r.code, r.stderr)
	}
	wait := startCLI(t, []string{"AUTORAG_FAILPOINT=upgrade-group:delay=2s"}, "--root", root, "upgrade")
	deadline := time.Now().Add(waitLimit)
	for up := statusUpgrade(t, root, nil); up == nil || num(up, "done") < 64; up = statusUpgrade(t, root, nil) {
		if up == nil || time.Now().After(deadline) {
			t.Fatalf("the upgrade did not advance: %v", up)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r := cli(t, nil, "--root", root, "index", "reset", "--yes"); r.code != 0 {
		t.Fatalf("index reset: exit %d\n%s", r.code, r.stderr)
	}
	up := wait()
	if up.code != exitUsage || !strings.Contains(up.stderr, "the index was reset during the upgrade") || !strings.Contains(up.stderr, "run `autorag refresh`") {
		t.Errorf("the upgrader after the reset: exit %d, stderr %q; want exit 2 (no index), saying the index was reset and to refresh", up.code, up.stderr)
	}
	t.Logf("the upgrader after the reset: exit %d, stderr %q", up.code, up.stderr)
	if _, err := os.Stat(filepath.Join(root, ".autorag", "fingerprint.json")); err == nil {
		t.Fatalf("a generation was committed after the reset (upgrader stderr %q)", up.stderr)
	}
	r = cli(t, nil, "--root", root, "refresh", "--json")
	if r.code != 0 {
		t.Fatalf("refresh after the reset: exit %d\n%s", r.code, r.stderr)
	}
	if env := r.json(t); !strings.HasPrefix(env["embedder"].(string), "local/") || env["upgrade"] != nil {
		t.Fatalf("refresh after the reset: embedder %v, upgrade %v; want the built-in embedder the settings name and no upgrade due", env["embedder"], env["upgrade"])
	}
	if up := statusUpgrade(t, root, nil); up != nil {
		t.Fatalf("status after the reset and a refresh shows an upgrade: %v", up)
	}
}

// cacheFilesLeft lists the files under root's .autorag/cache but the lock
// files, which a reset keeps (cache.RemoveAll).
func cacheFilesLeft(t *testing.T, root string) []string {
	t.Helper()
	var left []string
	dir := filepath.Join(root, ".autorag", "cache")
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() != "writer.lock" && d.Name() != ".lock" {
			rel, _ := filepath.Rel(dir, p)
			left = append(left, rel)
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return left
}

// TestResetDuringGroupLeavesNoCache: `index reset` while the upgrader
// waits for its first group's vectors (a slow provider) leaves no
// embedding cache behind: the upgrader, stopping at the reset, does not
// write the group it finishes into the reset index's cache.
func TestResetDuringGroupLeavesNoCache(t *testing.T) {
	f := newFakeOllama(t, 8)
	env := providerEnv(f, "OPENAI_EMBEDDING_BATCH_SIZE=64", "OPENAI_EMBEDDING_CONCURRENCY=1")
	root := stagedTree(t, 30)
	if r := cli(t, env, "--root", root, "refresh", "--no-wait"); r.code != 0 {
		t.Fatalf("refresh --no-wait: exit %d\n%s", r.code, r.stderr)
	}
	requests := func() (n int) { f.set(func(f *fakeOllama) { n = f.requests }); return n }
	before := requests()
	f.set(func(f *fakeOllama) { f.delay = 1500 * time.Millisecond })
	wait := startCLI(t, env, "--root", root, "upgrade")
	deadline := time.Now().Add(waitLimit)
	for requests() == before {
		if time.Now().After(deadline) {
			t.Fatal("the upgrader sent no group")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r := cli(t, nil, "--root", root, "index", "reset", "--yes"); r.code != 0 {
		t.Fatalf("index reset: exit %d\n%s", r.code, r.stderr)
	}
	if left := cacheFilesLeft(t, root); len(left) > 0 {
		t.Fatalf("index reset left %v in the cache", left)
	}
	if up := wait(); up.code != exitUsage || !strings.Contains(up.stderr, "the index was reset during the upgrade") {
		t.Fatalf("the upgrader after the reset: exit %d, stderr %q; want exit 2, the index was reset", up.code, up.stderr)
	}
	if left := cacheFilesLeft(t, root); len(left) > 0 {
		t.Fatalf("the upgrader stopped by the reset left %v in the reset index's cache", left)
	}
}
