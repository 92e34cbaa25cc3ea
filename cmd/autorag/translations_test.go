package main

import (
	"path/filepath"
	"testing"
)

// The copy of a page in the query's language is shown even when the
// ranking never reached it (issue 37 item 3): testdata/translations keeps
// FastAPI's layout (docs/en/docs/..., docs/de/docs/...), and its German
// docker page ranks first for an English query while the English one ranks
// third, past -k 2. The English page is shown in its place, the German one
// in also_in; a German query keeps the German page.
func TestCopyInQueryLanguageSwappedIn(t *testing.T) {
	root := copyTree(t, filepath.Join("..", "..", "testdata", "translations"))
	refreshJSON(t, root)
	for _, tt := range []struct {
		mode, query, want, also string
	}{
		{"bm25", "TLS termination proxy https certificate", "docs/en/docs/deployment/docker.md", "docs/de/docs/deployment/docker.md"},
		{"hybrid", "TLS termination proxy https certificate", "docs/en/docs/deployment/docker.md", "docs/de/docs/deployment/docker.md"},
		{"bm25", "der Proxy erneuert das Zertifikat für HTTPS", "docs/de/docs/deployment/docker.md", ""},
		{"hybrid", "der Proxy erneuert das Zertifikat für HTTPS", "docs/de/docs/deployment/docker.md", ""},
	} {
		res := mustOK(t, "--root", root, "query", "--json", "--no-cache", "--mode", tt.mode, "-k", "2", tt.query).json(t)["results"].([]any)
		first := res[0].(map[string]any)
		var also []string
		for _, a := range asList(first["also_in"]) {
			also = append(also, a.(map[string]any)["path"].(string))
		}
		if first["path"] != tt.want || tt.also != "" && (len(also) != 1 || also[0] != tt.also) {
			t.Errorf("%s %q: first result %v (also in %v), want %s (also in %q)", tt.mode, tt.query, first["path"], also, tt.want, tt.also)
		}
		for _, r := range res[1:] {
			if p := r.(map[string]any)["path"]; p == first["path"] {
				t.Errorf("%s %q: %s is listed twice", tt.mode, tt.query, p)
			}
		}
	}
}
