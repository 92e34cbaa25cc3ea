// Package layout names the files and directories of a root's .autorag
// directory and hands out generation names (NextGeneration, under the
// refresh lock).
//
// It must never import package engine or a backend (engine/imports_test.go).
package layout
