package querycache

import (
	"encoding/json"
	"path/filepath"

	"github.com/autorag/autorag/cache"
	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
	"github.com/autorag/autorag/fingerprint"
)

// DefaultCapBytes bounds the cache of a root when the caller sets no bound.
const DefaultCapBytes = 64 << 20

// Semantics is engine.QuerySemantics, the digest of the query-time code
// that make semguard-update computes and compiles in (semguard/doc.go). A
// var only so that a test can stand in for a binary with other code.
var Semantics = engine.QuerySemantics

// Cache is the query cache of one engine's root, bounded by capBytes.
type Cache struct {
	e        *engine.Engine
	capBytes int64
}

// Open returns the cache of e's root (nothing is read until Lookup).
func Open(e *engine.Engine, capBytes int64) *Cache { return &Cache{e: e, capBytes: capBytes} }

// Pending is what Lookup read that Keep needs: the sidecar the answer must
// come from, and the answer's key.
type Pending struct {
	// Sidecar is the committed state Lookup read (nil when there is none):
	// the query must be answered from it (engine.QueryAt) for Keep to keep
	// the answer.
	Sidecar *fingerprint.Sidecar
	key     [32]byte
}

// AnswerKey is engine.AnswerKey in the on-disk namespace: this binary's query
// semantics. ok is false when the options do not resolve on this
// generation (the query itself will say why).
func AnswerKey(sc *fingerprint.Sidecar, e *engine.Engine, o engine.QueryOptions) (key [32]byte, ok bool) {
	o, err := e.ResolveOptions(sc, o)
	if err != nil {
		return key, false
	}
	return engine.AnswerKey(sc, o, e.QuerySettings(), Semantics), true
}

func (c *Cache) queries() *cache.Queries {
	return cache.OpenQueries(filepath.Join(c.e.Layout.CacheDir(), "query"), c.capBytes)
}

// Lookup returns the stored answer to o, or nil, and what Keep needs to
// store the answer the caller computes instead.
func (c *Cache) Lookup(o engine.QueryOptions) (*envelope.Query, Pending) {
	sc, err := fingerprint.ReadSidecar(c.e.Layout.SidecarPath())
	if err != nil {
		return nil, Pending{}
	}
	key, ok := AnswerKey(sc, c.e, o)
	if !ok {
		return nil, Pending{}
	}
	p := Pending{Sidecar: sc, key: key}
	b, ok := c.queries().Get(sc.Fingerprint, key)
	if !ok {
		return nil, p
	}
	var env envelope.Query
	if json.Unmarshal(b, &env) != nil {
		return nil, p
	}
	return &env, p
}

// Keep stores env, the answer to the query Lookup missed, when the
// generation it came from is still the one the sidecar Lookup read named.
func (c *Cache) Keep(p Pending, env *envelope.Query) {
	if p.Sidecar == nil || env.Generation != p.Sidecar.Generation {
		return
	}
	b, err := json.Marshal(env)
	if err != nil {
		return
	}
	_ = c.queries().Put(p.Sidecar.Fingerprint, p.key, b)
}
