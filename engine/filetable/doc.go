// Package filetable is a generation's file table (files.bin): path, text
// hash, chunk count and analyzed token count of every indexed source, its
// encoding, and the diff of a table against the mirror's manifest that
// makes a refresh's change set.
//
// It must never import package engine or a backend (engine/imports_test.go).
package filetable
