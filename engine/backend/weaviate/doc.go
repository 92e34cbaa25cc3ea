// Package weaviate stores autorag generations in a Weaviate cluster: the
// groundwork of the Weaviate backend (issue 16). It speaks Weaviate's REST and
// GraphQL API over net/http (no client library: see client.go for why).
//
// # Collections and the commit point
//
// A generation lives in a collection whose objects are chunks: chunkId
// (deterministic object UUID, see ObjectID), path, text, tokens (autorag's own
// analyzer output joined by spaces, in a property with whitespace
// tokenization, so BM25 sees exactly the local backend's terms), meta (opaque
// JSON) and the vector autorag computed (vectorizer none). BM25 runs with
// k1 = 0.9, b = 0.4 and no stop words, like the local backend.
//
// Readers query an alias, never a collection; swapping the alias (a single
// Raft-replicated schema change) is the commit point, so a reader sees the
// old or the new state, never a half-applied one.
//
// # Incremental updates: two collections alternating (Pair)
//
// A Pair keeps two collections <alias>_<epoch>_a and _b holding the same
// state. An update applies the change (upserts and deletes by chunk id) to the
// standby collection, swaps the alias onto it, then replays the change on the
// other one. An update costs twice the change, never a copy of the corpus.
//
// Before touching the standby, the chunk ids of the change are written to a
// journal object; it is cleared once the replay is done. If an update dies at
// any point (before the swap: the standby holds part of the change; after it:
// the other collection lags), the next update finds the journal and first
// copies those chunks (or their absence) from the collection the alias names
// into the standby, so both converge on the committed state at a cost
// proportional to the interrupted change.
//
// One process updates a pair at a time: the caller holds autorag's lock.
//
// A rebuild (Pair.Build) creates a new epoch, imports into both of its
// collections, swaps the alias and drops every other collection of the
// alias (Collect).
package weaviate
