package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
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

// dropAlias drops the root's Weaviate alias and its collections behind
// autorag's back, through Weaviate's REST API (the harness speaks the wire
// format itself: the client belongs to the engine's adapter).
func (h *harness) dropAlias(base, root string) bool {
	b, err := os.ReadFile(filepath.Join(root, ".autorag", "weaviate.id"))
	if err != nil {
		return false
	}
	alias := "Autorag_" + strings.TrimSpace(string(b))
	key := os.Getenv("AUTORAG_WEAVIATE_API_KEY")
	do := func(method, path string, out any) error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(base, "/")+path, nil)
		if err != nil {
			return err
		}
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		if res.StatusCode >= 300 && res.StatusCode != http.StatusNotFound {
			return fmt.Errorf("%s %s: %s", method, path, res.Status)
		}
		if out != nil {
			return json.NewDecoder(res.Body).Decode(out)
		}
		return nil
	}
	if do(http.MethodDelete, "/v1/aliases/"+url.PathEscape(alias), nil) != nil {
		return false
	}
	var schema struct {
		Classes []struct{ Class string } `json:"classes"`
	}
	if do(http.MethodGet, "/v1/schema", &schema) != nil {
		return false
	}
	dropped := 0
	for _, c := range schema.Classes {
		if strings.HasPrefix(c.Class, alias+"_") {
			if do(http.MethodDelete, "/v1/schema/"+url.PathEscape(c.Class), nil) != nil {
				return false
			}
			dropped++
		}
	}
	return dropped > 0
}
