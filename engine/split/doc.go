// Package split turns a mirrored document (mirror.Doc) into the chunk
// records the backends store (backend.Chunk): its parts chunked by kind
// (package chunk), labels free of the stored separator, the filter terms
// of the file or e-mail entry, and each chunk's analysis language.
//
// It must never import package engine, bleve or a backend beyond the seam
// (engine/imports_test.go).
package split
