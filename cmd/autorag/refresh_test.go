package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// probeQueries exercise prose, identifiers and rare terms.
var probeQueries = []string{
	"retry with exponential backoff",
	"database migration rollback",
	"rotate JWT signing keys",
	"least recently used cache eviction",
	"rate limiter token bucket",
	"tokenizer",
	"deploy script",
	"configuration",
	"error handling",
	"quokka lighthouse",
}

// answers runs every probe query and returns what a user would see:
// rank, path, chunk, lines and the exact score. It reads the index itself
// (--no-cache): the callers compare indexes, and while the sidecar stays
// put (a crash before the commit, a writer still building) a cached run
// would only replay the answers stored before, without opening anything.
func answers(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	for _, q := range probeQueries {
		m := mustOK(t, "--root", root, "query", "--json", "--no-cache", "-k", "8", "--per-file", "2", q).json(t)
		for _, r := range m["results"].([]any) {
			r := r.(map[string]any)
			out = append(out, fmt.Sprintf("%s | %v %s#%v %v %.12g", q, r["rank"], r["path"], r["chunk"], r["lines"], r["score"]))
		}
	}
	return out
}

func TestNoopRefreshReadsNothing(t *testing.T) {
	root := copyCorpus(t)
	first := refreshJSON(t, root)
	if first["outcome"] != "rebuilt" {
		t.Fatalf("first refresh outcome = %v, want rebuilt", first["outcome"])
	}
	second := refreshJSON(t, root)
	if second["outcome"] != "unchanged" {
		t.Fatalf("second refresh outcome = %v, want unchanged", second["outcome"])
	}
	if num(second, "stat_skipped") != num(second, "scanned") || num(second, "hashed") != 0 {
		t.Errorf("no-op refresh read files: scanned %d, stat_skipped %d, hashed %d",
			num(second, "scanned"), num(second, "stat_skipped"), num(second, "hashed"))
	}
	if second["generation"] != first["generation"] || second["fingerprint"] != first["fingerprint"] {
		t.Errorf("no-op refresh changed generation %v -> %v", first["generation"], second["generation"])
	}
}

func TestTouchAndEdit(t *testing.T) {
	root := copyCorpus(t)
	writeFile(t, root, "notes/extra.md", "# Extra\n\nThe quokka lives near the lighthouse.\n")
	first := refreshJSON(t, root)

	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(root, "notes", "extra.md"), future, future); err != nil {
		t.Fatal(err)
	}
	touched := refreshJSON(t, root)
	if touched["outcome"] != "unchanged" || num(touched, "hashed") != 1 || touched["generation"] != first["generation"] {
		t.Fatalf("touch: outcome %v, hashed %d, generation %v (was %v); want unchanged, 1, same",
			touched["outcome"], num(touched, "hashed"), touched["generation"], first["generation"])
	}
	again := refreshJSON(t, root)
	if num(again, "hashed") != 0 {
		t.Errorf("the touched mtime was not stored: next refresh hashed %d files", num(again, "hashed"))
	}

	writeFile(t, root, "notes/extra.md", "# Extra\n\nThe quokka moved to the harbour.\n")
	edited := refreshJSON(t, root)
	if edited["outcome"] != "updated" || edited["generation"] == first["generation"] {
		t.Fatalf("edit: outcome %v generation %v, want updated and a new generation", edited["outcome"], edited["generation"])
	}
	if num(edited, "files_indexed") != 1 || num(edited, "modified") != 1 || num(edited, "hashed") != 1 {
		t.Errorf("edit re-indexed %d files (modified %d, hashed %d), want exactly the one edited",
			num(edited, "files_indexed"), num(edited, "modified"), num(edited, "hashed"))
	}
	m := mustOK(t, "--root", root, "query", "--json", "quokka harbour").json(t)
	res := m["results"].([]any)
	if len(res) == 0 || res[0].(map[string]any)["path"] != "notes/extra.md" {
		t.Fatalf("query after edit: %v", m["results"])
	}
}

