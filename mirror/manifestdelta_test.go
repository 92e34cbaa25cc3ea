package mirror

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/internal/changelog"
)

// fullChanges is the reference ChangesFrom must agree with: every entry of
// prev and next compared.
func fullChanges(prev, next []Entry) []Change {
	upserts, removed := diffEntries(prev, next)
	var out []Change
	for _, e := range upserts {
		out = append(out, Change{Path: e.Path, Old: entryAt(prev, e.Path), New: e})
	}
	for _, p := range removed {
		out = append(out, Change{Path: p, Old: entryAt(prev, p)})
	}
	slices.SortFunc(out, func(a, b Change) int { return cmpString(a.Path, b.Path) })
	return out
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// randomTreeEdit changes the tree under root at random: new files, edits,
// removals, touches that keep the text, binary and oversized files, and
// files in new and removed directories. It returns the paths it changed
// (for a targeted scan).
func randomTreeEdit(t *testing.T, r *rand.Rand, root string, step int) []string {
	t.Helper()
	var changed []string
	for range 1 + r.IntN(4) {
		rel := fmt.Sprintf("d%d/f%02d.md", r.IntN(3), r.IntN(25))
		p := filepath.Join(root, filepath.FromSlash(rel))
		changed = append(changed, rel)
		switch r.IntN(6) {
		case 0:
			_ = os.Remove(p)
		case 1: // touch: same bytes, new mtime
			if _, err := os.Stat(p); err == nil {
				setMtime(t, p, time.Now().Add(time.Duration(step)*time.Second))
			}
		case 2:
			writeTree(t, root, map[string]string{rel: "binary\x00bytes"})
		case 3:
			writeTree(t, root, map[string]string{rel: string(bytes.Repeat([]byte("x"), 300))}) // over MaxFileSize
		default:
			writeTree(t, root, map[string]string{rel: fmt.Sprintf("# %s\n\ntext of step %d\n", rel, step)})
		}
	}
	if r.IntN(8) == 0 {
		d := fmt.Sprintf("d%d", r.IntN(3))
		_ = os.RemoveAll(filepath.Join(root, d))
		changed = append(changed, d)
	}
	return changed
}

// TestScanChangesMatchFullDiff: over random edit sequences, full and
// targeted, the changes a scan reports (found from the paths it touched)
// are exactly those of comparing every entry, and Changed agrees; the
// record Save appends from them is the one comparing every entry gives.
func TestScanChangesMatchFullDiff(t *testing.T) {
	for _, targeted := range []bool{false, true} {
		t.Run(fmt.Sprintf("targeted=%v", targeted), func(t *testing.T) {
			r := rand.New(rand.NewPCG(5, 6))
			root := t.TempDir()
			mp := filepath.Join(t.TempDir(), "manifest.bin")
			store := OpenStore(filepath.Join(t.TempDir(), "objects"))
			defer store.Close()
			for i := range 60 {
				writeTree(t, root, map[string]string{fmt.Sprintf("d%d/f%02d.md", i%3, i%25): fmt.Sprintf("# start %d\n", i)})
			}
			opts := ScanOptions{MaxFileSize: 200}
			save(t, scan(t, root, store, nil, opts).Manifest, mp)
			for step := range 80 {
				changed := randomTreeEdit(t, r, root, step)
				prev := load(t, mp)
				o := opts
				if targeted {
					o.Paths = changed
				}
				res := scan(t, root, store, prev, o)
				got, ok := res.Manifest.ChangesFrom(prev)
				if !ok {
					t.Fatalf("step %d: the scan's manifest does not know its changes", step)
				}
				want := fullChanges(prev.Entries, res.Manifest.Entries)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("step %d: changes (-full +scan):\n%s", step, diff)
				}
				if res.Changed != !slices.Equal(prev.Entries, res.Manifest.Entries) {
					t.Fatalf("step %d: Changed = %v with %d changes", step, res.Changed, len(got))
				}
				u1, r1 := upsertsAndRemovals(got)
				u2, r2 := diffEntries(prev.Entries, res.Manifest.Entries)
				if a, b := encodeLogRecord(u1, r1, "s"), encodeLogRecord(u2, r2, "s"); !bytes.Equal(a, b) {
					t.Fatalf("step %d: the record from the scan's changes differs from the full comparison's", step)
				}
				res.Manifest.Stamp = fmt.Sprint("stamp ", step)
				save(t, res.Manifest, mp)
				if got := checkEntries(t, mp, res.Manifest); got.Stamp != res.Manifest.Stamp && got.origin.logEnd > 0 {
					t.Fatalf("step %d: stamp %q loaded, %q saved", step, got.Stamp, res.Manifest.Stamp)
				}
			}
		})
	}
}

