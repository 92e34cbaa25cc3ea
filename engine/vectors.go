package engine

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/zeebo/blake3"

	"github.com/autorag/autorag/cache"
	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/engine/vector"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/failpoint"
	"github.com/autorag/autorag/mirror"
)

const vectorDir = "vectors"

// ErrUsage marks errors of what the caller asked for (a mode the index
// cannot serve, a mismatched embedder): the CLI exits 2 for them.
var ErrUsage = errors.New("usage error")

type usageErr struct{ msg string }

func (u usageErr) Error() string        { return u.msg }
func (u usageErr) Is(target error) bool { return target == ErrUsage }

func usagef(format string, args ...any) error { return usageErr{msg: fmt.Sprintf(format, args...)} }

// embedderID is the fingerprinted name of the configured embedder.
func (s Settings) embedderID() string {
	if s.Embedder == nil {
		return "none"
	}
	return s.embedIdentity().String()
}

// DefaultFusion is the fusion measured best for an embedder. With the
// built-in static embedder BM25 carries the ranking and the dense list
// adjusts it: adaptive fusion (α = 0.8, the dense weight halved for code
// and quartered for queries not in English, vector-only hits below 0.15
// dropped, 0.25 for a query the embedder knows no word of, and the query
// vector turned by BM25's best 5 chunks: feedback.go)
// scored at least BM25's nDCG@10 on every set of ../shared/eval and led on
// the dev splits (docs/QUALITY.md, `make eval`); fixed convex fusion at 0.8 lost 0.012 on
// code (CoSQA). An API embedder is strong enough for reciprocal rank
// fusion at equal weights.
func DefaultFusion(id embed.Identity) Fusion {
	if id.Provider == "local" {
		return DefaultAdaptive
	}
	return DefaultRRF
}

// The default settings of each fusion method (see DefaultFusion).
var (
	DefaultConvex   = Fusion{Method: FusionConvex, Alpha: 0.8}
	DefaultAdaptive = Fusion{Method: FusionAdaptive, Alpha: 0.8, Code: 0.1, Foreign: 0.25, Floor: 0.15, FloorUnknown: 0.25, Feedback: 5}
	DefaultRRF      = Fusion{Method: FusionRRF, K: 60, WBM25: 1, WDense: 1}
)

// fusion is the fusion hybrid queries use: the configured one, else the
// embedder's default.
func (e *Engine) fusion() Fusion {
	if e.Settings.Fusion.Method != "" || e.Settings.Embedder == nil {
		return e.Settings.Fusion
	}
	return DefaultFusion(e.Settings.Embedder.Identity())
}

// resolveMode is the mode a query with mode runs in on the generation sc
// names ("" resolves to the default); it checks that the index can serve it
// with the configured embedder.
func (e *Engine) resolveMode(sc *fingerprint.Sidecar, mode string) (string, error) {
	e.assumeRecordedDims(sc)
	built := sc.Settings["embedder"]
	hasVectors := built != "" && built != "none"
	switch mode {
	case "":
		if !hasVectors {
			return ModeBM25, nil
		}
		mode = ModeHybrid
	case ModeBM25:
		return mode, nil
	case ModeVector, ModeHybrid:
		if !hasVectors {
			return "", usagef("--mode %s: the index has no vectors (it was built with AUTORAG_EMBEDDER=none)", mode)
		}
	default:
		return "", usagef("unknown --mode %q (want hybrid, bm25 or vector)", mode)
	}
	if cur := e.Settings.embedderID(); cur != built {
		if strings.HasPrefix(built, "local/") && strings.HasPrefix(cur, "local/") {
			return "", usagef("the index was built by another version of the built-in embedder (%s; this autorag has %s): run `autorag refresh` to rebuild it", built, cur)
		}
		return "", usagef("the index was built with embedder %s but %s is configured: configure the embedder it was built with (`autorag config` shows the settings in effect), or run `autorag refresh` to re-embed with this one", built, cur)
	}
	return mode, nil
}

// denseList searches the generation's vectors for the query, its vector
// turned by bm's best chunks when the fusion f says so (feedbackVector;
// bm is nil when the lists run side by side), and returns how many chunks
// turned it; with a path filter it searches deeper so that enough chunks
// pass.
func (e *Engine) denseList(ctx context.Context, ix *vector.Index, sc *fingerprint.Sidecar, f Fusion, text string, bm []rank.Hit, filter *pathFilter, want int) ([]rank.Hit, int, error) {
	if ix == nil {
		return nil, 0, usagef("generation %s has no vectors for embedder %s", sc.Generation, e.Settings.embedderID())
	}
	local := func([]rank.Hit) (func(string) ([]float32, bool), error) { return ix.Vector, nil }
	q, fed, err := e.feedbackVector(ctx, f, text, bm, local)
	if err != nil {
		return nil, 0, err
	}
	return searchVectors(ix, q, filter, want), fed, nil
}

// searchVectors returns the want chunks of ix nearest to q that pass the
// filter.
func searchVectors(ix *vector.Index, q []float32, filter *pathFilter, want int) []rank.Hit {
	n := want
	if filter != nil {
		n = want * 20
	}
	var out []rank.Hit
	for _, h := range ix.Search(q, n) {
		if filter.match(h.ID) {
			out = append(out, rank.Hit{ID: h.ID, Score: float64(h.Score)})
			if len(out) == want {
				break
			}
		}
	}
	return out
}

// queryVector embeds the query text. The built-in embedder costs
// microseconds; a remote one goes through a small on-disk cache of query
// vectors so a repeated question is not sent again.
func (e *Engine) queryVector(ctx context.Context, text string) ([]float32, error) {
	emb := e.Settings.Embedder
	id := emb.Identity()
	if id.Provider == "local" {
		return embedOne(ctx, emb, text)
	}
	ns := id.String()
	qc := cache.OpenQueries(filepath.Join(e.Layout.CacheDir(), "qvec"), 16<<20)
	key := cache.QueryKey("query-vector", ns, text)
	if b, ok := qc.Get(ns, key); ok && len(b) == 4*id.Dims {
		return decodeVector(b), nil
	}
	v, err := embedOne(ctx, emb, text)
	if err != nil {
		return nil, err
	}
	_ = qc.Put(ns, key, encodeVector(v)) // a cache that cannot be written is not an error
	return v, nil
}

func embedOne(ctx context.Context, emb embed.Embedder, text string) ([]float32, error) {
	vs, err := emb.Embed(ctx, []string{text})
	if err != nil {
		return nil, fmt.Errorf("embed query: %w", err)
	}
	return vs[0], nil
}

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
	watch    *embedWatch

	hits, misses, embedded int
}

// vectors returns the vectors of docs, in order; nil without an embedder.
func (v *vectorBuilder) vectors(ctx context.Context, docs []*chunkDoc) ([][]float32, error) {
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
		in := d.body()
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
		v.watch.begin(len(texts))
		out, err := v.emb.Embed(v.watch.context(ctx), texts)
		if err != nil {
			return nil, fmt.Errorf("embed %d chunks: %w", len(texts), err)
		}
		v.watch.end()
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
	p := progressOf(o)
	return &vectorBuilder{emb: e.Settings.Embedder, cache: c, progress: p, watch: &embedWatch{p: p}}, nil
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
	res.EmbedInputsSplit = int(v.watch.split.Load())
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
			live[embedKey(d.body())] = true
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
			h := embedKey(d.body())
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
