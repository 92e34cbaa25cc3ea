package engine

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/autorag/autorag/engine/embed/static"
)

// codeBenchQueries are asked of a code tree: identifiers (the definition
// match looks up each ranked chunk's definitions) and questions.
var codeBenchQueries = []string{
	"ServeMux", "func ListenAndServe", "type Transport struct", "readRequest",
	"how are cookies parsed", "request body read timeout", "redirect policy of the client",
	"http2 frame writer", "gzip response compression", "multipart form file upload",
}

// codeBenchQueryList is codeBenchQueries, or the lines of the file
// AUTORAG_BENCH_CODE_QUERIES (questions about AUTORAG_BENCH_CODE_DIR).
func codeBenchQueryList(b *testing.B) []string {
	p := os.Getenv("AUTORAG_BENCH_CODE_QUERIES")
	if p == "" {
		return codeBenchQueries
	}
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	var qs []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			qs = append(qs, l)
		}
	}
	return qs
}

// codeBenchRoot is a code tree to query: AUTORAG_BENCH_CODE_DIR (any
// tree, indexed there), else a copy of the Go distribution's net/http
// sources.
func codeBenchRoot(b *testing.B) string {
	if dir := os.Getenv("AUTORAG_BENCH_CODE_DIR"); dir != "" {
		return dir
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("no go command to find the Go sources: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "src", "net", "http")
	if _, err := os.Stat(src); err != nil {
		b.Skipf("no Go sources to index: %v", err)
	}
	dst := b.TempDir()
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
	return dst
}

// BenchmarkQueryCode asks code questions of a code tree, where the code
// signals re-score the ranking, in each mode; besides the mean it reports
// the median and 95th percentile of the queries' times and the CPU time
// a query takes (a steadier figure than the time on a busy machine).
func BenchmarkQueryCode(b *testing.B) {
	s := DefaultSettings()
	s.Embedder = static.New()
	e, err := New(codeBenchRoot(b), s)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
		b.Fatal(err)
	}
	qs := codeBenchQueryList(b)
	for _, mode := range []string{ModeBM25, ModeHybrid} {
		b.Run(mode, func(b *testing.B) {
			var took []time.Duration
			b.ReportAllocs()
			cpu := processCPU()
			for i := 0; b.Loop(); i++ {
				t := time.Now()
				o := QueryOptions{Text: qs[i%len(qs)], K: 10, Mode: mode}
				if _, err := e.Query(ctx, o); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(t))
			}
			b.ReportMetric(float64((processCPU()-cpu).Microseconds())/1e3/float64(len(took)), "cpu-ms/op")
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1e3, "p50-ms")
			b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1e3, "p95-ms")
		})
	}
}
