package transformer

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/autorag/autorag/engine/embed/transformer/internal/qgemm"
	"github.com/autorag/autorag/models"
)

// arithmeticNames names the arithmetics this CPU runs, as sub-benchmarks.
func arithmeticNames() []string {
	if qgemm.Available() {
		return []string{"float32", "int8"}
	}
	return []string{"float32"}
}

// BenchmarkEmbed measures throughput at the model's maximum sequence
// length (a 2,400-character chunk is longer than every model's window, so
// this is the length refresh embeds at), as chunks/s over every core, with
// float32 products and (on CPUs with AVX-512 VNNI or AVX2) int8 ones;
// MiniLM and bge also at the other's length (256 and 512 tokens), e5 also
// at 192 tokens, an XQuAD paragraph. AUTORAG_CPU=avx2 measures the
// path of CPUs without AVX-512 on one that has it.
func BenchmarkEmbed(b *testing.B) {
	for _, c := range []struct {
		name   string
		maxLen int
	}{{"all-minilm-l6-v2-q", 256}, {"all-minilm-l6-v2-q", 512}, {"bge-small-en-v1.5-q", 256}, {"bge-small-en-v1.5-q", 512}, {e5Model, 512}, {e5Model, 192}} {
		benchArithmetics(b, fmt.Sprintf("%s/%d", c.name, c.maxLen), func(b *testing.B, int8 bool) {
			m := benchModel(b, c.name, c.maxLen, int8)
			seqs := make([][]int32, 8)
			for i := range seqs {
				seqs[i] = syntheticIDs(c.maxLen, i)
			}
			cpu0 := cpuTime()
			for b.Loop() {
				if _, err := m.Run(context.Background(), seqs, nil); err != nil {
					b.Fatal(err)
				}
			}
			chunks := float64(len(seqs) * b.N)
			b.ReportMetric(chunks/b.Elapsed().Seconds(), "chunks/s")
			// CPU time per chunk says what the machine's other load hides:
			// 2,000 / cpu-ms/chunk is the rate on two idle cores.
			b.ReportMetric((cpuTime()-cpu0).Seconds()*1000/chunks, "cpu-ms/chunk")
		})
	}
}

// benchArithmetics runs f as name/float32 and, when this CPU has the int8
// kernel, name/int8.
func benchArithmetics(b *testing.B, name string, f func(b *testing.B, int8 bool)) {
	for _, a := range arithmeticNames() {
		b.Run(name+"/"+a, func(b *testing.B) { f(b, a == "int8") })
	}
}

// BenchmarkQuery measures one query of 12 tokens (the length of a typical
// question with its special tokens).
func BenchmarkQuery(b *testing.B) {
	for _, name := range []string{"all-minilm-l6-v2-q", "bge-small-en-v1.5-q", e5Model} {
		benchArithmetics(b, name, func(b *testing.B, int8 bool) {
			m := benchModel(b, name, 512, int8)
			seqs := [][]int32{syntheticIDs(12, 0)}
			cpu0 := cpuTime()
			for b.Loop() {
				if _, err := m.Run(context.Background(), seqs, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuTime()-cpu0).Seconds()*1000/float64(b.N), "cpu-ms/query")
		})
	}
}

// cpuTime is the process's user + system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchModel loads a catalog model with the catalog's pooling, as the
// embedder does: a CLS-pooled model (bge) computes only the [CLS] row of
// its last layer, so measuring it mean-pooled would overstate its cost.
func benchModel(b *testing.B, name string, maxLen int, int8 bool) *Model {
	b.Helper()
	saved := int8Products
	int8Products = int8
	defer func() { int8Products = saved }()
	path := weightFileB(b, name)
	entry, err := models.Lookup(name)
	if err != nil {
		b.Fatal(err)
	}
	m, err := LoadFile(path, Shape{Heads: 12, MaxLen: maxLen}, Pooling(entry.Pooling))
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// syntheticIDs is [CLS] w… [SEP] with ordinary word-piece ids.
func syntheticIDs(n, seed int) []int32 {
	ids := make([]int32, n)
	ids[0], ids[n-1] = 101, 102
	for i := 1; i < n-1; i++ {
		ids[i] = int32(2000 + (i*7919+seed*104729)%20000)
	}
	return ids
}

func weightFileB(b *testing.B, name string) string {
	b.Helper()
	p, err := installedWeights(name)
	if err != nil {
		b.Fatal(fmt.Errorf("%w: run `make models`", err))
	}
	return p
}

// BenchmarkLoad measures reading, dequantizing and packing a model's
// weights (what the first embedding of a process pays).
func BenchmarkLoad(b *testing.B) {
	for _, name := range []string{"all-minilm-l6-v2-q", "all-minilm-l6-v2", "bge-small-en-v1.5-q", e5Model} {
		benchArithmetics(b, name, func(b *testing.B, int8 bool) {
			saved := int8Products
			int8Products = int8
			defer func() { int8Products = saved }()
			path := weightFileB(b, name)
			cpu0 := cpuTime()
			for b.Loop() {
				if _, err := LoadFile(path, Shape{Heads: 12, MaxLen: 256}, PoolMean); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuTime()-cpu0).Seconds()*1000/float64(b.N), "cpu-ms/load")
		})
	}
}
