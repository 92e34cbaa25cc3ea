// Package syntax finds the definitions in source code: the classes,
// functions, methods, types and constants a file declares, with the byte
// and line span of each and the definition that encloses it. The chunker
// cuts code along these spans and the index stores the names each chunk
// defines, so the ranking can prefer the chunk that defines what a query
// names.
//
// The parsers are tree-sitter's: its C runtime and one grammar per
// language, compiled with glue (scripts/treesitter/glue.c) into one
// standalone wasm32-wasi module, treesitter.wasm, built reproducibly by
// scripts/treesitter/build.sh (`make treesitter`) from the Go module
// proxy's zips of their C sources and committed with its sha256 and the
// licences of its sources (LICENSES), so a build needs no C toolchain and
// the binary stays CGO_ENABLED=0. It runs on wazero. Definitions are found
// by a walk over the syntax tree against rules per language (rules/*.rules,
// written after the tags.scm queries GitHub's code navigation uses): node
// types, the path to the name, conditions. Tree-sitter queries would say the
// same, but compiling one analyses the grammar's parse table: 0.1 to 13 s
// per language and instance for the large grammars, where rules cost
// nothing to set. The glue takes in, above each definition, its decorators
// and the comments and attributes on the lines just before it.
//
// Nothing starts until the first Parse (or Warm): the module is compiled
// once per machine into the user cache directory (UseCacheDir), and
// instantiated once per concurrent parse, at most one instance per core,
// each reused for parse after parse. On Linux the first process also
// leaves there the module split in two (modsplit.go, imagefile.go): its
// code, which later processes compile (from the compilation cache), and
// the image of its data (27 MB, nearly all the grammars' parse tables),
// which each instance maps copy-on-write at the start of its memory, a
// mapping outside the Go heap unmapped when the instance closes: the
// tables' pages come from the page cache, shared by every instance and
// process, and only those a parse reads are made. Elsewhere the module is
// loaded whole (left unzipped in the cache for the next process to map)
// and wazero copies its data into every instance. Each parse is bounded: MaxBytes of
// input, a budget of steps inside the module (tree-sitter's progress
// callbacks and the walk's nodes, a function of the input's length only:
// the module reads no clock, so a file parses or falls back the same way
// on any machine under any load), 256 MiB of linear memory. When the
// caller's context ends, or at a far backstop of minutes, the host sets a
// cancel word in the module's memory and the parse stops at its next step.
// A parse past a limit, or a trap, is an error, never a crash; an instance
// that trapped or grew large is dropped and a fresh one made.
//
// It must never import the engine, a backend, an embedder or the mirror.
package syntax
