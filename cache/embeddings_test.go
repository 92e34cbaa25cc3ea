package cache

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/zeebo/blake3"
)

// testHash is the content hash of the i-th test text.
func testHash(i int) [32]byte {
	return blake3.Sum256([]byte{byte(i), byte(i >> 8), byte(i >> 16), byte(i >> 24)})
}

// testVec is a vector derived from i, so any stored value can be checked.
func testVec(i, dims int) []float32 {
	v := make([]float32, dims)
	for j := range v {
		v[j] = float32(i)*1000 + float32(j) + 0.25
	}
	return v
}

func openEmb(t testing.TB, dir, identity string) *Embeddings {
	t.Helper()
	c, err := OpenEmbeddings(dir, identity)
	if err != nil {
		t.Fatalf("OpenEmbeddings: %v", err)
	}
	return c
}

func putRange(t testing.TB, c *Embeddings, from, to, dims int) {
	t.Helper()
	for i := from; i < to; i++ {
		if err := c.Put(testHash(i), testVec(i, dims)); err != nil {
			t.Fatalf("Put %d: %v", i, err)
		}
	}
}

// checkRange asserts every i in [from, to) is served with its own vector.
func checkRange(t testing.TB, c *Embeddings, from, to, dims int) {
	t.Helper()
	for i := from; i < to; i++ {
		v, ok := c.Get(testHash(i))
		if !ok {
			t.Fatalf("Get %d: missing", i)
		}
		if !slices.Equal(v, testVec(i, dims)) {
			t.Fatalf("Get %d: wrong vector", i)
		}
	}
}

func identityDir(dir, identity string) string { return filepath.Join(dir, dirName(identity, 16)) }

func TestEmbeddingsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	c := openEmb(t, dir, "local/test@1 dims=8")
	if _, ok := c.Get(testHash(1)); ok {
		t.Fatal("empty cache served a vector")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("open and Get created %d entries; want none until Put", len(ents))
	}
	putRange(t, c, 0, 50, 8)
	checkRange(t, c, 0, 50, 8) // from the write buffer
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	checkRange(t, c, 0, 50, 8) // from the file
	if err := c.Put(testHash(3), testVec(999, 8)); err != nil {
		t.Fatal(err)
	}
	checkRange(t, c, 3, 4, 8) // a second Put of a held hash is a no-op
	if c.Len() != 50 {
		t.Fatalf("Len = %d, want 50", c.Len())
	}
	if err := c.Put(testHash(100), nil); err == nil {
		t.Fatal("Put of an empty vector succeeded")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(testHash(101), testVec(101, 8)); err == nil {
		t.Fatal("Put after Close succeeded")
	}
}

func TestEmbeddingsPersistAndLargeBuffer(t *testing.T) {
	dir := t.TempDir()
	const id, dims = "remote/model dims=300", 300
	c := openEmb(t, dir, id)
	// More than writeBufSize of records: part is read back from the file
	// before any Flush, part from the buffer.
	n := 2*writeBufSize/int(recordLen(dims)) + 7
	putRange(t, c, 0, n, dims)
	checkRange(t, c, 0, n, dims)
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	r := openEmb(t, dir, id) // a reader while the writer is open
	checkRange(t, r, 0, n, dims)
	_ = r.Close()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c = openEmb(t, dir, id)
	defer c.Close()
	if c.Len() != n {
		t.Fatalf("Len after reopen = %d, want %d", c.Len(), n)
	}
	checkRange(t, c, 0, n, dims)
	putRange(t, c, n, n+10, dims)
	checkRange(t, c, 0, n+10, dims)
}

func TestEmbeddingsTornTail(t *testing.T) {
	for _, tc := range []struct {
		name string
		idx  func(path string) error
	}{
		{"index kept", func(string) error { return nil }},
		{"index removed", os.Remove},
		{"index torn", func(p string) error {
			fi, err := os.Stat(p)
			if err != nil {
				return err
			}
			return os.Truncate(p, fi.Size()-idxEntryLen-idxEntryLen/2)
		}},
		{"index garbage", func(p string) error { return os.WriteFile(p, []byte("not an index"), 0o644) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			const id, dims = "torn", 16
			c := openEmb(t, dir, id)
			putRange(t, c, 0, 20, dims)
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			d := identityDir(dir, id)
			logPath := filepath.Join(d, logName)
			fi, err := os.Stat(logPath)
			if err != nil {
				t.Fatal(err)
			}
			// Cut the last record in the middle of its payload.
			if err := os.Truncate(logPath, fi.Size()-recordLen(dims)/2); err != nil {
				t.Fatal(err)
			}
			if err := tc.idx(filepath.Join(d, idxName)); err != nil {
				t.Fatal(err)
			}
			c = openEmb(t, dir, id)
			if c.Len() != 19 {
				t.Fatalf("Len = %d, want 19 (torn record ignored)", c.Len())
			}
			checkRange(t, c, 0, 19, dims)
			if _, ok := c.Get(testHash(19)); ok {
				t.Fatal("torn record served")
			}
			// Later appends land after the last intact record and survive.
			putRange(t, c, 19, 30, dims)
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			c = openEmb(t, dir, id)
			defer c.Close()
			if c.Len() != 30 {
				t.Fatalf("Len after appending = %d, want 30", c.Len())
			}
			checkRange(t, c, 0, 30, dims)
			if fi, _ := os.Stat(logPath); fi.Size() != logHeaderSize(id)+30*recordLen(dims) {
				t.Fatalf("log is %d bytes, want %d (torn tail cut off)", fi.Size(), logHeaderSize(id)+30*recordLen(dims))
			}
		})
	}
}

