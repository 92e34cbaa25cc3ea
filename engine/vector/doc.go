// Package vector is the vector index stored inside each index generation:
// exact top-k search by dot product over L2-normalized float32 vectors, kept
// in immutable, memory-mapped segment files that successive generations share
// by hard link.
//
// # Generations
//
// Build writes a new generation's vector dir from the previous one plus a
// change set. Base segments are hard-linked (never opened for writing), deleted
// IDs become tombstones in the new manifest, and added vectors go into one new
// segment. Two rules keep the cost proportional to the change, amortized:
//
//   - Tail merge: the newest segments are merged into one while their live rows
//     are at least a quarter (tailRatio) of the live rows of the segment before
//     them, and always when the count would exceed maxSegments (8). Segment
//     sizes therefore fall geometrically from oldest to newest, a small change
//     rewrites only small segments, and each vector is rewritten O(log n) times.
//   - Full compaction: when tombstones exceed 20% of stored rows, every live
//     vector is rewritten into one segment (at least n/5 deletes pay for it).
//
// Every file Build writes is fsynced, then the manifest (written last), then
// the dir. The engine commits afterwards by replacing its sidecar; an
// uncommitted generation dir is garbage, and Build removes what it wrote on
// error. Readers open a generation read-only and take no locks.
//
// Deleted IDs are found without scanning: each segment stores its rows in ID
// order, so a delete is one binary search per segment.
//
// # Files
//
// All integers are little-endian; checksums are CRC-32C (Castagnoli). The
// package requires a little-endian host, since it maps the float32 payload
// directly.
//
// manifest (one per generation, rewritten by every Build):
//
//	magic    [8]byte "ARAGVMAN"
//	version  uint32  1
//	dims     uint32
//	nextSeq  uint64  next segment sequence number (never reused down a chain of generations)
//	nseg     uint32
//	nseg × { seq uint64 (strictly increasing), count uint64, size uint64, metaCRC uint32,
//	         ntomb uint32, ntomb × row uint32 (sorted, unique) }
//	crc      uint32  over everything before it
//
// seg-<seq as 16 hex digits>.vec (immutable once written):
//
//	0   magic      [8]byte "ARAGVSEG"
//	8   version    uint32  1
//	12  dims       uint32
//	16  count      uint64  rows
//	24  idsOff     uint64  = align8(64 + count*dims*4)
//	32  idsLen     uint64  file size = idsOff + idsLen
//	40  payloadCRC uint32  over the payload; checked by Index.Verify only
//	44  flags      uint32  0
//	48  reserved   [12]byte
//	60  metaCRC    uint32  over bytes 0..59 and the ID section; checked by Open
//	64  payload    count*dims float32, row-major (64-byte aligned in the mapping)
//	    padding to 8
//	idsOff: ID section
//	    offs  (count+1) × uint32  start of row i's ID in strs; offs[count] = len(strs)
//	    perm  count × uint32      rows sorted by ID bytes (for binary search)
//	    strs  the ID bytes, concatenated in row order
//
// The manifest records each segment's size and metaCRC, so Open detects a
// segment that was swapped, truncated or damaged in its header or IDs. Open
// costs a CRC over the IDs (a few ms at a million IDs) and maps the payload
// lazily; Verify reads and checks the whole payload.
//
// # Search
//
// Search scans every live row (tombstones are skipped with a cursor over the
// sorted row list), scores it with an AVX2/FMA dot product (viterin/vek) and
// keeps the best k in a heap ordered by score, then ID ascending, so results
// are deterministic. Above 2M live floats the rows are split across up to
// min(GOMAXPROCS, 4) goroutines, each with its own heap, merged at the end.
package vector
