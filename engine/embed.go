package engine

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/autorag/autorag/engine/embedding"
	"github.com/autorag/autorag/engine/progress"
	"github.com/autorag/autorag/mirror"
)

//semguard:begin vector-builder

// openVectorBuilder opens the embedding cache for the configured embedder;
// it returns nil (a valid, inert builder) without one.
func (e *Engine) openVectorBuilder(o RefreshOptions) (*embedding.Builder, error) {
	if e.Settings.Embedder == nil {
		return nil, nil
	}
	dir := filepath.Join(e.Layout.CacheDir(), "embeddings")
	return embedding.Open(dir, e.Settings.Embedder, e.Settings.embedIdentity(), progress.Of(o.Progress))
}

//semguard:end vector-builder

// flushVectors makes the new embeddings durable before the commit and
// reports the counts.
func flushVectors(v *embedding.Builder, res *RefreshResult) error {
	if v == nil {
		return nil
	}
	res.ChunksEmbedded, res.EmbedCacheHits, res.EmbedCacheMisses = v.Embedded, v.Hits, v.Misses
	res.EmbedInputsSplit = v.Watch.Splits()
	return v.Flush()
}

// collectEmbeddings evicts cached embeddings no chunk of the committed
// generation uses once the cache is over its cap. The live set is computed
// only when the cache asks (re-chunking the mirror), which is rare.
func (e *Engine) collectEmbeddings(v *embedding.Builder, man *mirror.Manifest, store *mirror.Store, res *RefreshResult) {
	if v == nil {
		return
	}
	var live map[[32]byte]bool
	var liveErr error
	isLive := func(h [32]byte) bool {
		if live == nil && liveErr == nil {
			live, liveErr = e.liveEmbedHashes(man, store)
		}
		// Without the complete live set every entry counts as live: the
		// collection then evicts nothing.
		return liveErr != nil || live[h]
	}
	if err := v.Collect(isLive, e.Settings.EmbedCacheCap); err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("embedding cache gc: %v", err))
	}
	if liveErr != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("embedding cache gc skipped, nothing evicted: %v", liveErr))
	}
}

// liveEmbedHashes recomputes the embedding inputs of every chunk; it fails
// when any committed file cannot be chunked again.
func (e *Engine) liveEmbedHashes(man *mirror.Manifest, store *mirror.Store) (map[[32]byte]bool, error) {
	b := &builder{e: e, store: store}
	live := map[[32]byte]bool{}
	for _, en := range man.Entries {
		docs, err := b.chunkFile(en)
		if err != nil {
			return nil, fmt.Errorf("live embeddings of %s: %w", en.Path, err)
		}
		for _, d := range docs {
			live[embedding.Key(d.Body())] = true
		}
	}
	return live, nil
}

// toEmbed counts the distinct chunk texts of entries that the embedding
// cache lacks: what the build will send to the embedder.
func (b *builder) toEmbed(ctx context.Context, entries []mirror.Entry) int {
	seen := map[[32]byte]bool{}
	n := 0
	for _, en := range entries {
		if ctx.Err() != nil {
			break
		}
		docs, err := b.chunkFile(en)
		if err != nil {
			continue // the build reports it
		}
		n += b.vb.Missing(docs, seen)
	}
	return n
}
