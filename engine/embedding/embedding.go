package embedding

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/autorag/autorag/cache"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/progress"
	"github.com/autorag/autorag/internal/failpoint"
	"github.com/zeebo/blake3"
)

// Encode is a vector as little-endian float32 bytes.
func Encode(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// Decode is the vector Encode made.
func Decode(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// Key names a chunk's vector in the embedding cache: the BLAKE3-256 of its
// body, the text the vector is computed from.
func Key(body string) [32]byte { return blake3.Sum256([]byte(body)) }

//semguard:begin vector-input

// Builder embeds the chunks of a generation through the embedding cache:
// only texts the cache does not hold reach the embedder. A nil Builder (no
// embedder) is valid and inert.
type Builder struct {
	emb      embed.Embedder
	cache    *cache.Embeddings
	progress progress.Progress
	// Watch is the refresh's embed.Observer.
	Watch *progress.Watch

	// Hits, Misses and Embedded count the chunks found in the cache, not
	// found, and the distinct texts sent to the embedder.
	Hits, Misses, Embedded int
}

// Group is how many chunk texts a model run in process or a provider gets
// in one Embed call: what it returns goes into the embedding cache before
// the next call, so that Ctrl-C (or a failure) loses at most the group in
// flight, not the whole batch a build hands Vectors. 256 keeps a
// provider's default 4 requests of 64 in flight; the built-in embedder
// (microseconds a chunk) takes the batch in one call.
const Group = 256

// Vectors returns the vectors of docs, in order; nil without an embedder.
func (v *Builder) Vectors(ctx context.Context, docs []*backend.Chunk) ([][]float32, error) {
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
		h := Key(in)
		if vec, ok := v.cache.Get(h); ok && len(vec) == dims {
			vecs[i] = vec
			v.Hits++
			continue
		}
		v.Misses++
		if n, ok := byHash[h]; ok {
			n.at = append(n.at, i)
			continue
		}
		n := &need{hash: h, text: in, at: []int{i}}
		byHash[h] = n
		todo = append(todo, n)
	}
	group := len(todo)
	if v.Remote() {
		group = Group
	}
	for len(todo) > 0 {
		part := todo[:min(group, len(todo))]
		todo = todo[len(part):]
		texts := make([]string, len(part))
		for i, n := range part {
			texts[i] = n.text
		}
		v.progress.Detail(fmt.Sprintf("embedding %d chunks", len(texts)))
		v.Watch.Begin(len(texts))
		out, err := v.emb.Embed(v.Watch.Context(ctx), texts)
		if err != nil {
			return nil, fmt.Errorf("embed %d chunks: %w", len(texts), err)
		}
		v.Watch.End()
		v.progress.Detail("")
		v.Embedded += len(texts)
		for i, n := range part {
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

// Open opens the embedding cache in dir for emb, whose identity (as the
// fingerprint knows it) is id, with p watching.
func Open(dir string, emb embed.Embedder, id embed.Identity, p progress.Progress) (*Builder, error) {
	c, err := cache.OpenEmbeddings(dir, id.String())
	if err != nil {
		return nil, fmt.Errorf("open embedding cache: %w", err)
	}
	return &Builder{emb: emb, cache: c, progress: p, Watch: progress.NewWatch(p)}, nil
}

//semguard:end vector-input

// Close closes the cache.
func (v *Builder) Close() {
	if v != nil {
		_ = v.cache.Close()
	}
}

// Discard closes the cache, removing what this process wrote into it
// (cache.Embeddings.Discard): for an upgrader whose index was reset.
func (v *Builder) Discard() error {
	if v == nil {
		return nil
	}
	return v.cache.Discard()
}

// Flush makes the new embeddings durable before the commit.
func (v *Builder) Flush() error {
	if v == nil {
		return nil
	}
	if err := v.cache.Flush(); err != nil {
		return fmt.Errorf("embedding cache: %w", err)
	}
	return failpoint.Hit("after-embed-cache")
}

// Files yields every file of a set cut into its chunks, with its path, or
// the error that kept it from being cut.
type Files = func(yield func(path string, docs []*backend.Chunk, err error) bool)

// CollectLive evicts cached embeddings no chunk of files uses once the
// cache is over capBytes; the vectors of the identities in keep (an
// upgrade's target) stay whole. The live set is computed only when the cache
// asks (files then re-chunks the mirror), which is rare. It returns
// warnings: a collection that failed, or one skipped because some file
// could not be chunked again.
func (v *Builder) CollectLive(files Files, capBytes int64, keep ...string) []string {
	if v == nil {
		return nil
	}
	var live map[[32]byte]bool
	var liveErr error
	isLive := func(h [32]byte) bool {
		if live == nil && liveErr == nil {
			live, liveErr = liveKeys(files)
		}
		// Without the complete live set every entry counts as live: the
		// collection then evicts nothing.
		return liveErr != nil || live[h]
	}
	var warnings []string
	if _, err := v.cache.Collect(isLive, capBytes, keep...); err != nil {
		warnings = append(warnings, fmt.Sprintf("embedding cache gc: %v", err))
	}
	if liveErr != nil {
		warnings = append(warnings, fmt.Sprintf("embedding cache gc skipped, nothing evicted: %v", liveErr))
	}
	return warnings
}

// liveKeys recomputes the embedding inputs of every chunk; it fails when
// any committed file cannot be chunked again.
func liveKeys(files Files) (map[[32]byte]bool, error) {
	live := map[[32]byte]bool{}
	var err error
	files(func(path string, docs []*backend.Chunk, ferr error) bool {
		if ferr != nil {
			err = fmt.Errorf("live embeddings of %s: %w", path, ferr)
			return false
		}
		for _, d := range docs {
			live[Key(d.Body())] = true
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	return live, nil
}

// ToEmbed counts the distinct chunk texts of files that the embedding
// cache lacks: what Vectors will send to the embedder. Files that could
// not be cut are skipped (the build reports them).
func (v *Builder) ToEmbed(ctx context.Context, files Files) int {
	seen := map[[32]byte]bool{}
	n := 0
	files(func(_ string, docs []*backend.Chunk, err error) bool {
		if ctx.Err() != nil {
			return false
		}
		if err == nil {
			n += v.missing(docs, seen)
		}
		return true
	})
	return n
}

// Remote reports whether the embedder calls a provider over the network.
func (v *Builder) Remote() bool {
	return v != nil && v.emb.Identity().Provider != "local"
}

// missing counts the distinct chunk texts of docs that the embedding cache
// lacks and seen does not hold yet (it records them).
func (v *Builder) missing(docs []*backend.Chunk, seen map[[32]byte]bool) int {
	dims := v.emb.Identity().Dims
	n := 0
	for _, d := range docs {
		h := Key(d.Body())
		if seen[h] {
			continue
		}
		seen[h] = true
		if vec, ok := v.cache.Get(h); !ok || len(vec) != dims {
			n++
		}
	}
	return n
}
