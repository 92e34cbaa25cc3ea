package weaviate

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestCollectionSettingsAndLifecycle(t *testing.T) {
	c, ctx, s, name := testCollection(t)
	got, err := c.DescribeCollection(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	want := Collection{Name: name, Shards: s.Shards, Replicas: s.Replicas, K1: 0.9, B: 0.4, VectorIndex: "hnsw"}
	if got != want {
		t.Fatalf("collection = %+v, want %+v", got, want)
	}
	if err := c.CreateCollection(ctx, name, s); !errors.Is(err, ErrRefused) {
		t.Fatalf("second create: got %v, want ErrRefused", err)
	}
	names, _ := c.ListCollections(ctx)
	if !slices.Contains(names, name) {
		t.Fatalf("%s not listed in %v", name, names)
	}
	if err := c.DropCollection(ctx, name); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DescribeCollection(ctx, name); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after drop: got %v, want ErrNotFound", err)
	}
	if err := c.Import(ctx, name, corpus(1, 1), s); err == nil {
		t.Fatal("import into a dropped collection succeeded")
	}
}

func TestImportSearchDeleteThroughAlias(t *testing.T) {
	c := testCluster(t)
	ctx := testContext(t)
	s := testSettings(t, c)
	alias := testAlias(t, c)
	name := alias + "_x_a"
	objs := corpus(300, 7)
	// Two chunks whose ranking the test knows: the query terms repeated
	// (ranks first) and once in a long text (ranks below).
	objs = append(objs, object("best.md#0", "zebra quokka zebra quokka"),
		object("weak.md#0", "zebra "+strings.Repeat("filler ", 40)))
	if err := c.CreateCollection(ctx, name, s); err != nil {
		t.Fatal(err)
	}
	if err := c.Import(ctx, name, objs, s); err != nil {
		t.Fatal(err)
	}
	if err := c.SetAlias(ctx, alias, name); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.ResolveAlias(ctx, alias); got != name {
		t.Fatalf("alias names %q, want %q", got, name)
	}
	if n, err := c.Count(ctx, alias); err != nil || n != len(objs) {
		t.Fatalf("count = %d, %v; want %d", n, err, len(objs))
	}
	q := object("q", "zebra quokka")
	for _, mode := range []Mode{BM25, Vector, Hybrid} {
		hits, err := c.Search(ctx, alias, Query{Mode: mode, Tokens: q.Tokens, Vector: q.Vector, Alpha: 0.5, K: 5}, s)
		if err != nil {
			t.Fatalf("mode %d: %v", mode, err)
		}
		if len(hits) == 0 || hits[0].ChunkID != "best.md#0" || hits[0].Path != "best.md" {
			t.Fatalf("mode %d: top hit %+v, want best.md#0", mode, hits)
		}
	}
	hits, _ := c.Search(ctx, alias, Query{Mode: BM25, Tokens: q.Tokens}, s)
	if len(hits) != 2 || hits[1].ChunkID != "weak.md#0" || hits[1].Score >= hits[0].Score {
		t.Fatalf("bm25 hits %+v, want best then weak", hits)
	}
	if err := c.Delete(ctx, name, []string{"best.md#0", "missing.md#0"}, s); err != nil {
		t.Fatal(err)
	}
	hits, _ = c.Search(ctx, alias, Query{Mode: BM25, Tokens: q.Tokens}, s)
	if len(hits) != 1 || hits[0].ChunkID != "weak.md#0" {
		t.Fatalf("after delete: %+v, want weak.md#0 only", hits)
	}
	if _, err := c.ResolveAlias(ctx, alias+"Missing"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing alias: got %v, want ErrNotFound", err)
	}
}

// TestStopWordsAndTokensAsGiven: "the" is searchable (no stop words) and the
// tokens are matched as given (whitespace tokenization, no re-analysis).
func TestStopWordsAndTokensAsGiven(t *testing.T) {
	c, ctx, s, name := testCollection(t)
	objs := []Object{
		{ChunkID: "a#0", Tokens: "the run-fast C++", Vector: vectorOf([]string{"a"})},
		{ChunkID: "b#0", Tokens: "runfast c", Vector: vectorOf([]string{"b"})},
	}
	if err := c.Import(ctx, name, objs, s); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{"the": "a#0", "run-fast": "a#0", "C++": "a#0", "runfast": "b#0"} {
		hits, err := c.Search(ctx, name, Query{Mode: BM25, Tokens: q}, s)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 1 || hits[0].ChunkID != want {
			t.Errorf("query %q: %+v, want only %s", q, hits, want)
		}
	}
}
