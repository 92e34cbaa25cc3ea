package engine

import (
	"testing"

	"github.com/autorag/autorag/engine/embed/static"
)

// TestFusionFrom: the fusion settings over the embedder's default; alpha
// is RRF's dense weight and the others' BM25 weight.
func TestFusionFrom(t *testing.T) {
	half := 0.5
	emb := static.New()
	for _, tc := range []struct {
		name   string
		method string
		alpha  *float64
		want   Fusion
	}{
		{"nothing set", "", nil, Fusion{}},
		{"alpha over the default", "", &half, func() Fusion { f := DefaultFusion(emb.Identity()); f.Alpha = 0.5; return f }()},
		{"convex", FusionConvex, nil, DefaultConvex},
		{"rrf alpha", FusionRRF, &half, func() Fusion { f := DefaultRRF; f.WDense = 0.5; return f }()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FusionFrom(tc.method, tc.alpha, emb)
			if err != nil || got != tc.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
	if _, err := FusionFrom("bayes", nil, emb); err == nil {
		t.Fatal("an unknown method was accepted")
	}
}
