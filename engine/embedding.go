package engine

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"

	"github.com/autorag/autorag/cache"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/progress"
	"github.com/autorag/autorag/internal/failpoint"
	"github.com/autorag/autorag/mirror"
	"github.com/zeebo/blake3"
)

func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

func decodeVector(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// embedKey names a chunk's vector in the embedding cache: the BLAKE3-256
// of its body, the text the vector is computed from.
func embedKey(body string) [32]byte { return blake3.Sum256([]byte(body)) }

//semguard:begin vector-input

// vectorBuilder embeds the chunks of a generation through the embedding
// cache: only texts the cache does not hold reach the embedder.
type vectorBuilder struct {
	emb      embed.Embedder
	cache    *cache.Embeddings
	progress Progress
	watch    *progress.Watch

	hits, misses, embedded int
}

// vectors returns the vectors of docs, in order; nil without an embedder.
func (v *vectorBuilder) vectors(ctx context.Context, docs []*backend.Chunk) ([][]float32, error) {
	if v == nil || len(docs) == 0 {
		return nil, nil
	}
	type need struct {
		hash [32]byte
		text string
		at   []int // positions in docs
	}
	var todo []*need
	byHash := map[[32]byte]*need{}
	vecs := make([][]float32, len(docs))
	dims := v.emb.Identity().Dims
	for i, d := range docs {
		in := d.Body()
		h := embedKey(in)
		if vec, ok := v.cache.Get(h); ok && len(vec) == dims {
			vecs[i] = vec
			v.hits++
			continue
		}
		v.misses++
		if n, ok := byHash[h]; ok {
			n.at = append(n.at, i)
			continue
		}
		n := &need{hash: h, text: in, at: []int{i}}
		byHash[h] = n
		todo = append(todo, n)
	}
	if len(todo) > 0 {
		texts := make([]string, len(todo))
		for i, n := range todo {
			texts[i] = n.text
		}
		v.progress.Detail(fmt.Sprintf("embedding %d chunks", len(texts)))
		v.watch.Begin(len(texts))
		out, err := v.emb.Embed(v.watch.Context(ctx), texts)
		if err != nil {
			return nil, fmt.Errorf("embed %d chunks: %w", len(texts), err)
		}
		v.watch.End()
		v.progress.Detail("")
		v.embedded += len(texts)
		for i, n := range todo {
			if err := v.cache.Put(n.hash, out[i]); err != nil {
				return nil, fmt.Errorf("embedding cache: %w", err)
			}
			for _, at := range n.at {
				vecs[at] = out[i]
			}
		}
		if err := failpoint.Hit("during-embedding"); err != nil {
			return nil, err
		}
	}
	return vecs, nil
}

// openVectorBuilder opens the embedding cache for the configured embedder;
// it returns nil (a valid, inert builder) without one.
func (e *Engine) openVectorBuilder(o RefreshOptions) (*vectorBuilder, error) {
	if e.Settings.Embedder == nil {
		return nil, nil
	}
	id := e.Settings.embedIdentity()
	c, err := cache.OpenEmbeddings(filepath.Join(e.Layout.CacheDir(), "embeddings"), id.String())
	if err != nil {
		return nil, fmt.Errorf("open embedding cache: %w", err)
	}
	p := progress.Of(o.Progress)
	return &vectorBuilder{emb: e.Settings.Embedder, cache: c, progress: p, watch: progress.NewWatch(p)}, nil
}

//semguard:end vector-input

func (v *vectorBuilder) close() {
	if v != nil {
		_ = v.cache.Close()
	}
}

// flush makes the new embeddings durable before the commit and reports the
// counts.
func (v *vectorBuilder) flush(res *RefreshResult) error {
	if v == nil {
		return nil
	}
	res.ChunksEmbedded, res.EmbedCacheHits, res.EmbedCacheMisses = v.embedded, v.hits, v.misses
	res.EmbedInputsSplit = v.watch.Splits()
	if err := v.cache.Flush(); err != nil {
		return fmt.Errorf("embedding cache: %w", err)
	}
	return failpoint.Hit("after-embed-cache")
}

// collectEmbeddings evicts cached embeddings no chunk of the committed
// generation uses once the cache is over its cap. The live set is computed
// only when the cache asks (re-chunking the mirror), which is rare.
func (e *Engine) collectEmbeddings(v *vectorBuilder, man *mirror.Manifest, store *mirror.Store, res *RefreshResult) {
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
	if _, err := v.cache.Collect(isLive, e.Settings.EmbedCacheCap); err != nil {
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
			live[embedKey(d.Body())] = true
		}
	}
	return live, nil
}

// remote reports whether the embedder calls a provider over the network.
func (v *vectorBuilder) remote() bool {
	return v != nil && v.emb.Identity().Provider != "local"
}

// toEmbed counts the distinct chunk texts of entries that the embedding
// cache lacks: what add will send to the embedder.
func (v *vectorBuilder) toEmbed(ctx context.Context, b *builder, entries []mirror.Entry) int {
	dims := v.emb.Identity().Dims
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
		for _, d := range docs {
			h := embedKey(d.Body())
			if seen[h] {
				continue
			}
			seen[h] = true
			if vec, ok := v.cache.Get(h); !ok || len(vec) != dims {
				n++
			}
		}
	}
	return n
}
