package mirror

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestScanCancelled(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"d/a.txt": "a", "b.txt": "b", "c.txt": "c"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Scan(ctx, root, OpenStore(t.TempDir()), nil, ScanOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Scan with cancelled context: %v", err)
	}
}

func TestScanMissingRoot(t *testing.T) {
	_, err := Scan(context.Background(), filepath.Join(t.TempDir(), "nope"), OpenStore(t.TempDir()), nil, ScanOptions{})
	if err == nil {
		t.Error("Scan of a missing root succeeded")
	}
}

// TestScanStoreLostText checks that a text missing from the store is parsed
// again rather than trusted.
func TestScanStoreLostText(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(t.TempDir(), "objects")
	writeTree(t, root, map[string]string{"a.txt": "a"})
	m := scan(t, root, OpenStore(dir), nil, ScanOptions{}).Manifest
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(root, "a.txt"), later, later); err != nil {
		t.Fatal(err)
	}
	store := OpenStore(dir)
	res := scan(t, root, store, m, ScanOptions{})
	if res.Parsed != 1 || !store.Has(res.Manifest.Entries[0].TextHash) {
		t.Errorf("lost text: Parsed=%d", res.Parsed)
	}
}

// TestScanIncrementalEqualsFresh checks that after additions, edits and
// deletions spread over a large directory and subdirectories (the walk does
// not sort; a changed scan merges the reused entries with the files it
// read), the manifest equals the one a scan with no history builds, in
// path order.
func TestScanIncrementalEqualsFresh(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 600 {
		files[fmt.Sprintf("d%d/f%03d.md", i%3, i)] = fmt.Sprintf("# doc %d\n", i)
		files[fmt.Sprintf("top%03d.txt", i)] = fmt.Sprintf("text %d\n", i)
	}
	writeTree(t, root, files)
	store := OpenStore(filepath.Join(t.TempDir(), "objects"))
	defer store.Close()
	prev := scan(t, root, store, nil, ScanOptions{}).Manifest

	edits := map[string]string{}
	for i := 0; i < 600; i += 37 {
		edits[fmt.Sprintf("top%03d.txt", i)] = fmt.Sprintf("edited %d, a different length\n", i)
		edits[fmt.Sprintf("d%d/f%03d.md", i%3, i)] = "# edited\n"
		edits[fmt.Sprintf("d%d/new%03d.md", i%3, i)] = "# new\n"
		edits[fmt.Sprintf("top%03d.txt0", i)] = "new between old names\n"
	}
	writeTree(t, root, edits)
	for i := 5; i < 600; i += 41 {
		if err := os.Remove(filepath.Join(root, fmt.Sprintf("top%03d.txt", i))); err != nil {
			t.Fatal(err)
		}
	}
	got := scan(t, root, store, prev, ScanOptions{})
	want := scan(t, root, OpenStore(filepath.Join(t.TempDir(), "objects")), nil, ScanOptions{})
	if got.Hashed == 0 || got.StatSkipped == 0 {
		t.Fatalf("hashed %d, stat-skipped %d: the scan should reuse most entries and read the edits", got.Hashed, got.StatSkipped)
	}
	if !slices.IsSortedFunc(got.Manifest.Entries, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) }) {
		t.Fatal("entries not in path order")
	}
	if diff := cmp.Diff(want.Manifest.Entries, got.Manifest.Entries); diff != "" {
		t.Errorf("incremental manifest differs from a fresh scan (-fresh +incremental):\n%s", diff)
	}
}

// TestScanFileRemovedAfterWalk checks that a file the walk found but that
// is gone by the time it is read is simply dropped, like one that vanished
// before its stat, rather than reported as a read failure.
func TestScanFileRemovedAfterWalk(t *testing.T) {
	tr, err := openTree(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer tr.close()
	s := &scanner{ctx: t.Context(), tree: tr, store: OpenStore(t.TempDir()), prev: &Manifest{}, max: DefaultMaxFileSize}
	s.byRaw = s.indexByRaw
	var o outcome
	if err := s.process(&candidate{rel: "gone.txt", size: 5, parser: textParser}, &o); err != nil {
		t.Fatal(err)
	}
	if o.ok || o.hashed || o.fail != "" {
		t.Errorf("outcome for a removed file = %+v, want nothing", o)
	}
}

// TestScanTargetedOverlap names a file both directly and through its
// directory: it is examined once and has one entry.
func TestScanTargetedOverlap(t *testing.T) {
	root := t.TempDir()
	store := OpenStore(filepath.Join(t.TempDir(), "objects"))
	writeTree(t, root, map[string]string{"dir/x.txt": "x", "dir/y.txt": "y"})
	m := scan(t, root, store, nil, ScanOptions{}).Manifest
	writeTree(t, root, map[string]string{"dir/x.txt": "x, edited"})
	res := scan(t, root, store, m, ScanOptions{Paths: []string{"dir/x.txt", "dir", "./dir/x.txt"}})
	if diff := cmp.Diff([]string{"dir/x.txt", "dir/y.txt"}, paths(res.Manifest)); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	if res.Scanned != 2 || res.Hashed != 1 || res.Parsed != 1 {
		t.Errorf("Scanned=%d Hashed=%d Parsed=%d; want 2 1 1", res.Scanned, res.Hashed, res.Parsed)
	}
}
