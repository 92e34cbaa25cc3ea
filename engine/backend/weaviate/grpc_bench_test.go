package weaviate

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

// BenchmarkImportPath compares the import paths on one collection of the
// test settings: REST and gRPC, at several batch sizes and concurrencies.
// AUTORAG_BENCH_CHUNKS sets the chunk count (default 2,000).
func BenchmarkImportPath(b *testing.B) {
	n := benchDocs
	if v, err := strconv.Atoi(os.Getenv("AUTORAG_BENCH_CHUNKS")); err == nil && v > 0 {
		n = v
	}
	rest, g := restClient(b), grpcClient(b)
	objs := corpus(n, 1)
	for _, p := range []struct {
		name string
		c    *Client
	}{{"rest", rest}, {"grpc", g}} {
		for _, shape := range [][2]int{{200, 2}, {500, 2}, {500, 4}, {1000, 4}} {
			b.Run(fmt.Sprintf("%s/batch=%d/conc=%d", p.name, shape[0], shape[1]), func(b *testing.B) {
				ctx := testContext(b)
				s := testSettings(b, rest)
				s.BatchSize, s.Concurrency = shape[0], shape[1]
				alias := testAlias(b, rest)
				var took time.Duration
				for i := 0; i < b.N; i++ {
					name := fmt.Sprintf("%s_i%d_a", alias, i)
					if err := rest.CreateCollection(ctx, name, s); err != nil {
						b.Fatal(err)
					}
					start := time.Now()
					if err := p.c.Import(ctx, name, objs, s); err != nil {
						b.Fatal(err)
					}
					took += time.Since(start)
				}
				b.ReportMetric(float64(n*b.N)/took.Seconds(), "chunks/s")
			})
		}
	}
}
