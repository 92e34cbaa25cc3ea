// Package split turns a mirrored document (mirror.Doc) into the chunk
// records the backends store (backend.Chunk): its parts chunked by kind
// (package chunk), code along the definitions a syntax parser finds
// (Options.Defs, asked for the language codedef.Syntax names by the
// file's extension; go/parser's for Go), labels free of the stored
// separator, the filter terms of the file or e-mail entry, and each
// chunk's analysis language. Files cuts many files on every core, in
// order.
//
// It must never import package engine, bleve, a backend beyond the seam,
// or engine/syntax (the parser is passed in, so that what chunks does not
// link the tree-sitter module; engine/imports_test.go).
package split
