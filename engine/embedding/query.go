package embedding

import (
	"context"
	"fmt"

	"github.com/autorag/autorag/cache"
	"github.com/autorag/autorag/engine/embed"
)

// Query embeds a query's text. The built-in embedder costs microseconds;
// a remote one goes through a small on-disk cache of query vectors in dir
// so a repeated question is not sent again.
func Query(ctx context.Context, emb embed.Embedder, dir, text string) ([]float32, error) {
	id := emb.Identity()
	if id.Provider == "local" {
		return embedOne(ctx, emb, text)
	}
	ns := id.String()
	qc := cache.OpenQueries(dir, 16<<20)
	key := cache.QueryKey("query-vector", ns, text)
	if b, ok := qc.Get(ns, key); ok && len(b) == 4*id.Dims {
		return Decode(b), nil
	}
	v, err := embedOne(ctx, emb, text)
	if err != nil {
		return nil, err
	}
	_ = qc.Put(ns, key, Encode(v)) // a cache that cannot be written is not an error
	return v, nil
}

// embedOne embeds a query: through EmbedQuery when the embedder embeds
// queries unlike documents (a prefix or instruction), else through Embed.
func embedOne(ctx context.Context, emb embed.Embedder, text string) ([]float32, error) {
	if qe, ok := emb.(embed.QueryEmbedder); ok {
		v, err := qe.EmbedQuery(ctx, text)
		if err != nil {
			return nil, fmt.Errorf("embed query: %w", err)
		}
		return v, nil
	}
	vs, err := emb.Embed(ctx, []string{text})
	if err != nil {
		return nil, fmt.Errorf("embed query: %w", err)
	}
	return vs[0], nil
}
