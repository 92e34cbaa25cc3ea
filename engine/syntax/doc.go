// Package syntax finds the definitions in source code: the classes,
// functions, methods, types and constants a file declares, with the byte
// and line span of each and the definition that encloses it. The chunker
// cuts code along these spans and the index stores the names each chunk
// defines, so the ranking can prefer the chunk that defines what a query
// names.
//
// It must never import the engine, a backend, an embedder or the mirror.
package syntax
