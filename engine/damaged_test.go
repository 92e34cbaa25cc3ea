package engine

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDamagedGenerationRepaired zeroes the tail of one bleve segment of
// the committed generation, keeping its size (so the sidecar's size check
// passes): a query fails with ErrDamaged and says to refresh, the next
// refresh finds the damage and rebuilds, reporting why, and queries
// answer again.
func TestDamagedGenerationRepaired(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.md": "# A\n\nThe heron fishes at dawn.\n", "b.md": "# B\n\nA boat on the river.\n"})
	first := mustRefresh(t, e)
	var segs []string
	filepath.WalkDir(e.Layout.GenDir(first.Generation), func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".zap") {
			segs = append(segs, p)
		}
		return nil
	})
	if len(segs) == 0 {
		t.Fatal("no segment to damage")
	}
	f, err := os.OpenFile(segs[0], os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	n := min(fi.Size(), 4096)
	if _, err := f.WriteAt(make([]byte, n), fi.Size()-n); err != nil {
		t.Fatal(err)
	}
	f.Close()

	_, err = e.Query(t.Context(), QueryOptions{Text: "heron", Mode: ModeBM25, K: 5})
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "autorag refresh") {
		t.Fatalf("query on a damaged index: %v, want ErrDamaged saying to refresh", err)
	}
	r := mustRefresh(t, e)
	if r.Outcome != OutcomeRebuilt || !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "damaged") }) {
		t.Fatalf("refresh after the damage: outcome %s, warnings %v; want rebuilt, saying why", r.Outcome, r.Warnings)
	}
	res, err := e.Query(t.Context(), QueryOptions{Text: "heron", Mode: ModeBM25, K: 5})
	if err != nil || len(res.Results) == 0 || res.Results[0].Path != "a.md" {
		t.Fatalf("query after the repair: %v %v", err, res)
	}
	if r := mustRefresh(t, e); r.Outcome != OutcomeUnchanged {
		t.Errorf("refresh after the repair: %s, want unchanged", r.Outcome)
	}
}
