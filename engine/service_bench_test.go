package engine

import (
	"context"
	"os"
	"testing"

	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/fingerprint"
)

// The sidecar check is what every cached query pays; the choice between
// re-parsing and a stat fast path is measured here.
func BenchmarkServiceSidecarCheck(b *testing.B) {
	e := benchEngine(b, 400)
	path := e.Layout.SidecarPath()
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("sidecar: %d bytes", fi.Size())
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := fingerprint.ReadSidecar(path); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("stat", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := statSidecar(path); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func benchService(b *testing.B, capBytes int64) (*Service, QueryOptions) {
	e := benchEngine(b, 400)
	sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d files, %d chunks", sc.Counts.Files, sc.Counts.Chunks)
	svc := NewService(e, capBytes)
	b.Cleanup(func() { svc.Close() })
	return svc, QueryOptions{Text: "the search index", K: 10}
}

func BenchmarkServiceQueryCached(b *testing.B) {
	svc, o := benchService(b, 64<<20)
	ctx := context.Background()
	if _, _, err := svc.Query(ctx, o); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, cached, err := svc.Query(ctx, o); err != nil || !cached {
			b.Fatalf("cached=%v err=%v", cached, err)
		}
	}
}

// BenchmarkServiceQueryUncached answers from the open generation every
// time: a zero-capacity LRU stores nothing.
func BenchmarkServiceQueryUncached(b *testing.B) {
	svc, o := benchService(b, 0)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, cached, err := svc.Query(ctx, o); err != nil || cached {
			b.Fatalf("cached=%v err=%v", cached, err)
		}
	}
}

// BenchmarkServiceQueryCachedFollowing is BenchmarkServiceQueryCached on
// an engine configured with another embedder than the index's: every query
// follows the index's (reading), built once by Settings.Recorded.
func BenchmarkServiceQueryCachedFollowing(b *testing.B) {
	svc, o := benchService(b, 64<<20)
	built := svc.e.Settings.Embedder
	svc.e.Settings.Embedder = nil // configured: none
	svc.e.Settings.Recorded = func(string) (embed.Embedder, error) { return built, nil }
	ctx := context.Background()
	if _, _, err := svc.Query(ctx, o); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, cached, err := svc.Query(ctx, o); err != nil || !cached {
			b.Fatalf("cached=%v err=%v", cached, err)
		}
	}
}
