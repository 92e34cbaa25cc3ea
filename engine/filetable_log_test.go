package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/autorag/autorag/engine/filetable"
	"github.com/autorag/autorag/fingerprint"
)

// TestOneEditCarriesTheFileTable: a refresh that changes one file of many
// keeps the base generation's files.bin (the same inode, linked) and
// writes only a small files.log, instead of the whole table; the counts and
// the table stay right over many such refreshes, and verify passes.
func TestOneEditCarriesTheFileTable(t *testing.T) {
	dir := t.TempDir()
	for i := range 300 {
		body := fmt.Sprintf("# Doc %d\n\nwords about topic %d and more words\n", i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("doc-%03d.md", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e, err := New(dir, DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		prev := mustSidecar(t, e)
		// Stat before the refresh: it removes the old generation.
		a, _ := os.Stat(filepath.Join(e.Layout.GenDir(prev.Generation), filetable.File))
		p := filepath.Join(dir, fmt.Sprintf("doc-%03d.md", i*7))
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(f, "\nedited %d with a new word\n", i)
		f.Close()
		if i == 5 { // a deletion and an addition ride in the same log
			os.Remove(filepath.Join(dir, "doc-299.md"))
			os.WriteFile(filepath.Join(dir, "new.md"), []byte("# New\n\nfresh text\n"), 0o644)
		}
		res, err := e.Refresh(ctx, RefreshOptions{})
		if err != nil || res.Outcome != OutcomeUpdated {
			t.Fatalf("edit %d: %v %v", i, res, err)
		}
		to := e.Layout.GenDir(res.Generation)
		b, _ := os.Stat(filepath.Join(to, filetable.File))
		if a == nil || b == nil || !os.SameFile(a, b) {
			t.Fatalf("edit %d: files.bin was written again, not carried over from the base generation", i)
		}
		if fi, err := os.Stat(filepath.Join(to, filetable.LogFile)); err != nil || fi.Size() > 2048 {
			t.Fatalf("edit %d: files.log %v (%v), want one under 2 KiB", i, fi, err)
		}
		l, err := filetable.Load(to)
		if err != nil {
			t.Fatal(err)
		}
		sc := mustSidecar(t, e)
		c := l.Table.Counts()
		if c.Files != sc.Counts.Files || c.Chunks != sc.Counts.Chunks || c.Tokens != sc.Counts.Tokens || c.Files != 300 {
			t.Fatalf("edit %d: table counts %+v, sidecar %+v, want 300 files", i, c, sc.Counts)
		}
	}
	if problems, err := e.Verify(ctx); err != nil || len(problems) > 0 {
		t.Fatalf("verify: %v %v", problems, err)
	}
	r, err := e.Query(ctx, QueryOptions{Text: "edited", K: 20})
	if err != nil || len(r.Results) != 12 {
		t.Fatalf("search for the edits: %d results, %v; want 12", len(r.Results), err)
	}
}

func mustSidecar(t *testing.T, e *Engine) *fingerprint.Sidecar {
	t.Helper()
	sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
	if err != nil {
		t.Fatal(err)
	}
	return sc
}