// TestIncrementalEqualsRebuild is the differential test: after sequences
// of add, modify, delete and rename, the incrementally updated index
// answers exactly like a fresh build of the same tree.
func TestIncrementalEqualsRebuild(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	steps := []func(){
		func() { writeFile(t, root, "notes/a.md", "# Alpha\n\nRetry with exponential backoff and a quokka.\n") },
		func() { writeFile(t, root, "notes/b.txt", strings.Repeat("deploy script configuration line\n", 200)) },
		func() { writeFile(t, root, "notes/a.md", "# Alpha v2\n\nThe lighthouse keeps the tokenizer warm.\n") },
		func() { renameFile(t, root, "notes/b.txt", "notes/moved/b.txt") },
		func() { removeFirstMarkdown(t, root) },
		func() {
			writeFile(t, root, "notes/c.go", "package c\n\n// LRU cache eviction of the least recently used entry.\nfunc Evict() {}\n")
			renameFile(t, root, "notes/a.md", "notes/a2.md")
		},
	}
	for i, step := range steps {
		step()
		r := refreshJSON(t, root)
		if r["outcome"] != "updated" {
			t.Fatalf("step %d: outcome %v, want updated", i, r["outcome"])
		}
		incremental := answers(t, root)
		fresh := copyTree(t, root)
		refreshJSON(t, fresh)
		if diff := cmp.Diff(answers(t, fresh), incremental); diff != "" {
			t.Fatalf("step %d: incremental index answers differently from a fresh build (-fresh +incremental):\n%s", i, diff)
		}
	}
}

func TestRenameIsRecognised(t *testing.T) {
	root := copyCorpus(t)
	writeFile(t, root, "notes/r.md", "# R\n\nA note about quokkas and lighthouses.\n")
	refreshJSON(t, root)
	renameFile(t, root, "notes/r.md", "notes/renamed.md")
	r := refreshJSON(t, root)
	if num(r, "renamed") != 1 || num(r, "added") != 0 || num(r, "deleted") != 0 || num(r, "parsed") != 0 {
		t.Fatalf("rename: renamed %d added %d deleted %d parsed %d, want 1 0 0 0", num(r, "renamed"), num(r, "added"), num(r, "deleted"), num(r, "parsed"))
	}
}

func TestTargetedRefresh(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	writeFile(t, root, "notes/t.md", "# T\n\nA wombat in the lighthouse.\n")
	writeFile(t, root, "notes/u.md", "# U\n\nAnother wombat, not refreshed yet.\n")
	// --paths are relative to the working directory: run from the root.
	r := mustOKIn(t, root, "--root", root, "refresh", "--json", "--paths", "notes/t.md").json(t)
	if r["outcome"] != "updated" || num(r, "scanned") != 1 || num(r, "added") != 1 {
		t.Fatalf("targeted refresh: outcome %v scanned %d added %d", r["outcome"], num(r, "scanned"), num(r, "added"))
	}
	m := mustOK(t, "--root", root, "query", "--json", "--mode", "bm25", "wombat").json(t)
	var paths []string
	for _, x := range m["results"].([]any) {
		paths = append(paths, x.(map[string]any)["path"].(string))
	}
	if diff := cmp.Diff([]string{"notes/t.md"}, paths); diff != "" {
		t.Fatalf("targeted refresh indexed other files (-want +got):\n%s", diff)
	}
	full := refreshJSON(t, root)
	if num(full, "added") != 1 {
		t.Errorf("full refresh after targeted: added %d, want 1 (notes/u.md)", num(full, "added"))
	}
}

func renameFile(t *testing.T, root, from, to string) {
	t.Helper()
	dst := filepath.Join(root, filepath.FromSlash(to))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, filepath.FromSlash(from)), dst); err != nil {
		t.Fatal(err)
	}
}

func removeFirstMarkdown(t *testing.T, root string) {
	t.Helper()
	var mds []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") && !strings.Contains(p, ".autorag") {
			mds = append(mds, p)
		}
		return nil
	})
	sort.Strings(mds)
	if len(mds) == 0 {
		t.Fatal("no markdown file to remove")
	}
	if err := os.Remove(mds[0]); err != nil {
		t.Fatal(err)
	}
}

// copyTree copies root without its .autorag directory.
func copyTree(t *testing.T, root string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() && d.Name() == ".autorag" {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&os.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(l, target)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
