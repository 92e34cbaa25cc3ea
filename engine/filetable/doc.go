// Package filetable is a generation's file table: path, text hash, chunk
// count and analyzed token count of every indexed source, its encoding,
// and the diff of a table against the mirror's manifest that makes a
// refresh's change set.
//
// A generation holds the table as files.bin, a base, and optionally
// files.log, the changes made since that base (framed by
// internal/changelog; the header names the base's checksum). A refresh that
// changes a few files hard-links the base of the generation it builds on
// and writes that generation's log plus one record, so what it writes
// depends on the change, not on the corpus; once the log would pass
// logLimit the table is written whole again and the log dropped. Both files
// are artifacts of the generation like any other (immutable once
// committed, digested in the sidecar): a crash before the commit leaves
// them in a generation no sidecar names.
//
// Each base has an index, files.idx, written and linked with it: where
// each block of 64 records starts, its first path and its checksum. When
// the caller knows that a manifest differs from the one the table was built
// from only at some paths, Open and DiffChanges look those paths up, one
// block each, instead of reading the base whole (Load and Diff), so a
// refresh of one changed file reads a few kilobytes of a table of any size.
//
// It must never import the engine, the backends or the CLI.
package filetable
