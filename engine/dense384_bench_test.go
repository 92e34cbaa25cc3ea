package engine

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/viterin/vek/vek32"

	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/embed/static"
)

// projected384 is the built-in embedder's vectors turned into 384
// dimensions by a fixed random projection, normalized: a fast stand-in
// for a 384-d model (all-MiniLM-L6-v2, bge-small) whose vectors cost what
// theirs cost to store and scan.
type projected384 struct {
	base *static.Embedder
	proj []float32 // static.Dims × 384
}

const benchDims = 384

func newProjected384() *projected384 {
	rng := rand.New(rand.NewPCG(384, 1))
	p := &projected384{base: static.New(), proj: make([]float32, static.Dims*benchDims)}
	for i := range p.proj {
		p.proj[i] = float32(rng.NormFloat64())
	}
	return p
}

func (p *projected384) Identity() embed.Identity {
	return embed.Identity{Provider: "bench", Model: "potion-projected-384", Dims: benchDims}
}

func (p *projected384) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	vs, err := p.base.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	out := make([][]float32, len(vs))
	for i, v := range vs {
		w, tmp := make([]float32, benchDims), make([]float32, benchDims)
		for j, x := range v {
			vek32.MulNumber_Into(tmp, p.proj[j*benchDims:(j+1)*benchDims], x)
			vek32.Add_Inplace(w, tmp)
		}
		var n float64
		for _, x := range w {
			n += float64(x) * float64(x)
		}
		inv := float32(1 / math.Sqrt(n))
		for d := range w {
			w[d] *= inv
		}
		out[i] = w
	}
	return out, nil
}

// BenchmarkDense384 measures uncached in-process queries (a Service with
// no result cache) over the generated corpus at AUTORAG_BENCH_DOCS
// documents (3 chunks each) with 384-d vectors, fused as a 384-d model's
// are (convex: BM25 and the dense list side by side): hybrid, the dense
// list alone and BM25 alone, each over distinct two-word queries.
//
// With AUTORAG_BENCH_KEEP=DIR the corpus and its index are kept in
// DIR/dense384-N and reused by later runs (a no-op refresh), so binaries
// of two commits can be compared on one index without rebuilding it.
func BenchmarkDense384(b *testing.B) {
	for _, n := range benchSizes(b) {
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			dir := keptCorpus(b, n)
			s := DefaultSettings()
			s.Embedder = newProjected384()
			s.Fusion = DefaultConvex
			e, err := New(dir, s)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
				b.Fatal(err)
			}
			svc := NewService(e, 0)
			defer svc.Close()
			rng := rand.New(rand.NewPCG(7, 7))
			for _, mode := range []string{ModeHybrid, ModeVector, ModeBM25} {
				b.Run("mode="+mode, func(b *testing.B) {
					cpu := processCPU()
					for b.Loop() {
						q := benchWords[rng.IntN(len(benchWords))] + " " + benchWords[rng.IntN(len(benchWords))]
						if _, _, err := svc.Query(ctx, QueryOptions{Text: q, K: 10, Mode: mode}); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
				})
			}
		})
	}
}

// keptCorpus is the directory of the generated corpus of n documents: a
// new temporary one, or with AUTORAG_BENCH_KEEP one kept across runs
// (written once, marked complete by a file outside the tree).
func keptCorpus(b *testing.B, n int) string {
	keep := os.Getenv("AUTORAG_BENCH_KEEP")
	if keep == "" {
		dir := b.TempDir()
		writeCorpus(b, dir, n)
		return dir
	}
	dir := filepath.Join(keep, fmt.Sprintf("dense384-%d", n))
	done := dir + ".written"
	if _, err := os.Stat(done); err == nil {
		return dir
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	writeCorpus(b, dir, n)
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

// processCPU is the user and system time the process has used: on a
// loaded machine the wall clock of a query is mostly waiting for a core,
// which its CPU time leaves out.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
