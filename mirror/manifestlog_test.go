package mirror

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// edit returns a copy of m's entries with entry i changed, entry j removed
// and a new entry added (its path sorts last), as Scan would derive them.
func edit(m *Manifest, i, j, n int) *Manifest {
	e := slices.Clone(m.Entries)
	e[i].Size++
	e[i].TextHash = HashBytes([]byte(fmt.Sprint("edit", n)))
	e = slices.Delete(e, j, j+1)
	e = append(e, Entry{Path: fmt.Sprintf("zz/new%05d.md", n), Size: 1, RawHash: HashBytes([]byte{byte(n)}), Parser: "markdown@2"})
	return &Manifest{Entries: e, origin: m.origin}
}

func load(t *testing.T, p string) *Manifest {
	t.Helper()
	m, err := LoadManifest(p)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func save(t *testing.T, m *Manifest, p string) {
	t.Helper()
	if err := m.Save(p); err != nil {
		t.Fatal(err)
	}
}

func checkEntries(t *testing.T, p string, want *Manifest) *Manifest {
	t.Helper()
	got := load(t, p)
	if diff := cmp.Diff(want.Entries, got.Entries); diff != "" {
		t.Fatalf("loaded entries (-want +got):\n%s", diff)
	}
	return got
}

// TestManifestLogAppends saves a loaded manifest after a small change: the
// base file stays as it was, the change goes to the log, and loading
// applies it; the log's write time is the manifest's.
func TestManifestLogAppends(t *testing.T) {
	p := filepath.Join(t.TempDir(), "manifest.bin")
	save(t, sampleManifest(1000), p)
	base, _ := os.ReadFile(p)
	m := edit(load(t, p), 10, 20, 1)
	save(t, m, p)
	if after, _ := os.ReadFile(p); !bytes.Equal(base, after) {
		t.Fatal("a small change rewrote the base file")
	}
	fi, err := os.Stat(filepath.Join(filepath.Dir(p), "manifest.log"))
	if err != nil {
		t.Fatalf("no log after a small change: %v", err)
	}
	if fi.Size() > 400 {
		t.Errorf("log of one change holds %d bytes", fi.Size())
	}
	got := checkEntries(t, p, m)
	if got.WrittenNS != fi.ModTime().UnixNano() {
		t.Errorf("WrittenNS = %d, want the log's mtime %d", got.WrittenNS, fi.ModTime().UnixNano())
	}
	// A second change appends again; an unchanged save (the racy case)
	// appends an empty record, which still moves the write time.
	m2 := edit(got, 30, 40, 2)
	save(t, m2, p)
	got = checkEntries(t, p, m2)
	save(t, &Manifest{Entries: got.Entries, origin: got.origin}, p)
	checkEntries(t, p, m2)
}

// TestManifestLogTornTail cuts the log inside its last record: loading
// yields the state before that save, and the next save cuts the torn bytes
// off before appending.
func TestManifestLogTornTail(t *testing.T) {
	p := filepath.Join(t.TempDir(), "manifest.bin")
	lp := filepath.Join(filepath.Dir(p), "manifest.log")
	save(t, sampleManifest(500), p)
	m1 := edit(load(t, p), 1, 2, 1)
	save(t, m1, p)
	fi, _ := os.Stat(lp)
	m2 := edit(load(t, p), 3, 4, 2)
	save(t, m2, p)
	fi2, _ := os.Stat(lp)
	for cut := fi.Size() + 1; cut < fi2.Size(); cut += 7 {
		if err := os.Truncate(lp, cut); err != nil {
			t.Fatal(err)
		}
		checkEntries(t, p, m1)
	}
	m3 := edit(load(t, p), 5, 6, 3)
	save(t, m3, p)
	checkEntries(t, p, m3)
}

// TestManifestLogDamagedRecord flips a byte of the first of two records:
// neither counts, and the manifest is the base.
func TestManifestLogDamagedRecord(t *testing.T) {
	p := filepath.Join(t.TempDir(), "manifest.bin")
	lp := filepath.Join(filepath.Dir(p), "manifest.log")
	base := sampleManifest(300)
	save(t, base, p)
	save(t, edit(load(t, p), 1, 2, 1), p)
	save(t, edit(load(t, p), 3, 4, 2), p)
	b, _ := os.ReadFile(lp)
	b[len(manifestLogMagic)+1+len(Hash{})+3] ^= 0x40
	if err := os.WriteFile(lp, b, 0o600); err != nil {
		t.Fatal(err)
	}
	checkEntries(t, p, base)
}

// TestManifestLogOfOtherBase keeps a log aside while the base is rewritten
// whole, then puts it back (a crash before the stale log's removal): it
// names the old base and is ignored.
func TestManifestLogOfOtherBase(t *testing.T) {
	p := filepath.Join(t.TempDir(), "manifest.bin")
	lp := filepath.Join(filepath.Dir(p), "manifest.log")
	save(t, sampleManifest(300), p)
	save(t, edit(load(t, p), 1, 2, 1), p)
	stale, _ := os.ReadFile(lp)
	whole := sampleManifest(200)
	save(t, whole, p) // not loaded: written whole
	if _, err := os.Stat(lp); !os.IsNotExist(err) {
		t.Fatalf("whole save left the superseded log (%v)", err)
	}
	if err := os.WriteFile(lp, stale, 0o600); err != nil {
		t.Fatal(err)
	}
	checkEntries(t, p, whole)
}

// TestManifestLogCompacts saves many changes: once the log would pass an
// eighth of the base, the base is rewritten and the log removed; every
// load in between sees the latest entries.
func TestManifestLogCompacts(t *testing.T) {
	p := filepath.Join(t.TempDir(), "manifest.bin")
	lp := filepath.Join(filepath.Dir(p), "manifest.log")
	save(t, sampleManifest(200), p)
	base, _ := os.Stat(p)
	rewrites := 0
	for n := range 60 {
		m := edit(load(t, p), n%100, 100+n%50, n)
		save(t, m, p)
		checkEntries(t, p, m)
		fi, err := os.Stat(lp)
		switch {
		case os.IsNotExist(err):
			rewrites++
		case err != nil:
			t.Fatal(err)
		case fi.Size() > max(base.Size()/logCompactRatio, 4<<10):
			t.Fatalf("log grew to %d bytes beside a base of %d", fi.Size(), base.Size())
		}
	}
	if rewrites == 0 {
		t.Error("60 saves never rewrote the base")
	}
}

// TestManifestLogBaseChanged: a save whose base was replaced since the
// load (another writer's whole save) writes whole instead of appending a
// change computed against entries that are no longer there.
func TestManifestLogBaseChanged(t *testing.T) {
	p := filepath.Join(t.TempDir(), "manifest.bin")
	save(t, sampleManifest(300), p)
	loaded := load(t, p)
	save(t, sampleManifest(100), p)
	m := edit(loaded, 1, 2, 1)
	save(t, m, p)
	checkEntries(t, p, m)
}

func FuzzManifestLog(f *testing.F) {
	base := HashBytes([]byte("base"))
	old := sampleManifest(5).Entries
	upserts, removed := diffEntries(old, edit(&Manifest{Entries: old}, 1, 2, 1).Entries)
	f.Add(append(appendLogHeader(nil, manifestLogVersion, base), encodeLogRecord(upserts, removed, "stamp")...))
	f.Add(appendLogHeader(nil, manifestLogVersion, base))
	f.Add(appendLogHeader(nil, 1, base))
	f.Fuzz(func(t *testing.T, data []byte) {
		l := decodeLog(data, base)
		changes, end := l.changes, l.end
		if end > int64(len(data)) {
			t.Fatalf("end %d past the input's %d bytes", end, len(data))
		}
		for i, c := range changes {
			if c.path == "" || i > 0 && strings.Compare(changes[i-1].path, c.path) >= 0 {
				t.Fatalf("changes not sorted and unique at %d", i)
			}
			if c.entry != nil && c.entry.Path != c.path {
				t.Fatalf("change for %q holds entry %q", c.path, c.entry.Path)
			}
		}
		got := applyChanges(old, changes)
		if err := (&Manifest{Entries: got}).checkSorted(); err != nil {
			t.Fatalf("applied changes break the order: %v", err)
		}
	})
}

// TestManifestLogInPlaceEdit changes a loaded manifest's entries in place
// and saves it: the change must not be lost for want of a difference to
// the entries as loaded (they are the same array).
func TestManifestLogInPlaceEdit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "manifest.bin")
	save(t, sampleManifest(300), p)
	m := load(t, p)
	m.Entries[7].Size += 100
	save(t, m, p)
	want := sampleManifest(300)
	want.Entries[7].Size += 100
	checkEntries(t, p, want)
}

// TestManifestLogChangesOnly saves changes that only replace entries (the
// in-place path of applyChanges) and then one that also removes and adds.
func TestManifestLogChangesOnly(t *testing.T) {
	p := filepath.Join(t.TempDir(), "manifest.bin")
	save(t, sampleManifest(300), p)
	m := load(t, p)
	e := slices.Clone(m.Entries)
	e[0].Size, e[150].MtimeNS, e[299].Parser = 1, 2, "code@9"
	m = &Manifest{Entries: e, origin: m.origin}
	save(t, m, p)
	m = edit(checkEntries(t, p, m), 5, 6, 1)
	save(t, m, p)
	checkEntries(t, p, m)
}
