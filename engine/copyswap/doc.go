// Package copyswap decides which copy of a document a query shows, when a
// tree keeps one page in several languages' or versions' folders
// (package copies recognizes them): it sets up a result page's collapse
// of copies (Setup: the names the query and --path give, the language the
// query is in, the documents' signatures from the mirror), and after the
// walk shows, in place of a translation, the copy in the query's language
// (English when none is named) that the ranking never reached (Swap):
// that copy's chunks alone are scored for the query.
//
// It must never import package engine (engine/imports_test.go).
package copyswap
