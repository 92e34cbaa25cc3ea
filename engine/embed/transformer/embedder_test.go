package transformer

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// TestEmbedderMatchesReference runs the whole text path (tokenizer,
// prefix, truncation, encoder, pooling) on the reference sentences: the
// token ids must be the reference tokenizer's, the vectors onnxruntime's.
func TestEmbedderMatchesReference(t *testing.T) {
	ref := readReference(t)
	want := 0.999 // float32 products: onnxruntime's float32 arithmetic
	if int8Products {
		want = 0.995 // int8 products (TestReference)
	}
	prefixes := map[string]string{"e5-small-v2-q": "passage: "}
	for _, m := range ref.Models {
		t.Run(m.Name, func(t *testing.T) {
			w := weightFile(t, m.Name)
			e, err := New(Config{
				Name: m.Name, Revision: "main", Weights: w, Tokenizer: filepath.Join(filepath.Dir(w), "tokenizer.json"),
				Pooling: m.Pooling, MaxLen: m.MaxLen, Heads: 12, Dims: 384, DocPrefix: prefixes[m.Name],
			})
			if err != nil {
				t.Fatal(err)
			}
			vs, err := e.Embed(context.Background(), ref.Sentences)
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range m.Cases {
				ids, err := e.Tokens(prefixes[m.Name], ref.Sentences[i])
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(ids, c.IDs) {
					t.Errorf("sentence %d: ids %v, want the reference's %v", i, ids, c.IDs)
				}
				if cs := cosine(vs[i], c.ORTF32); cs < want {
					t.Errorf("sentence %d: cosine %.6f to onnxruntime, want ≥ %g", i, cs, want)
				}
			}
		})
	}
}

func TestIdentityNamesWhatShapesTheVectors(t *testing.T) {
	base := Config{Name: "m", Revision: "r1", WeightsSHA256: "0123456789abcdef0123", Pooling: PoolMean, MaxLen: 256, Dims: 384}
	seen := map[string]bool{Identity(base).String(): true}
	for _, change := range []func(*Config){
		func(c *Config) { c.Revision = "r2" },
		func(c *Config) { c.WeightsSHA256 = "1123456789abcdef0123" },
		func(c *Config) { c.Pooling = PoolCLS },
		func(c *Config) { c.MaxLen = 128 },
		func(c *Config) { c.QueryPrefix = "query: " },
		func(c *Config) { c.DocPrefix = "passage: " },
	} {
		c := base
		change(&c)
		id := Identity(c).String()
		if seen[id] {
			t.Errorf("identity %s does not tell two configurations apart", id)
		}
		seen[id] = true
	}
	// The arithmetic: int8 products move vectors beyond rounding.
	saved := int8Products
	defer func() { int8Products = saved }()
	int8Products = !saved
	if id := Identity(base).String(); seen[id] {
		t.Errorf("identity %s is the same for int8 and float32 products", id)
	}
}
