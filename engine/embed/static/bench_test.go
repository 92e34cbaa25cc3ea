package static

import (
	"context"
	"strings"
	"testing"
)

// chunkText is about 2.4 KB of prose, the size of a default chunk.
func chunkText() string {
	const para = "The refresh pipeline walks the folder, hashes every changed file and re-embeds only the chunks " +
		"whose text is new. Statins lowered cardiovascular mortality in the cohort, while the control group " +
		"showed no difference in breast cancer recurrence. Call getUserName before parseConfigFile to load settings. "
	return strings.Repeat(para, 2400/len(para)+1)[:2400]
}

// BenchmarkNew is what a cold query process pays to get an embedder.
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		New()
	}
}

func BenchmarkEmbedQuery(b *testing.B) {
	e := New()
	ctx := context.Background()
	q := []string{"how do statins affect cholesterol"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Embed(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEmbedChunk(b *testing.B) {
	e := New()
	ctx := context.Background()
	c := []string{chunkText()}
	b.SetBytes(int64(len(c[0])))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Embed(ctx, c); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "chunks/s")
}

// BenchmarkEmbedBatch embeds 6,000 chunks in one call, as a first refresh
// of 2,000 documents does, spread over GOMAXPROCS goroutines (the same
// benchmark as the GloVe embedder's had).
func BenchmarkEmbedBatch(b *testing.B) {
	e := New()
	ctx := context.Background()
	base := chunkText()
	texts := make([]string, 6000)
	for i := range texts {
		texts[i] = base[i%97:] + base[:i%97] // distinct texts, same size
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(texts))/b.Elapsed().Seconds(), "chunks/s")
}
