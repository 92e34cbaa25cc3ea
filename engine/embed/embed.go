// Package embed defines the embedder contract. Implementations live in
// sub-packages: local (the built-in offline embedder, the default) and
// openai (any OpenAI-compatible embeddings API).
package embed

import (
	"context"
	"fmt"
)

// Identity names an embedder's vector space. It goes into the index
// fingerprint and into every embedding-cache key: switching provider, model
// or dimensions re-embeds on the next refresh (through the cache).
type Identity struct {
	Provider string // "local", "openai"
	Model    string // e.g. "glove-6b-100d-v1", "text-embedding-3-small"
	Dims     int
}

// String is the canonical form, e.g. "local/glove-6b-100d-v1/100".
func (id Identity) String() string {
	return fmt.Sprintf("%s/%s/%d", id.Provider, id.Model, id.Dims)
}

// Embedder turns texts into vectors.
type Embedder interface {
	Identity() Identity
	// Embed returns one L2-normalized vector of Identity().Dims per text,
	// in order. It fails as a whole: on error no vector is returned.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}
