package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/autorag/autorag/engine/backend/weaviate"
)

// weaviateOwn runs the Weaviate backend through the CLI against the
// cluster at AUTORAG_WEAVIATE_URL: two machines indexing the same root
// path into one cluster (simulated by two .autorag states of one root),
// a root whose local state was removed, and collections dropped behind
// the index's back. Each state answers from its own documents only, and
// every refresh succeeds.
func (h *harness) weaviateOwn(url string) outcome {
	o := outcome{Scenario: "weaviate × (one root path on two machines, local state removed, collections dropped behind its back)"}
	if url == "" {
		o.Skipped = "AUTORAG_WEAVIATE_URL not set (make weaviate-up)"
		return o
	}
	env := []string{"AUTORAG_BACKEND=weaviate", "AUTORAG_WEAVIATE_URL=" + url}
	root, err := os.MkdirTemp(h.work, "weaviate-")
	if err != nil {
		o.fail("setup: %v", err)
		return o
	}
	defer os.RemoveAll(root)
	one := root + "-machine-one"
	defer func() { // drop what both states made
		h.cli.run(env, "--root", root, "index", "reset", "--yes")
		if os.RemoveAll(filepath.Join(root, ".autorag")) == nil && os.Rename(one, filepath.Join(root, ".autorag")) == nil {
			h.cli.run(env, "--root", root, "index", "reset", "--yes")
		}
	}()
	write := func(rel, s string) { _ = os.WriteFile(filepath.Join(root, rel), []byte(s+"\n"), 0o644) }
	finds := func(word, want string) bool {
		r := h.cli.run(env, "--root", root, "query", "--json", "--mode", "bm25", "--no-cache", word)
		if want == "" {
			return r.code == 0 && !strings.Contains(r.stdout, `"path"`)
		}
		return r.code == 0 && strings.Contains(r.stdout, `"path":"`+want+`"`)
	}
	step := func(what string, ok bool) {
		o.Trials++
		if !ok {
			o.fail("%s", what)
		}
	}
	refresh := func() bool { return h.cli.run(env, "--root", root, "refresh", "-q").code == 0 }
	write("a.md", "# A\n\nthe heronword of machine one")
	step("machine one: refresh", refresh())
	if err := os.Rename(filepath.Join(root, ".autorag"), one); err != nil {
		o.fail("setup: %v", err)
		return o
	}
	os.Remove(filepath.Join(root, "a.md"))
	write("b.md", "# B\n\nthe kestrelword of machine two")
	step("machine two (no local state, same path): refresh builds anew", refresh())
	step("machine two does not see machine one's document", finds("heronword", ""))
	step("machine two sees its own", finds("kestrelword", "b.md"))
	step("collections dropped behind its back: dropped", h.dropAlias(url, root))
	step("collections dropped behind its back: refresh rebuilds", refresh() && finds("kestrelword", "b.md"))
	h.cli.run(env, "--root", root, "index", "reset", "--yes")
	os.RemoveAll(filepath.Join(root, ".autorag"))
	if err := os.Rename(one, filepath.Join(root, ".autorag")); err != nil {
		o.fail("restore machine one: %v", err)
		return o
	}
	step("machine one sees its own document", finds("heronword", "a.md"))
	step("machine one does not see machine two's", finds("kestrelword", ""))
	return o
}

// dropAlias drops the root's Weaviate alias and collections directly.
func (h *harness) dropAlias(url, root string) bool {
	b, err := os.ReadFile(filepath.Join(root, ".autorag", "weaviate.id"))
	if err != nil {
		return false
	}
	c, err := weaviate.New(weaviate.Config{URL: url, APIKey: os.Getenv("AUTORAG_WEAVIATE_API_KEY")})
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return weaviate.NewPair(c, "Autorag_"+strings.TrimSpace(string(b)), weaviate.Settings{}).Drop(ctx) == nil
}
