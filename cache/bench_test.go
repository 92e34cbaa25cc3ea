package cache

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func BenchmarkQueriesGet(b *testing.B) {
	q := OpenQueries(b.TempDir(), 64<<20)
	v := make([]byte, 4<<10) // a typical --json envelope of ten results
	for i := range 100 {
		mustPut(b, q, fpA, testKey(i), v)
	}
	b.SetBytes(int64(len(v)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, ok := q.Get(fpA, testKey(i%100)); !ok {
			b.Fatal("miss")
		}
		i++
	}
}

// BenchmarkQueriesPut measures Put in steady state: the cache is full, so
// Puts include their share of the scans and evictions that keep it bounded.
func BenchmarkQueriesPut(b *testing.B) {
	for _, capBytes := range []int64{1 << 20, 16 << 20} {
		b.Run(fmt.Sprintf("cap=%dMiB", capBytes>>20), func(b *testing.B) {
			q := OpenQueries(b.TempDir(), capBytes)
			v := make([]byte, 4<<10)
			for i := range int(2 * capBytes / int64(len(v))) { // fill past the cap first
				mustPut(b, q, fpA, testKey(-i-1), v)
			}
			b.SetBytes(int64(len(v)))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				mustPut(b, q, fpA, testKey(i), v)
				i++
			}
		})
	}
}

// writeEmbeddings creates a cache of n vectors of dims dimensions, once per
// benchmark run, and returns its directory.
func writeEmbeddings(b *testing.B, n, dims int) string {
	b.Helper()
	dir := b.TempDir()
	c := openEmb(b, dir, "bench")
	v := make([]float32, dims)
	for i := range n {
		v[0] = float32(i)
		if err := c.Put(testHash(i), v); err != nil {
			b.Fatal(err)
		}
	}
	if err := c.Close(); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkEmbeddingsOpen measures OpenEmbeddings (warm page cache). "index"
// is the normal path (vectors.idx read in one go); "scan" removes the index
// first, so Open scans record headers in the log (the recovery path).
// 1536 dimensions is measured at 20k entries (123 MB of log) rather than
// 100k (615 MB): the index path is linear in entries, the scan path in the
// number of records and so pages touched.
func BenchmarkEmbeddingsOpen(b *testing.B) {
	for _, tc := range []struct{ n, dims int }{{100_000, 100}, {20_000, 1536}} {
		dir := writeEmbeddings(b, tc.n, tc.dims)
		for _, mode := range []string{"index", "scan"} {
			b.Run(fmt.Sprintf("n=%d/dims=%d/%s", tc.n, tc.dims, mode), func(b *testing.B) {
				if mode == "scan" {
					idx := filepath.Join(identityDir(dir, "bench"), idxName)
					if err := os.Remove(idx); err != nil && !os.IsNotExist(err) {
						b.Fatal(err)
					}
				}
				b.ReportAllocs()
				for b.Loop() {
					c := openEmb(b, dir, "bench")
					if c.Len() != tc.n {
						b.Fatalf("Len = %d, want %d", c.Len(), tc.n)
					}
					_ = c.Close()
				}
			})
		}
	}
}

func BenchmarkEmbeddingsGet(b *testing.B) {
	for _, dims := range []int{100, 1536} {
		b.Run(fmt.Sprintf("dims=%d", dims), func(b *testing.B) {
			dir := writeEmbeddings(b, 10_000, dims)
			c := openEmb(b, dir, "bench")
			defer c.Close()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, ok := c.Get(testHash(i % 10_000)); !ok {
					b.Fatal("miss")
				}
				i++
			}
		})
	}
}

func BenchmarkLRUGet(b *testing.B) {
	l := NewLRU[[32]byte, []byte](64<<20, func(v []byte) int64 { return int64(len(v)) })
	for i := range 1000 {
		l.Add(testKey(i), make([]byte, 1024))
	}
	keys := make([][32]byte, 1000)
	for i := range keys {
		keys[i] = testKey(i)
	}
	b.Run("serial", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, ok := l.Get(keys[i%1000]); !ok {
				b.Fatal("miss")
			}
			i++
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			i := 0
			for pb.Next() {
				if _, ok := l.Get(keys[i%1000]); !ok {
					b.Fatal("miss")
				}
				i++
			}
		})
	})
}

// BenchmarkEmbeddingsOpenPut is an incremental refresh's use of the cache:
// open it, Put the vectors of one edited file's three chunks, close it
// (Flush fsyncs). The cache holds the chunks of 100,000 documents.
func BenchmarkEmbeddingsOpenPut(b *testing.B) {
	dir := writeEmbeddings(b, 300_000, 100)
	v := make([]float32, 100)
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		c := openEmb(b, dir, "bench")
		for range 3 {
			i++
			if err := c.Put(testHash(-i), v); err != nil {
				b.Fatal(err)
			}
		}
		if err := c.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEmbeddingsOpenGet is a no-op or one-file refresh's reading of
// the cache: open it, Get three cached vectors, close it (nothing to
// flush). The cache holds the chunks of 100,000 documents.
func BenchmarkEmbeddingsOpenGet(b *testing.B) {
	const n = 300_000
	dir := writeEmbeddings(b, n, 100)
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		c := openEmb(b, dir, "bench")
		for range 3 {
			i = (i + 7919) % n
			if _, ok := c.Get(testHash(i)); !ok {
				b.Fatal("miss")
			}
		}
		if err := c.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
