// Package weaviate is the Weaviate backend behind the storage seam
// (package engine/backend): it stores autorag generations in a Weaviate
// cluster. It speaks Weaviate's REST and GraphQL API over net/http (no
// client library: see client.go for why): client.go, objects.go, pair.go,
// alias.go, schema.go, search.go, raft.go and errors.go are the client;
// the adapter_*.go files are the backend the engine opens (OpenStorage):
// its storage and records (adapter_storage.go), its writer and chunk
// objects (adapter_writer.go), its per-query lists (adapter_search.go),
// the index id (adapter_id.go) and orphaned indexes (adapter_orphans.go).
//
// It must never import package engine, bleve or the local backend; only
// the engine (which picks the backend) imports it (engine/imports_test.go).
//
// # Queries
//
// A query fetches the BM25 list (over autorag's analyzed tokens) and the
// vector list from the cluster, and the engine fuses them with the same
// code as the local backend's (package engine/rank), the vector feedback
// from BM25's best chunks included. --filter and --type become where
// arguments over the stored filter terms, and with several analysis
// languages the BM25 list is one search per language; what differs is
// Weaviate's idf, counted per shard (adapter_search.go).
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
// old or the new state, never a half-applied one. A query the engine runs
// as several requests resolves the alias once and sends them all to that
// collection, so its lists and texts come from one state.
//
// # Incremental updates: two collections alternating (Pair)
//
// A Pair keeps two collections <alias>_<epoch>_a and _b. An update applies
// the change (upserts and deletes by chunk id) to the standby collection,
// swaps the alias onto it and waits until every member applied the swap (a
// follower resolves aliases from its own copy of the schema, which lags the
// leader's). The collection the alias named before is left untouched then,
// since queries already running there must not see it change; the next
// update first brings it up to date, copying the chunks of the previous
// change (or their absence) from the collection the alias names, and only
// then applies its own change to it. An update costs twice the change,
// never a copy of the corpus.
//
// The chunk ids of the change are written to a journal object before the
// standby is touched; they tell the next update what to copy. If an update
// dies at any point (before the swap: the standby holds part of the change;
// after it: the other collection lags), the next update takes the same
// path, so both converge on the committed state at a cost proportional to
// the change. Sync does it at once.
//
// One process updates a pair at a time: the caller holds autorag's lock.
//
// A rebuild (Pair.Build) creates a new epoch, imports into both of its
// collections, swaps the alias and drops every other collection of the
// alias (Collect).
package weaviate
