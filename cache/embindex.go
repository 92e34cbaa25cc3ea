package cache

import (
	"bytes"
	"cmp"
	"slices"
	"sort"
)

// slot locates one record in the log.
type slot struct {
	off  int64
	dims uint32
}

type hashSlot struct {
	h [32]byte
	slot
}

// entryIndex maps hashes to log records. Most entries sit in base: the
// sorted region of vectors.idx exactly as read from disk, searched in place
// by binary search, so opening costs one file read and no per-entry work.
// Entries added since (the index's unsorted tail, records found by scanning
// the log, new Puts) go to slots, which wins over base; gone hides base
// entries found corrupt or superseded.
//
// Invariant: every key of gone is in base, and every key of slots that is
// in base is in gone; so len() = entries in base - len(gone) + len(slots).
type entryIndex struct {
	base  []byte
	slots map[[32]byte]slot
	gone  map[[32]byte]struct{}
}

func newEntryIndex(base []byte, extra int) entryIndex {
	return entryIndex{base: base, slots: make(map[[32]byte]slot, extra), gone: map[[32]byte]struct{}{}}
}

// baseFind searches base for h. present reports an entry with h's hash
// bytes; ok that it also passes its checksum, so s can be trusted to say
// where the record is.
func (x *entryIndex) baseFind(h [32]byte) (s slot, present, ok bool) {
	n := len(x.base) / idxEntryLen
	i := sort.Search(n, func(i int) bool { return bytes.Compare(x.base[i*idxEntryLen:i*idxEntryLen+32], h[:]) >= 0 })
	if i == n || !bytes.Equal(x.base[i*idxEntryLen:i*idxEntryLen+32], h[:]) {
		return slot{}, false, false
	}
	_, s, ok = parseIdxEntry(x.base[i*idxEntryLen : (i+1)*idxEntryLen])
	return s, true, ok
}

func (x *entryIndex) lookup(h [32]byte) (slot, bool) {
	if s, ok := x.slots[h]; ok {
		return s, true
	}
	if _, ok := x.gone[h]; ok {
		return slot{}, false
	}
	s, _, ok := x.baseFind(h)
	return s, ok
}

// add records that h is at s, superseding any previous location.
func (x *entryIndex) add(h [32]byte, s slot) {
	if _, ok := x.slots[h]; !ok {
		if _, present, _ := x.baseFind(h); present {
			x.gone[h] = struct{}{}
		}
	}
	x.slots[h] = s
}

// forget drops h if it is still located at s.
func (x *entryIndex) forget(h [32]byte, s slot) {
	if cur, ok := x.slots[h]; ok {
		if cur == s {
			delete(x.slots, h)
		}
		return
	}
	if cur, present, ok := x.baseFind(h); present && (!ok || cur == s) {
		x.gone[h] = struct{}{}
	}
}

func (x *entryIndex) len() int { return len(x.base)/idxEntryLen - len(x.gone) + len(x.slots) }

// all lists every entry in log order.
func (x *entryIndex) all() []hashSlot {
	out := make([]hashSlot, 0, x.len())
	for b := x.base; len(b) >= idxEntryLen; b = b[idxEntryLen:] {
		h, s, ok := parseIdxEntry(b[:idxEntryLen])
		if !ok {
			continue
		}
		if _, hidden := x.gone[h]; !hidden {
			out = append(out, hashSlot{h, s})
		}
	}
	for h, s := range x.slots {
		out = append(out, hashSlot{h, s})
	}
	slices.SortFunc(out, func(a, b hashSlot) int { return cmp.Compare(a.off, b.off) })
	return out
}

// sortedEntries encodes entries as a sorted index region.
func sortedEntries(entries []hashSlot) []byte {
	slices.SortFunc(entries, func(a, b hashSlot) int { return bytes.Compare(a.h[:], b.h[:]) })
	b := make([]byte, 0, idxEntryLen*len(entries))
	for _, e := range entries {
		b = appendIdxEntry(b, e.h, e.slot)
	}
	return b
}
