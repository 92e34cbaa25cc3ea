package cache

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzQueryEntry decodes arbitrary query-cache entry files: a value is
// served only for the exact bytes encodeEntry writes for (fp, key).
func FuzzQueryEntry(f *testing.F) {
	good, _ := encodeEntry("fp", [32]byte{7}, []byte(`{"results":[]}`))
	f.Add(good, "fp", byte(7))
	f.Add([]byte("AQCE"), "", byte(0))
	f.Fuzz(func(t *testing.T, data []byte, fp string, k byte) {
		key := [32]byte{k}
		v, ok := decodeEntry(data, fp, key)
		if !ok {
			return
		}
		want, err := encodeEntry(fp, key, v)
		if err != nil || !bytes.Equal(want, data) {
			t.Fatalf("served a value from bytes encodeEntry would not write: %q", data)
		}
	})
}

// FuzzEmbeddingFiles opens an embedding cache whose log and index hold
// arbitrary bytes: opening never panics and only fails on I/O, and no
// empty vector is served.
func FuzzEmbeddingFiles(f *testing.F) {
	dir := f.TempDir()
	c, err := OpenEmbeddings(dir, "test/model/4")
	if err != nil {
		f.Fatal(err)
	}
	for i := range 3 {
		if err := c.Put([32]byte{byte(i)}, []float32{1, 2, 3, float32(i)}); err != nil {
			f.Fatal(err)
		}
	}
	if err := c.Close(); err != nil {
		f.Fatal(err)
	}
	sub := filepath.Join(dir, dirName("test/model/4", 16))
	log, _ := os.ReadFile(filepath.Join(sub, logName))
	idx, _ := os.ReadFile(filepath.Join(sub, idxName))
	f.Add(log, idx)
	f.Add(log[:len(log)-3], idx)
	f.Add(log, []byte{})
	f.Fuzz(func(t *testing.T, log, idx []byte) {
		root := t.TempDir()
		sub := filepath.Join(root, dirName("test/model/4", 16))
		os.MkdirAll(sub, 0o700)
		os.WriteFile(filepath.Join(sub, logName), log, 0o600)
		os.WriteFile(filepath.Join(sub, idxName), idx, 0o600)
		c, err := OpenEmbeddings(root, "test/model/4")
		if err != nil {
			t.Fatalf("open over damaged files: %v", err)
		}
		defer c.Close()
		_ = c.Len()
		for i := range 4 {
			if v, ok := c.Get([32]byte{byte(i)}); ok && len(v) == 0 {
				t.Fatalf("served an empty vector (%d)", len(v))
			}
		}
	})
}
