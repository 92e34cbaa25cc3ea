package engine

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

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
func BenchmarkDense384(b *testing.B) {
	for _, n := range benchSizes(b) {
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			writeCorpus(b, dir, n)
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
					for b.Loop() {
						q := benchWords[rng.IntN(len(benchWords))] + " " + benchWords[rng.IntN(len(benchWords))]
						if _, _, err := svc.Query(ctx, QueryOptions{Text: q, K: 10, Mode: mode}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}
