package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/autorag/autorag/engine/embed/static"
	"github.com/autorag/autorag/engine/vector"
	"github.com/google/go-cmp/cmp"
)

// TestCompactChurnedIndex churns an index with edits, compacts it and
// checks that the merged generation holds no deleted chunks, answers
// exactly as before, verifies, and is a base for the next refresh.
func TestCompactChurnedIndex(t *testing.T) {
	ctx := context.Background()
	// 300 one-chunk files make one segment above the merge floor; editing
	// 40 of them in two refreshes leaves 40 replaced chunks in it, which
	// the refreshes' own small merges do not reclaim.
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("d%03d.md", i)] = fmt.Sprintf("# Doc %d\n\nThe heron number %d fishes at dawn.\n", i, i)
	}
	e := newTestEngine(t, files)
	if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	for round := range 2 {
		for i := range 20 {
			k := round*20 + i
			p := filepath.Join(e.Layout.Root, fmt.Sprintf("d%03d.md", k))
			body := fmt.Sprintf("# Doc %d\n\nThe heron number %d, edited, fishes at dusk.\n", k, k)
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	q := QueryOptions{Text: "heron dusk", K: 50, Mode: ModeBM25}
	before, err := e.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Compact(ctx, CompactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != OutcomeCompacted || res.DeletedBefore != 40 || res.SegmentsAfter != 1 {
		t.Fatalf("compact: %+v; want compacted, deleted chunks reclaimed, 1 segment", res)
	}
	sc, err := readCommitted(e.Layout.SidecarPath())
	if err != nil {
		t.Fatal(err)
	}
	st, err := e.localStorage().Segments(sc.Generation)
	if err != nil || st.Deleted != 0 || st.Segments != 1 {
		t.Fatalf("after compaction: %+v %v", st, err)
	}
	after, err := e.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if after.Generation == before.Generation || after.Fingerprint != before.Fingerprint {
		t.Errorf("generation %s -> %s, fingerprint %s -> %s; want a new generation, same fingerprint",
			before.Generation, after.Generation, before.Fingerprint, after.Fingerprint)
	}
	if diff := cmp.Diff(before.Results, after.Results); diff != "" {
		t.Errorf("answers changed by compaction (-before +after):\n%s", diff)
	}
	if probs, err := e.Verify(ctx); err != nil || len(probs) != 0 {
		t.Fatalf("verify after compaction: %v %v", probs, err)
	}
	if again, err := e.Compact(ctx, CompactOptions{}); err != nil || again.Outcome != OutcomeUnchanged {
		t.Errorf("second compaction: %+v %v, want unchanged", again, err)
	}
	if _, err := os.Stat(e.Layout.GenDir(before.Generation)); !os.IsNotExist(err) {
		t.Errorf("the replaced generation %s was not removed: %v", before.Generation, err)
	}
	writeFileT(t, filepath.Join(e.Layout.Root, "new.md"), "# New\n\nA heron at dusk, new.\n")
	r, err := e.Refresh(ctx, RefreshOptions{})
	if err != nil || r.Outcome != OutcomeUpdated || r.Added != 1 {
		t.Fatalf("refresh on the compacted generation: %+v %v", r, err)
	}
}

func writeFileT(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCompactMergesVectors: idle compaction also merges the vector
// segments of a churned index into one without tombstones, and vector
// queries answer as before. Refreshes alone leave the edited chunks'
// old rows as tombstones beside a small segment of the new ones.
func TestCompactMergesVectors(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	for i := range 300 {
		body := fmt.Sprintf("# Doc %d\n\nThe heron number %d fishes at dawn.\n", i, i)
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("d%03d.md", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := DefaultSettings()
	s.Embedder = static.New()
	e, err := New(root, s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	for round := range 2 {
		for i := range 20 {
			k := round*20 + i
			body := fmt.Sprintf("# Doc %d\n\nThe heron number %d, edited, fishes at dusk.\n", k, k)
			if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("d%03d.md", k)), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	vstats := func() vector.Stats {
		t.Helper()
		sc, err := readCommitted(e.Layout.SidecarPath())
		if err != nil {
			t.Fatal(err)
		}
		ix, err := vector.Open(filepath.Join(e.Layout.GenDir(sc.Generation), "vectors"), static.Dims)
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		return ix.Stats()
	}
	if st := vstats(); st.Segments < 2 || st.Tombstones != 40 {
		t.Fatalf("before compaction: %+v; want several segments and the 40 edited chunks' tombstones", st)
	}
	q := QueryOptions{Text: "heron dusk", K: 50, Mode: ModeVector}
	before, err := e.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := e.Compact(ctx, CompactOptions{}); err != nil || res.Outcome != OutcomeCompacted {
		t.Fatalf("compact: %+v %v", res, err)
	}
	if st := vstats(); st.Segments != 1 || st.Tombstones != 0 || st.Vectors != 300 {
		t.Fatalf("after compaction: %+v; want one segment of 300 vectors, no tombstones", st)
	}
	after, err := e.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before.Results, after.Results); diff != "" {
		t.Errorf("vector answers changed by compaction (-before +after):\n%s", diff)
	}
	if probs, err := e.Verify(ctx); err != nil || len(probs) != 0 {
		t.Fatalf("verify after compaction: %v %v", probs, err)
	}
}
