// Package querycache answers a repeated `autorag query` from
// .autorag/cache/query/ without opening the index: read the sidecar,
// compute the key, read one entry. The key covers everything an answer
// depends on, so an entry is never wrong, only missing:
//   - the committed fingerprint and generation (a refresh, a rebuild or a
//     reset changes them);
//   - the normalized query text and every option (mode, k, per-file, path
//     filter, explain);
//   - the query-time settings (BM25 k1/b, fusion) and the embedder;
//   - the query-time code (Semantics): a binary whose query path differs
//     never serves another's answers, and reinstalling the same code keeps
//     the cache.
//
// It owns when an answer is kept and which key it is kept under; the
// entries' format and eviction are package cache's. It must never import
// the command line (cmd/autorag) or a transport (mcpserver, httpapi).
package querycache
