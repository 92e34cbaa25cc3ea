package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/autorag/autorag/engine/embed/static"
)

// BenchmarkBackendFilters measures bm25 queries with and without filters
// on each backend, over AUTORAG_BENCH_DOCS English docs (default 1000;
// 1 in 100 tagged "rare") and a tenth as many German ones. With the
// multilingual analyzer ("auto") the Weaviate backend runs one search per
// language; with "english" one search, which is what a query cost before
// per-language scoping.
func BenchmarkBackendFilters(b *testing.B) {
	n := 1000
	if sizes := benchSizes(b); os.Getenv("AUTORAG_BENCH_DOCS") != "" {
		n = sizes[0]
	}
	for _, name := range []string{BackendLocal, BackendWeaviate} {
		b.Run(name, func(b *testing.B) {
			for _, analyzer := range []string{AnalyzerAuto, AnalyzerEnglish} {
				s := DefaultSettings()
				s.Embedder = static.New()
				s.Analyzer = analyzer
				if name == BackendWeaviate {
					s.Backend = benchWeaviateBackend(b)
				}
				b.Run("analyzer="+analyzer, func(b *testing.B) { benchFilters(b, s, n) })
			}
		})
	}
}

func benchFilters(b *testing.B, s Settings, n int) {
	dir := b.TempDir()
	writeCorpus(b, dir, n)
	writeTaggedAndGerman(b, dir, n)
	e, err := New(dir, s)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	defer e.Reset(ctx, time.Minute, "bench")
	if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name string
		o    QueryOptions
	}{
		{"bm25", QueryOptions{}},
		{"bm25-type-doc", QueryOptions{Type: "doc"}},                   // every file passes
		{"bm25-tag-rare", QueryOptions{Filters: []string{"tag=rare"}}}, // 1 in 100
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N*queriesPerOp; i++ {
				o := c.o
				o.Text, o.Mode, o.K = benchQueries[i%len(benchQueries)], ModeBM25, 10
				if _, err := e.Query(ctx, o); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*queriesPerOp), "ms/query")
		})
	}
}

// writeTaggedAndGerman tags every hundredth doc of writeCorpus "rare" and
// adds n/10 German docs.
func writeTaggedAndGerman(b *testing.B, dir string, n int) {
	for i := 0; i < n; i += 100 {
		p := filepath.Join(dir, fmt.Sprintf("doc-%05d.md", i))
		body, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, append([]byte("---\ntags: [rare]\n---\n"), body...), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	words := strings.Fields("die Suche der Index wird schnell und genau berechnet während das Modell neue Dokumente einbettet und die Abfrage beantwortet")
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < n/10; i++ {
		var sb strings.Builder
		fmt.Fprintf(&sb, "# Dokument %d\n\n", i)
		for range 20 {
			for range 18 {
				sb.WriteString(words[r.IntN(len(words))])
				sb.WriteByte(' ')
			}
			sb.WriteString(".\n\n")
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("de-%05d.md", i)), []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}
