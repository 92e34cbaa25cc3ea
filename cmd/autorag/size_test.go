package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// status and refresh report what the index takes on disk beside the
// source it indexes (issue 37 item 5): the committed generation's files
// (the sidecar's artifacts, by part) over the indexed files' bytes.
func TestSizeReported(t *testing.T) {
	root := copyCorpus(t)
	res := refreshJSON(t, root)
	var source int64
	for _, en := range mustOK(t, "--root", root, "status", "--json").json(t)["size"].(map[string]any)["index_parts"].(map[string]any) {
		if en.(float64) <= 0 {
			t.Errorf("an index part of no bytes: %v", res["size"])
		}
	}
	// the corpus's files but those its ignore files leave out, and a binary
	notIndexed := map[string]bool{".autoragignore": true, ".gitignore": true, "build/output.txt": true, "debug.log": true,
		"logs/worker.log": true, "notes/drafts/wip-search-ranking.md": true, "assets/logo.bin": true}
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() && d.Name() == ".autorag" {
			return filepath.SkipDir
		}
		if info, err := d.Info(); err == nil && d.Type().IsRegular() && !notIndexed[filepath.ToSlash(rel)] {
			source += info.Size()
		}
		return nil
	})
	b, err := os.ReadFile(filepath.Join(root, ".autorag", "fingerprint.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sc struct{ Artifacts []struct{ Size int64 } }
	if err := json.Unmarshal(b, &sc); err != nil {
		t.Fatal(err)
	}
	var index int64
	for _, a := range sc.Artifacts {
		index += a.Size
	}
	for name, env := range map[string]map[string]any{"refresh": res, "status": mustOK(t, "--root", root, "status", "--json").json(t)} {
		size, _ := env["size"].(map[string]any)
		if size == nil {
			t.Fatalf("%s --json has no size: %v", name, env)
		}
		if got := int64(size["index_bytes"].(float64)); got != index {
			t.Errorf("%s: index_bytes %d, want the artifacts' %d", name, got, index)
		}
		if got := int64(size["source_bytes"].(float64)); got != source {
			t.Errorf("%s: source_bytes %d, want the tree's %d", name, got, source)
		}
		if r := size["index_per_source"].(float64); r != float64(index)/float64(source) {
			t.Errorf("%s: index_per_source %v", name, r)
		}
		if size["total_bytes"].(float64) < size["index_bytes"].(float64)+size["mirror_bytes"].(float64)+size["cache_bytes"].(float64) {
			t.Errorf("%s: total below its parts: %v", name, size)
		}
	}
	if out := mustOK(t, "--root", root, "status").stdout; !strings.Contains(out, "size:        index ") || !strings.Contains(out, "bytes per source byte") {
		t.Errorf("status text says no size:\n%s", out)
	}
	if out := mustOK(t, "--root", root, "index", "rebuild").stdout; !strings.Contains(out, "bytes per source byte") {
		t.Errorf("refresh summary says no size:\n%s", out)
	}
}
