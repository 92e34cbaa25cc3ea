package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/autorag/autorag/models"
)

// TestURLSecretsNeverShownOrStored: secrets written in a URL (user-info,
// ?api_key=) appear in no output, no error and no file under .autorag,
// for every URL autorag prints or stores: the rerank endpoint (--explain,
// errors, the query cache), OPENAI_BASE_URL (autorag config), the model
// hub (models pull errors).
func TestURLSecretsNeverShownOrStored(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "keys.md", "# Keys\nRotate the signing keys.\n")
	writeFile(t, root, "pasta.md", "# Dinner\nThe pasta is cooked while you rotate the keys.\n")
	if r := cli(t, nil, "--root", root, "refresh", "--embedder", "none"); r.code != 0 {
		t.Fatalf("refresh: %d %s", r.code, r.stderr)
	}
	var calls atomic.Int32
	host := strings.TrimPrefix(teiServer(t, &calls).URL, "http://")
	check := func(what string, r result) {
		t.Helper()
		if strings.Contains(r.stdout+r.stderr, "sk-") {
			t.Errorf("%s shows a secret (exit %d):\n%s%s", what, r.code, r.stdout, r.stderr)
		}
	}
	for _, u := range []string{
		"http://user:sk-userinfo@" + host + "/rerank?api_key=sk-param",
		"http://user:sk-userinfo@127.0.0.1:1/rerank?api_key=sk-param", // refused
	} {
		env := []string{"AUTORAG_RERANK_URL=" + u}
		check("query --rerank --explain", cli(t, env, "--root", root, "query", "--explain", "--rerank", "rotate keys"))
		check("query --rerank --json", cli(t, env, "--root", root, "query", "--json", "--rerank", "rotate keys"))
	}
	if calls.Load() == 0 {
		t.Error("the reranker was never called")
	}
	filepath.WalkDir(filepath.Join(root, ".autorag"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), "sk-") {
				t.Errorf("%s stores a secret", p)
			}
		}
		return nil
	})
	openaiEnv := []string{"OPENAI_BASE_URL=http://u:sk-password@127.0.0.1:1/v1", "OPENAI_API_KEY=sk-key"}
	check("config", cli(t, openaiEnv, "--root", root, "config", "--embedder", "openai"))
	check("config --json", cli(t, openaiEnv, "--root", root, "--json", "config", "--embedder", "openai"))
	hubEnv := []string{"AUTORAG_HUB_URL=http://sk-hubtoken@127.0.0.1:1", "AUTORAG_MODELS_DIR=" + t.TempDir()}
	r := cli(t, hubEnv, "models", "pull", models.Default)
	if r.code == 0 {
		t.Fatalf("a pull from a closed port succeeded")
	}
	check("models pull", r)
}
