// Package embedding is the embed stage of a refresh and of a query: chunk
// vectors through the embedding cache (Builder: only texts the cache does
// not hold reach the embedder) and the query vector (Query: a remote
// embedder's are cached on disk).
//
// It must never import package engine or a backend beyond the seam's
// chunk record (engine/imports_test.go).
package embedding
