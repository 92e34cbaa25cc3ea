package main

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/autorag/autorag/agentapi"
)

// TestDuplicateRootsAreOne: a root named thrice, once through a symlink,
// is served once (every hit was listed three times); the workspace file
// refuses a second name for a directory it lists through a link.
func TestDuplicateRootsAreOne(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	parent := t.TempDir()
	a := filepath.Join(parent, "alpha")
	writeFile(t, a, "heron.md", "# Herons\n\nThe heron fishes at dawn.\n")
	refreshJSON(t, a)
	link := filepath.Join(parent, "alink")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, "serve", "--root", a, "--root", link, "--root", a, "--addr", "127.0.0.1:0")
	var got agentapi.SearchAnswer
	if code := getJSON(t, http.DefaultClient, s.base+"/v1/search?"+url.Values{"q": {"heron"}}.Encode(), &got); code != 200 {
		t.Fatalf("search: %d %+v", code, got)
	}
	if len(got.Roots) != 1 || len(got.Results) != 1 {
		t.Errorf("one root named three times: %d roots, %d results: %+v", len(got.Roots), len(got.Results), got.Roots)
	}
	mustOK(t, "workspace", "add", a)
	if r := cli(t, nil, "workspace", "add", link, "--name", "again"); r.code != exitUsage {
		t.Errorf("adding a root again through a link: exit %d %s", r.code, r.stderr)
	}
}
