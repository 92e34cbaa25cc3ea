// Package vector is the vector index stored inside each index generation:
// top-k search by dot product over L2-normalized float32 vectors, kept in
// immutable, memory-mapped segment files that successive generations share
// by hard link. Small indexes are scanned exactly; large ones scan 4-bit
// codes stored beside the floats and rescore the best candidates exactly.
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
// Compact (the engine's idle compaction) rewrites every live vector into one
// segment whatever the tombstones, and links a base that already is one.
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
//	8   version    uint32  2
//	12  dims       uint32
//	16  count      uint64  rows
//	24  idsOff     uint64  = align8(scalesOff + 4*count)
//	32  idsLen     uint64  file size = idsOff + idsLen
//	40  payloadCRC uint32  over bytes 64..idsOff; checked by Index.Verify only
//	44  flags      uint32  0
//	48  codesOff   uint64  = align64(64 + count*dims*4)
//	56  reserved   [4]byte
//	60  metaCRC    uint32  over bytes 0..59 and the ID section; checked by Open
//	64  payload    count*dims float32, row-major (64-byte aligned in the mapping)
//	    zero padding to 64
//	codesOff: codes, count rows of stride = 32 bytes per 64 components
//	    (dims rounded up): per block, byte j holds component j in its low
//	    nibble and component j+32 in its high one, as c+8 for component ≈
//	    scale*c, c in [-7, 7] (quant.go); padding components 8
//	scalesOff = codesOff + count*stride: count float32 scales, max|v|/7
//	    zero padding to 8
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
// The exact scan (indexes below quantMinLive live rows, or Query.Scan ScanExact)
// scores every live row (tombstones are skipped with a cursor over the
// sorted row list) with an AVX2/FMA dot product (viterin/vek) and keeps the
// best k in a heap ordered by score, then ID ascending, so results are
// deterministic. Above 2M live floats the rows are split across up to
// min(GOMAXPROCS, 4) goroutines, each with its own heap, merged at the end.
//
// The 4-bit scan (qsearch.go) quantizes the query to signed bytes (127
// levels), scores the codes of 256 rows per kernel call (AVX-512 VNNI:
// nibbles unpacked with a shift and two masks, VPDPBUSD; or AVX2 with
// VPMADDUBSW; kernel_amd64.s; or the portable dotsGo, to which
// TestKernelsAgree holds every kernel the CPU runs),
// keeps the best max(10k, 500) rows by approximate score (ties by segment
// and row, so the set does not depend on the split across workers) and
// rescores them with the exact float32 dot product: scores are exact, and
// recall against the exact scan is measured (BenchmarkRecall,
// TestQuantizedRecall). It reads an eighth of the exact scan's bytes; the
// floats of the candidates are the only float pages it touches, so Open
// maps the float payload of an index it serves with MADV_RANDOM (no
// readahead around a candidate's row on a cold file). 4 bits
// were chosen over int8 (twice the bytes, recall 1.000 at 100 candidates)
// and over sign bits (recall@50 0.90 at 2,000 candidates) by measurement
// (docs/BENCHMARKS.md).
//
// A Query.Accept filter is asked only about rows that would enter the best
// list, so a filtered search returns the best k accepted rows, not the
// accepted share of an unfiltered top k.
package vector
