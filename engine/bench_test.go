package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var benchWords = strings.Fields(`the of and to in is that for it as with was on be by this are from or have
an they which one you were all we can her has there been if more when will would who so no search index
query refresh document corpus vector token chunk engine retrieval ranking score fusion cache lock segment
generation manifest mirror parser language model embedding latency throughput memory process thread`)

// writeCorpus writes n markdown documents of about 40 paragraphs each.
func writeCorpus(tb testing.TB, dir string, n int) {
	tb.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < n; i++ {
		var sb strings.Builder
		fmt.Fprintf(&sb, "# Document %d\n\n", i)
		for p := 0; p < 40; p++ {
			for w := 0; w < 22; w++ {
				sb.WriteString(benchWords[r.IntN(len(benchWords))])
				sb.WriteByte(' ')
			}
			sb.WriteString("\n\n")
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("doc-%05d.md", i)), []byte(sb.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// benchRoot is where a benchmark's corpus of n documents lives: a fresh
// temporary directory, or with AUTORAG_BENCH_DIR a directory kept there
// between runs (corpus and index), so that a 100,000-doc corpus is built
// once. Its edits accumulate there; each is still one changed file.
func benchRoot(b *testing.B, n int) string {
	base := os.Getenv("AUTORAG_BENCH_DIR")
	if base == "" {
		dir := b.TempDir()
		writeCorpus(b, dir, n)
		return dir
	}
	dir := filepath.Join(base, fmt.Sprint(n))
	done := dir + ".written"
	if _, err := os.Stat(done); err != nil {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		writeCorpus(b, dir, n)
		if err := os.WriteFile(done, nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

func benchEngine(b *testing.B, n int) *Engine {
	b.Helper()
	dir := benchRoot(b, n)
	e, err := New(dir, DefaultSettings())
	if err != nil {
		b.Fatal(err)
	}
	if _, err := e.Refresh(context.Background(), RefreshOptions{}); err != nil {
		b.Fatal(err)
	}
	return e
}

func BenchmarkRefreshNoop(b *testing.B) {
	for _, n := range benchSizes(b) {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			e := benchEngine(b, n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r, err := e.Refresh(context.Background(), RefreshOptions{})
				if err != nil || r.Outcome != OutcomeUnchanged {
					b.Fatal(r, err)
				}
			}
		})
	}
}

func BenchmarkRefreshOneEdit(b *testing.B) {
	for _, n := range benchSizes(b) {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			e := benchEngine(b, n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p := filepath.Join(e.Layout.Root, fmt.Sprintf("doc-%05d.md", i%n))
				f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
				fmt.Fprintf(f, "\nedit %d\n", i)
				f.Close()
				r, err := e.Refresh(context.Background(), RefreshOptions{})
				if err != nil || r.Outcome != OutcomeUpdated {
					b.Fatal(r, err)
				}
			}
		})
	}
}

func BenchmarkQuery(b *testing.B) {
	e := benchEngine(b, 400)
	for _, q := range []string{"embedding latency", "the search index"} {
		b.Run(strings.ReplaceAll(q, " ", "_"), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := e.Query(context.Background(), QueryOptions{Text: q, K: 10}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
