package mirror

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func sampleManifest(n int) *Manifest {
	m := &Manifest{Entries: make([]Entry, n)}
	parsers := []string{"text@2", "markdown@2", "code@2"}
	for i := range m.Entries {
		m.Entries[i] = Entry{
			Path:     fmt.Sprintf("dir%03d/sub/file%05d.txt", i/100, i),
			Size:     int64(i * 37),
			MtimeNS:  1700000000000000000 + int64(i),
			RawHash:  HashBytes([]byte(fmt.Sprint("raw", i))),
			TextHash: HashBytes([]byte(fmt.Sprint("text", i))),
			Parser:   parsers[i%3],
		}
	}
	return m
}

func TestManifestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, m := range []*Manifest{{}, sampleManifest(1), sampleManifest(1000)} {
		m.Entries = append(m.Entries[:0:0], m.Entries...)
		if len(m.Entries) == 1 {
			m.Entries[0].MtimeNS = -5 // before 1970 still round-trips
		}
		p := filepath.Join(dir, "sub", "manifest")
		if err := m.Save(p); err != nil {
			t.Fatal(err)
		}
		got, err := LoadManifest(p)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(m.Entries, got.Entries); diff != "" {
			t.Errorf("round trip mismatch (-want +got):\n%s", diff)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "sub"))
	if len(entries) != 1 {
		t.Errorf("Save left %d files behind, want only the manifest", len(entries))
	}
}

func TestLoadManifestMissing(t *testing.T) {
	m, err := LoadManifest(filepath.Join(t.TempDir(), "nope"))
	if err != nil || m == nil || len(m.Entries) != 0 {
		t.Errorf("LoadManifest(missing) = %+v, %v; want empty, nil", m, err)
	}
}

func TestLoadManifestCorrupt(t *testing.T) {
	good := sampleManifest(50).encode()
	flip := func(i int) []byte {
		b := append([]byte{}, good...)
		b[i] ^= 0x40
		return b
	}
	// A validly checksummed file of an unknown version.
	future := append([]byte{}, good[:len(good)-32]...)
	future[4] = manifestVersion + 1
	sum := HashBytes(future)
	future = append(future, sum[:]...)
	// A validly checksummed file with unsorted paths.
	unsorted := &Manifest{Entries: []Entry{{Path: "b"}, {Path: "a"}}}
	tests := map[string][]byte{
		"empty":            {},
		"truncated":        good[:len(good)/2],
		"truncated by one": good[:len(good)-1],
		"flipped header":   flip(2),
		"flipped entry":    flip(len(good) / 2),
		"flipped checksum": flip(len(good) - 1),
		"future version":   future,
		"unsorted paths":   unsorted.encode(),
		"garbage":          []byte("this is not a manifest at all, just some text......"),
	}
	dir := t.TempDir()
	for name, b := range tests {
		p := filepath.Join(dir, "m")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadManifest(p); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: LoadManifest error = %v, want ErrCorrupt", name, err)
		}
	}
}

func TestManifestSaveRejectsUnsorted(t *testing.T) {
	m := &Manifest{Entries: []Entry{{Path: "b"}, {Path: "a"}}}
	if err := m.Save(filepath.Join(t.TempDir(), "m")); err == nil {
		t.Error("Save of unsorted entries succeeded")
	}
}

func TestManifestLookup(t *testing.T) {
	m := sampleManifest(300)
	for _, i := range []int{0, 1, 150, 299} {
		e, ok := m.Lookup(m.Entries[i].Path)
		if !ok || e != &m.Entries[i] {
			t.Errorf("Lookup(%q) = %v, %v", m.Entries[i].Path, e, ok)
		}
	}
	for _, p := range []string{"", "a", "dir000/sub/file00000.txt0", "zzz"} {
		if _, ok := m.Lookup(p); ok {
			t.Errorf("Lookup(%q) found an entry", p)
		}
	}
}
