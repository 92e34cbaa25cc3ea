package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"testing"
	"time"

	"github.com/autorag/autorag/engine/embed/static"
	"github.com/autorag/autorag/internal/benchtrees"
	"github.com/autorag/autorag/mirror"
)

// BenchmarkEditMinusNoop is a one-file edit's refresh against a no-op
// refresh, in process, on each tree of AUTORAG_BENCH_TREES (a comma list of
// trees already indexed by `autorag refresh`, e.g. copies of the harness's
// generated corpora). Each iteration appends a line to one file and
// refreshes (must say updated), refreshes again to settle, then refreshes
// once more (must say unchanged). It reports the CPU time of the process
// (getrusage: user+sys, both cores) of the edit and of the no-op refresh
// and their difference, and labels the two in a -cpuprofile (pprof tag
// refresh=edit or noop). The trees are indexed with the CLI's default
// embedder; AUTORAG_BENCH_EMBEDDER=none for trees indexed without one.
// Skipped without the variable.
func BenchmarkEditMinusNoop(b *testing.B) {
	benchtrees.Each(b, benchEditMinusNoop)
}

func benchEditMinusNoop(b *testing.B, dir string) {
	e := openBenchTree(b, dir)
	var err error
	ctx := context.Background()
	refresh := func(label, want string) time.Duration {
		var r *RefreshResult
		cpu := processCPU()
		pprof.Do(ctx, pprof.Labels("refresh", label), func(ctx context.Context) {
			r, err = e.Refresh(ctx, RefreshOptions{})
		})
		took := processCPU() - cpu
		if err != nil || r.Outcome != want && (want != "" || r.Outcome == OutcomeRebuilt) {
			b.Fatalf("%s refresh: %v, %v; want %s (a tree indexed with other settings?)", label, r, err, want)
		}
		return took
	}
	refresh("settle", "") // unchanged or updated (the tree was edited since), not rebuilt
	refresh("settle", OutcomeUnchanged)
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no *.md files in %s (%v)", dir, err)
	}
	slices.Sort(files)
	var edits, noops []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := files[(i*7919)%len(files)]
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "\nRevision zq%dx of this page.\n", time.Now().UnixNano())
		f.Close()
		edits = append(edits, refresh("edit", OutcomeUpdated))
		refresh("settle", OutcomeUnchanged)
		noops = append(noops, refresh("noop", OutcomeUnchanged))
	}
	b.StopTimer()
	edit, noop := median(edits), median(noops)
	b.ReportMetric(float64(edit.Nanoseconds()), "edit-cpu-ns/op")
	b.ReportMetric(float64(noop.Nanoseconds()), "noop-cpu-ns/op")
	b.ReportMetric(float64((edit - noop).Nanoseconds()), "diff-cpu-ns/op")
	b.ReportMetric(float64((mean(edits) - mean(noops)).Nanoseconds()), "meandiff-cpu-ns/op")
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func mean(d []time.Duration) time.Duration {
	var sum time.Duration
	for _, x := range d {
		sum += x
	}
	return sum / time.Duration(len(d))
}

// openBenchTree opens an engine on dir, an AUTORAG_BENCH_TREES tree, with
// the settings the CLI indexed it with: the default maximum file size
// (recorded in the sidecar) and the built-in embedder, or none with
// AUTORAG_BENCH_EMBEDDER=none.
func openBenchTree(b *testing.B, dir string) *Engine {
	s := DefaultSettings()
	s.MaxFileSize = mirror.DefaultMaxFileSize
	if os.Getenv("AUTORAG_BENCH_EMBEDDER") != "none" {
		s.Embedder = static.New()
	}
	e, err := New(dir, s)
	if err != nil {
		b.Fatal(err)
	}
	return e
}
