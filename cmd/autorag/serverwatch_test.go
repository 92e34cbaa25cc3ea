package main

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/autorag/autorag/envelope"
)

// TestServeWatchKeepsIndexLive: with --watch, a file written while the
// server runs becomes searchable through the server with no refresh
// request, and a deleted one leaves its answers; the server still stops
// cleanly on SIGTERM and the index verifies.
func TestServeWatchKeepsIndexLive(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	s := startServer(t, "--root", root, "serve", "--addr", "127.0.0.1:0", "--watch", "--debounce", "50ms")
	search := func(q string) []string {
		var env envelope.Query
		getJSON(t, http.DefaultClient, s.base+"/v1/search?"+url.Values{"q": {q}, "mode": {"bm25"}}.Encode(), &env)
		var paths []string
		for _, r := range env.Results {
			paths = append(paths, r.Path)
		}
		return paths
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if ok() {
				return
			}
		}
		t.Fatalf("the server never saw %s", what)
	}
	const word = "quokkazebra"
	p := filepath.Join(root, "notes", "live.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("# Live\n\nThe "+word+" lives here.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor("the new file", func() bool { return strings.Join(search(word), ",") == "notes/live.md" })
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	waitFor("the deletion", func() bool { return len(search(word)) == 0 })
	if code := s.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit %d after SIGTERM, want 0", code)
	}
	mustOK(t, "--root", root, "index", "verify")
}
