package unigram

import (
	"hash/maphash"
	"math/bits"
)

// The tokenizer's two lookup tables are open-addressing hash tables over
// flat arrays of integers, with no pointers, that probe linearly and are
// at most half full. Go maps of strings took most of a load's tokenizer
// time (XLM-R's 250,002 pieces: cache misses probing the map, one string
// per piece for the collector to scan); filling these is a pass of hashing
// and one store per piece (git log -p docs/BENCHMARKS.md, "Dense model traits and e5
// tokenizer load").

// tableSize is the power of two at least twice n.
func tableSize(n int) int {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	return size
}

// pieceTable finds the lowest id of a piece by its bytes. A slot holds
// its piece's id + 1 in the low idBits bits (0: an empty slot) and, above,
// as many of the high bits of the piece's hash as fit; a match of those is
// confirmed against the piece itself.
type pieceTable struct {
	seed   maphash.Seed
	slots  []uint32
	mask   uint64
	idBits uint
	pieces []string
}

func newPieceTable(pieces []string) pieceTable {
	size := tableSize(len(pieces))
	t := pieceTable{seed: maphash.MakeSeed(), slots: make([]uint32, size), mask: uint64(size - 1),
		idBits: uint(bits.Len(uint(len(pieces)))), pieces: pieces}
	for i, p := range pieces {
		if p == "" {
			continue
		}
		h := maphash.String(t.seed, p)
		j, s := find(&t, h, p)
		if s == 0 {
			t.slots[j] = t.tag(h) | uint32(i+1)
		} // else a duplicate: the lower id keeps the bytes
	}
	return t
}

// tag is the hash bits a slot keeps of h.
func (t *pieceTable) tag(h uint64) uint32 { return uint32(h>>32) &^ (1<<t.idBits - 1) }

// find is the slot of piece p of hash h: where it is, or the empty slot
// its probe ends at; and what that slot holds. (Generic so that a span of
// the text is compared without being copied to a string.)
func find[S string | []byte](t *pieceTable, h uint64, p S) (uint64, uint32) {
	tag, ids := t.tag(h), uint32(1)<<t.idBits-1
	for j := h & t.mask; ; j = (j + 1) & t.mask {
		s := t.slots[j]
		if s == 0 || s&^ids == tag && t.pieces[s&ids-1] == string(p) {
			return j, s
		}
	}
}

// lookup returns the lowest id of the piece whose bytes are b.
func (t *pieceTable) lookup(b []byte) (int32, bool) {
	_, s := find(t, maphash.Bytes(t.seed, b), b)
	return int32(s&(1<<t.idBits-1)) - 1, s != 0
}

// pairTable maps the first two code points of the pieces longer than one
// to the length in bytes of the longest such piece. A slot packs both code
// points (21 bits each: decode reads none wider) and the length (22 bits);
// a length is at least 2, so a used slot is never 0. XLM-R's 236,174 such
// pieces start with 27,776 pairs: the table starts small and doubles when
// half full, so that it stays in the cache while it is filled.
type pairTable struct {
	slots []uint64
	used  int
	shift uint // 64 − log2(len(slots))
}

const (
	cpBits  = 21
	lenBits = 64 - 2*cpBits
	lenMask = 1<<lenBits - 1
)

func newPairTable() pairTable { return pairTable{slots: make([]uint64, 1<<10), shift: 64 - 10} }

// key packs a pair of code points in the high 42 bits of a slot.
func key(a, b rune) uint64 { return uint64(a)<<(cpBits+lenBits) | uint64(b)<<lenBits }

// find is the slot of key k: where it is, or the empty slot its probe ends
// at (Fibonacci hashing, then linear probing).
func (t *pairTable) find(k uint64) *uint64 {
	mask := uint64(len(t.slots) - 1)
	for j := (k * 0x9E3779B97F4A7C15) >> t.shift; ; j = (j + 1) & mask {
		if s := t.slots[j]; s == 0 || s&^lenMask == k {
			return &t.slots[j]
		}
	}
}

// raise makes the pair's length at least n (n < 1<<lenBits).
func (t *pairTable) raise(a, b rune, n int) {
	k := key(a, b)
	p := t.find(k)
	if *p == 0 {
		if 2*(t.used+1) > len(t.slots) {
			t.grow()
			p = t.find(k)
		}
		t.used++
	}
	if uint64(n) > *p&lenMask {
		*p = k | uint64(n)
	}
}

// grow doubles the table.
func (t *pairTable) grow() {
	old := t.slots
	t.slots, t.shift = make([]uint64, 2*len(old)), t.shift-1
	for _, s := range old {
		if s != 0 {
			*t.find(s &^ lenMask) = s
		}
	}
}

// longest is the pair's length, 0 when no piece starts with it.
func (t *pairTable) longest(a, b rune) int { return int(*t.find(key(a, b)) & lenMask) }
