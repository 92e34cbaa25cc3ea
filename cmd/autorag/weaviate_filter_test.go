package main

import (
	"slices"
	"testing"
)

// TestWeaviateFiltersCLI runs `autorag query --backend weaviate --filter
// --type --json` across processes: the per-entry attachment cases of the
// local backend give the same answers on the cluster, a filter matching
// nothing answers no results, and --type finds one file type among mixed
// ones.
func TestWeaviateFiltersCLI(t *testing.T) {
	url, shape := weaviateURL(t)
	env := []string{"AUTORAG_WEAVIATE_URL=" + url}
	root := mailFiles(t)
	writeFile(t, root, "src/rotate.go", "package src\n\n// Rotate renews the certificate before the quarterly report.\nfunc Rotate() {}\n")
	run := func(args ...string) result {
		t.Helper()
		r := cli(t, env, append([]string{"--root", root}, args...)...)
		if r.code != 0 {
			t.Fatalf("autorag %v: exit %d\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
		}
		return r
	}
	t.Cleanup(func() { cli(t, env, "--root", root, "index", "reset", "--yes") })
	run(append([]string{"refresh", "--json", "--backend", "weaviate"}, shape...)...)
	for _, mode := range []string{"hybrid", "bm25"} {
		t.Run(mode, func(t *testing.T) { checkAttachmentFilters(t, root, mode, env) })
	}
	for _, mode := range []string{"hybrid", "bm25", "vector"} {
		if got := resultPaths(t, run("query", "--json", "--mode", mode, "--type", "code", "certificate quarterly report")); !slices.Equal(got, []string{"src/rotate.go"}) {
			t.Errorf("--type code, %s: %v, want src/rotate.go only", mode, got)
		}
		r := run("query", "--json", "--mode", mode, "--filter", "author=nobody at all", "certificate")
		if got := r.json(t)["results"].([]any); len(got) != 0 {
			t.Errorf("a filter matching nothing, %s: %v", mode, got)
		}
	}
	if r := cli(t, env, "--root", root, "query", "--type", "spreadsheet", "certificate"); r.code != 2 {
		t.Errorf("unknown --type: exit %d, want 2\n%s", r.code, r.stderr)
	}
}
