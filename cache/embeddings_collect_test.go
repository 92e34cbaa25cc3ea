package cache

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestEmbeddingsCollect(t *testing.T) {
	dir := t.TempDir()
	const id, dims = "collect", 32
	other := openEmb(t, dir, "other identity")
	putRange(t, other, 0, 10, dims)
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}
	c := openEmb(t, dir, id)
	putRange(t, c, 0, 100, dims)
	even := func(h [32]byte) bool {
		for i := range 100 {
			if testHash(i) == h {
				return i%2 == 0
			}
		}
		return false
	}
	if n, err := c.Collect(even, 1<<30); err != nil || n != 0 {
		t.Fatalf("Collect under cap = %d, %v; want 0, nil", n, err)
	}
	if c.Len() != 100 {
		t.Fatalf("Len = %d after Collect under cap, want 100", c.Len())
	}
	if _, err := os.Stat(identityDir(dir, "other identity")); err != nil {
		t.Fatalf("other identity removed under cap: %v", err)
	}
	before, _ := dirBytes(dir)
	n, err := c.Collect(even, before-1)
	if err != nil || n != 50 {
		t.Fatalf("Collect over cap = %d, %v; want 50, nil", n, err)
	}
	after, _ := dirBytes(dir)
	if after >= before {
		t.Fatalf("Collect left %d bytes, had %d", after, before)
	}
	if left := dataLeft(identityDir(dir, "other identity")); len(left) > 0 {
		t.Fatalf("other identity kept over cap: %v", left)
	}
	check := func(c *Embeddings) {
		t.Helper()
		if c.Len() != 50 {
			t.Fatalf("Len = %d, want 50", c.Len())
		}
		for i := range 100 {
			if _, ok := c.Get(testHash(i)); ok != (i%2 == 0) {
				t.Fatalf("entry %d present=%v after Collect", i, ok)
			}
		}
		for i := 0; i < 100; i += 2 {
			checkRange(t, c, i, i+1, dims)
		}
	}
	check(c)
	// Live entries are kept even when they alone exceed the cap.
	if n, err := c.Collect(func([32]byte) bool { return true }, 1); err != nil || n != 0 {
		t.Fatalf("Collect of all-live = %d, %v; want 0, nil", n, err)
	}
	putRange(t, c, 200, 201, dims) // appending after a rewrite works
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c = openEmb(t, dir, id)
	defer c.Close()
	checkRange(t, c, 200, 201, dims)
	if _, err := c.Collect(func(h [32]byte) bool { return h != testHash(200) }, 1); err != nil {
		t.Fatal(err)
	}
	check(c)
	if ents, _ := os.ReadDir(identityDir(dir, id)); len(ents) != 3 {
		t.Fatalf("identity directory holds %d files, want 3 (log, index, writer lock)", len(ents))
	}
}

