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

// BenchmarkEmbedBatch embeds 64 chunks per call, spread over the cores.
func BenchmarkEmbedBatch(b *testing.B) {
	e := New()
	ctx := context.Background()
	batch := make([]string, 64)
	for i := range batch {
		batch[i] = chunkText()
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Embed(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(batch))/b.Elapsed().Seconds(), "chunks/s")
}