func logHeaderSize(identity string) int64 { return int64(logFixedLen + len(identity)) }

// flipByte inverts one byte of a file.
func flipByte(t *testing.T, path string, off int64) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := []byte{0}
	if _, err := f.ReadAt(b, off); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0xff
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}

func TestEmbeddingsCorruptPayload(t *testing.T) {
	dir := t.TempDir()
	const id, dims = "corrupt", 16
	c := openEmb(t, dir, id)
	putRange(t, c, 0, 10, dims)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(identityDir(dir, id), logName)
	flipByte(t, logPath, logHeaderSize(id)+4*recordLen(dims)+recHeaderLen+5) // payload of record 4

	c = openEmb(t, dir, id)
	defer c.Close()
	if _, ok := c.Get(testHash(4)); ok {
		t.Fatal("corrupt record served")
	}
	if c.Len() != 9 {
		t.Fatalf("Len = %d, want 9 (corrupt record forgotten)", c.Len())
	}
	checkRange(t, c, 0, 4, dims)
	checkRange(t, c, 5, 10, dims)
	// Re-embedding it appends a fresh record that wins from then on.
	putRange(t, c, 4, 5, dims)
	checkRange(t, c, 4, 5, dims)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c = openEmb(t, dir, id)
	checkRange(t, c, 0, 10, dims)
}

func TestEmbeddingsCorruptHeaderResync(t *testing.T) {
	dir := t.TempDir()
	const id, dims = "resync", 16
	c := openEmb(t, dir, id)
	putRange(t, c, 0, 10, dims)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	d := identityDir(dir, id)
	flipByte(t, filepath.Join(d, logName), logHeaderSize(id)+3*recordLen(dims)+33) // dims field of record 3
	if err := os.Remove(filepath.Join(d, idxName)); err != nil {                   // force the scan path
		t.Fatal(err)
	}
	c = openEmb(t, dir, id)
	if c.Len() != 9 {
		t.Fatalf("Len = %d, want 9: the scan should skip only the bad record", c.Len())
	}
	checkRange(t, c, 0, 3, dims)
	checkRange(t, c, 4, 10, dims)
	putRange(t, c, 10, 12, dims) // the writer keeps the records after the bad one
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c = openEmb(t, dir, id)
	defer c.Close()
	if c.Len() != 11 {
		t.Fatalf("Len after reopen = %d, want 11", c.Len())
	}
	checkRange(t, c, 4, 12, dims)
}

func TestEmbeddingsBadHeaderStartsOver(t *testing.T) {
	dir := t.TempDir()
	const id, dims = "header", 4
	c := openEmb(t, dir, id)
	putRange(t, c, 0, 5, dims)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	flipByte(t, filepath.Join(identityDir(dir, id), logName), 2)
	c = openEmb(t, dir, id)
	if c.Len() != 0 {
		t.Fatalf("Len = %d with a damaged log header, want 0", c.Len())
	}
	putRange(t, c, 5, 8, dims)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c = openEmb(t, dir, id)
	defer c.Close()
	if c.Len() != 3 {
		t.Fatalf("Len = %d, want 3", c.Len())
	}
	checkRange(t, c, 5, 8, dims)
}

// TestEmbeddingsStaleOpenReloads opens two caches over a log that has
// records; one writes and closes, then the other, whose Open loaded the
// log before those records, writes: it must load the log again instead of
// appending after what its Open saw, and every record must survive.
func TestEmbeddingsStaleOpenReloads(t *testing.T) {
	dir := t.TempDir()
	c := openEmb(t, dir, "x")
	putRange(t, c, 0, 3, 4)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	a, b := openEmb(t, dir, "x"), openEmb(t, dir, "x")
	putRange(t, a, 3, 5, 4)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	putRange(t, b, 5, 7, 4)
	checkRange(t, b, 0, 7, 4)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	r := openEmb(t, dir, "x")
	defer r.Close()
	if r.Len() != 7 {
		t.Fatalf("Len = %d after reopening, want 7", r.Len())
	}
	checkRange(t, r, 0, 7, 4)
}

// TestEmbeddingsWriterKeepsForgotten checks the state Open loaded and a
// writer reuses: a record Get found corrupt stays forgotten, is embedded
// again by a Put, and is served from the new record after reopening.
func TestEmbeddingsWriterKeepsForgotten(t *testing.T) {
	dir := t.TempDir()
	c := openEmb(t, dir, "x")
	putRange(t, c, 0, 3, 4)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(identityDir(dir, "x"), logName)
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-2] ^= 0xff // last record's payload
	if err := os.WriteFile(log, b, 0o600); err != nil {
		t.Fatal(err)
	}
	w := openEmb(t, dir, "x")
	if _, ok := w.Get(testHash(2)); ok {
		t.Fatal("corrupt record served")
	}
	putRange(t, w, 2, 4, 4)
	checkRange(t, w, 0, 4, 4)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r := openEmb(t, dir, "x")
	defer r.Close()
	checkRange(t, r, 0, 4, 4)
}
