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
