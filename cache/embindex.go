package cache

import (
	"bytes"
	"cmp"
	"slices"
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
// sorted region of vectors.idx, searched by binary search where it lies
// (sortedRegion: in the file, or in memory once read whole), so opening
// costs no per-entry work. Entries added since (the index's unsorted tail,
// records found by scanning the log, new Puts) go to slots, which wins over
// base; gone hides base entries found corrupt or superseded. The index's
// tail goes to slots without looking in base (which would read it): its
// keys wait in pending until something needs to know whether base holds
// them too.
//
// Invariant: every key of gone is in base, and every key of slots that is
// in base is in gone or in pending; so len() = entries in base - len(gone)
// + len(slots) - (keys of pending in base).
type entryIndex struct {
	base    *sortedRegion
	slots   map[[32]byte]slot
	gone    map[[32]byte]struct{}
	pending map[[32]byte]struct{}
}

func newEntryIndex(base *sortedRegion, extra int) entryIndex {
	return entryIndex{base: base, slots: make(map[[32]byte]slot, extra), gone: map[[32]byte]struct{}{},
		pending: map[[32]byte]struct{}{}}
}

// baseFind searches base for h. present reports an entry with h's hash
// bytes; ok that it also passes its checksum, so s can be trusted to say
// where the record is.
func (x *entryIndex) baseFind(h [32]byte) (s slot, present, ok bool) {
	e := x.base.find(h)
	if e == nil {
		return slot{}, false, false
	}
	_, s, ok = parseIdxEntry(e)
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

// addTail records that h is at s, as add does, but leaves finding whether
// base holds h too for later (pending).
func (x *entryIndex) addTail(h [32]byte, s slot) {
	if _, ok := x.slots[h]; !ok {
		x.pending[h] = struct{}{}
	}
	x.slots[h] = s
}

// resolve settles a pending key: if base holds it, gone hides it there.
func (x *entryIndex) resolve(h [32]byte) {
	if _, ok := x.pending[h]; !ok {
		return
	}
	delete(x.pending, h)
	if _, present, _ := x.baseFind(h); present {
		x.gone[h] = struct{}{}
	}
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
			x.resolve(h)
			delete(x.slots, h)
		}
		return
	}
	if cur, present, ok := x.baseFind(h); present && (!ok || cur == s) {
		x.gone[h] = struct{}{}
	}
}

func (x *entryIndex) len() int {
	n := x.base.len() - len(x.gone) + len(x.slots)
	for h := range x.pending {
		if _, present, _ := x.baseFind(h); present {
			n--
		}
	}
	return n
}

// all lists every entry in log order. It reads the sorted region whole;
// an error reading it is returned.
func (x *entryIndex) all() ([]hashSlot, error) {
	base, err := x.base.whole()
	if err != nil {
		return nil, err
	}
	out := make([]hashSlot, 0, x.base.len()+len(x.slots))
	for b := base; len(b) >= idxEntryLen; b = b[idxEntryLen:] {
		h, s, ok := parseIdxEntry(b[:idxEntryLen])
		if !ok {
			continue
		}
		_, hidden := x.gone[h]
		if _, wait := x.pending[h]; !hidden && !wait {
			out = append(out, hashSlot{h, s})
		}
	}
	for h, s := range x.slots {
		out = append(out, hashSlot{h, s})
	}
	slices.SortFunc(out, func(a, b hashSlot) int { return cmp.Compare(a.off, b.off) })
	return out, nil
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
