package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autorag/autorag/agentapi"
)

// TestReplacedRootIsRefused: a root moved away and replaced by a symlink
// to another directory while a server runs is refused, never followed:
// searches, reads and refreshes of it fail, and nothing is written in the
// directory the link leads to.
func TestReplacedRootIsRefused(t *testing.T) {
	parent := t.TempDir()
	c, d, a := filepath.Join(parent, "cee"), filepath.Join(parent, "dee"), filepath.Join(parent, "alpha")
	writeFile(t, c, "c.md", "# C\n\nThe heron of cee.\n")
	writeFile(t, a, "a.md", "# A\n\nThe heron of alpha.\n")
	writeFile(t, d, "d.md", "# D\n\nThe heron of dee, secretword.\n")
	refreshJSON(t, c)
	refreshJSON(t, a)
	s := startServer(t, "serve", "--root", c, "--root", a, "--addr", "127.0.0.1:0")
	if err := os.Rename(c, c+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(d, c); err != nil {
		t.Fatal(err)
	}
	var got agentapi.SearchAnswer
	getJSON(t, http.DefaultClient, s.base+"/v1/search?"+url.Values{"q": {"heron secretword"}}.Encode(), &got)
	for _, h := range got.Results {
		if h.Root == "cee" {
			t.Errorf("a result of the replaced root: %+v", h)
		}
	}
	if len(got.Roots) != 2 || got.Roots[0].OK || got.Roots[0].Error == nil || !got.Roots[1].OK {
		t.Errorf("search: %+v", got.Roots)
	}
	var read map[string]any
	if code := getJSON(t, http.DefaultClient, s.base+"/v1/read?"+url.Values{"root": {"cee"}, "path": {"d.md"}}.Encode(), &read); code == 200 {
		t.Errorf("read of d.md through the replaced root: %d %v", code, read)
	}
	res, err := http.Post(s.base+"/v1/refresh", "application/json", bytes.NewReader([]byte(`{"root":"cee"}`)))
	if err != nil {
		t.Fatal(err)
	}
	var ref map[string]any
	json.NewDecoder(res.Body).Decode(&ref)
	res.Body.Close()
	if res.StatusCode == 200 || !strings.Contains(ref["error"].(map[string]any)["message"].(string), "no longer") {
		t.Errorf("refresh of the replaced root: %d %v", res.StatusCode, ref)
	}
	if _, err := os.Lstat(filepath.Join(d, ".autorag")); err == nil {
		t.Error("a refresh wrote an index into the directory the link leads to")
	}
}
