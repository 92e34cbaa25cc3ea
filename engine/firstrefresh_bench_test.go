package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkFirstRefreshBM25 measures a BM25-only first refresh (no
// embedder) of writeCorpus's documents at AUTORAG_BENCH_DOCS (default
// 2,000): every iteration deletes the index and builds it again. Besides
// the wall clock it reports the process's CPU time (user+sys) per refresh,
// which a loaded machine inflates less, and MB/s of source text.
func BenchmarkFirstRefreshBM25(b *testing.B) {
	for _, n := range benchSizes(b) {
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			writeCorpus(b, dir, n)
			b.SetBytes(treeBytes(b, dir))
			s := DefaultSettings()
			s.Embedder = nil
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				if err := os.RemoveAll(filepath.Join(dir, ".autorag")); err != nil {
					b.Fatal(err)
				}
				e, err := New(dir, s)
				if err != nil {
					b.Fatal(err)
				}
				before := cpuTime()
				b.StartTimer()
				if _, err := e.Refresh(context.Background(), RefreshOptions{}); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				cpu += cpuTime() - before
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// treeBytes is the size of the regular files directly in dir.
func treeBytes(tb testing.TB, dir string) int64 {
	tb.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var n int64
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() {
			n += fi.Size()
		}
	}
	return n
}

// cpuTime is the process's user+sys CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
