package engine

import (
	"testing"

	"github.com/autorag/autorag/engine/embed"
)

// TestTransformerDefaultFusion: a transformer model's dense list has signal,
// but RRF at 1:1 put hybrid 0.08–0.13 below BM25 on XQuAD; its default is
// the convex fusion chosen on the dev sets.
func TestTransformerDefaultFusion(t *testing.T) {
	f := DefaultFusion(embed.Identity{Provider: "transformer", Model: "m", Dims: 384})
	if f != DefaultConvex {
		t.Fatalf("default fusion of a transformer embedder %+v, want %+v", f, DefaultConvex)
	}
}
