// Package wordtab is the on-disk (in-binary) word-vector table of the local
// embedder: its byte format, the writer the generator uses, and the
// allocation-free reader the embedder probes at query time.
//
// The table is one little-endian byte string, read in place (it is the
// //go:embed data of package local): nothing is decoded, copied or indexed
// when a process starts. Layout:
//
//	header (HeaderSize bytes)
//	  [0:8]   magic "AGWTAB01"
//	  [8:12]  format version (FormatVersion)
//	  [12:16] dims
//	  [16:20] rows
//	  [20:24] slot bits: the hash index has 1<<bits slots
//	  [24:28] offset of the slots
//	  [28:32] offset of the first record
//	  [32:36] end of the records
//	  [36:40] OOV norm (float32): the length given to a fallback vector
//	  [40:44] number of principal components (one per weighting scheme)
//	  [44:48] offset of the components: schemes × dims float32
//	  [48:52] total length of the table
//	  [52:56] CRC-32 (IEEE) of everything after the header
//	components  one unit float32 vector per Scheme, in Schemes order
//	slots       1<<bits uint32: 0 = empty, else recordOffset<<8 | tag, where
//	            tag is the top byte of the word's hash and recordOffset is
//	            the record's absolute offset in the table (< 1<<24)
//	records     in GloVe frequency order, each:
//	            len u8 | word (len bytes, lower case UTF-8) | rank code u8 |
//	            scale float32 | dims × int8
//
// A word's hash is 64-bit FNV-1a of its bytes; its home slot is the low
// bits, collisions probe linearly. The vector of a record is scale × int8.
// The rank code is round(ln(rank) × RankCodeScale), rank being the word's
// 1-based position in GloVe's frequency-ordered vocabulary (a Zipf proxy
// for its frequency); weights are functions of it (see Scheme).
package wordtab