// TestChangesFromOtherManifest: changes are only known relative to the
// manifest scanned against, and not once the entries were replaced.
func TestChangesFromOtherManifest(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.md": "# a\n", "b.md": "# b\n"})
	store := OpenStore(filepath.Join(t.TempDir(), "objects"))
	defer store.Close()
	prev := scan(t, root, store, nil, ScanOptions{}).Manifest
	writeTree(t, root, map[string]string{"a.md": "# a, edited\n"})
	res := scan(t, root, store, prev, ScanOptions{})
	if ch, ok := res.Manifest.ChangesFrom(prev); !ok || len(ch) != 1 || ch[0].Path != "a.md" {
		t.Fatalf("ChangesFrom(prev) = %v, %v; want the edit of a.md", ch, ok)
	}
	if _, ok := res.Manifest.ChangesFrom(&Manifest{Entries: slices.Clone(prev.Entries)}); ok {
		t.Fatal("changes known relative to a copy of the manifest scanned against")
	}
	res.Manifest.Entries = slices.Clone(res.Manifest.Entries)
	if _, ok := res.Manifest.ChangesFrom(prev); ok {
		t.Fatal("changes known after the entries were replaced")
	}
}

// TestManifestLogStamp: the stamp saved with a record is the one loaded,
// also when the manifest is written whole (into a log of one record), and
// a damaged last record gives the stamp of the one before.
func TestManifestLogStamp(t *testing.T) {
	p := filepath.Join(t.TempDir(), "manifest.bin")
	lp := filepath.Join(filepath.Dir(p), "manifest.log")
	m := sampleManifest(300)
	m.Stamp = "whole"
	save(t, m, p)
	if got := checkEntries(t, p, m); got.Stamp != "whole" {
		t.Fatalf("stamp %q after a whole save, want whole", got.Stamp)
	}
	save(t, sampleManifest(300), p) // no stamp: no log
	if got := load(t, p); got.Stamp != "" {
		t.Fatalf("stamp %q after a whole save without one", got.Stamp)
	}
	if _, err := os.Stat(lp); err == nil {
		t.Fatal("a log after a whole save without a stamp")
	}
	m1 := edit(load(t, p), 1, 2, 1)
	m1.Stamp = "one"
	save(t, m1, p)
	fi, _ := os.Stat(lp)
	m2 := edit(load(t, p), 3, 4, 2)
	m2.Stamp = "two"
	save(t, m2, p)
	if got := checkEntries(t, p, m2); got.Stamp != "two" {
		t.Fatalf("stamp %q, want two", got.Stamp)
	}
	if err := os.Truncate(lp, fi.Size()+5); err != nil {
		t.Fatal(err)
	}
	if got := checkEntries(t, p, m1); got.Stamp != "one" {
		t.Fatalf("stamp %q after a torn last record, want one", got.Stamp)
	}
}

// TestManifestLogVersion1: a log written by a version that knows only
// version 1 (no stamps) is still applied, its stamp is none, and the next
// save writes the manifest whole instead of appending to it.
func TestManifestLogVersion1(t *testing.T) {
	p := filepath.Join(t.TempDir(), "manifest.bin")
	lp := filepath.Join(filepath.Dir(p), "manifest.log")
	save(t, sampleManifest(300), p)
	base, _ := os.ReadFile(p)
	m1 := edit(load(t, p), 1, 2, 1)
	upserts, removed := diffEntries(sampleManifest(300).Entries, m1.Entries)
	// A version 1 body: upserts and removals, no stamp.
	body := binary.AppendUvarint(nil, uint64(len(upserts)))
	for _, e := range upserts {
		body = appendEntryFields(appendString(body, e.Path), e)
		body = appendString(body, e.Parser)
	}
	body = binary.AppendUvarint(body, uint64(len(removed)))
	for _, p := range removed {
		body = appendString(body, p)
	}
	v1 := appendLogHeader(nil, 1, Hash(base[len(base)-len(Hash{}):]))
	v1 = changelog.AppendRecord(v1, body)
	if err := os.WriteFile(lp, v1, 0o600); err != nil {
		t.Fatal(err)
	}
	got := checkEntries(t, p, m1)
	if got.Stamp != "" {
		t.Fatalf("stamp %q from a version 1 log", got.Stamp)
	}
	m2 := edit(got, 3, 4, 2)
	save(t, m2, p)
	if after, _ := os.ReadFile(p); bytes.Equal(base, after) {
		t.Fatal("a save over a version 1 log appended to it")
	}
	checkEntries(t, p, m2)
}

// TestChangesOfWalkAndLookup: the two ways changesOf finds the changes
// (looking up the touched paths, walking both sides) agree on random
// manifests, with touched holding every changed path and some others.
func TestChangesOfWalkAndLookup(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for round := range 200 {
		var prev, next []Entry
		var touched []string
		for i := range 40 {
			p := fmt.Sprintf("f%03d", i)
			e := Entry{Path: p, Size: int64(i)}
			k := r.IntN(10)
			if k != 0 {
				prev = append(prev, e)
			}
			switch {
			case k == 1: // removed
				touched = append(touched, p)
				continue
			case k == 2 || k == 0: // changed or added
				e.Size += 100
				touched = append(touched, p)
			case k == 3: // touched, unchanged
				touched = append(touched, p)
			}
			next = append(next, e)
		}
		byWalk := changesByWalk(prev, next)
		byLookup := changesAt(prev, next, touched)
		if diff := cmp.Diff(byWalk, byLookup); diff != "" {
			t.Fatalf("round %d (-walk +lookup):\n%s", round, diff)
		}
		if diff := cmp.Diff(fullChanges(prev, next), byWalk); diff != "" {
			t.Fatalf("round %d (-full +walk):\n%s", round, diff)
		}
	}
}
