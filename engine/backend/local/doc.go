// Package local is the local backend behind the storage seam (package
// engine/backend): each generation directory holds a bleve index and, with
// an embedder, a vector index (package engine/vector).
//
// It owns the bleve mapping and chunk documents (bleve.go; the body field
// counts its own terms), the segment files, hard-linked clones, batches
// (a part without deletes is one batch per core) and merge policy
// (bleve_files.go), opening and creating the scorch index without bleve's
// top-level package (scorch.go), the exact BM25 scorer over bleve's postings (bm25.go,
// bm25list.go, postings.go; bm25prune.go prunes it with package prune,
// and bm25tiered.go from tiered postings built in memory per open
// generation (tiers.go), same ranking; Storage.Scorer chooses),
// per-language term scoping (querylang.go), filter terms (facets.go), the
// stored fields of results (load.go), the writer and reader of a
// generation (storage.go, search.go), the vector build (storage.go:
// Finish) and scan (vectors.go), and compaction (compact.go).
//
// It must never import package engine, the Weaviate backend, an embedder
// or ranking beyond rank's hit and result types; the engine's orchestrator
// analyzes the query, ranks the lists and embeds the chunks
// (engine/imports_test.go enforces the import rules).
//
// # On-disk layout of a generation
//
//	bleve/          a scorch index; one document per chunk, ID "<path>\x00<ordinal>"
//	vectors/        with an embedder: one vector per chunk, same IDs (engine/vector)
//
// A generation is built from its predecessor by hard-linking the
// predecessor's immutable .zap segment files, copying its small mutable
// root.bolt and index_meta.json, and applying the change (deletes of the
// changed files' old chunks, inserts of their new chunks, in the engine's
// batches) to the copy. Older generations are never modified, so a reader
// that has one open keeps a consistent view. The cost of a generation is
// proportional to the change, not to the corpus.
//
// Every batch stores a stamp (the generation name) as bleve internal data;
// a reader checks it after opening, because scorch silently falls back to
// an older snapshot when a segment file is missing.
//
// # Scoring
//
// bleve's own BM25 depends on segment layout (its average length counts
// distinct terms per segment). This backend computes Lucene-style BM25
// itself from bleve's postings (term frequency and the exact field length
// encoded in the norm) with exact collection statistics (chunk count and
// total tokens) kept per generation in the sidecar, so an incrementally
// updated index scores exactly like a fresh build.
//
// With multilingual analysis each chunk also has a language field, and a
// query's terms are scored per language (querylang.go): each language's
// analysis of the query scores that language's chunks, with an idf over
// them alone.
package local
