package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/autorag/autorag/cache"
	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
	"github.com/autorag/autorag/fingerprint"
)

// The query cache answers a repeated `autorag query` from
// .autorag/cache/query/ without opening the index: read the sidecar, compute
// the key, read one entry. The key covers everything an answer depends on,
// so an entry is never wrong, only missing:
//   - the committed fingerprint and generation (a refresh, a rebuild or a
//     reset changes them);
//   - the normalized query text and every option (mode, k, per-file, path
//     filter, explain);
//   - the query-time settings (BM25 k1/b, fusion) and the embedder;
//   - the query-time code (querySemantics): a binary whose query path
//     differs never serves another's answers, and reinstalling the same
//     code keeps the cache.

// querySemantics is engine.QuerySemantics, the digest of the query-time
// code that make semguard-update computes and compiles in (semguard/doc.go).
// A var only so that a test can stand in for a binary with other code.
var querySemantics = engine.QuerySemantics

// queryCacheKey is engine.AnswerKey in the on-disk namespace: this
// binary's query semantics. ok is false when the options do
// not resolve on this generation (the query itself will say why).
func queryCacheKey(sc *fingerprint.Sidecar, e *engine.Engine, o engine.QueryOptions) (key [32]byte, ok bool) {
	o, err := e.ResolveOptions(sc, o)
	if err != nil {
		return key, false
	}
	return engine.AnswerKey(sc, o, e.QuerySettings(), querySemantics), true
}

func openQueryCache(e *engine.Engine, capBytes int64) *cache.Queries {
	return cache.OpenQueries(filepath.Join(e.Layout.CacheDir(), "query"), capBytes)
}

// queryCacheCap is AUTORAG_QUERY_CACHE_BYTES, default 64 MiB.
func queryCacheCap() (int64, error) {
	v := os.Getenv("AUTORAG_QUERY_CACHE_BYTES")
	if v == "" {
		return 64 << 20, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, usagef("AUTORAG_QUERY_CACHE_BYTES=%q: want a number of bytes", v)
	}
	return n, nil
}

// cachedQuery returns the stored envelope for o, or nil.
func cachedQuery(e *engine.Engine, capBytes int64, o engine.QueryOptions) (*envelope.Query, *fingerprint.Sidecar, [32]byte) {
	sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
	if err != nil {
		return nil, nil, [32]byte{}
	}
	key, ok := queryCacheKey(sc, e, o)
	if !ok {
		return nil, nil, key
	}
	b, ok := openQueryCache(e, capBytes).Get(sc.Fingerprint, key)
	if !ok {
		return nil, sc, key
	}
	var env envelope.Query
	if json.Unmarshal(b, &env) != nil {
		return nil, sc, key
	}
	return &env, sc, key
}

// storeQuery keeps an answer when the generation it came from is still the
// one the sidecar read before the query named.
func storeQuery(e *engine.Engine, capBytes int64, sc *fingerprint.Sidecar, key [32]byte, env *envelope.Query) {
	if sc == nil || env.Generation != sc.Generation {
		return
	}
	b, err := json.Marshal(env)
	if err != nil {
		return
	}
	_ = openQueryCache(e, capBytes).Put(sc.Fingerprint, key, b)
}

func since(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }
