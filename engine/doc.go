// Package engine is the orchestrator of the index. It runs the refresh
// pipeline (scan, diff, embed, apply, commit, collect: refresh.go,
// build.go, commit.go) and the search pipeline (analyze the query, run
// the lists, rank, materialize: query.go, search.go, querysettings.go);
// Service is the long-lived reader for agents (service.go). settings.go
// holds the settings and the backend choice, storage.go opens a root's
// backend and compacts it, admin.go answers status, verify and reset. The
// searchable state of a generation sits in a backend behind the storage
// seam; every other part is a package of its own.
//
// Below it, and never importing it (imports_test.go enforces the rules):
//
//	engine/backend   the storage seam: Storage, Writer, State and the
//	                 per-query Lists every backend implements, the change
//	                 set, chunk records, the path filter; imports no
//	                 bleve, backend, embedder or analyzer
//	engine/backend/local     the local backend: bleve mapping and segments,
//	                 the exact BM25 postings scorer with language scoping
//	                 and filter terms, the vector build and scan,
//	                 compaction; the only importer of bleve (with
//	                 engine/analyze's analysis interfaces)
//	engine/backend/weaviate  the Weaviate client and the Weaviate backend;
//	                 only the engine imports it, to open it
//	engine/rank      ranking over hit lists: fusion, adaptive weights, the
//	                 vector-only floor, feedback arithmetic, collapse,
//	                 per-file limits; imports no bleve, backend, embedder,
//	                 analyzer or mirror
//	engine/record    chunk IDs and per-file entries, shared by the engine,
//	                 its backends and rank; imports nothing of the module
//	engine/filetable the file table of a generation and its diff against
//	                 the manifest (the change set)
//	engine/split     mirror documents into chunk records: parts, labels,
//	                 filter terms, analysis languages; many files on every
//	                 core (Files), code along the parser the engine passes
//	engine/syntax    tree-sitter on wazero: definitions of 16 languages;
//	                 only the engine imports it, for the refresh
//	engine/codedef   what a definition is, which parser reads a file and at
//	                 which version, go/parser's definitions: what chunk,
//	                 split and mirror import instead of engine/syntax
//	engine/embedding chunk vectors through the embedding cache, the query
//	                 vector
//	engine/progress  how a refresh reports its phases and times its stages
//	engine/layout    the files of .autorag and generation names
//	engine/mirrorview  what a query reads of the mirror: copy signatures,
//	                 filtered metadata
//	engine/analyze, engine/chunk, engine/embed/..., engine/vector
//
// # A generation
//
// Every refresh that changes anything writes a new, immutable generation
// directory under <root>/.autorag/index/<generation>/: the backend's state
// (the local backend's bleve/ and vectors/, package backend/local; a
// Weaviate state's record weaviate.json) and the file table: path, text
// hash, chunk count and token count per source, as files.bin with its
// index files.idx and, after small changes, files.log (the base's later
// changes; the base and its index are linked from the generation built on,
// package filetable). A refresh asks
// the storage whether the committed state can be built on, begins the next
// state from it and sends it the change set (deletes and upserts by chunk
// ID, with text, metadata and vectors) in parts of batchChunks, then
// commits; the Weaviate backend's own commit is the alias swap, recorded
// in the generation directory before the sidecar. The mirror, manifest,
// file table, fingerprint, sidecar, embedding cache and lock stay on the
// client for every backend.
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
// BM25 is Lucene's, with exact collection statistics (chunk count and
// total tokens) kept per generation in the sidecar, so an incrementally
// updated index scores exactly like a fresh build (backend/local); with
// multilingual analysis (Settings.Analyzer, the default) a query's terms
// are scored per language.
//
// # From lists to results
//
// A query's lists come from its backend (backend.Lists) and are ranked
// here the same way for every backend (search.go). Hybrid mode
// fuses the BM25 and the vector list (package rank: fusion.go;
// adaptive.go: the default for the built-in embedder weighs the vector list
// by what it can know, and drops vector-only hits no better than chance).
// An English prose query's vector first takes feedback from BM25's best
// chunks (rank/feedback.go), so then the vector scan follows BM25. Results
// whose chunk text is the same but for white space and version numbers
// collapse into the best-ranked one, which lists the others in AlsoIn
// (rank/page.go, rank/neardup.go); QueryOptions.NoCollapse keeps them
// apart.
package engine
