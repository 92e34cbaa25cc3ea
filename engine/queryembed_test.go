package engine

import (
	"testing"

	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/embed/static"
)

// TestTransformerDefaultFusion: a transformer model's dense list is as
// strong as BM25 or stronger (CoSQA: all-minilm-l6-v2-q alone 0.58, BM25
// 0.37), so its default is adaptive fusion at equal weights, a quarter of
// the dense weight for a query in another language and none for one in
// another script (English models), feedback for a model without a query
// prefix; a multilingual model keeps the full weight. The catalog's traits
// in the identity decide, not the model's name. The built-in embedder's
// default stays its own.
func TestTransformerDefaultFusion(t *testing.T) {
	for _, tc := range []struct {
		model  string
		traits embed.Traits
		want   string
	}{
		{"bge-small-en-v1.5-q", embed.Traits{Prefixed: true, Foreign: 0.5, Code: 4}, "adaptive alpha=0.5 code=4 foreign=0.5 latin_only"},
		{"e5-small-v2-q", embed.Traits{Prefixed: true}, "adaptive alpha=0.5 code=1 foreign=0.25 latin_only"},
		{"all-minilm-l6-v2-q", embed.Traits{Code: 2.5}, "adaptive alpha=0.5 code=2.5 foreign=0.25 latin_only feedback=5"},
		{"all-minilm-l6-v2-q", embed.Traits{}, "adaptive alpha=0.5 code=1 foreign=0.25 latin_only feedback=5"},
		{"multilingual-e5-small-q4", embed.Traits{Prefixed: true, Multilingual: true}, "adaptive alpha=0.5 code=1 foreign=1"},
		// the traits decide, not the name
		{"multilingual-e5-small-q4", embed.Traits{Prefixed: true}, "adaptive alpha=0.5 code=1 foreign=0.25 latin_only"},
		{"renamed-model", embed.Traits{Prefixed: true, Multilingual: true}, "adaptive alpha=0.5 code=1 foreign=1"},
	} {
		f := DefaultFusion(embed.Identity{Provider: "transformer", Model: tc.model, Dims: 384, Traits: tc.traits})
		if got := f.String(); got != tc.want {
			t.Errorf("default fusion of transformer %s %+v: %s, want %s", tc.model, tc.traits, got, tc.want)
		}
		if err := f.Validate(); err != nil {
			t.Errorf("default fusion of transformer %s: %v", tc.model, err)
		}
	}
	const builtin = "adaptive alpha=0.7 code=1 foreign=0 file_dense floor=0.15 floor_unknown=0.25 floor_ratio=0.5 feedback=5"
	if got := DefaultFusion(static.New().Identity()).String(); got != builtin {
		t.Errorf("default fusion of the built-in embedder: %s, want %s (unchanged)", got, builtin)
	}
}

// TestFusionFromKeepsTheEmbedderMethod: --fusion naming the embedder's
// default method keeps the embedder's settings of it (a transformer model's
// adaptive fusion is not the built-in embedder's); another method is that
// method's default.
func TestFusionFromKeepsTheEmbedderMethod(t *testing.T) {
	tr := fixedEmbedder{embed.Identity{Provider: "transformer", Model: "all-minilm-l6-v2-q", Dims: 384}}
	got, err := FusionFrom(FusionAdaptive, nil, tr)
	if want := DefaultFusion(tr.Identity()); err != nil || got != want || got.Alpha != DefaultTransformer.Alpha {
		t.Errorf("--fusion adaptive with a transformer: %+v %v, want %+v", got, err, want)
	}
	if got, err = FusionFrom(FusionConvex, nil, tr); err != nil || got != DefaultConvex {
		t.Errorf("--fusion convex with a transformer: %+v %v, want %+v", got, err, DefaultConvex)
	}
	if got, err = FusionFrom(FusionAdaptive, nil, static.New()); err != nil || got != DefaultAdaptive {
		t.Errorf("--fusion adaptive with the built-in embedder: %+v %v, want %+v", got, err, DefaultAdaptive)
	}
}
