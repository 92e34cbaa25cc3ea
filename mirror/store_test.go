package mirror

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStorePutGet(t *testing.T) {
	s := OpenStore(filepath.Join(t.TempDir(), "objects"))
	d := &Doc{Parser: "text@1", Lang: "text", Text: "hello"}
	h, err := s.Put(d)
	if err != nil {
		t.Fatal(err)
	}
	if h != d.TextHash() {
		t.Errorf("Put returned %s, want TextHash %s", h, d.TextHash())
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(h)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(d, got); diff != "" {
		t.Errorf("Get mismatch (-want +got):\n%s", diff)
	}
	// A second Put of the same Doc is a no-op that leaves the object alone.
	fi1, _ := os.Stat(s.objectPath(h))
	if h2, err := s.Put(d); err != nil || h2 != h {
		t.Fatalf("second Put = %s, %v", h2, err)
	}
	fi2, _ := os.Stat(s.objectPath(h))
	if !fi1.ModTime().Equal(fi2.ModTime()) {
		t.Errorf("second Put rewrote the object")
	}
	if _, err := s.Get(HashBytes([]byte("missing"))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Get(missing) error = %v, want ErrNotExist", err)
	}
}

func TestStoreGetDetectsCorruption(t *testing.T) {
	s := OpenStore(t.TempDir())
	h, err := s.Put(&Doc{Parser: "text@1", Text: "precious"})
	if err != nil {
		t.Fatal(err)
	}
	p := s.objectPath(h)
	b, _ := os.ReadFile(p)
	b[len(b)-1] ^= 1
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(h); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Get of damaged object error = %v, want ErrCorrupt", err)
	}
}

func TestStoreGC(t *testing.T) {
	s := OpenStore(t.TempDir())
	keep, _ := s.Put(&Doc{Text: "keep"})
	drop, _ := s.Put(&Doc{Text: "drop"})
	stray := filepath.Join(filepath.Dir(s.objectPath(keep)), tempPrefix+"123")
	if err := os.WriteFile(stray, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(s.Dir(), "README")
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	removed, err := s.GC(map[Hash]bool{keep: true})
	if err != nil {
		t.Fatal(err)
	}
	if removed != 2 {
		t.Errorf("GC removed %d, want 2 (one object, one temp file)", removed)
	}
	if !s.Has(keep) || s.Has(drop) {
		t.Errorf("after GC: has keep=%v drop=%v, want true false", s.Has(keep), s.Has(drop))
	}
	if _, err := os.Stat(stray); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("stray temp file survived GC")
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("GC removed a file it does not own: %v", err)
	}
	if _, err := OpenStore(filepath.Join(t.TempDir(), "none")).GC(nil); err != nil {
		t.Errorf("GC of a missing store: %v", err)
	}
}
