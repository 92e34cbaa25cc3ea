package engine

import (
	"strconv"

	"github.com/autorag/autorag/engine/embed"
)

// Two versions, two caches (semguard/doc.go):
//   - IndexSemanticsVersion (settings.go) versions what an index stores. It
//     is part of the fingerprint, so a bump rebuilds every index on its next
//     refresh, and of every embedder's identity (embedIdentity), so
//     cached embeddings are not reused across a bump. Package semguard
//     keeps the digests of the code that shapes artifacts in semantics.json
//     and fails the tests when they change without a bump.
//   - QuerySemantics (querysemantics.go, generated) is the digest of the
//     query-time code; it is part of every query-cache key.

// embedIdentity is the configured embedder's identity as the fingerprint
// and the embedding cache know it. It carries IndexSemanticsVersion for
// every embedder: what shapes a stored vector is this module's code for
// each of them (the built-in embedder's tokenizer, weighting and table;
// the OpenAI embedder's splitting and averaging of long texts, and what
// it sends), all guarded, so a bump must not reuse a vector cached
// before it.
func (s Settings) embedIdentity() embed.Identity {
	id := s.Embedder.Identity()
	id.Model += "+index" + strconv.Itoa(IndexSemanticsVersion)
	return id
}
