package mirror

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// packLayout returns the bytes of pack name in dir and where its index
// starts, read through the pack's own tail.
func packLayout(t *testing.T, dir, name string) ([]byte, int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := openPack(filepath.Join(dir, name), name)
	if err != nil {
		t.Fatal(err)
	}
	p.f.Close()
	return b, len(b) - packTailLen - p.count*packEntryLen
}

// assertIgnored checks that a store on dir does not see hs, still reads
// good (the hashes of an intact pack), and that Collect removes the file
// bad while keeping the intact pack.
func assertIgnored(t *testing.T, dir, bad string, hs []Hash, good []Hash, what string) {
	t.Helper()
	s := OpenStore(dir)
	defer s.Close()
	for _, h := range hs {
		if s.Has(h) {
			t.Fatalf("%s: Has reports an object of an unreadable pack", what)
		}
		if _, err := s.Get(h); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%s: Get = %v, want ErrNotExist", what, err)
		}
	}
	keep := map[Hash]bool{}
	for _, h := range append(slices.Clone(hs), good...) {
		keep[h] = true
	}
	st, err := s.Collect(keep)
	if err != nil {
		t.Fatalf("%s: Collect: %v", what, err)
	}
	if _, err := os.Stat(filepath.Join(dir, bad)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%s: Collect kept the unreadable pack (stats %+v)", what, st)
	}
	for _, h := range good {
		if _, err := s.Get(h); err != nil {
			t.Fatalf("%s: intact pack unreadable after Collect: %v", what, err)
		}
	}
}

// TestStoreTornPack truncates a pack at every length that cuts its index or
// tail (and at a few inside the records): the pack must be ignored as a
// whole and removed by Collect.
func TestStoreTornPack(t *testing.T) {
	src := t.TempDir()
	docs := []*Doc{testDoc(0, 40), testDoc(1, 70), testDoc(2, 20)}
	hs, name := makePack(t, src, docs...)
	full, indexStart := packLayout(t, src, name)
	cuts := []int{0, 1, packHeaderLen, packHeaderLen + 10, indexStart / 2, indexStart - 1}
	for n := indexStart; n < len(full); n++ {
		cuts = append(cuts, n)
	}
	for _, n := range cuts {
		dir := t.TempDir()
		good, _ := makePack(t, dir, testDoc(9, 50))
		if err := os.WriteFile(filepath.Join(dir, name), full[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		assertIgnored(t, dir, name, hs, good, fmt.Sprintf("cut at %d of %d", n, len(full)))
	}
}

// TestStoreFlippedIndexByte flips every byte of a pack's header, index and
// tail in turn: the pack must be ignored and removed by Collect.
func TestStoreFlippedIndexByte(t *testing.T) {
	src := t.TempDir()
	hs, name := makePack(t, src, testDoc(0, 40), testDoc(1, 70))
	full, indexStart := packLayout(t, src, name)
	dir := t.TempDir()
	good, _ := makePack(t, dir, testDoc(9, 50))
	offsets := []int{0, packHeaderLen - 1}
	for i := indexStart; i < len(full); i++ {
		offsets = append(offsets, i)
	}
	for _, i := range offsets {
		b := slices.Clone(full)
		b[i] ^= 0x10
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		assertIgnored(t, dir, name, hs, good, fmt.Sprintf("byte %d of %d flipped", i, len(full)))
	}
}

// TestStoreFlippedRecordByte flips every byte of a pack's records in turn:
// Get of the object whose record holds it must fail with ErrCorrupt, never
// return a wrong doc, and the other objects stay readable.
func TestStoreFlippedRecordByte(t *testing.T) {
	src := t.TempDir()
	docs := []*Doc{testDoc(0, 40), testDoc(1, 70), testDoc(2, 20)}
	hs, name := makePack(t, src, docs...)
	full, indexStart := packLayout(t, src, name)
	p, err := openPack(filepath.Join(src, name), name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.index(); err != nil {
		t.Fatal(err)
	}
	p.f.Close()
	dir := t.TempDir()
	for i := packHeaderLen; i < indexStart; i++ {
		b := slices.Clone(full)
		b[i] ^= 0x01
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		s := OpenStore(dir)
		for k, h := range hs {
			e, _ := p.find(h)
			hit := int64(i) >= e.off && int64(i) < e.off+e.recordLen()
			got, err := s.Get(h)
			switch {
			case hit && !errors.Is(err, ErrCorrupt):
				t.Fatalf("byte %d flipped in record of doc %d: Get = %v, want ErrCorrupt", i, k, err)
			case !hit && err != nil:
				t.Fatalf("byte %d flipped elsewhere: Get(doc %d) = %v", i, k, err)
			case err == nil && !cmp.Equal(got, docs[k]):
				t.Fatalf("byte %d flipped: Get(doc %d) returned a wrong doc", i, k)
			}
		}
		s.Close()
	}
}
