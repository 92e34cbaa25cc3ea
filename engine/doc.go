// Package engine owns the index: it orchestrates the refresh pipeline
// (scan, diff, embed, apply, commit, collect: refresh.go, build.go,
// commit.go, collect.go) and the search pipeline (analyze the query, run
// the lexical and dense lists, rank, materialize: query.go, lists.go), and
// keeps the local backend (bleve mapping and segments, the postings BM25
// scorer, filters, vector scan, compaction) and the Weaviate adapter
// (storage_weaviate.go, search_weaviate.go, weaviate_writer.go) behind the
// storage seam (storage.go). Service is the long-lived reader for agents.
//
// Below it, and never importing it (imports_test.go enforces the rules):
//
//	engine/rank      ranking over hit lists: fusion, adaptive weights, the
//	                 vector-only floor, feedback arithmetic, collapse,
//	                 per-file limits; imports no bleve, backend, embedder,
//	                 analyzer or mirror
//	engine/record    chunk IDs and per-file entries, shared by the engine,
//	                 its backends and rank; imports nothing of the module
//	engine/backend/weaviate  the Weaviate REST/GraphQL/gRPC client; only
//	                 the engine's Weaviate adapter imports it
//	engine/analyze, engine/chunk, engine/embed/..., engine/vector
//
// bleve is imported here (the local backend) and, for its analysis
// interfaces only, by engine/analyze, whose analyzer chain is a bleve
// analysis chain.
//
// # On-disk layout of a generation
//
// Every refresh that changes anything writes a new, immutable generation
// directory under <root>/.autorag/index/<generation>/:
//
//	bleve/          a scorch index; one document per chunk, ID "<path>\x00<ordinal>"
//	vectors/        with an embedder: one vector per chunk, same IDs (engine/vector)
//	files.bin       the file table: path, text hash, chunk count and token count per source
//
// A generation is built from its predecessor by hard-linking the predecessor's
// immutable .zap segment files, copying its small mutable root.bolt and
// index_meta.json, and applying the change (deletes of the changed files' old
// chunks, inserts of their new chunks, in batches of batchChunks) to the
// copy. Older generations are
// never modified, so a reader that has one open keeps a consistent view. The
// cost of a generation is proportional to the change, not to the corpus.
//
// Every batch stores a stamp (the generation name) as bleve internal data; a
// reader checks it after opening, because scorch silently falls back to an
// older snapshot when a segment file is missing.
//
// # Storage backends
//
// The searchable state of a generation sits behind one small interface
// (storage.go): check that the committed state can be built on, open it for
// reading, begin the next state from it and send it the change set (deletes
// and upserts by chunk ID, with text, analyzed tokens, metadata and
// vectors) part by part, commit, collect garbage. The local backend
// (storage_local.go, bleve.go, bleve_files.go, bm25list.go, vectors.go) keeps the bleve and vector indexes described above in
// the generation directory; its commit point is the sidecar alone. The
// Weaviate backend (storage_weaviate.go, search_weaviate.go; package
// engine/backend/weaviate) keeps a pair of collections behind an alias per
// root; its commit is the alias swap, recorded in the generation directory
// (weaviate.json) and then in the sidecar. The mirror, manifest, file table,
// fingerprint, sidecar, embedding cache and lock stay on the client for
// every backend. Queries on Weaviate fetch the BM25 list (over autorag's
// analyzed tokens, k1 0.9, b 0.4) and the vector list from the cluster and
// fuse them with the same code (searchLists, fuseWith, package rank), the
// vector feedback from BM25's best chunks included. --filter and --type
// become where arguments over the stored filter terms, and with several
// analysis languages the BM25 list is one search per language; what
// differs is Weaviate's idf, counted per shard (search_weaviate.go).
//
// # Commit protocol
//
// The generation is written and fsynced completely, then the sidecar
// (.autorag/fingerprint.json, package fingerprint) is replaced atomically. The
// sidecar is the only commit point: a crash at any instant leaves the previous
// sidecar naming a complete generation. Generations no sidecar names are
// garbage and are removed after the next commit (or at the start of the next
// refresh, under the lock), with the temporary files a killed writer left;
// but only when the sidecar was read cleanly: an unreadable sidecar or one
// of an unknown format stops the refresh before it removes anything. A
// sidecar renamed into place is a commit even if the directory fsync after
// it fails.
//
// Generation names come from .autorag/generation.counter, advanced durably
// before a name is used and never removed (not by index reset either), so a
// name never comes back while a reader may hold an old sidecar naming it.
//
// index verify checks a consistent snapshot: when it finds a problem it
// reads the sidecar again, and if a refresh committed meanwhile it starts
// over from the new one.
//
// # Progress and learned vector sizes
//
// A refresh reports its phases to RefreshOptions.Progress (probe, scan,
// parse, index, commit; see Progress), and a remote embedder reports its
// requests, retry waits and split inputs to the embed.Observer a refresh
// puts in the context; with no Progress nothing is called but the split
// counter. An embedder whose vector size is not configured (dimsLearner)
// takes the size the committed sidecar recorded for the same model, or
// learns it with one probe request before the fingerprint is computed, so
// the fingerprinted identity is the one actually used.
//
// # Scoring
//
// bleve's own BM25 depends on segment layout (its average length counts
// distinct terms per segment). The engine computes Lucene-style BM25 itself
// from bleve's postings (term frequency and the exact field length encoded in
// the norm) with exact collection statistics (chunk count and total tokens)
// kept per generation in the sidecar, so an incrementally updated index
// scores exactly like a fresh build.
//
// With multilingual analysis (Settings.Analyzer, the default) each chunk
// also has a language field, and a query's terms are scored per language
// (querylang.go): each language's analysis of the query scores that
// language's chunks, with an idf over them alone.
//
// # From lists to results
//
// Hybrid mode fuses the BM25 and the vector list (package rank: fusion.go;
// adaptive.go: the default for the built-in embedder weighs the vector list
// by what it can know, and drops vector-only hits no better than chance).
// An English prose query's vector first takes feedback from BM25's best
// chunks (rank/feedback.go), so then the vector scan follows BM25. Results
// whose chunk text is the same but for white space and version numbers
// collapse into the best-ranked one, which lists the others in AlsoIn
// (rank/page.go, rank/neardup.go); QueryOptions.NoCollapse keeps them
// apart.
package engine
