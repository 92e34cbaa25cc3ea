package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// bm25Paths returns the paths a BM25 query finds.
func bm25Paths(t *testing.T, root, text string) []string {
	t.Helper()
	m := mustOK(t, "--root", root, "query", "--json", "--mode", "bm25", "-k", "1000", text).json(t)
	var out []string
	for _, x := range m["results"].([]any) {
		out = append(out, x.(map[string]any)["path"].(string))
	}
	return out
}

func failures(m map[string]any) map[string]string {
	out := map[string]string{}
	for _, f := range m["failures"].([]any) {
		f := f.(map[string]any)
		out[f["path"].(string)] = f["reason"].(string)
	}
	return out
}

// TestTargetedPathsFromSubdirectory runs `refresh --paths a.txt` from
// sub/: the path is sub/a.txt, as a shell user means it.
func TestTargetedPathsFromSubdirectory(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	writeFile(t, root, "sub/a.txt", "the axolotl sleeps under the bridge\n")
	r := cliIn(t, filepath.Join(root, "sub"), nil, "--root", root, "refresh", "--json", "--paths", "a.txt")
	if r.code != 0 {
		t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	if m := r.json(t); m["outcome"] != "updated" || num(m, "added") != 1 {
		t.Fatalf("refresh --paths a.txt from sub/: outcome %v added %d, want updated 1", m["outcome"], num(m, "added"))
	}
	if diff := cmp.Diff([]string{"sub/a.txt"}, bm25Paths(t, root, "axolotl")); diff != "" {
		t.Errorf("query (-want +got):\n%s", diff)
	}
}

// TestTargetedPathGoneIsDeletion names a removed file and a removed
// directory: whatever was indexed under each leaves the index.
func TestTargetedPathGoneIsDeletion(t *testing.T) {
	root := copyCorpus(t)
	writeFile(t, root, "gone.txt", "the pangolin file\n")
	writeFile(t, root, "olddir/x.txt", "the pangolin in a directory\n")
	writeFile(t, root, "olddir/deep/y.txt", "another pangolin, deeper\n")
	refreshJSON(t, root)
	if got := bm25Paths(t, root, "pangolin"); len(got) != 3 {
		t.Fatalf("before: %v", got)
	}
	for _, p := range []string{"gone.txt", "olddir"} {
		if err := os.RemoveAll(filepath.Join(root, p)); err != nil {
			t.Fatal(err)
		}
	}
	r := cliIn(t, root, nil, "refresh", "--json", "--paths", "gone.txt", "--paths", "olddir")
	if r.code != 0 {
		t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	m := r.json(t)
	if num(m, "deleted") != 3 || len(failures(m)) != 0 {
		t.Fatalf("deleted %d failures %v, want 3 and none", num(m, "deleted"), m["failures"])
	}
	if got := bm25Paths(t, root, "pangolin"); len(got) != 0 {
		t.Errorf("still found after deletion: %v", got)
	}
}

// TestTargetedPathOutsideRootIsUsage: exit 2, nothing changed.
func TestTargetedPathOutsideRootIsUsage(t *testing.T) {
	root := copyCorpus(t)
	before := refreshJSON(t, root)
	outside := filepath.Join(t.TempDir(), "x.txt")
	writeFile(t, filepath.Dir(outside), "x.txt", "outside\n")
	for _, p := range []string{outside, filepath.Join("..", filepath.Base(root)+"-not", "y.txt")} {
		r := cliIn(t, root, nil, "refresh", "--json", "--paths", "notes", "--paths", p)
		if r.code != 2 {
			t.Errorf("--paths %s: exit %d, want 2\n%s%s", p, r.code, r.stdout, r.stderr)
			continue
		}
		if e := r.json(t)["error"].(map[string]any); e["code"] != "usage" {
			t.Errorf("--paths %s: error %v, want code usage", p, e)
		}
	}
	if after := refreshJSON(t, root); after["generation"] != before["generation"] {
		t.Errorf("generation moved %v -> %v", before["generation"], after["generation"])
	}
}

// TestTargetedPathFailuresListed: every named path the refresh cannot use
// is in failures, with why.
func TestTargetedPathFailuresListed(t *testing.T) {
	root := copyCorpus(t)
	writeFile(t, root, ".gitignore", "*.log\n")
	writeFile(t, root, "build.log", "ignored\n")
	writeFile(t, root, "pic.png", "not really a png\n")
	writeFile(t, root, ".git/config", "[core]\n")
	writeFile(t, root, "ok.txt", "the ocelot\n")
	refreshJSON(t, root)
	m := refreshJSON(t, root, "--paths", filepath.Join(root, "build.log"), filepath.Join(root, "pic.png"),
		filepath.Join(root, ".git", "config"), "--paths", filepath.Join(root, "ok.txt"))
	want := map[string]string{"build.log": "ignored", "pic.png": "unsupported file type", ".git/config": "inside .git or .autorag"}
	if diff := cmp.Diff(want, failures(m)); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}
	if num(m, "failed") != 3 {
		t.Errorf("failed = %d, want 3", num(m, "failed"))
	}
}
