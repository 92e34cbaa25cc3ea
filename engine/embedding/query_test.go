package embedding

import (
	"context"
	"testing"

	"github.com/autorag/autorag/engine/embed"
)

// queryPrefixed embeds documents as [1, 0] and queries as [0, 1].
type queryPrefixed struct{}

func (queryPrefixed) Identity() embed.Identity {
	return embed.Identity{Provider: "test", Model: "prefixed", Dims: 2}
}

func (queryPrefixed) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = []float32{1, 0}
	}
	return out, nil
}

func (queryPrefixed) EmbedQuery(context.Context, string) ([]float32, error) {
	return []float32{0, 1}, nil
}

// TestQueryVectorUsesEmbedQuery: an embedder that embeds queries unlike
// documents (e5's "query: ", bge's instruction) gets its query path.
func TestQueryVectorUsesEmbedQuery(t *testing.T) {
	v, err := embedOne(context.Background(), queryPrefixed{}, "what is it")
	if err != nil {
		t.Fatal(err)
	}
	if v[0] != 0 || v[1] != 1 {
		t.Fatalf("query vector %v, want the EmbedQuery one [0 1]", v)
	}
}
