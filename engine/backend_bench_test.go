package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/autorag/autorag/engine/backend/weaviate"
	"github.com/autorag/autorag/engine/embed/static"
)

// BenchmarkBackends measures the same work on each backend with the
// built-in embedder: the first refresh of a new index, a refresh after one
// edit, hybrid and bm25 queries, and queries per second with 8 concurrent
// clients. Corpus sizes come from AUTORAG_BENCH_DOCS (a comma list, default
// 2000), so one run covers both backends at every size. The Weaviate runs
// need AUTORAG_WEAVIATE_URL (skipped without it); on a cluster of 3 or more
// nodes the collections get 3 shards × replication factor 2, else 1 × 1.
func BenchmarkBackends(b *testing.B) {
	sizes := benchSizes(b)
	for _, name := range []string{BackendLocal, BackendWeaviate} {
		b.Run(name, func(b *testing.B) {
			s := DefaultSettings()
			s.Embedder = static.New()
			if name == BackendWeaviate {
				s.Backend = benchWeaviateBackend(b)
			}
			for _, n := range sizes {
				b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) { benchBackend(b, s, n) })
			}
		})
	}
}

// benchSizes parses AUTORAG_BENCH_DOCS.
func benchSizes(b *testing.B) []int {
	v := os.Getenv("AUTORAG_BENCH_DOCS")
	if v == "" {
		return []int{2000}
	}
	var sizes []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			b.Fatalf("AUTORAG_BENCH_DOCS: %q is not a positive doc count", f)
		}
		sizes = append(sizes, n)
	}
	return sizes
}

// benchWeaviateBackend is the Weaviate backend at AUTORAG_WEAVIATE_URL,
// sharded 3 × 2 when the cluster has at least 3 nodes;
// AUTORAG_BENCH_REPLICAS sets another replication factor (1 is the CLI's
// default, --replicas).
func benchWeaviateBackend(b *testing.B) Backend {
	url := os.Getenv("AUTORAG_WEAVIATE_URL")
	if url == "" {
		b.Skip("AUTORAG_WEAVIATE_URL not set")
	}
	be := Backend{Name: BackendWeaviate, URL: url, Shards: 1, Replicas: 1, GRPC: os.Getenv("AUTORAG_WEAVIATE_GRPC")}
	if c, err := weaviate.New(weaviate.Config{URL: url}); err == nil {
		if nodes, err := c.Nodes(context.Background()); err == nil && len(nodes) >= 3 {
			be.Shards, be.Replicas = 3, 2
		}
	}
	if v := os.Getenv("AUTORAG_BENCH_REPLICAS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			b.Fatalf("AUTORAG_BENCH_REPLICAS: %q is not a positive replication factor", v)
		}
		be.Replicas = n
	}
	return be
}

// benchBackend runs the sub-benchmarks on a new corpus of n docs. The
// first-refresh iterations each build the index from nothing (the previous
// one reset, untimed); the others build it first if it is not there yet
// (a no-op refresh when it is). ms/edit and ms/query are the per-edit
// and per-query figures; <stage>-ms/edit splits an edit's refresh into the
// stages RefreshResult.Stages times (scan, build, commit, gc).
func benchBackend(b *testing.B, s Settings, n int) {
	dir := b.TempDir()
	writeCorpus(b, dir, n)
	e, err := New(dir, s)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	defer e.Reset(ctx, time.Minute, "bench")
	ensure := func(b *testing.B) {
		if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	built := false
	b.Run("first-refresh", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if built {
				b.StopTimer()
				if _, err := e.Reset(ctx, time.Minute, "bench"); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			if r, err := e.Refresh(ctx, RefreshOptions{}); err != nil || r.Outcome != OutcomeRebuilt {
				b.Fatal(r, err)
			}
			built = true
		}
	})
	b.Run("one-edit", func(b *testing.B) {
		ensure(b)
		stages := map[string]float64{}
		b.ResetTimer()
		for i := 0; i < b.N*editsPerOp; i++ {
			p := filepath.Join(dir, fmt.Sprintf("doc-%05d.md", (i*7919)%n))
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				b.Fatal(err)
			}
			fmt.Fprintf(f, "\nedit %d\n", i)
			f.Close()
			r, err := e.Refresh(ctx, RefreshOptions{})
			if err != nil || r.Outcome != OutcomeUpdated {
				b.Fatal(r, err)
			}
			for k, v := range r.Stages {
				stages[k] += v
			}
		}
		edits := float64(b.N * editsPerOp)
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/edits, "ms/edit")
		for k, v := range stages {
			b.ReportMetric(v/edits, k+"-ms/edit")
		}
	})
	for _, mode := range []string{ModeHybrid, ModeBM25} {
		b.Run("query-"+mode, func(b *testing.B) {
			ensure(b)
			b.ResetTimer()
			for i := 0; i < b.N*queriesPerOp; i++ {
				if _, err := e.Query(ctx, QueryOptions{Text: benchQueries[i%len(benchQueries)], Mode: mode, K: 10}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*queriesPerOp), "ms/query")
		})
	}
	b.Run("qps-8-clients", func(b *testing.B) {
		ensure(b)
		b.ResetTimer()
		benchConcurrentQueries(b, e, 8, 10)
	})
}

// An op of one-edit is editsPerOp 1-file edits, each refreshed; an op of
// a query benchmark is queriesPerOp queries, so that -benchtime 1x (one
// rebuild, the costly part on a cluster) still averages several samples.
const (
	editsPerOp   = 3
	queriesPerOp = 20
)

// benchQueries are the texts the query benchmarks cycle through.
var benchQueries = []string{
	"embedding latency of the search index",
	"vector fusion ranking",
	"refresh the corpus incrementally",
	"query cache and shard replication",
}

// benchConcurrentQueries runs, per iteration, clients goroutines that each
// make per hybrid queries, and reports the throughput as queries/s.
func benchConcurrentQueries(b *testing.B, e *Engine, clients, per int) {
	ctx := context.Background()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		var wg sync.WaitGroup
		errs := make(chan error, clients)
		for c := 0; c < clients; c++ {
			wg.Add(1)
			go func(c int) {
				defer wg.Done()
				for q := 0; q < per; q++ {
					text := benchQueries[(c+q)%len(benchQueries)]
					if _, err := e.Query(ctx, QueryOptions{Text: text, Mode: ModeHybrid, K: 10}); err != nil {
						errs <- err
						return
					}
				}
			}(c)
		}
		wg.Wait()
		close(errs)
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*clients*per)/time.Since(start).Seconds(), "queries/s")
}
