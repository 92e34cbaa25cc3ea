package main

import (
	"strings"
	"testing"
)

// TestHintsFitTheCommand checks that each failure's hint is about what the
// command handles (issue 37 item 7): no index says which folder to
// refresh; a failed model download names the offline way in and not the
// index's verify and rebuild, which it never touched.
func TestHintsFitTheCommand(t *testing.T) {
	root := t.TempDir()
	r := cli(t, nil, "--root", root, "query", "heron")
	if r.code != 2 || !strings.Contains(r.stderr, "autorag: hint: run `autorag refresh` to index "+root) {
		t.Errorf("query without an index: exit %d, stderr %q; want 2 and a hint naming the root", r.code, r.stderr)
	}
	env := []string{"AUTORAG_MODELS_DIR=" + t.TempDir(), "AUTORAG_HUB_URL=http://127.0.0.1:1"}
	r = cli(t, env, "--root", root, "models", "pull", "all-minilm-l6-v2-q")
	if r.code != 3 || !strings.Contains(r.stderr, "autorag: hint:") || !strings.Contains(r.stderr, "autorag models add PATH") ||
		strings.Contains(r.stderr, "index verify") || strings.Contains(r.stderr, "committed index") {
		t.Errorf("models pull from an unreachable hub: exit %d, stderr %q; want 3 and the models hint only", r.code, r.stderr)
	}
	r = cli(t, env, "--json", "--root", root, "status")
	if m := r.json(t); m["error"].(map[string]any)["hint"] == nil {
		t.Errorf("status --json without an index has no hint: %s", r.stdout)
	}
}

// TestMessagesSayWhatHappened checks the small things a new user read
// wrong (issue 37 item 8): counts agree with their nouns, status names
// the refresh that committed the index (not a later one that found
// nothing), and models list gives the size a pull fetches.
func TestMessagesSayWhatHappened(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a.md", "# Heron\n\nThe heron fishes.\n")
	r := mustOK(t, "--root", root, "refresh")
	if !strings.Contains(r.stdout, "1 file, 1 chunk") || !strings.Contains(r.stdout, "1 file / 1 chunk indexed") {
		t.Errorf("refresh of one file says %q", r.stdout)
	}
	mustOK(t, "--root", root, "refresh")
	st := mustOK(t, "--root", root, "status")
	if !strings.Contains(st.stdout, "last commit: rebuilt at ") || strings.Contains(st.stdout, "last refresh:") {
		t.Errorf("status after a rebuild and a no-op refresh says %q", st.stdout)
	}
	env := []string{"AUTORAG_MODELS_DIR=" + t.TempDir()}
	ls := cli(t, env, "models", "list")
	if ls.code != 0 || strings.Contains(ls.stdout, "0.0 MB") || !strings.Contains(ls.stdout, "MB to fetch") {
		t.Errorf("models list of an empty cache: exit %d, %q", ls.code, ls.stdout)
	}
}
