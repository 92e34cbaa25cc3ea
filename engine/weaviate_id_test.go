package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/autorag/autorag/engine/backend/weaviate"
)

// TestWeaviateIndexIsItsOwn: two states of one root path (two machines
// indexing /workspace into one cluster, simulated by two .autorag
// directories), local state removed, and collections dropped behind the
// index's back. Each state answers from its own collections only, a root
// whose .autorag is gone builds anew beside the orphan (it used to fail
// for good: "the alias serves it"), and dropped collections are rebuilt.
func TestWeaviateIndexIsItsOwn(t *testing.T) {
	s := weaviateSettings(t)
	root := t.TempDir()
	e, err := New(root, s)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	write := func(rel, text string) {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	find := func(word string) []string {
		t.Helper()
		res, err := e.Query(ctx, QueryOptions{Text: word, Mode: ModeBM25, K: 10})
		if err != nil {
			t.Fatalf("query %s: %v", word, err)
		}
		var out []string
		for _, r := range res.Results {
			out = append(out, r.Path)
		}
		return out
	}
	refresh := func(what string) *RefreshResult {
		t.Helper()
		r, err := e.Refresh(ctx, RefreshOptions{})
		if err != nil {
			t.Fatalf("%s: refresh: %v", what, err)
		}
		return r
	}
	write("a.md", "# A\n\nThe heron of machine one.\n")
	refresh("machine one")
	one := filepath.Join(t.TempDir(), "one")
	if err := os.Rename(e.Layout.Dir, one); err != nil { // machine one's state, put aside
		t.Fatal(err)
	}
	os.Remove(filepath.Join(root, "a.md"))
	write("b.md", "# B\n\nThe kestrel of machine two.\n")
	if r := refresh("machine two (local state gone)"); r.Outcome != OutcomeRebuilt {
		t.Fatalf("machine two: %s", r.Outcome)
	}
	if got := find("heron"); len(got) != 0 {
		t.Errorf("machine two finds machine one's document: %v", got)
	}
	if got := find("kestrel"); !slices.Equal(got, []string{"b.md"}) {
		t.Errorf("machine two: kestrel in %v", got)
	}
	alias, err := e.weaviateAlias(nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := weaviate.New(weaviate.Config{URL: s.Backend.URL, APIKey: s.Backend.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	if err := weaviate.NewPair(c, alias, weaviate.Settings{}).Drop(ctx); err != nil {
		t.Fatal(err)
	}
	if r := refresh("after the collections were dropped behind its back"); r.Outcome != OutcomeRebuilt {
		t.Errorf("after the drop: %s, want rebuilt", r.Outcome)
	}
	if got := find("kestrel"); !slices.Equal(got, []string{"b.md"}) {
		t.Errorf("after the drop and the rebuild: kestrel in %v", got)
	}
	if _, err := e.Reset(ctx, time.Minute, "test"); err != nil {
		t.Fatal(err)
	}
	// Machine one again: its own state, its own answers.
	if err := os.RemoveAll(e.Layout.Dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(one, e.Layout.Dir); err != nil {
		t.Fatal(err)
	}
	if got := find("heron"); !slices.Equal(got, []string{"a.md"}) {
		t.Errorf("machine one: heron in %v", got)
	}
	if got := find("kestrel"); len(got) != 0 {
		t.Errorf("machine one finds machine two's document: %v", got)
	}
	if _, err := e.Reset(ctx, time.Minute, "test"); err != nil {
		t.Fatal(err)
	}
}

// TestWeaviateOrphans: the index a removed .autorag left behind is listed
// as an orphan of the new one, never the new one itself, and dropping it
// removes its collections.
func TestWeaviateOrphans(t *testing.T) {
	s := weaviateSettings(t)
	root := t.TempDir()
	e, err := New(root, s)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := os.WriteFile(filepath.Join(root, "a.md"), []byte("# A\n\nThe heron.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	old, _ := e.weaviateAlias(nil)
	if err := os.RemoveAll(e.Layout.Dir); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	defer e.Reset(ctx, time.Minute, "test")
	own, _ := e.weaviateAlias(nil)
	found, err := e.WeaviateOrphans(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(found[old]) == 0 || len(found[own]) != 0 {
		t.Fatalf("orphans %v: want %s listed and not %s", found, old, own)
	}
	dropped, err := e.DropWeaviateOrphans(ctx, []string{old, own})
	if err != nil || !slices.Equal(dropped, []string{old}) {
		t.Fatalf("dropped %v, %v; want only %s", dropped, err, old)
	}
	if found, _ := e.WeaviateOrphans(ctx); len(found[old]) != 0 {
		t.Errorf("%s still has collections: %v", old, found[old])
	}
	if res, err := e.Query(ctx, QueryOptions{Text: "heron", Mode: ModeBM25, K: 3}); err != nil || len(res.Results) != 1 {
		t.Errorf("own index after dropping the orphans: %v %v", res, err)
	}
}
