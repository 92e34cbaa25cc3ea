// Package mirror keeps a normalized copy of every source under a root and
// the manifest that says which copy belongs to which file.
//
// It owns walking the root (ignore files, symlink rules), change detection,
// the choice of the parser that turns raw bytes into a Doc (registry.go; the
// parsers themselves live in mirror/parse and its sub-packages), the
// content-addressed Store of encoded Docs and the Manifest. The engine consumes a ScanResult: the
// manifest's (Path, TextHash) pairs feed the fingerprint, and Store.Get
// returns the text to chunk.
//
// # Change detection (mtime-then-hash)
//
// Scan compares each file found by the walk with its previous Entry:
//
//  1. Same size, mtime_ns and parser: the entry is reused and the file is not
//     opened (StatSkipped). A no-op refresh therefore costs one stat per
//     file, about what `find` costs.
//     Except for racy entries: when the entry's mtime is not older than
//     the manifest's own write time (the mtime of its log when a change was
//     appended since the base, else of the base; within two seconds), an edit in
//     the same timestamp tick as the last refresh could have kept size and
//     mtime, so the file is hashed (Racy) — git's rule for racily clean
//     index entries. The engine saves the manifest again afterwards, which
//     ends the entry's raciness.
//  2. Otherwise the file is read and its bytes hashed with BLAKE3 (Hashed).
//     Same raw hash and parser as before: only size and mtime change; the
//     text is not parsed again.
//  3. Otherwise, for a path the manifest did not have, if any previous
//     entry had the same raw hash and parser (a rename or a copy) and the
//     Store still holds its text, that TextHash is reused without parsing.
//  4. Otherwise the file is parsed (Parsed) and its Doc put in the Store.
//
// Files that cannot be read, are binary, are larger than the limit, or that
// their parser rejects (encrypted, damaged, over a parse limit, timed out)
// are left out of the manifest and listed in ScanResult.Failed with the
// reason, so a later scan looks at them again (binary ones cost only an
// 8 KiB read each time). Files with an extension no parser handles are not
// candidates at all; once a parser handles them they have no entry, so the
// next scan reads them like new files.
//
// # Parsers
//
// The file name picks the parser (lang.go, registry.go): text, markdown and
// code are decoded here (parse.Text: encodings, NFC); HTML, PDF, DOCX, PPTX,
// XLSX, EML and mbox go through parse.Run with their mirror/parse
// sub-package under parse.Limits (a deadline, a text cap, a decompression
// cap). The parser's name@version is each Entry's Parser and part of each
// object, hence of its TextHash: an entry whose parser differs from the one
// the file name now selects is read again (step 1 above does not apply),
// so a version bump re-parses exactly the files that parser handles.
//
// A PDF with scanned pages (no text layer) adds what became of them to its
// parser name: "pdf@3+ocr-off", or the OCR that read them,
// "pdf@3+tesseract@5.3.0" (ScanOptions.OCR, package parse/ocr). A scan
// accepts the plain name or the one its own OCR setting gives
// (ocrvariant.go), so turning OCR on or off, or a new tesseract, re-parses
// the scanned PDFs and no others; the OCR program is looked for only when
// a PDF needs it.
//
// A Doc may carry Fields (metadata: frontmatter scalars, document
// properties, e-mail headers) and Parts: ranges of lines with their own
// section label, page number and chunker kind (PDF pages, slides, sheets,
// e-mail messages and attachments).
//
// # Store objects
//
// A mirror object is Doc.Encode(): a "ARMD" magic, a version byte (2), then
// the Doc's fields, metadata fields and parts as varint-length-prefixed
// strings and varints (see object.go). Its name, the TextHash, is the
// BLAKE3-256 of those bytes, so metadata (title, tags, fields, parts,
// parser) is part of a text's identity, and Get verifies the hash of what
// it reads. Objects of version 1 fail to decode and are re-parsed.
//
// Objects live in append-only pack files directly in objects/, named
// pack-<16 hex>.pack (layout in pack.go): a "ARPK" header, then records
// (hash, uvarint length, object), then an index of (hash, offset, length)
// sorted by hash, the entry count, a BLAKE3-256 of index and count, and a
// tail magic. Opening a pack reads only its header and fixed-size tail.
// Lookups binary-search each pack's index in the file, a dozen small preads,
// until one finds its hash or the pack has answered 64; the index is then
// read whole and checked (count, checksum, ranges, order), and searched in
// memory. A miss needs no check: an intact index is the file's bytes, and a
// damaged one answers nothing. So the scan of an edit, which Puts new
// objects only, reads no pack index. A pack whose index fails when read is
// unreadable from then on; the next Collect removes it (CollectDue says so),
// as it removes one whose tail was bad at opening. A Store appends the objects of a
// refresh to one temporary pack (".tmp-" prefix) and Sync writes the index,
// fsyncs and renames it, so a pack is either complete or never read, and a
// crash loses only objects nothing depends on yet (a missing or damaged
// object makes the engine re-parse the source). Creating one file per
// object cost 200-300 µs each on ext4 mounted with discard; a pack costs one.
//
// Store.Collect, run after each commit under the refresh lock, removes packs
// with no live object, and copies the live objects into a new pack
// (removing the old ones) when dead objects take more than half the bytes.
// When more than 8 packs have accumulated it merges only the small ones
// (up to the first pack larger than twice all smaller packs together), so
// the large pack of a first refresh is not copied again because a few
// one-file refreshes added packs beside it. It also removes temporary files,
// damaged packs and the <2 hex>/<62 hex> fan-out directories of the former
// one-file-per-object layout, whose objects are simply re-parsed.
//
// # Manifest format (version 1)
//
// The manifest is binary so that 16,000 entries load in about a millisecond:
//
//	"ARMF"  magic
//	0x01    version
//	uvarint parser count, then each parser name as uvarint length + bytes
//	uvarint entry count, then per entry, in bytewise path order:
//	        uvarint  bytes shared with the previous entry's path
//	        uvarint  length of the rest of the path, then its bytes
//	        uvarint  size
//	        8 bytes  mtime_ns, little-endian
//	        32 bytes raw hash
//	        32 bytes text hash
//	        uvarint  index into the parser table
//	32 bytes BLAKE3-256 of everything above
//
// Loading verifies the checksum first, then that every field is in range,
// paths are strictly increasing and nothing trails the last entry; any
// failure (and any other version) is ErrCorrupt, which the engine answers
// with a full rescan. A new layout gets a new version byte; there is no
// in-place migration because the manifest can always be rebuilt from the
// sources. A whole save writes a temp file, fsyncs it, renames it over the
// old one and fsyncs the directory.
//
// # Manifest log
//
// Saving a manifest that was loaded (or derived from one by Scan) appends
// one record to manifest.log instead: the entries added or changed and the
// paths removed since the load (layout in manifestlogformat.go), then
// fsyncs it. A one-file refresh of 100,000 files so writes about 150 bytes
// instead of 8 MB. The log's header names the checksum of the base it
// extends, so a log left beside a newer base is ignored; records carry
// their own checksum, and loading stops at the first torn or damaged one:
// the manifest is then as an earlier save left it, which costs hashing and
// nothing else. Once the log would pass an eighth of the base's size, or
// the files changed since the load, the save is whole and removes the log.
// A manifest derived by Scan knows which entries the scan changed
// (ChangesFrom), so the record costs what the change costs, not a compare
// of every entry. Each record (version 2) also keeps the caller's Stamp,
// which the engine sets to the fingerprint of the entries: a manifest
// loaded with the committed fingerprint as its stamp holds the committed
// generation's paths and text hashes, and the refresh diffs its file
// table at the changed paths only.
//
// # Walking
//
// Paths are relative to the root and '/' separated. The walk keeps the
// order in which the file system lists each directory: Scan finds each
// file's previous entry through a map of paths, returns the previous
// (sorted) entries as they are when nothing changed, and otherwise sorts
// only the files it read and merges them in. .git and .autorag (in any
// case: .GIT is the same directory on a case-insensitive file system) are
// never entered. Ignore rules: see ignore.go. Symlinks to files inside the
// root are indexed under the link's own path when the walk would index the
// file they lead to (not ignored, not internal); symlinks to directories
// are not followed; links that leave the root or dangle are reported.
// Nothing outside the root is read.
//
// Every open under the root goes through one resolver (tree.go): relative
// to the root's descriptor, with no symlink in any component (openat2
// RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS on Linux, one O_NOFOLLOW openat per
// component elsewhere), non-blocking and for regular files only, so a
// FIFO cannot hang a refresh and a component swapped for a symlink cannot
// lead out of the root or past an ignore rule. The walk, a targeted scan
// (refresh --paths, watch events), Changed and ReadSource apply the same
// rules through it: ReadSource and a targeted scan share walker.target.
//
// Two read-only entry points apply the same rules for the servers
// (autorag mcp, autorag serve): Changed walks the tree and reports whether
// a scan would change the manifest's texts (the stale flag), and
// ReadSource reads one file as a scan would, refusing whatever the walk
// would not index (ErrNotSource), through the same resolver.
package mirror
