package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/engine/filetable"
	"github.com/autorag/autorag/mirror"
)

// TestEditsFollowTheChange refreshes after random edits (modified, added,
// deleted, renamed and touched files, several at once), so that after the
// first edit each refresh finds the saved manifest stamped with the
// committed fingerprint and diffs the table at the changed paths only.
// After every refresh the change counts are the edits', the table holds
// exactly the manifest's paths and text hashes with the sidecar's counts,
// and at the end verify passes and every edit is found.
func TestEditsFollowTheChange(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	dir := t.TempDir()
	names := map[string]string{} // file -> its unique word
	write := func(name, word string) {
		body := fmt.Sprintf("# %s\n\nsome words about %s and more words\n", name, word)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		names[name] = word
	}
	for i := range 40 {
		write(fmt.Sprintf("doc-%02d.md", i), fmt.Sprintf("start%d", i))
	}
	e, err := New(dir, DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	next := 100
	for step := range 30 {
		var want changeCounts
		for range 1 + r.IntN(3) {
			name := fmt.Sprintf("doc-%02d.md", r.IntN(50))
			_, had := names[name]
			next++
			switch k := r.IntN(4); {
			case !had:
				write(name, fmt.Sprintf("new%d", next))
				want.Added++
			case k == 0:
				os.Remove(filepath.Join(dir, name))
				delete(names, name)
				want.Deleted++
			case k == 1:
				to := fmt.Sprintf("moved-%03d.md", next)
				if err := os.Rename(filepath.Join(dir, name), filepath.Join(dir, to)); err != nil {
					t.Fatal(err)
				}
				names[to] = names[name]
				delete(names, name)
				want.Renamed++
			default:
				write(name, fmt.Sprintf("edit%d", next))
				want.Modified++
			}
		}
		res, err := e.Refresh(ctx, RefreshOptions{})
		if err != nil || res.Outcome != OutcomeUpdated {
			t.Fatalf("step %d: %v %v", step, res, err)
		}
		got := changeCounts{Added: res.Added, Modified: res.Modified, Deleted: res.Deleted, Renamed: res.Renamed}
		if got != want {
			t.Fatalf("step %d: changes %+v, want %+v", step, got, want)
		}
		checkTableIsManifest(t, e, step)
	}
	if problems, err := e.Verify(ctx); err != nil || len(problems) > 0 {
		t.Fatalf("verify: %v %v", problems, err)
	}
	for name, word := range names {
		q, err := e.Query(ctx, QueryOptions{Text: word, K: 5})
		if err != nil || len(q.Results) == 0 || q.Results[0].Path != name {
			t.Fatalf("query %s: %+v %v, want %s first", word, q, err, name)
		}
	}
}

type changeCounts struct{ Added, Modified, Deleted, Renamed int }

// checkTableIsManifest checks the committed table against the saved
// manifest and the sidecar, and that the next refresh can take the
// change-sized path (the manifest stamped with the committed fingerprint,
// the table indexed).
func checkTableIsManifest(t *testing.T, e *Engine, step int) {
	t.Helper()
	sc := mustSidecar(t, e)
	gen := e.Layout.GenDir(sc.Generation)
	l, err := filetable.Load(gen)
	if err != nil {
		t.Fatal(err)
	}
	man, err := mirror.LoadManifest(e.Layout.ManifestPath())
	if err != nil {
		t.Fatal(err)
	}
	var fromTable, fromManifest []string
	for _, r := range l.Table {
		fromTable = append(fromTable, r.Path+" "+r.TextHash.String())
	}
	for _, en := range man.Entries {
		fromManifest = append(fromManifest, en.Path+" "+en.TextHash.String())
	}
	if diff := cmp.Diff(fromManifest, fromTable); diff != "" {
		t.Fatalf("step %d: table (-manifest +table):\n%s", step, diff)
	}
	c := l.Table.Counts()
	if c.Files != sc.Counts.Files || c.Chunks != sc.Counts.Chunks || c.Tokens != sc.Counts.Tokens {
		t.Fatalf("step %d: table counts %+v, sidecar %+v", step, c, sc.Counts)
	}
	if man.Stamp != sc.Fingerprint {
		t.Fatalf("step %d: manifest stamped %q, committed fingerprint %q", step, man.Stamp, sc.Fingerprint)
	}
	if _, err := os.Stat(filepath.Join(gen, filetable.IndexFile)); err != nil {
		t.Fatalf("step %d: no table index: %v", step, err)
	}
}
