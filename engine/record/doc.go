// Package record holds what the engine and its backends share about the
// chunks they store: a chunk's ID (ChunkID, SplitChunkID, LessChunkID) and
// the per-file entry a result counts against (MayAttach, EntryKey).
//
// It must never import bleve, a backend, an embedder, package rank or the
// engine: everything above it may import it (imports_test.go).
package record
