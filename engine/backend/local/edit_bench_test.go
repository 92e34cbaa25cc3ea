package local

import (
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/autorag/autorag/engine/backend"
)

// BenchmarkEditCommit is the local backend's share of a one-file refresh:
// each op builds the next generation from the one before (Begin: clone and
// open; Apply: delete the file's chunk, insert its new one, merge; Finish)
// and removes the one before, on an index of 2,000 one-chunk files written
// in 20 batches. It reports the process's CPU time per op (getrusage,
// every goroutine: bleve's persister and merger included) and the segment
// count at the end.
func BenchmarkEditCommit(b *testing.B) {
	s := Storage{Dir: b.TempDir()}
	s.GenDir = func(gen string) string { return fmt.Sprintf("%s/index/%s", s.Dir, gen) }
	const files = 2000
	chunk := func(i, rev int) *backend.Chunk {
		return &backend.Chunk{Path: fmt.Sprintf("f%04d.md", i), Text: fmt.Sprintf("heron %d waits in the reeds, revision %d, word%d", i, rev, i%97)}
	}
	var all []*backend.Chunk
	for i := range files {
		all = append(all, chunk(i, 0))
	}
	gen := fmt.Sprintf("%09d", 1)
	if err := os.MkdirAll(s.GenDir(gen), 0o755); err != nil {
		b.Fatal(err)
	}
	w, err := s.Begin(b.Context(), "", gen)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < files; i += files / 20 {
		if err := w.Apply(b.Context(), backend.Change{Upserts: all[i : i+files/20], Final: i+files/20 == files}); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Finish(b.Context()); err != nil {
		b.Fatal(err)
	}
	cpu := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		base, next := gen, fmt.Sprintf("%09d", i+2)
		edit(b, s, base, next, chunk((i*7919)%files, i+1))
		if err := os.RemoveAll(s.GenDir(base)); err != nil {
			b.Fatal(err)
		}
		gen = next
	}
	b.StopTimer()
	b.ReportMetric(float64((processCPU()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	if st, err := s.Segments(gen); err == nil {
		b.ReportMetric(float64(st.Segments), "segments")
	}
}

// processCPU is the CPU time the process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
