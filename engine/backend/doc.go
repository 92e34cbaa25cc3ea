// Package backend is the storage seam: what the engine's orchestrator and
// every backend share. It owns the interfaces a backend implements
// (Storage, Writer, State and the per-query Lists), the change set a
// refresh sends (Change), the chunk record the backends store (Chunk), the
// path and filter-term filter results pass (PathFilter), and the usage
// error a backend returns for what the caller asked (ErrUsage).
//
// The backends are its subpackages: engine/backend/local (bleve and vector
// files in each generation directory) and engine/backend/weaviate (the
// Weaviate client). A State answers a query with lists, never with an
// answer: the orchestrator (package engine) analyzes the query, runs the
// lists, ranks them (package engine/rank) and materializes the results it
// keeps through the State.
//
// It must never import package engine, bleve, a backend, an embedder or
// the analyzer (engine/imports_test.go enforces it).
package backend
