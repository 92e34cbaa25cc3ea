package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

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
