package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/autorag/autorag/cache"
	"github.com/autorag/autorag/engine"
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
//   - this binary (querySemantics): a new build never serves an older
//     build's answers.

// querySemantics versions what the query path computes from an index.
// Bump it when ranking or the result format changes; the executable's
// identity is added at run time as a backstop for development builds.
const querySemantics = "query@1"

var binaryIdentity = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return version()
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return version()
	}
	return fmt.Sprintf("%s %d %d", version(), fi.Size(), fi.ModTime().UnixNano())
})

// queryCacheKey is engine.AnswerKey in the on-disk namespace: this
// query-semantics version and this binary. ok is false when the options do
// not resolve on this generation (the query itself will say why).
func queryCacheKey(sc *fingerprint.Sidecar, e *engine.Engine, o engine.QueryOptions) (key [32]byte, ok bool) {
	o, err := e.ResolveOptions(sc, o)
	if err != nil {
		return key, false
	}
	return engine.AnswerKey(sc, o, e.QuerySettings(), querySemantics, binaryIdentity()), true
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
func cachedQuery(e *engine.Engine, capBytes int64, o engine.QueryOptions) (*queryEnvelope, *fingerprint.Sidecar, [32]byte) {
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
	var env queryEnvelope
	if json.Unmarshal(b, &env) != nil {
		return nil, sc, key
	}
	return &env, sc, key
}

// storeQuery keeps an answer when the generation it came from is still the
// one the sidecar read before the query named.
func storeQuery(e *engine.Engine, capBytes int64, sc *fingerprint.Sidecar, key [32]byte, env *queryEnvelope) {
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
