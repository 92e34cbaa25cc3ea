package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/benchtrees"
)

// BenchmarkEditSettled counts, on each tree of AUTORAG_BENCH_TREES (as
// BenchmarkEditMinusNoop's), the one-file edits whose commit leaves a
// generation that is not settled (fingerprint.Settled false right after
// the refresh): the next refresh must then probe the generation, and an
// edit reads its whole file table. It reports unsettled-commits/op, the
// fraction of such commits. Skipped without the variable.
func BenchmarkEditSettled(b *testing.B) {
	benchtrees.Each(b, benchEditSettled)
}

func benchEditSettled(b *testing.B, dir string) {
	e := openBenchTree(b, dir)
	ctx := context.Background()
	if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
		b.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no *.md files in %s (%v)", dir, err)
	}
	slices.Sort(files)
	unsettled := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := files[(i*7919+13)%len(files)]
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "\nSettle check zq%dx.\n", time.Now().UnixNano())
		f.Close()
		r, err := e.Refresh(ctx, RefreshOptions{})
		if err != nil || r.Outcome != OutcomeUpdated {
			b.Fatalf("edit refresh: %v, %v", r, err)
		}
		sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
		if err != nil {
			b.Fatal(err)
		}
		if ok, err := e.settledLocal(sc); err != nil {
			b.Fatal(err)
		} else if !ok {
			unsettled++
		}
	}
	b.ReportMetric(float64(unsettled)/float64(b.N), "unsettled-commits/op")
}