func TestEmbeddingsIdentitiesIsolated(t *testing.T) {
	dir := t.TempDir()
	a, b := openEmb(t, dir, "model-a"), openEmb(t, dir, "model-b")
	h := testHash(1)
	if err := a.Put(h, []float32{1, 2}); err != nil {
		t.Fatal(err)
	}
	if _, ok := b.Get(h); ok {
		t.Fatal("identity b served identity a's vector")
	}
	if err := b.Put(h, []float32{3, 4, 5}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*Embeddings{a, b} {
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
	a, b = openEmb(t, dir, "model-a"), openEmb(t, dir, "model-b")
	defer a.Close()
	defer b.Close()
	if v, _ := a.Get(h); !slices.Equal(v, []float32{1, 2}) {
		t.Fatalf("a = %v", v)
	}
	if v, _ := b.Get(h); !slices.Equal(v, []float32{3, 4, 5}) {
		t.Fatalf("b = %v", v)
	}
}

func TestEmbeddingsOneWriter(t *testing.T) {
	dir := t.TempDir()
	a, b := openEmb(t, dir, "x"), openEmb(t, dir, "x")
	putRange(t, a, 0, 3, 4)
	if err := b.Put(testHash(9), testVec(9, 4)); !errors.Is(err, ErrWriterBusy) {
		t.Fatalf("second writer Put = %v, want ErrWriterBusy", err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	// Once the first writer is gone the second takes over and sees its
	// records, although it opened before they were written.
	putRange(t, b, 3, 5, 4)
	checkRange(t, b, 0, 5, 4)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestEmbeddingsIndexCompaction(t *testing.T) {
	dir := t.TempDir()
	const id, n = "compact", compactMin + 500
	c := openEmb(t, dir, id)
	putRange(t, c, 0, n, 2)
	if err := c.Flush(); err != nil { // the tail passes compactMin: rewritten sorted
		t.Fatal(err)
	}
	putRange(t, c, n, n+10, 2) // and appended to again
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	idx, err := os.ReadFile(filepath.Join(identityDir(dir, id), idxName))
	if err != nil {
		t.Fatal(err)
	}
	c = openEmb(t, dir, id)
	if got, want := c.index.base.len()*idxEntryLen, n*idxEntryLen; got != want {
		t.Fatalf("sorted region is %d bytes, want %d", got, want)
	}
	if len(idx) != idxHeaderLen+(n+10)*idxEntryLen {
		t.Fatalf("index is %d bytes, want %d", len(idx), idxHeaderLen+(n+10)*idxEntryLen)
	}
	if c.Len() != n+10 {
		t.Fatalf("Len = %d, want %d", c.Len(), n+10)
	}
	checkRange(t, c, 0, n+10, 2)
	_ = c.Close()

	// A damaged entry in the sorted region loses that entry only.
	victim := testHash(77)
	pos := -1
	for i := 0; i < n; i++ {
		if [32]byte(idx[idxHeaderLen+i*idxEntryLen:]) == victim {
			pos = idxHeaderLen + i*idxEntryLen
		}
	}
	if pos < 0 {
		t.Fatal("entry 77 not in the sorted region")
	}
	flipByte(t, filepath.Join(identityDir(dir, id), idxName), int64(pos+40)) // its dims
	c = openEmb(t, dir, id)
	defer c.Close()
	if _, ok := c.Get(victim); ok {
		t.Fatal("entry with a damaged index entry served")
	}
	checkRange(t, c, 0, 77, 2)
	checkRange(t, c, 78, n+10, 2)
	putRange(t, c, 77, 78, 2) // re-embedded: appended and found again
	checkRange(t, c, 77, 78, 2)
	if c.Len() != n+10 {
		t.Fatalf("Len = %d after re-adding, want %d", c.Len(), n+10)
	}
}

// TestEmbeddingsCollectKeeps: over the cap, Collect keeps the directories
// of the identities it is told to keep (an upgrade's target, written by
// another process meanwhile) and empties the others but for their lock
// files (TestCollectKeepsOtherWritersLock).
func TestEmbeddingsCollectKeeps(t *testing.T) {
	dir := t.TempDir()
	own, target, old := openEmb(t, dir, "own"), openEmb(t, dir, "target"), openEmb(t, dir, "old")
	for _, c := range []*Embeddings{own, target, old} {
		putRange(t, c, 0, 10, 4)
		if err := c.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := own.Collect(func([32]byte) bool { return true }, 1, "target"); err != nil {
		t.Fatal(err)
	}
	if left := dataLeft(identityDir(dir, "old")); len(left) > 0 {
		t.Fatalf("the identity not kept survived the collection: %v left", left)
	}
	putRange(t, target, 10, 12, 4) // its writer goes on in the directory kept
	if err := target.Close(); err != nil {
		t.Fatal(err)
	}
	reopened := openEmb(t, dir, "target")
	defer reopened.Close()
	checkRange(t, reopened, 0, 12, 4)
	if err := own.Close(); err != nil {
		t.Fatal(err)
	}
}

// dataLeft names the files in an identity's directory but its writer.lock
// (which a collection keeps: TestCollectKeepsOtherWritersLock).
func dataLeft(dir string) []string {
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		if e.Name() != writerLockName {
			out = append(out, e.Name())
		}
	}
	return out
}
