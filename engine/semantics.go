package engine

import (
	"strconv"

	"github.com/autorag/autorag/engine/embed"
)

// Two versions, two caches (semguard/doc.go):
//   - IndexSemanticsVersion (settings.go) versions what an index stores. It
//     is part of the fingerprint, so a bump rebuilds every index on its next
//     refresh, and of the built-in embedder's identity (embedIdentity), so
//     its cached embeddings are not reused across a bump. Package semguard
//     keeps the digests of the code that shapes artifacts in semantics.json
//     and fails the tests when they change without a bump.
//   - QuerySemantics (querysemantics.go, generated) is the digest of the
//     query-time code; it is part of every query-cache key.

// embedIdentity is the configured embedder's identity as the fingerprint
// and the embedding cache know it. The built-in embedder's vectors are
// computed by this module's code (its tokenizer, weighting and table are
// guarded), so its identity carries IndexSemanticsVersion. A remote
// embedder's vectors depend only on the text sent and the model named.
func (s Settings) embedIdentity() embed.Identity {
	id := s.Embedder.Identity()
	if id.Provider == "local" {
		id.Model += "+index" + strconv.Itoa(IndexSemanticsVersion)
	}
	return id
}
