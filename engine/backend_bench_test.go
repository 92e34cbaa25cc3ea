package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/autorag/autorag/engine/backend/weaviate"
	"github.com/autorag/autorag/engine/embed/local"
)

// BenchmarkBackends measures the same work on each backend at 2,000 docs
// with the built-in embedder: the first refresh, a refresh after one
// edit, and hybrid and bm25 queries. The Weaviate runs need
// AUTORAG_WEAVIATE_URL (skipped without it).
func BenchmarkBackends(b *testing.B) {
	const n = 2000
	for _, name := range []string{BackendLocal, BackendWeaviate} {
		b.Run(name, func(b *testing.B) {
			s := DefaultSettings()
			s.Embedder = local.New()
			if name == BackendWeaviate {
				url := os.Getenv("AUTORAG_WEAVIATE_URL")
				if url == "" {
					b.Skip("AUTORAG_WEAVIATE_URL not set")
				}
				s.Backend = Backend{Name: BackendWeaviate, URL: url, Shards: 1, Replicas: 1}
				if c, err := weaviate.New(weaviate.Config{URL: url}); err == nil {
					if nodes, err := c.Nodes(context.Background()); err == nil && len(nodes) >= 3 {
						s.Backend.Shards, s.Backend.Replicas = 3, 2
					}
				}
			}
			dir := b.TempDir()
			writeCorpus(b, dir, n)
			e, err := New(dir, s)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			defer e.Reset(ctx, time.Minute, "bench")
			if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
				b.Fatal(err)
			}
			b.Run("first-refresh", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if r, err := e.Refresh(ctx, RefreshOptions{Rebuild: true}); err != nil || r.Outcome != OutcomeRebuilt {
						b.Fatal(r, err)
					}
				}
			})
			b.Run("one-edit", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					p := filepath.Join(dir, fmt.Sprintf("doc-%05d.md", i%n))
					f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
					fmt.Fprintf(f, "\nedit %d\n", i)
					f.Close()
					if r, err := e.Refresh(ctx, RefreshOptions{}); err != nil || r.Outcome != OutcomeUpdated {
						b.Fatal(r, err)
					}
				}
			})
			for _, mode := range []string{ModeHybrid, ModeBM25} {
				b.Run("query-"+mode, func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						if _, err := e.Query(ctx, QueryOptions{Text: "embedding latency of the search index", Mode: mode, K: 10}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}
