// Package cache holds autorag's caches under .autorag/cache/: the embedding
// cache (embeddings/), the query result cache (query/; the engine keeps a
// second one of query vectors in qvec/) and an in-process LRU for
// long-running modes. Everything on disk here may be deleted at any time;
// it is bounded, survives crashes without serving damaged data, and is
// safe to use from many processes at once. The package does not import
// bleve: it sits on the cached-query fast path.
//
// All integers are little-endian; checksums are CRC-32C (Castagnoli).
//
// # Embedding cache
//
// One directory per embedder identity, named by the hex of the first 16
// bytes of BLAKE3(identity), holding:
//
//	vectors.log   append-only records
//	vectors.idx   where each record is (a hint; rebuilt from the log if lost)
//	writer.lock   flock'd by the one process writing
//
// vectors.log starts with a header, then records back to back:
//
//	header: "ARVECLOG" | version u32 = 1 | nonce u64 | len u32 | identity | crc32c u32 (of all before)
//	record: hash [32] | dims u32 | crc32c u32 (of hash, dims) | dims × float32 | crc32c u32 (of the whole record before it)
//
// vectors.idx indexes the log it names by nonce:
//
//	header: "ARVECIDX" | version u32 = 1 | nonce u64 | sortedN u64 | sortedEnd u64 | crc32c u32
//	entry:  hash [32] | record offset u64 | dims u32 | crc32c u32 (of the 44 bytes before)
//
// The first sortedN entries are sorted by hash and cover every record
// before log offset sortedEnd; entries after them (the tail) are appended
// in log order by each Flush. Opening reads the index's header and tail
// only: the sorted region stays in the file, and a lookup binary-searches it
// there, reading the entries it probes (a dozen small preads), until 64
// lookups have been served; the next reads the region whole and the rest
// search it in memory. So an incremental refresh reads a few KB of the index
// whatever its size, and a full one reads it once. The region is never
// rewritten in place (writers append after it or rename a new index over
// it), so a later read sees what opening would have; a read that fails makes
// the entries it covers absent. Tail entries (checked one by one, stopping
// at the first bad one) go to a map; then the log is scanned, headers only,
// from the end of the last indexed record to the end of the file. When the
// tail passes max(4096, sortedN/64) entries, Flush rewrites the index
// sorted (temporary file, fsync, rename); older versions, which waited for
// sortedN/4, read either.
//
// Crash safety. Flush writes the buffered records, fsyncs the log, then
// appends and fsyncs their index entries. Older records are never
// rewritten in place, so a crash loses only what was not flushed. On load:
//   - a record whose header is intact but which runs past the end of the
//     file is a torn tail and is ignored; the next writer truncates it
//     before appending;
//   - a record header failing its checksum (found while scanning) is
//     skipped by resynchronizing on the next 4-byte-aligned offset that
//     holds a complete record passing both checksums; records after a
//     damaged one therefore survive;
//   - a payload failing its checksum is found by Get, which verifies hash,
//     length and checksum on every read, forgets the entry and reports a
//     miss (the refresh re-embeds the text and appends a fresh record);
//   - an index that is missing, of another nonce (the log was rewritten),
//     or damaged is ignored from the first bad entry on, and the log is
//     scanned instead; the next writer rewrites the index;
//   - a log header of another version or identity, or damaged, makes the
//     cache empty; the next writer starts the file over.
//
// Processes. Put, Flush and Collect write; only the process holding the
// refresh lock calls them, and writer.lock (taken at the first write, held
// until Close) turns a mistaken second writer into ErrWriterBusy instead of
// interleaved appends. Any number of processes may open and Get: they read
// a prefix that only grows, and a rewritten log is renamed into place, so
// readers holding the old file keep reading it. The writer reloads the log
// when it starts writing unless neither the log nor the index changed since
// Open (same file, size and modification time), so opening before taking
// the refresh lock loses nothing and an incremental refresh reads the index
// once. Query processes never write here: a query's own vector goes to
// a Queries cache keyed by the embedder identity (the engine's qvec/).
//
// Bounds. Collect(live, cap, keep...) does nothing while the embeddings
// directory holds at most cap bytes; past it, it empties the directories of
// other identities but those in keep (an upgrade's target, which another
// process may be writing), keeping their writer.lock (a process may hold
// one: an upgrader given up and finishing its group) and rewrites this log with only the live entries
// (temporary files, fsync, rename of the log, then of the index; a crash in between
// leaves a new log with an index of the wrong nonce, which is ignored).
//
// # Query result cache
//
// One file per entry, in a directory per fingerprint named by the hex of
// the first 8 bytes of BLAKE3(fingerprint):
//
//	query/.lock                     flock serializing writers (never removed)
//	query/.usage                    the running byte account
//	query/<fp dir>/<key hex>.qc     one entry
//
//	entry: "ARQC" | version u32 = 1 | key [32] | fpLen u32 | valueLen u32 | fingerprint | value | crc32c u32 (of all before)
//	usage: "ARQU" | version u32 = 1 | total u64 | sinceScan u64 | crc32c u32
//
// Get takes no lock: it opens, reads and closes one file, and serves it
// only if the length, checksum, stored key and stored fingerprint all
// match; anything else is removed (if it is still the same file) and is a
// miss. A hit refreshes the entry's mtime, at most once a second.
//
// Put writes a temporary file (".tmp-*") in the fingerprint directory and
// renames it over the entry, without fsync: a torn entry fails its
// checksum. Puts serialize on .lock (waiting at most 2 s, else the entry
// is not stored), which makes the byte account exact: .usage holds the
// bytes of entry files (never less than the truth: removals by Get or by
// hand only lower the truth) and the bytes Put since the last scan. A Put
// of n bytes that would take the account past the cap, or that finds the
// account missing or damaged, or that comes after cap/2 bytes of Puts
// since the last scan, scans the directory (removing orphaned temporary
// files and empty directories) and, if needed, evicts entries by oldest
// mtime until the total plus n is at most 7/8 of the cap. So after every
// Put the entry files total at most the cap (the bound tests assert; the
// only other files are the empty lock and the 28-byte account), and scans
// are amortized over at least cap/8 bytes of Puts. An entry larger than
// the cap is not stored. A crashed Put can leave a temporary file until
// the next scan.
//
// DropOtherFingerprints removes every fingerprint directory but one, and
// Clear all of them, under the lock; both reset the account.
package cache
