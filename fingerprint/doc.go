// Package fingerprint decides whether the committed index can be trusted as
// it is, and owns the one file that commits a refresh: the sidecar.
//
// # Fingerprint
//
// The fingerprint (Compute) is a BLAKE3-256 digest, in lowercase hex, over
// everything that shapes what the index stores: the index semantics version,
// the settings strings (parser names and versions, chunker and analyzer
// settings, embedder provider, model and dimensions) in sorted key order, and
// the (path, text hash) of every mirrored source sorted by path. Every string
// is length-prefixed and every list count-prefixed, so no two different
// inputs share an encoding. A refresh whose fingerprint equals the sidecar's,
// with every artifact present at its recorded size (Check), does no index
// work.
//
// # Sidecar
//
// The sidecar is .autorag/fingerprint.json, one JSON object:
//
//	{
//	  "format": 1,                    // FormatVersion; anything else is refused
//	  "semantics_version": 3,         // index semantics version that built it
//	  "fingerprint": "<64 hex>",      // Compute over the inputs above
//	  "generation": "000000012",      // index/<generation>/ that it commits
//	  "settings": {"chunker": "..."}, // the settings strings, for status output
//	  "counts": {"files": 0, "chunks": 0, "tokens": 0},
//	  "artifacts": [{"path": "index/000000012/...", "size": 0, "blake3": "<64 hex>"}],
//	  "refresh": {"outcome": "updated", "at": "...", "took_ms": 0, "added": 0, ...}
//	}
//
// Artifact paths are relative to the .autorag directory with '/' separators;
// paths that would leave it ("..", absolute) are refused on read and write, so
// a tampered sidecar cannot make Check or Verify read outside the root. The
// generation must be 1 to 20 decimal digits (ValidGeneration) for the same
// reason.
//
// # Commit protocol
//
// A refresh writes the next generation directory completely and fsyncs every
// file in it and the directory itself. It then describes the generation
// (Describe), and only then replaces the sidecar with WriteSidecar, which goes
// through WriteFileAtomic: a temporary file named ".tmp-*" in the same
// directory is written, stamped later than every artifact's recorded
// modification time (rewritten in place until the kernel's file clock has
// passed them, at most a few ticks, so that Settled can trust the
// generation), fsynced and closed, renamed over the old sidecar, and the
// directory is fsynced. The rename is the single commit point: a crash at
// any earlier instant leaves the previous sidecar, and the generation it
// names, intact and served; readers ignore ".tmp-" names. Once the rename has
// happened the commit has happened: a directory fsync that fails after it is
// reported as a *DirSyncError (Renamed), never as a failed write, so no
// caller undoes a commit that readers may already see. Generations that no
// cleanly read sidecar of a known format names are garbage for the next
// refresh to remove; an unreadable or unknown sidecar removes nothing.
//
// # Atomic writes
//
// AtomicFile (CreateAtomic, Commit, CommitOpen, Abort) is the one
// implementation of temp file → write → fsync → close → rename → fsync of
// the directory, for every file autorag replaces: the sidecar, the
// generation counter, the mirror manifest and packs, the embedding cache's
// rewritten log and index, and (without the fsyncs, ReplaceFile) the query
// cache's entries. Files are created 0600 and directories 0700 (FilePerm,
// DirPerm), narrowed further by the umask.
package fingerprint
