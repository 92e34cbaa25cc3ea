// Package semguard makes a change to what the index stores impossible to
// miss. An index whose fingerprint matches is reused, and so is every
// cached embedding: a change to code that shapes an artifact, made without
// bumping engine.IndexSemanticsVersion, would serve stale indexes and
// stale vectors forever. The guard test (go test ./semguard/..., part of
// make test) fails when that happens.
//
// # Regions
//
// Code that shapes what is stored sits between markers, each a line
// comment of its own between top-level declarations, with a blank line on
// both sides (gofmt moves a directive that touches a doc comment):
//
//	//semguard:begin chunk
//
//	// Split cuts text into chunks. ...
//	func Split(kind, text string, o Options) []Chunk { ... }
//
//	//semguard:end chunk
//
// A region holds whole declarations of one file; its name is used once in
// the module. Markers that are unpaired, misnested (regions do not nest),
// empty, duplicated, malformed or inside a declaration fail with their
// file:line. Today's regions cover the parsers and text normalization
// (mirror), the mirror's object, pack and manifest formats, chunking
// (engine/chunk), the index-time analyzer (engine/analyze), the built-in
// embedder with its go:embed table and its tokenizer (engine/embed/static,
// engine/embed/wordpiece), the build of a
// generation (engine/build.go: what is indexed, deleted and kept), the
// chunk documents and bleve mapping, the file table, the vector input,
// segments and manifest (engine, engine/vector), the embedding cache format
// (cache), the fingerprint and its inputs, the sidecar and the artifact
// digests (fingerprint, engine).
//
// # What is digested
//
// A region's digest covers, transitively, everything of this module it
// reaches: every function, method, type, constant and variable named in
// its code (resolved by go/types over the packages go/packages lists, so a
// new file or package reached from a region is followed with no
// configuration). A helper outside every region therefore cannot change
// semantics unseen. Each declaration is digested from its syntax tree —
// node kinds, names, operators and literal values — so comments and
// formatting (gofmt or any other) do not count, nor does the spelling of a
// literal (0x10 and 16) or an import alias. Also covered:
//
//   - dependencies by module path@version (as go list resolves them,
//     replacements included; a replacement by a local directory is named,
//     its content is not digested): a bleve or blake3 upgrade that a
//     region reaches is a change;
//   - go:embed data by content (the built-in embedder's table);
//   - the methods the standard library calls on a value of a reached type
//     without naming them (String, Error, MarshalJSON, MarshalBinary,
//     Less, ...), and the init functions that use a reached variable.
//
// Standard library code is named, not digested: a Go upgrade is not seen.
// A call through an interface is not followed to its implementations (the
// type is not known statically): mark the implementation that shapes
// artifacts, as the analyzer's Analyze and the built-in embedder's Embed
// are marked. A struct type without tags is followed field by field (code
// that reads one field of engine.Settings does not depend on the others); a
// struct with tags is followed whole, since it is likely serialized by
// reflection. Files are selected as for linux/amd64, so the digest does not
// depend on the machine.
//
// # Query-time code
//
// Config.QueryTime (config.go) declares the query-time symbols: BM25 k1
// and b, fusion, query analysis and options, result shaping. A region
// that reaches one is an error showing the path, so guarding never forces
// a needless rebuild. The same machinery digests the query path (those
// symbols and Config.QueryRoots, which also name the implementations the
// query path calls through interfaces) into engine.QuerySemantics
// (engine/querysemantics.go, generated), which is part of every query-cache
// key: reinstalling the same code keeps the cache, any query-time change
// invalidates it, and a query-only change never needs a version bump.
//
// Config.Reports names types that guarded code fills but that only report
// on a run (engine.RefreshResult): they are referenced by name and not
// digested, so a new counter does not ask for a bump.
//
// # The record and what to do
//
// engine/semantics.json, beside IndexSemanticsVersion, records the version
// the digests were taken at, each region's digest and modules, and each
// reached declaration's digest (so a failure names the symbols that
// changed and the regions that reach them), and the digest of each
// declaration the query digest covers (so a stale query digest names them
// too). It is written only by
//
//	make semguard-update              # after bumping IndexSemanticsVersion
//	make semguard-update REFACTOR=1   # a pure refactor: same bytes stored
//
// which refuses a guarded change without a bump (unless REFACTOR=1), a bump
// with no guarded change, and a version that went down; it prints what it
// recorded. The guard test fails, saying what changed and which command
// to run, when guarded code changed (bumped or not: a bump must be
// recorded too, or the next change would pass unseen), when the version
// was bumped with no change, and when the compiled-in query digest is
// stale.
//
// IndexSemanticsVersion is part of the fingerprint (a bump rebuilds every
// index on its next refresh) and of the built-in embedder's identity (its
// cached embeddings are not reused across a bump).
//
// # Cost
//
// Loading uses `go list` (no compilation of this module) for the package
// graph and the dependencies' export data from the build cache, then
// parses and type-checks the packages a digest can reach from source:
// about a second of CPU (docs/BENCHMARKS.md).
package semguard
